import type { Cluster, Redis } from 'ioredis';

/**
 * Who is connected to a group, across every gateway. Each entry is one connection's
 * subscription, kept alive by heartbeats: a gateway that dies stops refreshing, and its entries
 * expire on their own.
 */
export type PresenceStore = {
  /** Adds or refreshes the entry of one connection in one group for `ttlMs`. */
  touch(groupId: string, connectionId: string, userId: string, ttlMs: number): Promise<void>;
  remove(groupId: string, connectionId: string): Promise<void>;
  /** Distinct user ids with a live entry, sorted. */
  online(groupId: string): Promise<string[]>;
};

const SEPARATOR = '|';
const usersOf = (members: string[]) =>
  [...new Set(members.map((m) => m.slice(m.indexOf(SEPARATOR) + 1)))].sort();

/**
 * Presence in Redis: one sorted set per group, member `connectionId|userId`, score = expiry time.
 * Every operation touches that one key. On a cluster (`hashTag`) the key is `presence:{<groupId>}`,
 * in the slot of the group's sharded channel, so one shard carries all of a group's traffic; on a
 * single node it stays `presence:<groupId>`, the name older processes use.
 */
export function createRedisPresenceStore(options: {
  redis: Redis | Cluster;
  keyPrefix?: string;
  hashTag?: boolean;
}): PresenceStore {
  const { redis } = options;
  const prefix = options.keyPrefix ?? 'presence:';
  const keyOf = options.hashTag
    ? (groupId: string) => `${prefix}{${groupId}}`
    : (groupId: string) => `${prefix}${groupId}`;
  return {
    async touch(groupId, connectionId, userId, ttlMs) {
      const key = keyOf(groupId);
      await redis
        .multi()
        .zadd(key, Date.now() + ttlMs, `${connectionId}${SEPARATOR}${userId}`)
        .pexpire(key, ttlMs * 2)
        .exec();
    },
    async remove(groupId, connectionId) {
      const key = keyOf(groupId);
      const members = await redis.zrange(key, 0, -1);
      const mine = members.filter((m) => m.startsWith(`${connectionId}${SEPARATOR}`));
      if (mine.length > 0) await redis.zrem(key, ...mine);
    },
    async online(groupId) {
      const key = keyOf(groupId);
      const now = Date.now();
      const result = await redis
        .multi()
        .zremrangebyscore(key, '-inf', now)
        .zrangebyscore(key, now, '+inf')
        .exec();
      const members = (result?.[1]?.[1] as string[] | undefined) ?? [];
      return usersOf(members);
    },
  };
}

/** Presence of the embedded default: the same semantics inside one process. */
export function createMemoryPresenceStore(): PresenceStore {
  const groups = new Map<string, Map<string, { userId: string; expiresAt: number }>>();
  return {
    async touch(groupId, connectionId, userId, ttlMs) {
      const entries = groups.get(groupId) ?? new Map();
      entries.set(connectionId, { userId, expiresAt: Date.now() + ttlMs });
      groups.set(groupId, entries);
    },
    async remove(groupId, connectionId) {
      const entries = groups.get(groupId);
      entries?.delete(connectionId);
      if (entries?.size === 0) groups.delete(groupId);
    },
    async online(groupId) {
      const entries = groups.get(groupId);
      if (!entries) return [];
      const now = Date.now();
      for (const [connectionId, entry] of entries) if (entry.expiresAt <= now) entries.delete(connectionId);
      return usersOf([...entries].map(([connectionId, e]) => `${connectionId}${SEPARATOR}${e.userId}`));
    },
  };
}
