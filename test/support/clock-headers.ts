/**
 * Headers of two answers compared without the clock. `Date` changes with the second, and the
 * seconds left of a rate-limit window (`RateLimit-Reset`, and the `Retry-After` of a 429 that equals
 * it) change when a second boundary falls between two requests (59 vs 60): a test that compares two
 * answers bounds these instead of comparing them, and compares everything else as is.
 */

/** The longest a rate-limit window has left, in seconds (apps/api/src/http/rate-limit.ts: one minute). */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** What a clock-derived header is replaced with, once it is seen to be within its bounds. */
export const WITHIN_WINDOW = `1..${RATE_LIMIT_WINDOW_SECONDS} s`;
export const A_DATE = 'an HTTP date';

type Headers = Record<string, string | string[] | undefined>;

/**
 * `headers` (lower-case names, as supertest and node give them) with the clock-derived ones checked
 * and replaced by a placeholder: `date` must be an HTTP date; `ratelimit-reset` a whole number of
 * seconds within the window, and a `retry-after` equal to it (a 429 of the rate limit) likewise. A
 * header out of its bounds is left as it is, so the comparison that follows shows it. Every other
 * header (a constant `Retry-After: 1` too) is kept for the comparison.
 */
export function withoutClock(headers: Headers): Headers {
  const out: Headers = { ...headers };
  const date = out['date'];
  if (typeof date === 'string' && !Number.isNaN(Date.parse(date))) out['date'] = A_DATE;
  const reset = out['ratelimit-reset'];
  if (typeof reset === 'string' && withinWindow(reset)) {
    out['ratelimit-reset'] = WITHIN_WINDOW;
    if (out['retry-after'] === reset) out['retry-after'] = WITHIN_WINDOW;
  }
  return out;
}

const withinWindow = (seconds: string) =>
  /^\d+$/.test(seconds) && Number(seconds) >= 1 && Number(seconds) <= RATE_LIMIT_WINDOW_SECONDS;
