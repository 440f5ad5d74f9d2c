import type { Redis } from 'ioredis';
import type { ClaimResult, IdempotencyEntry, IdempotencyStore } from './idempotency-store';
import { livenessKeyPrefix } from './liveness';

// Values are JSON: {"s":"p","f":fingerprint,"o":token,"p":processId} while in progress,
// {"s":"c","f":…,"r":response} when done. Every script runs atomically inside Redis.

// Claim: SET NX; else read; a lease whose owner's liveness mark is gone is taken over in the same
// script, so two retries can never both take it. ARGV: value, lease ms, the liveness key prefix
// (with the client's own key prefix: keys built inside a script do not get it). A lease without a
// process id (written before leases named one) only expires.
// Note: the liveness key is not declared in KEYS, which Redis Cluster would refuse (cross-slot).
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1} end
local raw = redis.call('GET', KEYS[1])
if not raw then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {1}
end
local v = cjson.decode(raw)
if v['s'] == 'p' and type(v['p']) == 'string' and redis.call('EXISTS', ARGV[3] .. v['p']) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {2, v['p']}
end
return {0, raw}
`;
// The compare-and-set scripts check the owner token.
const OWNED = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local v = cjson.decode(raw)
if v['s'] ~= 'p' or v['o'] ~= ARGV[1] then return 0 end
`;
const EXTEND = `${OWNED} redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1`;
const COMPLETE = `${OWNED} redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1`;
const RELEASE = `${OWNED} redis.call('DEL', KEYS[1]) return 1`;
// Complete (as above), then publish every ARGV pair from the 4th on (channel, message) whatever the
// compare-and-set found: one round trip for the record and the write's notifications.
const COMPLETE_PUBLISH = `
local done = 0
local raw = redis.call('GET', KEYS[1])
if raw then
  local v = cjson.decode(raw)
  if v['s'] == 'p' and v['o'] == ARGV[1] then
    redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
    done = 1
  end
end
for i = 4, #ARGV, 2 do redis.call('PUBLISH', ARGV[i], ARGV[i + 1]) end
return done
`;

type Scripted = Redis & {
  tallyIdemClaim(
    key: string,
    value: string,
    leaseMs: number,
    alivePrefix: string,
  ): Promise<[number, string?]>;
  tallyIdemExtend(key: string, token: string, leaseMs: number): Promise<number>;
  tallyIdemComplete(key: string, token: string, value: string, ttlMs: number): Promise<number>;
  tallyIdemRelease(key: string, token: string): Promise<number>;
  tallyIdemCompletePublish(
    key: string,
    token: string,
    value: string,
    ttlMs: number,
    ...publications: string[]
  ): Promise<number>;
};

function decode(raw: string): IdempotencyEntry {
  const v = JSON.parse(raw) as {
    s: 'p' | 'c';
    f: string;
    o?: string;
    p?: string;
    r?: IdempotencyEntry & { state: 'completed' };
  };
  return v.s === 'p'
    ? { state: 'in_progress', fingerprint: v.f, owner: v.o ?? '', processId: v.p }
    : { state: 'completed', fingerprint: v.f, response: v.r as never };
}

/**
 * The fleet's idempotency store: one Lua script claims (or takes over a dead process's lease);
 * extend, complete (optionally with the write's notifications) and release are Lua compare-and-set
 * on the owner token. Receives its client;
 * never opens a connection. `keyPrefix` must be the one the processes' liveness marks use.
 */
export function createRedisIdempotencyStore(options: { redis: Redis; keyPrefix?: string }): IdempotencyStore {
  const redis = options.redis as Scripted;
  const prefix = options.keyPrefix ?? 'idem:';
  if (typeof redis.tallyIdemCompletePublish !== 'function') {
    redis.defineCommand('tallyIdemClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('tallyIdemExtend', { numberOfKeys: 1, lua: EXTEND });
    redis.defineCommand('tallyIdemComplete', { numberOfKeys: 1, lua: COMPLETE });
    redis.defineCommand('tallyIdemRelease', { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand('tallyIdemCompletePublish', { numberOfKeys: 1, lua: COMPLETE_PUBLISH });
  }
  const keyOf = (scope: string) => `${prefix}${scope}`;
  const alivePrefix = `${redis.options.keyPrefix ?? ''}${livenessKeyPrefix(prefix)}`;

  return {
    async claim(scope, fingerprint, owner, leaseMs): Promise<ClaimResult> {
      const value = JSON.stringify({ s: 'p', f: fingerprint, o: owner.token, p: owner.processId });
      const [code, detail] = await redis.tallyIdemClaim(keyOf(scope), value, leaseMs, alivePrefix);
      if (code === 1) return { claimed: true };
      if (code === 2) return { claimed: true, tookOverFrom: detail ?? '' };
      return { claimed: false, entry: decode(detail ?? '') };
    },
    async extend(scope, token, leaseMs) {
      return (await redis.tallyIdemExtend(keyOf(scope), token, leaseMs)) === 1;
    },
    async complete(scope, token, fingerprint, response, ttlMs) {
      const value = JSON.stringify({ s: 'c', f: fingerprint, r: response });
      return (await redis.tallyIdemComplete(keyOf(scope), token, value, ttlMs)) === 1;
    },
    async completeAndPublish(scope, token, fingerprint, response, ttlMs, publications) {
      const value = JSON.stringify({ s: 'c', f: fingerprint, r: response });
      const pairs = publications.flatMap((p) => [p.channel, p.message]);
      return (await redis.tallyIdemCompletePublish(keyOf(scope), token, value, ttlMs, ...pairs)) === 1;
    },
    async release(scope, token) {
      return (await redis.tallyIdemRelease(keyOf(scope), token)) === 1;
    },
  };
}
