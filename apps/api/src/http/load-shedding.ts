import type { IncomingMessage, ServerResponse } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { unavailable } from '@tally/http-kit';
import { Counter, type Registry } from 'prom-client';

/** Takes a request in (counted until its response closes) or throws `503 unavailable`. */
export type Shedder = (req: IncomingMessage, res: ServerResponse) => void;

/** The probes and the metrics: never shed, never refused while draining. */
export function isProbePath(url: string | undefined): boolean {
  if (url === undefined || url.charCodeAt(1) === 118 /* 'v': every /v1 request */) return false;
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  return path === '/healthz' || path === '/readyz' || path === '/metrics';
}

export type LoadSheddingOptions = {
  /** Requests in flight above which new ones get 503. */
  maxInFlight: number;
  /** Event-loop delay (p99 over the last second, ms) above which new requests get 503. */
  maxEventLoopDelayMs: number;
  registry?: Registry;
};

/**
 * Sheds load before it queues: when this process is saturated, new requests get a fast
 * `503 unavailable` with `Retry-After`, which clients retry (elsewhere, behind the load balancer)
 * instead of timing out. Probes and metrics are never shed.
 */
export function createLoadShedder(options: LoadSheddingOptions) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let delayMs = 0;
  const sampler = setInterval(() => {
    delayMs = histogram.percentile(99) / 1e6;
    histogram.reset();
  }, 1000);
  sampler.unref();
  const shed = new Counter({
    name: 'load_shed_total',
    help: 'Requests refused with 503 because the process was saturated, by reason',
    labelNames: ['reason'] as const,
    registers: options.registry ? [options.registry] : [],
  });
  let inFlight = 0;

  /** A step of the request pipeline (http/steps.ts), named as the middleware it was. */
  const middleware: Shedder = (req, res) => {
    if (isProbePath((req as { originalUrl?: string }).originalUrl ?? req.url)) return;
    if (inFlight >= options.maxInFlight) {
      shed.inc({ reason: 'in_flight' });
      throw unavailable('This instance is at capacity; retry shortly.', 1);
    }
    if (delayMs > options.maxEventLoopDelayMs) {
      shed.inc({ reason: 'event_loop_delay' });
      throw unavailable('This instance is overloaded; retry shortly.', 1);
    }
    inFlight++;
    res.once('close', () => {
      inFlight--;
    });
  };
  return {
    middleware,
    stop() {
      clearInterval(sampler);
      histogram.disable();
    },
  };
}
