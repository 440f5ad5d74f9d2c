import { AppError, createIgnoredErrors, type IgnoredErrors } from '@tally/http-kit';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { ipKeyOf, loginThrottledCounter } from '../auth/login-throttle';

/**
 * Failed API-key attempts per client IP (API.md §2.6), in the manner of login throttling (§2.2):
 * `freeFailures` failures a window, then every key request from that IP is `429 rate_limited` with
 * `Retry-After` until the window (which starts at its first failure) ends.
 *
 * Only failures are counted, so a key that works costs no Redis round trip. A failure counts in
 * Redis (shared by every instance; one script, one key, so a Redis Cluster works) and answers
 * whether the IP is now locked; this process then refuses that IP's key requests from memory, before
 * any lookup, until the lock ends. Another process learns of the lock at its first failure from the
 * IP: past the free failures, a guesser gets at most one lookup per process per window.
 * Without Redis, and for a call Redis failed (`ignoredErrors('key_failures')`), this process counts.
 */

/** Counts one failure on KEYS[1]; ARGV[1]: the window (ms). Returns { the count, the window's ms left }. */
const FAIL = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

type Scripted = (Redis | Cluster) & {
  tallyKeyFailure(key: string, windowMs: number): Promise<[number, number]>;
};

export type KeyFailuresOptions = {
  redis?: Redis | Cluster | undefined;
  /** Failed key attempts per IP a window before its key requests are refused. @default 20 */
  freeFailures?: number;
  /** The window, from an IP's first failure. @default 900 */
  windowSeconds?: number;
  registry?: Registry;
  logger?: Logger;
  ignoredErrors?: IgnoredErrors;
};

export type KeyFailures = {
  /** Throws `429` when this process knows `ip` is locked (no lookup is made then). */
  check(ip: string | undefined): void;
  /** Counts a failed attempt from `ip`; throws `429` if that locks it. */
  fail(ip: string | undefined): Promise<void>;
};

export function createKeyFailures(options: KeyFailuresOptions = {}): KeyFailures {
  const free = options.freeFailures ?? 20;
  const windowMs = (options.windowSeconds ?? 900) * 1000;
  const redis = options.redis as Scripted | undefined;
  if (redis && typeof redis.tallyKeyFailure !== 'function') {
    redis.defineCommand('tallyKeyFailure', { numberOfKeys: 1, lua: FAIL });
  }
  const ignored =
    options.ignoredErrors ?? createIgnoredErrors({ logger: options.logger, registry: options.registry });
  const throttled = loginThrottledCounter(options.registry);
  /** IP key → { failures counted here, when the window ends }; a lock is `n > free`. */
  const windows = new Map<string, { n: number; endsAt: number }>();

  // Ended windows are swept once 10,000 are kept, at most every 10 s (a flood of IPs costs no scan per request).
  let sweptAt = 0;
  const sweep = (now: number) => {
    if (windows.size < 10_000 || now - sweptAt < 10_000) return;
    sweptAt = now;
    for (const [key, w] of windows) if (w.endsAt <= now) windows.delete(key);
  };

  const refuse = (waitMs: number) => {
    throttled.inc({ scope: 'api_key' });
    return new AppError('rate_limited', 429, 'Too many failed API key attempts; wait and retry later.', {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) },
    });
  };

  const countHere = (key: string, now: number) => {
    const current = windows.get(key);
    const w = current && current.endsAt > now ? current : { n: 0, endsAt: now + windowMs };
    w.n++;
    windows.set(key, w);
    return w;
  };

  return {
    check(ip) {
      const now = Date.now();
      const w = windows.get(ipKeyOf(ip));
      if (w && w.endsAt > now && w.n > free) throw refuse(w.endsAt - now);
    },
    async fail(ip) {
      const key = ipKeyOf(ip);
      const now = Date.now();
      sweep(now);
      let w: { n: number; endsAt: number } | undefined;
      if (redis) {
        try {
          const [n, ttl] = await redis.tallyKeyFailure(`kf:ip:${key}`, windowMs);
          w = { n: Number(n), endsAt: now + Number(ttl) };
          windows.set(key, w);
        } catch (error) {
          ignored('key_failures', error, {});
        }
      }
      w ??= countHere(key, now);
      if (w.n > free) throw refuse(w.endsAt - now);
    },
  };
}
