import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, notFound, PROBLEM_CONTENT_TYPE, toProblem, unavailable } from '@tally/http-kit';
import { bodyTextOf } from '@tally/idempotency';
import type { Logger } from 'pino';
import { databaseUnavailable } from '../db-errors';
import { ifNoneMatchHolds, type Reply } from './reply';

/** Express's weak ETag of a body (`app.get('etag fn')`), for answers that carry none of their own. */
export type EtagOf = ((body: string, encoding: string) => string) | undefined;

const DEPENDENCY_DOWN =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|Timeout acquiring a connection|Connection terminated|the database system is (starting up|shutting down)/;

/** Errors that mean "a dependency is down", which clients should retry: 503, not 500. */
function isDependencyFailure(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e) return false;
  // Shutting down, crashed, starting up, out of connections, or read-only (a primary demoted in a
  // failover, until the pool reconnects to the new one): all pass, so a retry gets 503.
  if (/^(57P0[123]|53300|25006)$/.test(e.code ?? '')) return true;
  return DEPENDENCY_DOWN.test(`${e.code ?? ''} ${e.message ?? ''}`);
}

function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  const database = databaseUnavailable(error);
  if (database) return database;
  if (isDependencyFailure(error)) return unavailable('A dependency is unavailable; retry shortly.', 2);
  const status = (error as { status?: number } | null)?.status;
  // Router-level client errors (e.g. a path that is not valid percent-encoding).
  if (status === 400 || status === 404) return notFound('Route');
  return undefined;
}

/** What `error` is answered with, logged: a 500 for anything not known, a 503 for a dependency down. */
export function appErrorOf(error: unknown, requestId: string, logger: Logger): AppError {
  const known = toAppError(error);
  const appError = known ?? new AppError('internal_error', 500, 'Something went wrong on our side.');
  if (!known) logger.error({ err: error, requestId }, 'unhandled error');
  else if (appError.status >= 500) logger.warn({ err: error, requestId }, appError.message);
  return appError;
}

const CHARSET = /;\s*charset=/i;

/**
 * Sends `reply` as express's `res.send` would send its text: the reply's headers, `Content-Type`
 * (JSON unless the reply says otherwise) with its charset, an `ETag` (the reply's own or the body's
 * weak hash), `Content-Length`, no body for `HEAD`. A successful GET/HEAD whose `If-None-Match`
 * names the ETag is `304`.
 */
export function sendReply(req: IncomingMessage, res: ServerResponse, reply: Reply, etagOf: EtagOf): void {
  const headers = reply.headers;
  if (headers !== undefined) for (const name in headers) res.setHeader(name, headers[name] as string);
  res.statusCode = reply.status;
  // The text, not `reply.body`: a replay's body is its recorded text, parsed only if read.
  const text = bodyTextOf(reply);
  if (text === '' || reply.status === 204 || reply.status === 304) {
    res.end();
    return;
  }
  if (notModified(req, res, text, etagOf)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const type = res.getHeader('Content-Type');
  if (type === undefined) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  else if (typeof type === 'string' && !CHARSET.test(type))
    res.setHeader('Content-Type', `${type}; charset=utf-8`);
  if (!res.hasHeader('ETag') && etagOf !== undefined) res.setHeader('ETag', etagOf(text, 'utf8'));
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * `If-None-Match` on a successful GET/HEAD, evaluated here per RFC 9110 §13.1.2 (weak comparison)
 * rather than by express's `req.fresh`, which answers "not fresh" whenever the request carries
 * `Cache-Control: no-cache`; every fetch-based client (browsers, React Native, undici) adds that
 * header to a conditional request, so they would never see a 304. The ETag is the reply's own
 * (versioned resources) or the weak hash of the body (lists, balances).
 */
function notModified(req: IncomingMessage, res: ServerResponse, text: string, etagOf: EtagOf): boolean {
  const { method } = req;
  const condition = req.headers['if-none-match'];
  if ((method !== 'GET' && method !== 'HEAD') || res.statusCode < 200 || res.statusCode >= 300) return false;
  let etag = res.getHeader('ETag') as string | undefined;
  if (etag === undefined) {
    etag = etagOf?.(text, 'utf8');
    if (etag === undefined) return false;
    res.setHeader('ETag', etag);
  }
  return condition !== undefined && ifNoneMatchHolds(condition, etag) === false;
}

/**
 * The one place errors become HTTP: problem+json, and 500s reveal nothing but the request id. The
 * pipeline and express's error handler (the routes outside `/v1`) both answer with it.
 */
export function sendProblem(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  requestId: string,
  logger: Logger,
  etagOf: EtagOf,
): void {
  const appError = appErrorOf(error, requestId, logger);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendReply(
    req,
    res,
    {
      status: appError.status,
      headers: { ...appError.headers, 'Content-Type': PROBLEM_CONTENT_TYPE },
      bodyText: JSON.stringify(toProblem(appError, requestId)),
    },
    etagOf,
  );
}
