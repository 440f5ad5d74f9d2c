import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * The one private internal of express the API leans on, for speed: `app.handle`, the function the
 * HTTP server calls for each request (express 5.3.0, pinned in package.json). `ahead` sees each
 * request first; what it does not take (returns false) goes to express as usual. Skipping express
 * for the busiest requests saves its router walk and the request and response objects it sets up.
 * test/component/pipeline.test.ts fails loudly if an upgrade changes it.
 */
export function handleAhead(
  app: Express,
  ahead: (req: IncomingMessage, res: ServerResponse) => boolean,
): void {
  type Handle = (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  const routed = app as unknown as { handle?: Handle };
  if (typeof routed.handle !== 'function') {
    throw new Error('express no longer has app.handle: http/express-internals.ts needs a new way ahead');
  }
  const handle = routed.handle.bind(app);
  routed.handle = (req, res, next) => {
    if (!ahead(req, res)) handle(req, res, next);
  };
}
