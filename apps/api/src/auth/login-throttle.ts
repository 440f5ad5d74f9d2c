import { isIPv6 } from 'node:net';
import { AppError, createIgnoredErrors, type IgnoredErrors } from '@tally/http-kit';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import { sha256Hex } from '../sha256';

/**
 * Login throttling (API.md §2, OWASP Authentication Cheat Sheet): per account (the normalised
 * email, whether or not it has an account) and per client IP, a number of free attempts, then each
 * further attempt locks the key for a doubling delay (`firstDelaySeconds`, 1 s by default, then 2 s,
 * 4 s … up to `maxDelaySeconds`).
 *
 * Every login attempt is counted up front, before the password is hashed, so a burst of parallel
 * guesses cannot slip past the count: an attempt that finds its key locked is refused (429, no hash)
 * and not counted; one that finds it open is counted, and the count past the free ones locks the key
 * for the next attempts. A successful login takes its count back: the account's counter is reset
 * and the IP's goes down by one (so users behind one NAT who sign in do not spend its allowance).
 * A key's count is forgotten `decaySeconds` after its last counted attempt (or its lock's end).
 *
 * In a fleet the counters live in Redis (one key per counter, one Lua script per call, so a Redis
 * Cluster works); without Redis, and for a call Redis failed (`ignoredErrors('login_throttle')`),
 * they live in this process.
 */

/** The metric of refusals: by `scope`, `account` and `ip` here, `auth_budget` for the per-IP request budget. */
export const LOGIN_THROTTLED_METRIC = 'login_throttled_total';

export type ThrottleScope = 'account' | 'ip' | 'auth_budget';

/** `login_throttled_total{scope}` on `registry`, registered once and shared. */
export function loginThrottledCounter(registry: Registry | undefined): Counter<'scope'> {
  const existing = registry?.getSingleMetric(LOGIN_THROTTLED_METRIC);
  if (existing) return existing as Counter<'scope'>;
  return new Counter({
    name: LOGIN_THROTTLED_METRIC,
    help: 'Login and /v1/auth attempts refused with 429, by scope (account, ip, auth_budget)',
    labelNames: ['scope'] as const,
    registers: registry ? [registry] : [],
  });
}

/**
 * Counts one attempt on KEYS[1] (a hash: `n` attempts, `until` ms of the lock's end), at Redis's
 * clock so every instance agrees. ARGV: free attempts, the largest delay (ms), the decay (ms), the
 * first delay (ms).
 * Returns { ms of the lock still to run (the attempt is refused, not counted) or 0 (counted), the
 * lock's end before this attempt (to take the attempt back) }.
 */
const ATTEMPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local until_ = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if until_ > now then return {until_ - now, until_} end
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
local free = tonumber(ARGV[1])
local keep = tonumber(ARGV[3])
if n > free then
  local delay = tonumber(ARGV[4]) * (2 ^ math.min(n - free - 1, 40))
  if delay > tonumber(ARGV[2]) then delay = tonumber(ARGV[2]) end
  redis.call('HSET', KEYS[1], 'until', now + delay)
  keep = keep + delay
