import type { HttpRequest, WriteOptions } from './http-client.js';

/** `If-Match` for conditional writes: the ETag you read (see `etagOf`), or `*`. */
export type ConditionalWriteOptions = WriteOptions & { ifMatch?: string };

/** The request of a conditional write (`PUT`, `PATCH`, `DELETE`): the call's options, `ifMatch` as `If-Match`. */
export function conditionalWrite(
  request: Pick<HttpRequest, 'method' | 'path' | 'body'>,
  { ifMatch, ...call }: ConditionalWriteOptions,
): HttpRequest {
  return { ...call, ...request, headers: { ...call.headers, ...(ifMatch ? { 'If-Match': ifMatch } : {}) } };
}
