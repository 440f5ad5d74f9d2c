import type { HttpMethod } from './types.js';

/** How failed attempts are retried. Every field has a default; see {@link DEFAULT_RETRY_POLICY}. */
export type RetryPolicy = {
  /**
   * Attempts per operation, the first one included. After the last one fails in a retryable way
   * the operation throws `RetryExhaustedError`.
   * @default 5
   */
  maxAttempts: number;
  /**
   * Base of the exponential backoff: before retry n (n = 1, 2, …) the client waits a random time in
   * [0, min(maxDelayMs, baseDelayMs × 2^(n−1))) ("full jitter"), so 1 s, 2 s, 4 s, 8 s … caps.
   * @default 1000
   */
  baseDelayMs: number;
  /**
   * Cap of the backoff window (not of `Retry-After`, which is honoured up to `maxRetryAfterMs`).
   * @default 30000
   */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` the client waits out inside one call. An answer asking for a longer
   * wait (a proxy's `Retry-After: 86400`, say) ends the call at once with its error, whose
   * `retryAfterMs` says when to try again: the app, or the durable outbox, decides, instead of a
   * promise that settles tomorrow.
   * @default 120000
   */
  maxRetryAfterMs: number;
  /**
   * Time limit of one attempt (from sending the request to having read the whole body). A timed-out
   * attempt is retried like a network error.
   * @default 15000
   */
  attemptTimeoutMs: number;
};

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  attemptTimeoutMs: 15_000,
};

/** What one attempt ended with, as far as retrying is concerned. */
export type AttemptOutcome =
  | { kind: 'response'; status: number; code: string | undefined }
  | { kind: 'network-error' }
  | { kind: 'timeout' };

/**
 * Whether an operation may be sent again at all: GET, HEAD, PUT and DELETE are idempotent by HTTP
 * semantics; POST and PATCH only when they carry an `Idempotency-Key` (the server then executes them
 * at most once). A POST without a key is never retried: it might have taken effect.
 */
export function isRetryableRequest(method: HttpMethod, keyed: boolean): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'PUT' || method === 'DELETE') return true;
  return keyed;
}

/**
 * Whether an attempt's outcome is worth another attempt: a timeout, a network error,
 * `409 idempotency_key_in_progress`, `429`, and every 5xx (`503` included).
 */
export function isRetryableOutcome(outcome: AttemptOutcome): boolean {
  if (outcome.kind !== 'response') return true;
  if (outcome.status === 409) return outcome.code === 'idempotency_key_in_progress';
  return outcome.status === 429 || outcome.status >= 500;
}

/**
 * The full-jitter backoff before retry `retry` (1 for the first retry): a random time in
 * [0, min(maxDelayMs, baseDelayMs × 2^(retry−1))).
 */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const window = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * window);
}

/**
 * Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns milliseconds
 * (never negative), or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * The wait before the next attempt: the jittered backoff, but never less than `Retry-After` says.
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const jittered = backoffDelay(retry, policy, random);
  return retryAfterMs === undefined ? jittered : Math.max(jittered, retryAfterMs);
}
