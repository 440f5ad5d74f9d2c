import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessTokens } from '@tally/http-kit';
import { AppError, PROBLEM_CONTENT_TYPE, toProblem, unavailable } from '@tally/http-kit';
import { bodyTextOf } from '@tally/idempotency';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { identityFromAuthorization, unauthenticated } from '../auth/authenticate';
import type { LedgerHotRoutes } from '../ledger.routes';
import type { CorsOrigins } from './cors';
import { appErrorOf } from './error-handler';
import type { ObserveRequest } from './http-metrics';
import { MAX_BODY_BYTES } from './json-body';
import type { Reply } from './reply';
import { requestContext } from './request-context';
import { newRequestId } from './request-id';

export type HotLaneDeps = {
  tokens: AccessTokens;
  isRevoked: (userId: string, sessionId?: string) => Promise<boolean>;
  perUser: RequestHandler | undefined;
  loadShedder: RequestHandler | undefined;
  isDraining: (() => boolean) | undefined;
  corsOrigins: CorsOrigins | undefined;
  observe: ObserveRequest;
  logger: Logger;
  /** Express's ETag of a body (`app.get('etag fn')`), for answers that carry none of their own. */
  etagOf: ((body: string, encoding: string) => string) | undefined;
  routes: LedgerHotRoutes;
};

type Kind = 'expense' | 'balances' | 'postExpense';
const ROUTE: Record<Kind, string> = {
  expense: '/v1/expenses/:expenseId',
  balances: '/v1/groups/:groupId/balances',
  postExpense: '/v1/expenses',
};

/** An id as a path segment spells it with no escaping: anything else goes the express way. */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,128}$/;
const EXPENSE_PREFIX = '/v1/expenses/';
const GROUPS_PREFIX = '/v1/groups/';
const BALANCES_SUFFIX = '/balances';
const JSON_TYPES = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);

const noop = () => {};

/** Requests the lanes of this process took (tests read it to see that the lane, not express, answered). */
let taken = 0;
export const hotLaneTakenForTest = (): number => taken;

/**
 * The hot lane: the three busiest requests (API.md §12, issue 23), a replay of `POST /v1/expenses`,
 * `GET /v1/expenses/{id}` and `GET /v1/groups/{id}/balances`, answered without express's router,
 * request and response objects: the same steps in the same order as the middleware chain of
 * create-app.ts (request id, metrics, CORS, load shedding, drain, `Cache-Control`, authentication,
 * the per-user budget, the route) and the same answers, headers and problems. Only the plainest
 * spelling of each request takes it (lowercase path, plain ids, no query, no conditional headers,
 * no Origin when CORS is on; a POST with a JSON body of a declared length and an Idempotency-Key);
 * the decision is made before anything is read or counted, and every other request goes to express.
 * Returns false when the request is not one of them (express answers it).
 */
