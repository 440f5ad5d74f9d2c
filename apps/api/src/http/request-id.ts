import { randomUUID } from 'node:crypto';

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,128}$/;

/** The client's `X-Request-Id` when it is sane, else a new one (the pipeline's first step). */
export function newRequestId(offered: string | string[] | undefined): string {
  return typeof offered === 'string' && PRINTABLE_ASCII.test(offered) ? offered : randomUUID();
}

/** The request id of a request answered by express (outside `/v1`), set by the pipeline's steps. */
export function requestIdOf(res: { locals: Record<string, unknown> }): string {
  return (res.locals['requestId'] as string | undefined) ?? 'unknown';
}
