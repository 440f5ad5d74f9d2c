import type { Operation } from './types';

/** Health, metrics and this document. */
export const opsOperations: Operation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'liveness',
    tag: 'Operations',
    summary: 'Liveness',
    description: '`200` while the process runs.',
    public: true,
    alwaysAvailable: true,
    success: [{ status: 200, description: 'Alive', schema: 'Health' }],
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    tag: 'Operations',
    summary: 'Readiness',
    description:
      '`200` when the database answers and the process is not draining; `503` `{"status":"unavailable","starting":true}` while the process is still starting (it listens before it has reached PostgreSQL and migrated; meanwhile every other request gets `503 unavailable` with `Retry-After` and `/healthz` answers 200). Redis is reported in `checks` but does not decide readiness: keyed writes stay exactly-once through PostgreSQL without it, and a Redis outage must not take every pod out of the load balancer at once.',
    public: true,
    alwaysAvailable: true,
    success: [
      { status: 200, description: 'Ready', schema: 'Health' },
      {
        status: 503,
        description: 'Not ready (the database is down, still starting, or draining)',
        schema: 'Health',
      },
    ],
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    public: true,
    success: [
      {
        status: 200,
        description: 'Prometheus text exposition format',
        contentType: 'text/plain',
        schema: { type: 'string' },
      },
    ],
  },
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'openApiDocument',
    tag: 'Operations',
    summary: 'This OpenAPI 3.1 document',
    public: true,
    // Under /v1, yet not counted by the rate limiter.
    rateLimited: false,
    success: [{ status: 200, description: 'The document', schema: { type: 'object' } }],
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'docs',
    tag: 'Operations',
    summary: 'Human-readable API reference',
    description:
      'Swagger UI rendering this document. Its files come from the `swagger-ui-dist` npm package and are ' +
      'served by this server: the page loads nothing from anywhere else and works offline.',
    public: true,
    success: [{ status: 200, description: 'HTML', contentType: 'text/html', schema: { type: 'string' } }],
  },
];
