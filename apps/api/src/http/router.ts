import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { notARoute } from './error-handler';
import { type Pipeline, RequestState, type Step } from './pipeline';
import { requestContext } from './request-context';
import type { Route } from './route';

/** The route of a request whose steps run outside a declared route (the routes outside `/v1`). */
const OUTSIDE: Route = {
  operationId: 'outside',
  method: '',
  path: 'unmatched',
  access: 'open',
  maxBodyBytes: undefined,
  operation: undefined,
  handler: () => undefined,
};

/**
 * What a request that matched no route runs: every step (a token first), then 404, labelled
 * 'unmatched'. A plain OPTIONS of a path that has routes is answered as express's router answers
 * it: `200` with the methods in `Allow`.
 */
function notFound(routes: readonly Route[]): Route {
  const templates = routes.map((route) => ({
    method: route.method,
    pattern: new RegExp(
      `^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`,
      'i',
    ),
  }));
  return {
    operationId: 'notFound',
    method: '',
    path: 'unmatched',
    access: 'user',
    maxBodyBytes: undefined,
    operation: undefined,
    handler: (input) => {
      if (input.method === 'OPTIONS') {
        const path = input.url.split('?', 1)[0] as string;
        const methods = new Set<string>();
        for (const { method, pattern } of templates) {
          if (!pattern.test(path)) continue;
          methods.add(method);
          if (method === 'GET') methods.add('HEAD');
        }
        if (methods.size > 0) {
          const allow = [...methods].sort().join(', ');
          const { res } = input;
          res.setHeader('Allow', allow);
          res.setHeader('Content-Length', Buffer.byteLength(allow));
          res.setHeader('Content-Type', 'text/plain');
          res.setHeader('X-Content-Type-Options', 'nosniff');
          res.end(allow);
          return undefined;
        }
      }
      throw notARoute();
    },
  };
}

/** A request express could not route (a path that is not valid percent-encoding): its error, after the steps. */
const failed = (error: unknown): Route => ({
  ...OUTSIDE,
  access: 'user',
  handler: () => {
    throw error;
  },
});

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The `/v1` router: express routes each declared route (method and path from its operation) to the
 * pipeline's handler, and a path no route has to the pipeline too (its 404 passes the same steps).
 * Mounted at `/v1`, as the OpenAPI drift check reads it (the routes' layers under a mounted router).
 */
export function v1Router(routes: readonly Route[], pipeline: Pipeline): Router {
  const router = express.Router();
  for (const route of routes) {
    if (!route.path.startsWith('/v1/')) throw new Error(`${route.operationId} is not under /v1`);
    const handler: RequestHandler = (req, res, next) => {
      if (route.declines?.(req)) next();
      else pipeline.handle(route, req.params as Record<string, string>, req, res);
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](route.path.slice('/v1'.length), handler);
  }
  const unmatched = notFound(routes);
  router.use((req, res) => pipeline.handle(unmatched, NO_PARAMS, req, res));
  const routingFailed: ErrorRequestHandler = (error, req, res, _next) =>
    pipeline.handle(failed(error), NO_PARAMS, req, res);
  router.use(routingFailed);
  return router;
}

/** Outside `/v1`, an express route's metric label is its template, at 'finish'. */
const labelOf = (req: express.Request): string =>
  req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';

/**
 * The steps marked `everywhere` (request id, metrics, shedding, drain), the very step objects of
 * the pipeline, as express middleware in front of the routes outside `/v1` (probes, docs, the web
 * client), whose errors express's error handler answers.
 */
export function outsideSteps(
  pipeline: Pipeline,
  ipOf: (req: IncomingMessage) => string | undefined,
): RequestHandler {
  const steps = pipeline.steps.filter((step) => step.everywhere);
  const after = (s: RequestState, ran: readonly Step[]) => {
    s.label = labelOf(s.req as express.Request);
    for (const step of ran) step.after?.(s);
  };
  return (req, res, next) => {
    const s = new RequestState(OUTSIDE, NO_PARAMS, req, res as ServerResponse, ipOf);
    requestContext.run(s, async () => {
      const ran: Step[] = [];
      res.once('finish', () => after(s, ran));
      let failure: unknown;
      try {
        for (const step of steps) {
          ran.push(step);
          const pending = step.run(s);
          if (pending !== undefined) await pending;
        }
      } catch (error) {
        failure = error ?? new Error('a step failed');
      }
      res.locals['requestId'] = s.requestId;
      next(failure);
    });
  };
}
