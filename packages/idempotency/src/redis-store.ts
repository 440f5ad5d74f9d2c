import type { Cluster, Redis } from 'ioredis';
import type { ClaimResult, IdempotencyEntry, IdempotencyStore } from './idempotency-store';
import { livenessKeyPrefix } from './liveness';

// Values are JSON: {"s":"p","f":fingerprint,"o":token,"p":processId} while in progress,
// {"s":"c","f":…,"r":response} when done. Every script runs atomically inside Redis and touches
// one key, the scope's (`idem:<scope>`, the scope a SHA-256 hex digest): on a Redis Cluster each
// script runs on the shard of that key's slot, no hash tag needed.

// Claim: SET NX, else what is there.
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1} end
local raw = redis.call('GET', KEYS[1])
if not raw then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {1}
end
return {0, raw}
`;
// Takeover of a dead process's lease, a compare-and-set on the entry as it was read: the caller
// read it (CLAIM), then saw its owner's liveness mark gone, and only that same entry is replaced
// (lease values carry a token unique to each request, so an equal value is the same lease). The
// mark lives in another slot, so no script reads it. ARGV: the entry read, the new value, lease ms.
const TAKEOVER = `
local raw = redis.call('GET', KEYS[1])
if not raw then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return {1}
end
if raw == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return {2}
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
// compare-and-set found: one round trip for the record and the write's notifications. Single node
// only: on a cluster a script may only SPUBLISH to a channel in its key's slot, and a write's group
// is not known when its key is claimed (`PUT /v1/expenses/{id}` names no group), so there the
// record and the SPUBLISHes are sent side by side (see `completeAndPublish`).
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

type Scripted = (Redis | Cluster) & {
  tallyIdemClaim(key: string, value: string, leaseMs: number): Promise<[number, string?]>;
  tallyIdemTakeover(key: string, seen: string, value: string, leaseMs: number): Promise<[number, string?]>;
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

/** How many times a claim re-reads an entry that changed under its takeover before answering with it. */
const TAKEOVER_ATTEMPTS = 3;

/**
 * The fleet's idempotency store: one Lua script claims; a lease whose owner process's liveness mark
 * is gone is taken over by a second, compare-and-set on the entry read; extend, complete
 * (optionally with the write's notifications) and release are Lua compare-and-set on the owner
 * token. Works on a single node and on a Redis Cluster (`redis` a `Cluster`: the notifications
 * are then `SPUBLISH`ed to their sharded channels beside the completion). Receives its client;
 * never opens a connection. `keyPrefix` must be the one the processes' liveness marks use.
 */
export function createRedisIdempotencyStore(options: {
  redis: Redis | Cluster;
  keyPrefix?: string;
}): IdempotencyStore {
  const redis = options.redis as Scripted;
  const prefix = options.keyPrefix ?? 'idem:';
  const cluster = 'isCluster' in redis && redis.isCluster === true;
  if (typeof redis.tallyIdemTakeover !== 'function') {
    redis.defineCommand('tallyIdemClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('tallyIdemTakeover', { numberOfKeys: 1, lua: TAKEOVER });
    redis.defineCommand('tallyIdemExtend', { numberOfKeys: 1, lua: EXTEND });
    redis.defineCommand('tallyIdemComplete', { numberOfKeys: 1, lua: COMPLETE });
    redis.defineCommand('tallyIdemRelease', { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand('tallyIdemCompletePublish', { numberOfKeys: 1, lua: COMPLETE_PUBLISH });
  }
  const keyOf = (scope: string) => `${prefix}${scope}`;
  // Through the client, so its own key prefix applies (as it does to the marks' SET).
  const alivePrefix = livenessKeyPrefix(prefix);
  /** The dead owner of an in-progress entry, if any (a lease naming no process only expires). */
  const deadOwnerOf = async (raw: string): Promise<string | undefined> => {
    const entry = decode(raw);
    if (entry.state !== 'in_progress' || entry.processId === undefined) return undefined;
    return (await redis.exists(`${alivePrefix}${entry.processId}`)) === 0 ? entry.processId : undefined;
  };

  return {
    async claim(scope, fingerprint, owner, leaseMs): Promise<ClaimResult> {
      const key = keyOf(scope);
      const value = JSON.stringify({ s: 'p', f: fingerprint, o: owner.token, p: owner.processId });
      let [code, raw] = await redis.tallyIdemClaim(key, value, leaseMs);
      for (let attempt = 0; code === 0 && attempt < TAKEOVER_ATTEMPTS; attempt++) {
        const seen = raw ?? '';
        const dead = await deadOwnerOf(seen);
        if (dead === undefined) break;
        [code, raw] = await redis.tallyIdemTakeover(key, seen, value, leaseMs);
        if (code === 2) return { claimed: true, tookOverFrom: dead };
      }
      if (code === 1) return { claimed: true };
      return { claimed: false, entry: decode(raw ?? '') };
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
      if (cluster) {
        // Sent together (one auto-pipelined write per shard, so still one round trip of latency),
        // each to its own shard; publishes go out whatever the compare-and-set finds, as below. A
        // failed publish rejects: the layer then leaves the events to the relay.
        const [done] = await Promise.all([
          redis.tallyIdemComplete(keyOf(scope), token, value, ttlMs),
          ...publications.map((p) => redis.spublish(p.channel, p.message)),
        ]);
        return done === 1;
      }
      const pairs = publications.flatMap((p) => [p.channel, p.message]);
      return (await redis.tallyIdemCompletePublish(keyOf(scope), token, value, ttlMs, ...pairs)) === 1;
    },
    async release(scope, token) {
      return (await redis.tallyIdemRelease(keyOf(scope), token)) === 1;
    },
  };
}
