import express, { type Express, Router } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { errorHandler, routeNotFound } from './error-handler';
import { requestId } from './request-id';

export type ProbeDeps = { registry: Registry; isReady: () => Promise<boolean> };

/** `/healthz` (the process runs), `/readyz` (dependencies answer, not draining), `/metrics`. */
export function probeRoutes(deps: ProbeDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const ready = await deps.isReady().catch(() => false);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable' });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(deps.registry.contentType).send(await deps.registry.metrics());
  });
  return router;
}

/** The HTTP side of ROLE=gateway: the probes and metrics, and problem+json 404 for anything else. */
export function createProbesApp(deps: ProbeDeps & { logger: Logger }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);
  app.use(probeRoutes(deps));
  app.use(routeNotFound);
  app.use(errorHandler(deps.logger));
  return app;
}
