import { Histogram, type Registry } from 'prom-client';

type Observer = { observe(seconds: number): void };

/** One request's duration: `started` is its `performance.now()` at arrival. */
export type ObserveRequest = (method: string, route: string, status: number, started: number) => void;

/**
 * HTTP duration histogram by method, route template (never the raw path: ids would explode
 * cardinality) and status; the pipeline's metrics step observes each request (http/steps.ts).
 */
export function createHttpMetrics(registry: Registry): { observe: ObserveRequest } {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // One child per label set, found by one string: prom-client would otherwise sort and join the
  // labels on every observation. The sets are few (methods × route templates × statuses).
  const children = new Map<string, Observer>();
  const childOf = (method: string, route: string, status: number): Observer => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (child === undefined) {
      child = duration.labels({ method, route, status: String(status) });
      children.set(key, child);
    }
    return child;
  };
  const observe: ObserveRequest = (method, route, status, started) => {
    childOf(method, route, status).observe((performance.now() - started) / 1000);
  };
  return { observe };
}
