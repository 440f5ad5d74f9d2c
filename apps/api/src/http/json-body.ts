import { AppError } from '@tally/http-kit';
import express, { type RequestHandler } from 'express';

export const MAX_BODY_BYTES = 64 * 1024;

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const mediaType = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

function hasBody(req: express.Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Parses JSON bodies of writes. A write that carries a body must say it is JSON (415); a body over
 * 64 KiB is 413 before it is read; malformed JSON is 400. The errors become problem+json at the edge.
 */
export const jsonBody: RequestHandler = createJsonBody(MAX_BODY_BYTES);

/** The same, with its own limit: the import route (API.md §6b) takes a file, up to `IMPORT_MAX_BYTES`. */
export function createJsonBody(maxBytes: number): RequestHandler {
  const parseJson = express.json({ limit: maxBytes, strict: false, type: () => true });
  return (req, res, next) => {
    if (!hasBody(req)) {
      req.body = undefined;
      next();
      return;
    }
    // Refuse a declared oversize body at once: waiting to read it would hang the client.
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
      res.setHeader('Connection', 'close');
      next(new AppError('payload_too_large', 413, `The request body is over ${maxBytes} bytes.`));
      return;
    }
    if (!isJsonContentType(req.get('content-type'))) {
      next(new AppError('unsupported_media_type', 415, 'Send the request body as application/json.'));
      return;
    }
    parseJson(req, res, (err?: unknown) => {
      if (!err) {
        next();
        return;
      }
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') {
        next(new AppError('payload_too_large', 413, `The request body is over ${maxBytes} bytes.`));
      } else if (type === 'entity.parse.failed') {
        next(new AppError('malformed_json', 400, 'The request body is not valid JSON.'));
      } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
        next(new AppError('unsupported_media_type', 415, 'Send the request body as UTF-8 JSON.'));
      } else {
        next(new AppError('malformed_json', 400, 'The request body could not be read.'));
      }
    });
  };
}