export function createHotLane(deps: HotLaneDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const anyOrigin = deps.corsOrigins === '*';
  const corsOn = deps.corsOrigins !== undefined && deps.corsOrigins.length > 0;

  /** What express's `res.send` adds to a string answer: charset, ETag, Content-Length. */
  function send(res: ServerResponse, method: string, reply: Reply): void {
    const headers = reply.headers;
    if (headers !== undefined) for (const name in headers) res.setHeader(name, headers[name] as string);
    res.statusCode = reply.status;
    const text = bodyTextOf(reply);
    if (text === '' || reply.status === 204 || reply.status === 304) {
      res.end();
      return;
    }
    const type = res.getHeader('Content-Type');
    if (type === undefined) res.setHeader('Content-Type', 'application/json; charset=utf-8');
    else if (typeof type === 'string' && !/;\s*charset=/i.test(type))
      res.setHeader('Content-Type', `${type}; charset=utf-8`);
    if (!res.hasHeader('ETag') && deps.etagOf !== undefined) res.setHeader('ETag', deps.etagOf(text, 'utf8'));
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(method === 'HEAD' ? undefined : text);
  }

  function sendError(res: ServerResponse, method: string, error: unknown, requestId: string): void {
    const appError = appErrorOf(error, requestId, deps.logger);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    send(res, method, {
      status: appError.status,
      headers: { ...appError.headers, 'Content-Type': PROBLEM_CONTENT_TYPE },
      bodyText: JSON.stringify(toProblem(appError, requestId)),
    });
  }

  function kindOf(req: IncomingMessage): { kind: Kind; id: string } | undefined {
    const { method, url, headers } = req;
    if (url === undefined || (corsOn && headers.origin !== undefined)) return undefined;
    if (method === 'GET') {
      if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined)
        return undefined;
      if (url.startsWith(EXPENSE_PREFIX)) {
        const id = url.slice(EXPENSE_PREFIX.length);
        return PLAIN_ID.test(id) ? { kind: 'expense', id } : undefined;
      }
      if (url.startsWith(GROUPS_PREFIX) && url.endsWith(BALANCES_SUFFIX)) {
        const id = url.slice(GROUPS_PREFIX.length, url.length - BALANCES_SUFFIX.length);
        return PLAIN_ID.test(id) ? { kind: 'balances', id } : undefined;
      }
      return undefined;
    }
    if (method === 'POST' && url === '/v1/expenses') {
      // What jsonBody takes without a question: a declared length within the limit, JSON in UTF-8,
      // no transfer or content coding. Anything else (413, 415, gzip) is express's.
      const length = headers['content-length'];
      const type = headers['content-type'];
      if (
        headers['idempotency-key'] === undefined ||
        length === undefined ||
        headers['transfer-encoding'] !== undefined ||
        headers['content-encoding'] !== undefined ||
        type === undefined ||
        !JSON_TYPES.has(type.toLowerCase())
      ) {
        return undefined;
      }
      const bytes = Number(length);
      return bytes > 0 && bytes <= MAX_BODY_BYTES ? { kind: 'postExpense', id: '' } : undefined;
    }
    return undefined;
  }

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    kind: Kind,
    id: string,
    requestId: string,
    started: number,
  ): Promise<void> {
    const method = req.method as string;
    let route = 'unmatched';
    try {
      try {
        // cors.ts: the answer depends on Origin unless every origin gets the same one.
        if (corsOn && !anyOrigin) res.setHeader('Vary', 'Origin');
        deps.loadShedder?.(req as Request, res as never, noop);
        if (deps.isDraining?.()) throw unavailable('This instance is shutting down; retry.', 1);
        if (method === 'GET') res.setHeader('Cache-Control', 'private, no-cache');
        const identity = await identityFromAuthorization(deps.tokens, req.headers.authorization);
        const userId = identity?.userId;
        if (!userId || (await deps.isRevoked(userId, identity.sessionId))) throw unauthenticated();
        const ctx = requestContext.getStore();
        if (ctx) ctx.userId = userId;
        const locals: Record<string, unknown> = { requestId, userId };
        if (identity.sessionId !== undefined) locals['sessionId'] = identity.sessionId;
        (res as unknown as { locals: Record<string, unknown> }).locals = locals;
        if (deps.perUser) await viaMiddleware(deps.perUser, req, res);
        route = ROUTE[kind];
        let reply: Reply;
        if (kind === 'expense') reply = await deps.routes.expense(userId, id);
        else if (kind === 'balances') reply = await deps.routes.balances(userId, id);
        else {
          const body = await jsonOf(req);
          const write = {
            method,
            headers: req.headers,
            body,
            params: {},
            get: (name: string) => req.headers[name.toLowerCase()],
          };
          reply = await deps.routes.postExpense(
            write as unknown as Request,
            '/v1/expenses',
            userId,
            requestId,
          );
        }
        send(res, method, reply);
      } catch (error) {
        sendError(res, method, error, requestId);
      }
      deps.observe(method, route, res.statusCode, started);
    } catch (error) {
      // Only sending can throw here (a socket gone): nothing more to answer.
      deps.logger.warn({ err: error, requestId }, 'hot lane could not answer');
      res.destroy();
    }
  }

  return (req, res) => {
    const hot = kindOf(req);
    if (hot === undefined) return false;
    taken++;
    const started = performance.now();
    const requestId = newRequestId(req.headers['x-request-id']);
    res.setHeader('X-Request-Id', requestId);
    requestContext.run({ requestId }, () => {
      void answer(req, res, hot.kind, hot.id, requestId, started);
    });
    return true;
  };
}

/** An express middleware that reads only headers and `res.locals` (the per-user budget), awaited. */
function viaMiddleware(middleware: RequestHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const next = (error?: unknown) => (error ? reject(error) : resolve());
    try {
      const done = middleware(req as Request, res as never, next) as unknown;
      if (done instanceof Promise) done.catch(reject);
    } catch (error) {
      reject(error);
    }
  });
}

/** The body as jsonBody reads it (UTF-8, a BOM dropped, any JSON value): 400 when it is not JSON. */
function jsonOf(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => reject(new AppError('malformed_json', 400, 'The request body could not be read.')));
    req.on('aborted', () =>
      reject(new AppError('malformed_json', 400, 'The request body could not be read.')),
    );
    req.on('end', () => {
      let text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new AppError('malformed_json', 400, 'The request body is not valid JSON.'));
      }
    });
  });
}
