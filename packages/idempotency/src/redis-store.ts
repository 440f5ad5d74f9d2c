import type { Redis } from 'ioredis';
import type { ClaimResult, IdempotencyEntry, IdempotencyStore } from './idempotency-store';

// Values are JSON: {"s":"p","f":fingerprint,"o":owner} while in progress, {"s":"c","f":…,"r":response} when done.
// The compare-and-set scripts check the owner token inside Redis, atomically.
const OWNED = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local v = cjson.decode(raw)
if v['s'] ~= 'p' or v['o'] ~= ARGV[1] then return 0 end
`;
const EXTEND = `${OWNED} redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1`;
const COMPLETE = `${OWNED} redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1`;
const RELEASE = `${OWNED} redis.call('DEL', KEYS[1]) return 1`;

type Scripted = Redis & {
  tallyIdemExtend(key: string, owner: string, leaseMs: number): Promise<number>;
  tallyIdemComplete(key: string, owner: string, value: string, ttlMs: number): Promise<number>;
  tallyIdemRelease(key: string, owner: string): Promise<number>;
};

function decode(raw: string): IdempotencyEntry {
  const v = JSON.parse(raw) as {
    s: 'p' | 'c';
    f: string;
    o?: string;
    r?: IdempotencyEntry & { state: 'completed' };
  };
  return v.s === 'p'
    ? { state: 'in_progress', fingerprint: v.f, owner: v.o ?? '' }
    : { state: 'completed', fingerprint: v.f, response: v.r as never };
}

/**
 * The fleet's idempotency store: claim with `SET NX PX` and an owner token; extend, complete and
 * release as Lua compare-and-set on that token. Receives its client; never opens a connection.
 */
export function createRedisIdempotencyStore(options: { redis: Redis; keyPrefix?: string }): IdempotencyStore {
  const redis = options.redis as Scripted;
  const prefix = options.keyPrefix ?? 'idem:';
  if (typeof redis.tallyIdemExtend !== 'function') {
    redis.defineCommand('tallyIdemExtend', { numberOfKeys: 1, lua: EXTEND });
    redis.defineCommand('tallyIdemComplete', { numberOfKeys: 1, lua: COMPLETE });
    redis.defineCommand('tallyIdemRelease', { numberOfKeys: 1, lua: RELEASE });
  }
  const keyOf = (scope: string) => `${prefix}${scope}`;

  return {
    async claim(scope, fingerprint, owner, leaseMs): Promise<ClaimResult> {
      const key = keyOf(scope);
      const value = JSON.stringify({ s: 'p', f: fingerprint, o: owner });
      // A record can expire between a failed SET NX and the GET: then try again.
      for (let attempt = 0; attempt < 3; attempt++) {
        if ((await redis.set(key, value, 'PX', leaseMs, 'NX')) === 'OK') return { claimed: true };
        const raw = await redis.get(key);
        if (raw !== null) return { claimed: false, entry: decode(raw) };
      }
      throw new Error('idempotency claim did not settle');
    },
    async extend(scope, owner, leaseMs) {
      return (await redis.tallyIdemExtend(keyOf(scope), owner, leaseMs)) === 1;
    },
    async complete(scope, owner, fingerprint, response, ttlMs) {
      const value = JSON.stringify({ s: 'c', f: fingerprint, r: response });
      return (await redis.tallyIdemComplete(keyOf(scope), owner, value, ttlMs)) === 1;
    },
    async release(scope, owner) {
      return (await redis.tallyIdemRelease(keyOf(scope), owner)) === 1;
    },
  };
}
