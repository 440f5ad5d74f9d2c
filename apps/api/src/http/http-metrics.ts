import type { RequestHandler } from 'express';
import { Histogram, type Registry } from 'prom-client';

/** HTTP duration histogram by method, route template (never the raw path: ids would explode cardinality) and status. */
export function httpMetrics(registry: Registry): RequestHandler {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      // By 'finish' express has unwound the mount path of nested routers: restore the /v1 prefix.
      const base = req.baseUrl || (req.originalUrl.startsWith('/v1/') ? '/v1' : '');
      const route = req.route?.path ? `${base}${String(req.route.path)}` : 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}
