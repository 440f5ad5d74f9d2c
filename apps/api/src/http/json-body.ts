import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@tally/http-kit';
import express from 'express';

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const mediaType = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** The spellings of a JSON body in UTF-8 that are read here directly (the others go to express.json). */
const PLAIN_JSON_TYPES = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);

const unreadable = () => new AppError('malformed_json', 400, 'The request body could not be read.');
const notJson = () => new AppError('malformed_json', 400, 'The request body is not valid JSON.');
const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', 413, `The request body is over ${maxBytes} bytes.`);

/**
 * Reads a write's JSON body (the pipeline's body step). A write that carries a body must say it is
 * JSON (415); a body over `maxBytes` is 413 before it is read; malformed JSON is 400. No body:
 * `into.body` stays undefined, at once (no promise); else the promise sets it. A body of a declared length, JSON in UTF-8 with no transfer or
 * content coding (what clients send) is read here; any other (chunked, gzip, another charset) by
 * express.json, which knows them all.
 */
export function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  into: { body: unknown },
): Promise<void> | undefined {
  if (!hasBody(req)) return undefined;
  const length = req.headers['content-length'];
  // Refuse a declared oversize body at once: waiting to read it would hang the client.
  if (Number(length ?? 0) > maxBytes) {
    res.setHeader('Connection', 'close');
    throw tooLarge(maxBytes);
  }
  const type = req.headers['content-type'];
  if (!isJsonContentType(type)) {
    throw new AppError('unsupported_media_type', 415, 'Send the request body as application/json.');
  }
  const plain =
    length !== undefined &&
    req.headers['transfer-encoding'] === undefined &&
    req.headers['content-encoding'] === undefined &&
    PLAIN_JSON_TYPES.has((type as string).toLowerCase());
  return plain ? readPlain(req, into) : viaExpressJson(req, res, maxBytes, into);
}

/** UTF-8, a BOM dropped, any JSON value: 400 when it is not JSON. */
function readPlain(req: IncomingMessage, into: { body: unknown }): Promise<void> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => reject(unreadable()));
    req.on('aborted', () => reject(unreadable()));
    req.on('end', () => {
      let text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        into.body = JSON.parse(text);
        resolve();
      } catch {
        reject(notJson());
      }
    });
  });
}

const parsers = new Map<number, ReturnType<typeof express.json>>();

function viaExpressJson(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
  into: { body: unknown },
): Promise<void> {
  let parse = parsers.get(maxBytes);
  if (parse === undefined) {
    parse = express.json({ limit: maxBytes, strict: false, type: () => true });
    parsers.set(maxBytes, parse);
  }
  const parseJson = parse;
  return new Promise((resolve, reject) => {
    parseJson(req as never, res as never, (err?: unknown) => {
      if (!err) {
        into.body = (req as { body?: unknown }).body;
        resolve();
        return;
      }
      const kind = (err as { type?: string }).type;
      if (kind === 'entity.too.large') reject(tooLarge(maxBytes));
      else if (kind === 'entity.parse.failed') reject(notJson());
      else if (kind === 'encoding.unsupported' || kind === 'charset.unsupported') {
        reject(new AppError('unsupported_media_type', 415, 'Send the request body as UTF-8 JSON.'));
      } else reject(unreadable());
    });
  });
}
