import { AppError, PROBLEM_CONTENT_TYPE, toProblem } from '@tally/http-kit';
import { IdempotencyConflict, type IdempotencyLayer, type TransactionHook } from '@tally/idempotency';
import type { Request, RequestHandler, Response } from 'express';
import { userIdOf } from '../auth/authenticate';
import { type Reply, sendReply } from './reply';
import { requestIdOf } from './request-id';

/** Statuses an operation may answer that are not its own outcome, so they are never recorded (API.md §7). */
const NOT_RECORDED = new Set([401, 429]);

/** The operation's own 4xx outcomes (404, 409 member_has_balance, 412, 422…) are recorded and replayed. */
function recordableError(error: unknown, requestId: string): Reply | undefined {
  if (!(error instanceof AppError)) return undefined;
  if (error.status < 400 || error.status >= 500 || NOT_RECORDED.has(error.status)) return undefined;
  if (error.code.startsWith('idempotency_')) return undefined;
  return {
    status: error.status,
    body: toProblem(error, requestId),
    headers: { ...error.headers, 'Content-Type': PROBLEM_CONTENT_TYPE },
  };
}

function toHttpError(error: IdempotencyConflict): AppError {
  return error.kind === 'in_progress'
    ? new AppError('idempotency_key_in_progress', 409, error.message, { headers: { 'Retry-After': '1' } })
    : new AppError('idempotency_key_reused', 409, error.message);
}

export type KeyedHandler = (req: Request, res: Response, hook: TransactionHook | undefined) => Promise<Reply>;

/**
 * Wraps a write handler: a request that carries an Idempotency-Key (left on `res.locals` by the
 * key middleware) runs through the idempotency layer; one without runs as it is.
 */
export function keyedWrites(layer: IdempotencyLayer | undefined) {
  return (handler: KeyedHandler): RequestHandler =>
    async (req, res) => {
      const key = res.locals['idempotencyKey'] as string | undefined;
      if (!key || !layer) {
        sendReply(res, await handler(req, res, undefined));
        return;
      }
      const requestId = requestIdOf(res);
      try {
        const { reply } = await layer.execute(
          {
            userId: userIdOf(res),
            key,
            method: req.method,
            path: req.originalUrl.split('?')[0] ?? '',
            body: req.body,
          },
          (hook) => handler(req, res, hook),
          (error) => recordableError(error, requestId),
        );
        sendReply(res, reply);
      } catch (error) {
        throw error instanceof IdempotencyConflict ? toHttpError(error) : error;
      }
    };
}
