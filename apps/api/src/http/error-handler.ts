import { AppError, notFound, PROBLEM_CONTENT_TYPE, toProblem, unavailable } from '@tally/http-kit';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { databaseUnavailable } from '../db-errors';
import { requestIdOf } from './request-id';

const DEPENDENCY_DOWN =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|Timeout acquiring a connection|Connection terminated|the database system is (starting up|shutting down)/;

/** Errors that mean "a dependency is down", which clients should retry: 503, not 500. */
function isDependencyFailure(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code === '57P01' || e.code === '57P03' || e.code === '53300') return true;
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

/**
 * What `error` is answered with (logged as the error handler logs it): express's error handler and
 * the hot lane (http/hot-lane.ts) both answer this.
 */
export function appErrorOf(error: unknown, requestId: string, logger: Logger): AppError {
  const known = toAppError(error);
  const appError = known ?? new AppError('internal_error', 500, 'Something went wrong on our side.');
  if (!known) logger.error({ err: error, requestId }, 'unhandled error');
  else if (appError.status >= 500) logger.warn({ err: error, requestId }, appError.message);
  return appError;
}

/** The only place errors become HTTP: problem+json, and 500s reveal nothing but the request id. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const requestId = requestIdOf(res);
    const appError = appErrorOf(error, requestId, logger);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(appError.headers)) res.setHeader(name, value);
    res
      .status(appError.status)
      .type(PROBLEM_CONTENT_TYPE)
      .send(JSON.stringify(toProblem(appError, requestId)));
  };
}

export const routeNotFound: RequestHandler = () => {
  throw new AppError('not_found', 404, 'There is no such route.');
};
