import { AppError, createIgnoredErrors, type IgnoredErrors } from '@tally/http-kit';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { loginThrottledCounter } from '../auth/login-throttle';

const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;

/**
 * An instance reserves at most this share of what is left of a budget at a time: an instance holds
 * in reserve at most 1/16 of what is left, so a budget near its end is reserved one point at a
 * time, which makes the last points, and the 429, exact across the fleet.
 */
const RESERVE_DIVISOR = 16;
/** And at most this many points at a time: one Redis round trip per 64 requests of a busy user. */
const MAX_RESERVATION = 64;
/** Leases of ended windows are swept once this many are kept, at most every 10 s. */
const SWEEP_AT = 10_000;
const SWEEP_EVERY_MS = 10_000;

/**
 * Reserves points of a window's budget (KEYS[1], the window's counter): up to 1/ARGV[3] of what is
 * left, at most ARGV[4], at least 1. The first reservation of a window starts it (ARGV[2] ms).
 * Returns { the count after this reservation, the points granted (0: spent), the window's ms left }.
 */
const RESERVE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
local granted = 0
if used < limit then
  granted = math.floor((limit - used) / tonumber(ARGV[3]))
  if granted < 1 then granted = 1 end
  if granted > tonumber(ARGV[4]) then granted = tonumber(ARGV[4]) end
  used = redis.call('INCRBY', KEYS[1], granted)
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {used, granted, ttl}
`;

type Scripted = (Redis | Cluster) & {
  tallyRateReserve(
    key: string,
    limit: number,
    windowMs: number,
    divisor: number,
    max: number,
  ): Promise<[number, number, number]>;
};

export type RateLimitOptions = {
  /**
   * Shared by every instance through Redis; absent in the embedded default (in-process counters).
   * A Redis Cluster works as is: each counter is one key (`rl:<limiter>:<id>`) and the one Lua
   * script that reserves from it declares it, so it runs on that key's shard.
   */
  redis?: Redis | Cluster | undefined;
  pointsPerMinute: number;
  /**
   * The per-IP budget of `/v1/auth/*` (`AUTH_RATE_LIMIT_PER_MINUTE`), distinct from the general
   * one; its refusals also count in `login_throttled_total{scope="auth_budget"}`. @default pointsPerMinute
   */
  authPointsPerMinute?: number;
  registry?: Registry;
  logger?: Logger;
  /**
   * A reservation Redis did not answer (`rate_limit_reservation`, each one, with its `limiter`): that
   * request is counted by this instance alone. @default createIgnoredErrors({ logger, registry })
   */
  ignoredErrors?: IgnoredErrors;
};

/** Where a budget's headers go (a response). */
type HeaderSink = { setHeader(name: string, value: string): unknown };

/**
 * One budget: `spend` takes a point of `key`'s window (a user id, a client IP), sets the
 * `RateLimit-*` headers on `res`, or throws `429 rate_limited` once the window's budget is spent.
 */
export type Budget = { spend(key: string, res: HeaderSink): Promise<void> };

/** What one request's check found: allowed or not, and what its headers say. */
type Verdict = { allowed: boolean; remaining: number; resetMs: number };

type Limiter = { consume(key: string): Promise<Verdict> };

/** Per process: the budget counted here alone (the embedded default, and while Redis is away). */
function memoryLimiter(keyPrefix: string, points: number): Limiter {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
  return {
    async consume(key) {
      try {
        const r = await memory.consume(key);
        return { allowed: true, remaining: r.remainingPoints, resetMs: r.msBeforeNext };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        return { allowed: false, remaining: 0, resetMs: error.msBeforeNext };
      }
    },
  };
}

/** Points this instance reserved from a window's shared budget and has not spent yet. */
type Lease = {
  /** Reserved here, not yet spent. */
  credit: number;
  /** The window's shared count after this instance's last reservation. */
  used: number;
  /** When the window ends (ms since the epoch). */
  endsAt: number;
};

/**
 * The fleet's budget, counted in Redis without a round trip per request: each instance reserves
 * points of a user's window ahead (a share of what is left, see RESERVE_DIVISOR) and spends them
 * locally; a budget found spent answers 429 from memory until its window ends. Every point is
 * spent at most once fleet-wide, so no user gets more than the limit; an instance that stops
 * with points in reserve takes them with it until the window ends (at most 1/16 of what was left).
 * `RateLimit-Remaining` counts what the fleet has not reserved plus this instance's reserve (an
 * instance does not see the others' reserves). While Redis fails, `fallback` counts per instance.
 */
