import type { AccessTokens } from '@tally/http-kit';
import { unavailable } from '@tally/http-kit';
import type { KeyAuthentication } from '../api-keys/key-authentication';
import { assertKeyMayCall } from '../api-keys/scopes';
import { authenticationStep } from '../auth/authenticate';
import { type CorsOrigins, corsStep } from './cors';
import type { ObserveRequest } from './http-metrics';
import { readJsonBody } from './json-body';
import { isProbePath, type Shedder } from './load-shedding';
import type { Step } from './pipeline';
import type { Budget } from './rate-limit';
import { newRequestId } from './request-id';

export type StepDeps = {
  tokens: AccessTokens;
  isRevoked: (userId: string, sessionId?: string) => Promise<boolean>;
  observe: ObserveRequest;
  corsOrigins?: CorsOrigins | undefined;
  loadShedder?: Shedder | undefined;
  isDraining?: (() => boolean) | undefined;
  rateLimits?: { perUser: Budget; perIp: Budget } | undefined;
  /** Checks a bearer API key (API.md §2.6); absent: keys are refused like bad tokens. */
  apiKeys?: KeyAuthentication | undefined;
  /** Steps a test adds at the end of the list (after the body): they run on every route. */
  extraSteps?: readonly Step[] | undefined;
};

/** `/v1/auth` and below, spelled in any case (express routes without regard to case). */
const AUTH_PATH = /^\/v1\/auth(?:[/?]|$)/i;

/** Echoes a sane client `X-Request-Id` or makes one. */
export const requestIdStep: Step = {
  name: 'requestId',
  everywhere: true,
  run: (s) => {
    s.requestId = newRequestId(s.req.headers['x-request-id']);
    s.res.setHeader('X-Request-Id', s.requestId);
    return undefined;
  },
};

/**
 * The cross-cutting steps of every request, declared once, in the order they run (API.md §9, §10):
 *
 * 1. `requestId`: echoes a sane `X-Request-Id` or makes one.
 * 2. `metrics`: the request's duration, observed once it is answered, by route template.
 * 3. `cors` (when `CORS_ORIGINS` is set): `Vary`, the CORS headers, a preflight answered here.
 * 4. `shed`: 503 when this process is saturated (not the probes).
 * 5. `drain`: 503 once the process drains (not the probes).
 * 6. `cacheControl`: `private, no-cache` on GET/HEAD of the API (not the OpenAPI document).
 * 7. `perIp`: the per-IP budget of `/v1/auth/*`.
 * 8. `authenticate`: the bearer token and its revocation, or an API key and its scopes (the public
 *    routes skip it).
 * 9. `perUser`: the per-user budget, or the key's own for a request with an API key (the public
 *    routes skip it).
 * 10. `keyScope`: a request with an API key within the key's scopes, and not to what only a
 *    signed-in person may do (`403 insufficient_scope`, after the budget: refusals spend it too).
 * 11. `route`: the request has reached its route (its template labels the metrics from here).
 * 12. `body`: a write's JSON body (415, 413, 400 before anything runs).
 *
 * Steps 1, 2, 4 and 5 run for the routes outside `/v1` too (the probes, the docs, the web client).
 */
export function requestSteps(deps: StepDeps): Step[] {
  const { observe, isDraining, loadShedder, rateLimits } = deps;
  const steps: (Step | undefined)[] = [
    requestIdStep,
    {
      name: 'metrics',
      everywhere: true,
      run: (s) => {
        s.started = performance.now();
        return undefined;
      },
      after: (s) => observe(s.method, s.label, s.res.statusCode, s.started),
    },
    deps.corsOrigins && deps.corsOrigins.length > 0 ? corsStep(deps.corsOrigins) : undefined,
    loadShedder && {
      name: 'shed',
      everywhere: true,
      run: (s) => {
        loadShedder(s.req, s.res);
        return undefined;
      },
    },
    isDraining && {
      name: 'drain',
      everywhere: true,
      run: (s) => {
        if (isDraining() && !isProbePath(s.url)) {
          throw unavailable('This instance is shutting down; retry.', 1);
        }
        return undefined;
      },
    },
    {
      name: 'cacheControl',
      run: (s) => {
        const { method } = s.req;
        if ((method === 'GET' || method === 'HEAD') && s.route.access !== 'open') {
          s.res.setHeader('Cache-Control', 'private, no-cache');
        }
        return undefined;
      },
    },
    rateLimits && {
      name: 'perIp',
      run: (s) => (AUTH_PATH.test(s.url) ? rateLimits.perIp.spend(s.ip ?? 'unknown', s.res) : undefined),
    },
    authenticationStep(deps.tokens, deps.isRevoked, deps.apiKeys),
    rateLimits && {
      name: 'perUser',
      run: (s) => {
        if (s.route.access !== 'user') return undefined;
        // A key's budget is its own (`key:` ids never collide with user ids): a script cannot spend its user's.
        return rateLimits.perUser.spend(s.apiKeyId === undefined ? s.userId : `key:${s.apiKeyId}`, s.res);
      },
    },
    {
      name: 'keyScope',
      run: (s) => {
        if (s.apiKeyId !== undefined) assertKeyMayCall(s.route.operationId, s.method, s.apiKeyScopes);
        return undefined;
      },
    },
    {
      name: 'route',
      run: (s) => {
        s.label = s.route.path;
        return undefined;
      },
    },
    {
      name: 'body',
      run: (s) => {
        const max = s.route.maxBodyBytes;
        if (max === undefined) return undefined;
        return readJsonBody(s.req, s.res, max, s);
      },
    },
    ...(deps.extraSteps ?? []),
  ];
  return steps.filter((step): step is Step => step !== undefined);
}
