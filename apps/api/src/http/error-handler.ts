import { AppError } from '@tally/http-kit';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { requestIdOf } from './request-id';
import { type EtagOf, sendProblem } from './send';

/** Express's error handler, for the routes outside `/v1` (the pipeline answers its own): problem+json. */
export function errorHandler(logger: Logger, etagOf: EtagOf): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    sendProblem(req, res, error, requestIdOf(res), logger, etagOf);
  };
}

export const routeNotFound: RequestHandler = () => {
  throw notARoute();
};

/** A path no route has. */
export const notARoute = (): AppError => new AppError('not_found', 404, 'There is no such route.');