function leasedLimiter(
  redis: Scripted,
  keyPrefix: string,
  points: number,
  fallback: Limiter,
  ignored: IgnoredErrors,
): Limiter {
  const leases = new Map<string, Lease>();
  const reserving = new Map<string, Promise<void>>();
  let sweptAt = 0;

  const sweep = (now: number) => {
    if (leases.size < SWEEP_AT || now - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now;
    for (const [key, lease] of leases) if (lease.endsAt <= now) leases.delete(key);
  };

  const reserve = (key: string): Promise<void> => {
    // The script ran after this instant: counted from it, the window ends here no later than in
    // Redis, so no point reserved in one window is spent in the next.
    const sentAt = Date.now();
    const pending = redis
      .tallyRateReserve(`${keyPrefix}:${key}`, points, WINDOW_MS, RESERVE_DIVISOR, MAX_RESERVATION)
      .then(([used, granted, ttl]) => {
        const now = Date.now();
        sweep(now);
        const lease = leases.get(key);
        // Left-over credit of the same window stays spendable (a reservation raced a refill).
        const credit = lease && lease.endsAt > now ? lease.credit : 0;
        leases.set(key, {
          credit: credit + Number(granted),
          used: Number(used),
          endsAt: sentAt + Number(ttl),
        });
      })
      .finally(() => reserving.delete(key));
    reserving.set(key, pending);
    return pending;
  };

  return {
    async consume(key) {
      // Each pass either answers or waits for a reservation, and every reservation grants points or
      // finds the budget spent: the loop ends.
      for (;;) {
        const now = Date.now();
        const lease = leases.get(key);
        if (lease !== undefined && lease.endsAt > now) {
          if (lease.credit > 0) {
            lease.credit--;
            return {
              allowed: true,
              remaining: Math.max(0, points - lease.used + lease.credit),
              resetMs: lease.endsAt - now,
            };
          }
          // Spent fleet-wide: a window's count only grows until it ends.
          if (lease.used >= points) return { allowed: false, remaining: 0, resetMs: lease.endsAt - now };
        }
        try {
          await (reserving.get(key) ?? reserve(key));
        } catch (err) {
          ignored('rate_limit_reservation', err, { limiter: keyPrefix });
          return fallback.consume(key);
        }
      }
    },
  };
}

/**
 * Per-user (and, on `/v1/auth/*`, per-IP) budgets of API.md §9: `RATE_LIMIT_PER_MINUTE` requests
 * per fixed minute window. In a fleet the counters live in Redis, so one budget spans every
 * instance (reserved ahead in small shares, so a request rarely waits for Redis); if Redis fails,
 * each instance falls back to its own in-memory counters rather than refusing or ignoring limits.
 */
export function createRateLimits(options: RateLimitOptions) {
  const { pointsPerMinute } = options;
  const redis = options.redis as Scripted | undefined;
  if (redis && typeof redis.tallyRateReserve !== 'function') {
    redis.defineCommand('tallyRateReserve', { numberOfKeys: 1, lua: RESERVE });
  }
  const rejected = new Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429, by limiter',
    labelNames: ['limiter'] as const,
    registers: options.registry ? [options.registry] : [],
  });
  const authPointsPerMinute = options.authPointsPerMinute ?? pointsPerMinute;
  const authThrottled = loginThrottledCounter(options.registry);
  const ignored =
    options.ignoredErrors ?? createIgnoredErrors({ logger: options.logger, registry: options.registry });

  const limiter = (name: string, points = pointsPerMinute): Limiter => {
    const memory = memoryLimiter(name, points);
    return redis ? leasedLimiter(redis, `rl:${name}`, points, memory, ignored) : memory;
  };

  const budget = (name: string, store: Limiter, points = pointsPerMinute): Budget => {
    const limit = String(points);
    const spend = async (key: string, res: HeaderSink): Promise<void> => {
      const { allowed, remaining, resetMs } = await store.consume(key);
      const resetSeconds = String(Math.max(1, Math.ceil(resetMs / 1000)));
      if (!allowed) {
        rejected.inc({ limiter: name });
        if (name === 'ip') authThrottled.inc({ scope: 'auth_budget' });
        throw new AppError('rate_limited', 429, 'Too many requests; slow down and retry later.', {
          headers: {
            'RateLimit-Limit': limit,
            'RateLimit-Remaining': '0',
            'RateLimit-Reset': resetSeconds,
            'Retry-After': resetSeconds,
          },
        });
      }
      res.setHeader('RateLimit-Limit', limit);
      res.setHeader('RateLimit-Remaining', String(remaining));
      res.setHeader('RateLimit-Reset', resetSeconds);
    };
    return { spend };
  };

  return {
    /** After authentication: one budget per user (the key: the user id). */
    perUser: budget('user', limiter('user')),
    /**
     * Before the auth routes: one budget per client IP (the key; behind the load balancer,
     * X-Forwarded-For), of `authPointsPerMinute`.
     */
    perIp: budget('ip', limiter('ip', authPointsPerMinute), authPointsPerMinute),
  };
}
