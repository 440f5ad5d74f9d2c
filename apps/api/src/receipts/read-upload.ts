import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@tally/http-kit';

/** @default 10 MiB */
export const DEFAULT_RECEIPT_MAX_BYTES = 10 * 1024 * 1024;

/** The `Content-Type`s an upload may be sent with; the file's bytes decide what it is (API.md §16). */
export const UPLOAD_CONTENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
  'application/pdf',
  'application/octet-stream',
] as const;

const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', 413, `A receipt may be ${maxBytes} bytes at most.`, {
    limit: { name: 'receiptBytes', max: maxBytes },
  });

/**
 * Reads a raw upload body into memory, `maxBytes` at most: a declared `Content-Length` over it is
 * `413` before a byte is read, a body that grows past it is `413` as soon as it does (the socket is
 * then closed, the rest never read). A `Content-Type` outside `UPLOAD_CONTENT_TYPES` is `415`.
 */
export function readUpload(res: ServerResponse, maxBytes: number): Promise<Buffer> {
  const req = res.req as IncomingMessage;
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(UPLOAD_CONTENT_TYPES as readonly string[]).includes(mediaType)) {
    throw new AppError(
      'unsupported_media_type',
      415,
      `Send the receipt as its own body, with Content-Type one of ${UPLOAD_CONTENT_TYPES.join(', ')}.`,
    );
  }
  if (req.headers['content-encoding'] !== undefined && req.headers['content-encoding'] !== 'identity') {
    throw new AppError('unsupported_media_type', 415, 'Send the receipt without a Content-Encoding.');
  }
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) {
    res.setHeader('Connection', 'close');
    throw tooLarge(maxBytes);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: AppError) => {
      req.off('data', onData);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.setHeader('Connection', 'close');
        req.pause();
        fail(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('error', () => fail(new AppError('malformed_json', 400, 'The request body could not be read.')));
    req.on('aborted', () => fail(new AppError('malformed_json', 400, 'The request body could not be read.')));
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
  });
}
