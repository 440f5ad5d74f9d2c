import type { RequestHandler, Router } from 'express';

type Layer = { route?: { path?: unknown } };

/**
 * The first path segments (lowercase) of every route of `router`, or undefined when a layer may take
 * a path that does not start with a fixed segment (a middleware, a parameter, an optional part).
 */
function firstSegments(router: Router): Set<string> | undefined {
  const segments = new Set<string>();
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    const path = layer.route?.path;
    if (typeof path !== 'string') return undefined;
    const first = /^\/([A-Za-z0-9_.~-]+)(?:\/|$)/.exec(path)?.[1];
    if (first === undefined) return undefined;
    segments.add(first.toLowerCase());
  }
  return segments;
}

/**
 * `router`, entered only by a request whose first path segment one of its routes starts with. Express
 * walks every route of every mounted router for every request; a request for a hot route (a replay,
 * a read) went through a dozen routers that could not answer it. Routing is case-insensitive, so is
 * the check; a router with a layer that may take any path is always entered. The routes are read at
 * the first request, once they are all registered.
 */
export function enteredByPrefix(router: Router): RequestHandler {
  let segments: Set<string> | undefined | null = null;
  const handler: RequestHandler = (req, res, next) => {
    if (segments === null) segments = firstSegments(router);
    if (segments !== undefined) {
      const path = req.path;
      const end = path.indexOf('/', 1);
      const first = (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
      if (!segments.has(first)) {
        next();
        return;
      }
    }
    router(req, res, next);
  };
  // The router's layers stay visible where a mounted router's are (`handle.stack`): the OpenAPI
  // drift check walks them to list the routes the app registers.
  return Object.assign(handler, { stack: (router as unknown as { stack: unknown[] }).stack });
}
