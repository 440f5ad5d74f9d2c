import { createIgnoredErrors, type IgnoredErrors } from '@tally/http-kit';
import express, { type Express, Router } from 'express';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { errorHandler, routeNotFound } from './error-handler';
import { createPipeline } from './pipeline';
import { outsideSteps } from './router';
import { requestIdStep } from './steps';
import { upgradeRequired, WEBSOCKET_PATH } from './upgrade-required';

export type DependencyState = 'up' | 'down';

/** The readiness answer: whether to take traffic, and how each dependency answered. */
export type Readiness = { ready: boolean; checks: Record<string, DependencyState> };

export type DependencyCheck = {
  /** The name in `/readyz`'s body and in the `dependency` label of `tally_dependency_up`. */
  name: string;
  /** Resolves when the dependency answers. */
  ping: () => Promise<unknown>;
  /**
   * Whether readiness requires it. Only what the request path cannot do without is required: a
   * shared dependency that every instance loses at once (Redis) must not take the whole fleet out
   * of the load balancer while the writes still work without it.
   */
  required: boolean;
};

export type ReadinessOptions = {
  checks: readonly DependencyCheck[];
  isDraining: () => boolean;
  registry?: Registry;
  /** A check slower than this counts as down, so that `/readyz` answers within the probe's timeout. @default 1500 */
  timeoutMs?: number;
  logger?: Logger;
  /**
   * A check that threw (`readiness_check`, with its `dependency`; it counts as down), even one
   * that threw after its timeout. @default createIgnoredErrors({ logger, registry })
   */
  ignoredErrors?: IgnoredErrors;
};

/** Whether `ping` resolves within `timeoutMs`; what it throws, in time or late, goes to `failed`. */
const answersWithin = async (
  ping: () => Promise<unknown>,
  timeoutMs: number,
  failed: (err: unknown) => void,
): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answer = Promise.resolve()
    .then(ping)
    .then(
      () => true as const,
      (err: unknown) => {
        failed(err);
        return false as const;
      },
    );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Builds the readiness answer from dependency checks: ready while not draining and every required
 * check answers. Every check is reported (and exported as `tally_dependency_up`), required or not.
 * `observe` records a state seen elsewhere (a client's connection events), so the metric follows a
 * dependency between probes.
 */
export function createReadiness(options: ReadinessOptions) {
  const timeoutMs = options.timeoutMs ?? 1500;
  const ignored =
    options.ignoredErrors ?? createIgnoredErrors({ logger: options.logger, registry: options.registry });
  const up = new Gauge({
    name: 'tally_dependency_up',
    help: 'Whether a dependency answered its last check or connection event (1) or not (0)',
    labelNames: ['dependency'] as const,
    registers: options.registry ? [options.registry] : [],
  });
  const observe = (name: string, state: DependencyState) =>
    up.set({ dependency: name }, state === 'up' ? 1 : 0);

  return {
    observe,
    async check(): Promise<Readiness> {
      const results = await Promise.all(
        options.checks.map(async (c) => ({
          c,
          ok: await answersWithin(c.ping, timeoutMs, (err) =>
            ignored('readiness_check', err, { dependency: c.name }),
          ),
        })),
      );
      const checks: Record<string, DependencyState> = {};
      for (const { c, ok } of results) {
        const state = ok ? 'up' : 'down';
        checks[c.name] = state;
        observe(c.name, state);
      }
      const ready = !options.isDraining() && results.every(({ c, ok }) => ok || !c.required);
      return { ready, checks };
    },
  };
}

export type ReadinessProbe = ReturnType<typeof createReadiness>;

export type ProbeDeps = {
  registry: Registry;
  /** The readiness answer; a bare boolean reports no checks. */
  isReady: () => Promise<boolean | Readiness>;
  logger?: Logger;
  /**
   * A readiness answer that threw (`readiness`: `/readyz` answers 503).
   * @default createIgnoredErrors({ logger, registry })
   */
  ignoredErrors?: IgnoredErrors;
};

/** `/healthz` (the process runs), `/readyz` (required dependencies answer, not draining), `/metrics`. */
export function probeRoutes(deps: ProbeDeps): Router {
  const router = Router();
  const ignored = deps.ignoredErrors ?? createIgnoredErrors({ logger: deps.logger, registry: deps.registry });
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const answer = await deps.isReady().catch((err: unknown) => {
      ignored('readiness', err);
      return false;
    });
    const { ready, checks } = typeof answer === 'boolean' ? { ready: answer, checks: undefined } : answer;
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'unavailable', ...(checks && { checks }) });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(deps.registry.contentType).send(await deps.registry.metrics());
  });
  return router;
}

/**
 * The HTTP side of ROLE=gateway: the probes and metrics, `426` for a plain GET of `/v1/ws`, and
 * problem+json 404 for anything else.
 */
export function createProbesApp(deps: ProbeDeps & { logger: Logger }): Express {
  const app = express();
  app.disable('x-powered-by');
  const etagOf = app.get('etag fn');
  // The request id step of the API's pipeline, the one step of a gateway's few answers.
  const pipeline = createPipeline([requestIdStep], { logger: deps.logger, etagOf, ipOf: () => undefined });
  app.use(outsideSteps(pipeline, () => undefined));
  app.use(probeRoutes(deps));
  app.get(WEBSOCKET_PATH, upgradeRequired);
  app.use(routeNotFound);
  app.use(errorHandler(deps.logger, etagOf));
  return app;
}
