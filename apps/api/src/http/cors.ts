import type { Step } from './pipeline';

/**
 * CORS for `/v1` (API.md §10 `CORS_ORIGINS`), so that a web app on another origin can call the API
 * with the SDK. Credentials are bearer tokens in `Authorization`, never cookies, so
 * `Access-Control-Allow-Credentials` is never sent.
 *
 * - A request whose `Origin` is allowed gets `Access-Control-Allow-Origin` and
 *   `Access-Control-Expose-Headers` (on errors too, so a browser app can read a `429`'s `Retry-After`).
 * - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is answered
 *   here, `204`, before load shedding, the drain check, authentication and the rate limits: it needs
 *   no token and costs no one's budget.
 * - Any other origin gets no CORS header at all, and the request goes on as a same-origin one would
 *   (the browser then withholds the response from the page).
 *
 * Written out rather than taken from the `cors` package: the whole policy is these few lines, with
 * the header lists fixed by the contract, and a dependency would add options to keep safe instead.
 */

/** The methods of the API. */
export const CORS_ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Request headers a page may send beyond the CORS-safelisted ones. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'X-Min-Seq',
  'X-Request-Id',
] as const;
/** Response headers a page may read beyond the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = [
  'Location',
  'ETag',
  'Idempotent-Replayed',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-Request-Id',
  'X-Seq',
] as const;
/** How long a browser may reuse a preflight answer (Chromium caps it at 7200). */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * Exact origins (`https://app.example.com`, as browsers send them: scheme, host, port if not the
 * default, no path) or `'*'` for any origin. An empty list turns CORS off.
 */
export type CorsOrigins = '*' | readonly string[];

const METHODS = CORS_ALLOWED_METHODS.join(', ');
const ALLOWED = CORS_ALLOWED_HEADERS.join(', ');
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ');
const MAX_AGE = String(CORS_MAX_AGE_SECONDS);

/** The CORS step of the request pipeline (http/steps.ts), ahead of every step that can refuse. */
export function corsStep(origins: CorsOrigins): Step {
  const anyOrigin = origins === '*';
  const allowed = new Set(anyOrigin ? [] : origins);
  return {
    name: 'cors',
    run: (s) => {
      const { req, res } = s;
      // The answer depends on Origin unless every origin gets the same one: caches must know.
      if (!anyOrigin) res.setHeader('Vary', 'Origin');
      const origin = req.headers.origin;
      if (origin === undefined || !(anyOrigin || allowed.has(origin))) return undefined;
      res.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
        res.setHeader('Access-Control-Allow-Methods', METHODS);
        res.setHeader('Access-Control-Allow-Headers', ALLOWED);
        res.setHeader('Access-Control-Max-Age', MAX_AGE);
        res.statusCode = 204;
        res.end();
        s.answered = true;
        return undefined;
      }
      res.setHeader('Access-Control-Expose-Headers', EXPOSED);
      return undefined;
    },
  };
}
