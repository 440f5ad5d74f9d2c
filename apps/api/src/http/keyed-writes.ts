import { AppError, PROBLEM_CONTENT_TYPE, toProblem } from '@tally/http-kit';
import { IdempotencyConflict, type IdempotencyLayer, type TransactionHook } from '@tally/idempotency';
import type { Request, RequestHandler, Response } from 'express';
import { userIdOf } from '../auth/authenticate';
import type { RunWrite, WriteContext, WriteOptions, WriteResult } from '../ledger/write-runner';
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

/**
 * The one write a write route runs: one transaction for the caller (`userId`), which the durable
 * idempotency record joins when the request is keyed. The route never sees the record's hook, so it
 * cannot run a keyed write without it.
 */
export type KeyedWrite = <T>(
  work: (ctx: WriteContext, userId: string) => Promise<WriteResult<T>>,
  toReply: (value: T) => Reply,
  options?: WriteOptions,
) => Promise<Reply>;

/** A write route's handler: it validates its input, then runs its change through `write`. */
export type KeyedHandler = (req: Request, write: KeyedWrite) => Promise<Reply>;

const keyedHandlers = new WeakSet<object>();

/** True for a handler made by `keyedWrites`: how a test finds every keyed route on the real router. */
export const isKeyedWrite = (handler: unknown): boolean =>
  typeof handler === 'function' && keyedHandlers.has(handler);

/**
 * The path of an idempotency scope (API.md §7): the route's template with its ids filled in, as
 * the API spells it, whatever spelling reached the route (`/V1/Expenses/`, `exp%5F1` for `exp_1`).
 * Mount paths are fixed lowercase segments (`/v1`), matched without regard to case, so the spelled
 * one is lowercased; ids keep their case (they are case-sensitive) and are percent-encoded where a
 * path segment needs it.
 */
export function canonicalPath(req: Request): string {
  const template: unknown = req.route?.path;
  if (typeof template !== 'string') throw new Error('a keyed write must be a route with a string path');
  const base = req.baseUrl.toLowerCase().replace(/\/+$/, '');
  const filled = template.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value: unknown = req.params[name];
    if (typeof value !== 'string') throw new Error(`route parameter ${name} has no value`);
    return encodeURIComponent(value);
  });
  return `${base}${filled}`;
}

/**
 * Wraps a write route's handler. The handler gets a `write` function that runs its one
 * transaction; a request that carries an Idempotency-Key (left on `res.locals` by the key
 * middleware) runs through the idempotency layer, and its `write` carries the durable record. One
 * without a key runs as it is.
 */
export function keyedWrites(deps: { layer: IdempotencyLayer | undefined; runWrite: RunWrite }) {
  const { layer, runWrite } = deps;
  const writeFor = (res: Response, hook: TransactionHook | undefined): KeyedWrite => {
    let used = false;
    return async (work, toReply, options) => {
      // One request, one change: a second write (its record already taken) is a bug, refused.
      if (used) throw new Error('a write route runs exactly one write per request');
      used = true;
      const userId = userIdOf(res);
      return runWrite((ctx) => work(ctx, userId), toReply, hook, options);
    };
  };

  return (handler: KeyedHandler): RequestHandler => {
    const keyed: RequestHandler = async (req, res) => {
      const key = res.locals['idempotencyKey'] as string | undefined;
      if (!key || !layer) {
        sendReply(res, await handler(req, writeFor(res, undefined)));
        return;
      }
      const requestId = requestIdOf(res);
      try {
        const { reply } = await layer.execute(
          { userId: userIdOf(res), key, method: req.method, path: canonicalPath(req), body: req.body },
          (hook) => handler(req, writeFor(res, hook)),
          (error) => recordableError(error, requestId),
        );
        sendReply(res, reply);
      } catch (error) {
        throw error instanceof IdempotencyConflict ? toHttpError(error) : error;
      }
    };
    keyedHandlers.add(keyed);
    return keyed;
  };
}
