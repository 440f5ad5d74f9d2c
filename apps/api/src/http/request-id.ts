import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { requestContext } from './request-context';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,128}$/;

/** First in the chain: echoes a sane client `X-Request-Id` or makes one, and opens the request context. */
export const requestId: RequestHandler = (req, res, next) => {
  const id = newRequestId(req.get('x-request-id'));
  res.locals['requestId'] = id;
  res.setHeader('X-Request-Id', id);
  requestContext.run({ requestId: id }, next);
};

/** The client's `X-Request-Id` when it is sane, else a new one. */
export function newRequestId(offered: string | string[] | undefined): string {
  return typeof offered === 'string' && PRINTABLE_ASCII.test(offered) ? offered : randomUUID();
}

export function requestIdOf(res: { locals: Record<string, unknown> }): string {
  return (res.locals['requestId'] as string | undefined) ?? 'unknown';
}