end
redis.call('PEXPIRE', KEYS[1], keep)
return {0, until_}
`;

/** Takes one counted attempt back from KEYS[1], with the lock it may have set; ARGV[1]: the lock's end before it. */
const REFUND = `
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
if n <= 1 then redis.call('DEL', KEYS[1]) return 0 end
n = redis.call('HINCRBY', KEYS[1], 'n', -1)
if tonumber(ARGV[1]) > 0 then redis.call('HSET', KEYS[1], 'until', ARGV[1]) else redis.call('HDEL', KEYS[1], 'until') end
return n
`;

type Scripted = (Redis | Cluster) & {
  tallyLoginAttempt(
    key: string,
    free: number,
    maxDelayMs: number,
    decayMs: number,
    firstDelayMs: number,
  ): Promise<[number, number]>;
  tallyLoginRefund(key: string, previousUntil: number): Promise<number>;
};

/** What one key said of an attempt: ms to wait (0: counted) and the lock's end before it. */
type Counted = { waitMs: number; previousUntil: number };

export type LoginThrottleOptions = {
  /** Shared by every instance; absent in the embedded default (counted in this process). */
  redis?: Redis | Cluster | undefined;
  /** Attempts per account (normalised email) before delays start. @default 5 */
  accountFreeFailures?: number;
  /** Attempts per client IP before delays start (larger: NAT). @default 20 */
  ipFreeFailures?: number;
  /** The first delay; each further one doubles. @default 1 */
  firstDelaySeconds?: number;
  /** The longest delay. @default 900 */
  maxDelaySeconds?: number;
  /** A counter is forgotten this long after its last counted attempt. @default 900 */
  decaySeconds?: number;
  registry?: Registry;
  logger?: Logger;
  /** A Redis call that failed (`login_throttle`, with its `scope`): counted by this process alone. */
  ignoredErrors?: IgnoredErrors;
};

type Entry = { n: number; until: number; expiresAt: number };

/** Per process: the same counting as the scripts, in a Map swept of expired entries. */
function memoryStore() {
  const entries = new Map<string, Entry>();
  let sweptAt = 0;
  const live = (key: string, now: number) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    attempt(key: string, free: number, maxDelayMs: number, decayMs: number, firstDelayMs: number): Counted {
      const now = Date.now();
      if (entries.size > 10_000 && now - sweptAt > 10_000) {
        sweptAt = now;
        for (const [k, e] of entries) if (e.expiresAt <= now) entries.delete(k);
      }
      const entry = live(key, now) ?? { n: 0, until: 0, expiresAt: 0 };
      const previousUntil = entry.until;
      if (entry.until > now) return { waitMs: entry.until - now, previousUntil };
      entry.n++;
      let keep = decayMs;
      if (entry.n > free) {
        const delay = Math.min(firstDelayMs * 2 ** Math.min(entry.n - free - 1, 40), maxDelayMs);
        entry.until = now + delay;
        keep += delay;
      }
      entry.expiresAt = now + keep;
      entries.set(key, entry);
      return { waitMs: 0, previousUntil };
    },
    refund(key: string, previousUntil: number): void {
      const entry = live(key, Date.now());
      if (!entry) return;
      if (entry.n <= 1) {
        entries.delete(key);
        return;
      }
      entry.n--;
      entry.until = previousUntil;
    },
    reset(key: string): void {
      entries.delete(key);
    },
  };
}

/**
 * The IP a counter is kept for: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its
 * /64 (one subscriber usually holds a whole /64).
 */
export function ipKeyOf(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

export type LoginThrottle = {
  /**
   * Counts a login attempt for `email` (normalised) from `ip`; throws `429 rate_limited` with
   * `Retry-After` when either key is locked (then nothing is counted and no password is hashed).
   * Call `succeeded()` on the answer when the password was right.
   */
  attempt(email: string, ip: string | undefined): Promise<{ succeeded(): Promise<void> }>;
};

export function createLoginThrottle(options: LoginThrottleOptions = {}): LoginThrottle {
  const accountFree = options.accountFreeFailures ?? 5;
  const ipFree = options.ipFreeFailures ?? 20;
  const firstDelayMs = (options.firstDelaySeconds ?? 1) * 1000;
  const maxDelayMs = (options.maxDelaySeconds ?? 900) * 1000;
  const decayMs = (options.decaySeconds ?? 900) * 1000;
  const redis = options.redis as Scripted | undefined;
  if (redis && typeof redis.tallyLoginAttempt !== 'function') {
    redis.defineCommand('tallyLoginAttempt', { numberOfKeys: 1, lua: ATTEMPT });
    redis.defineCommand('tallyLoginRefund', { numberOfKeys: 1, lua: REFUND });
  }
  const ignored =
    options.ignoredErrors ?? createIgnoredErrors({ logger: options.logger, registry: options.registry });
  const throttled = loginThrottledCounter(options.registry);
  const memory = memoryStore();

  type Scope = 'account' | 'ip';
  const freeOf = (scope: Scope) => (scope === 'account' ? accountFree : ipFree);

  const attemptOn = async (scope: Scope, key: string): Promise<Counted> => {
    if (redis) {
      try {
        const [waitMs, previousUntil] = await redis.tallyLoginAttempt(
          key,
          freeOf(scope),
          maxDelayMs,
          decayMs,
          firstDelayMs,
        );
        return { waitMs: Number(waitMs), previousUntil: Number(previousUntil) };
      } catch (error) {
        ignored('login_throttle', error, { scope });
      }
    }
    return memory.attempt(key, freeOf(scope), maxDelayMs, decayMs, firstDelayMs);
  };

  const refundOn = async (scope: Scope, key: string, previousUntil: number): Promise<void> => {
    if (redis) {
      try {
        await redis.tallyLoginRefund(key, previousUntil);
        return;
      } catch (error) {
        ignored('login_throttle', error, { scope });
      }
    }
    memory.refund(key, previousUntil);
  };

  const resetOn = async (scope: Scope, key: string): Promise<void> => {
    if (redis) {
      try {
        await redis.del(key);
        return;
      } catch (error) {
        ignored('login_throttle', error, { scope });
      }
    }
    memory.reset(key);
  };

  const refuse = (scope: Scope, waitMs: number) => {
    throttled.inc({ scope });
    const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
    return new AppError('rate_limited', 429, 'Too many sign-in attempts; wait and retry later.', {
      headers: { 'Retry-After': seconds },
    });
  };

  return {
    async attempt(email, ip) {
      const accountKey = `lt:account:${sha256Hex(email.trim().toLowerCase())}`;
      const ipKey = `lt:ip:${ipKeyOf(ip)}`;
      // Both at once (one round trip); a key that counted while the other refused takes it back.
      const [byIp, byAccount] = await Promise.all([attemptOn('ip', ipKey), attemptOn('account', accountKey)]);
      if (byIp.waitMs > 0 || byAccount.waitMs > 0) {
        await Promise.all([
          byIp.waitMs === 0 ? refundOn('ip', ipKey, byIp.previousUntil) : undefined,
          byAccount.waitMs === 0 ? refundOn('account', accountKey, byAccount.previousUntil) : undefined,
        ]);
        throw byAccount.waitMs >= byIp.waitMs
          ? refuse('account', byAccount.waitMs)
          : refuse('ip', byIp.waitMs);
      }
      return {
        succeeded: async () => {
          await Promise.all([resetOn('account', accountKey), refundOn('ip', ipKey, byIp.previousUntil)]);
        },
      };
    },
  };
}
