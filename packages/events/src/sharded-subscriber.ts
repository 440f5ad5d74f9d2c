import { type Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { hashSlot } from './hash-slot';
import { ignoredErrorsOf, type OnIgnoredError } from './ignored-error';

/**
 * Sharded pub/sub subscriptions (`SSUBSCRIBE`, Redis 7+) on a Redis Cluster: one subscriber
 * connection per primary that serves at least one of this process's channels, each channel
 * subscribed on the primary serving its slot.
 */
export type ShardedSubscriber = {
  /** Subscribes to a sharded channel (idempotent). */
  subscribe(channel: string): void;
  unsubscribe(channel: string): void;
  onMessage(listener: (channel: string, message: string) => void): () => void;
  /**
   * Called once channels that had been lost (their shard's connection dropped, a failover, a slot
   * moved) are all subscribed again, acknowledged: messages may have been missed meanwhile.
   */
  onResubscribed(listener: () => void): () => void;
  /** True while the cluster answers and every channel is subscribed, acknowledged, on the primary serving it. */
  isConnected(): boolean;
  /** The primaries (`host:port`) this process holds a subscriber connection to. */
  shards(): string[];
  close(): Promise<void>;
};

export type ShardedSubscriberOptions = {
  /** The process's cluster client: its slot map says which primary serves a channel. */
  cluster: Cluster;
  /** Options of each subscriber connection (credentials, TLS, timeouts); host and port come from the slot map. */
  redisOptions?: RedisOptions;
  logger?: Logger;
  /**
   * How often the channels' placement is compared with the cluster client's slot map (refreshed on
   * its own, `slotsRefreshInterval`). This also moves channels off a primary that vanished without
   * closing the connection (a host gone, no RST): the slot map names its promoted replica. @default 2000
   */
  checkIntervalMs?: number;
  /** How long a connection with no channel left is kept for the next one. @default 10000 */
  idleMs?: number;
  /**
   * A `SUNSUBSCRIBE` that failed (`unsubscribe`), a slot-map refresh that failed while channels wait
   * to be placed again (`slots_refresh`, once per attempt).
   * @default a warn line on `logger` for each
   */
  onIgnoredError?: OnIgnoredError;
};

type Shard = { node: string; redis: Redis; channels: Set<string>; closed: boolean; idle?: NodeJS.Timeout };

const MIN_REPAIR_DELAY_MS = 50;
const MAX_REPAIR_DELAY_MS = 2000;

/**
 * Keeps each channel subscribed on the primary that serves its slot, through failovers and
 * resharding. A shard's connection is never reconnected in place: whatever goes wrong with it
 * (closed, the node refused `SSUBSCRIBE` with `MOVED`, or pushed `-sunsubscribe` because the slot
 * left it) drops it whole, and its channels are placed again from a refreshed slot map, with
 * backoff while the cluster has not promoted a replica yet. Once every channel is acknowledged
 * again, `onResubscribed` listeners re-read what they may have missed. A periodic check moves
 * channels whose slot the cluster client's map (refreshed on its own) says has moved.
 * Receives its cluster client; opens only the subscriber connections.
 */
export function createShardedSubscriber(options: ShardedSubscriberOptions): ShardedSubscriber {
  const { cluster, logger } = options;
  const ignored = ignoredErrorsOf(options);
  const idleMs = options.idleMs ?? 10_000;
  /** Channels wanted, with their slots. */
  const wanted = new Map<string, number>();
  /** Where each wanted channel's SSUBSCRIBE was sent, and which of them were acknowledged there. */
  const placed = new Map<string, Shard>();
  const acked = new Set<string>();
  const shards = new Map<string, Shard>();
  const messageListeners = new Set<(channel: string, message: string) => void>();
  const resubscribedListeners = new Set<() => void>();
  /** A channel was lost since listeners last heard: they must re-read once all are back. */
  let missed = false;
  let repairTimer: NodeJS.Timeout | undefined;
  let repairDelayMs = MIN_REPAIR_DELAY_MS;
  let closed = false;

  const nodeOf = (slot: number): string | undefined => cluster.slots[slot]?.[0];

  function settle() {
    if (!missed || acked.size !== wanted.size) return;
    missed = false;
    repairDelayMs = MIN_REPAIR_DELAY_MS;
    logger?.info({ channels: wanted.size, shards: shards.size }, 'sharded subscriptions restored');
    for (const listener of [...resubscribedListeners]) listener();
  }

  /** Forgets a shard's connection and everything placed on it; its channels are placed again. */
  function drop(shard: Shard, reason: string) {
    if (shard.closed) return;
    shard.closed = true;
    clearTimeout(shard.idle);
    if (shards.get(shard.node) === shard) shards.delete(shard.node);
    for (const channel of shard.channels) {
      if (placed.get(channel) === shard) placed.delete(channel);
      acked.delete(channel);
    }
    if (shard.channels.size > 0) {
      missed = true;
      logger?.warn({ node: shard.node, channels: shard.channels.size, reason }, 'sharded subscriber lost');
    }
    shard.channels.clear();
    shard.redis.disconnect();
    if (!closed) scheduleRepair();
  }

  function open(node: string): Shard {
    const at = node.lastIndexOf(':');
    const redis = new Redis({
      connectTimeout: 5000,
      ...options.redisOptions,
      host: node.slice(0, at),
      port: Number(node.slice(at + 1)),
      // One life per connection: a dropped shard is placed again from the slot map, not reconnected.
      retryStrategy: () => null,
      autoResubscribe: false,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      lazyConnect: false,
    });
    const shard: Shard = { node, redis, channels: new Set(), closed: false };
    redis.on('smessage', (channel: string, message: string) => {
      if (!wanted.has(channel)) return;
      for (const listener of [...messageListeners]) listener(channel, message);
    });
    redis.on('close', () => drop(shard, 'connection closed'));
    // ioredis answers an unsolicited `-sunsubscribe` (the slot left this node) with a "Command
    // queue state error"; and an SSUBSCRIBE refused with MOVED emits `moved`. Either way the
    // connection's state is no longer ours to trust. Any other error is the connection failing:
    // its `close` follows, and `drop` reports the loss.
    redis.on('error', (err: Error) => {
      if (/sunsubscribe|queue state/i.test(err.message)) drop(shard, 'slot moved (sunsubscribe)');
      else logger?.debug({ err: err.message, node }, 'sharded subscriber error');
    });
    redis.on('moved', () => drop(shard, 'MOVED'));
    shards.set(node, shard);
    return shard;
  }

  function place(channel: string, slot: number): boolean {
    const node = nodeOf(slot);
    if (!node) return false;
    let shard = shards.get(node);
    if (!shard || shard.closed) shard = open(node);
    clearTimeout(shard.idle);
    shard.idle = undefined;
    shard.channels.add(channel);
    placed.set(channel, shard);
    const target = shard;
    target.redis.ssubscribe(channel).then(
      () => {
        if (placed.get(channel) !== target || target.closed || !wanted.has(channel)) return;
        acked.add(channel);
        settle();
      },
      (err: Error) => {
        if (placed.get(channel) === target) drop(target, `SSUBSCRIBE failed: ${err.message}`);
      },
    );
    return true;
  }

  /** Takes a channel off its shard (SUNSUBSCRIBE there); the connection goes once idle. */
  function takeOff(channel: string, shard: Shard) {
    if (placed.get(channel) === shard) placed.delete(channel);
    acked.delete(channel);
    shard.channels.delete(channel);
    if (shard.closed) return;
    shard.redis
      .sunsubscribe(channel)
      .catch((err: unknown) => ignored('unsubscribe', err, { channel, node: shard.node }));
    if (shard.channels.size === 0 && !shard.idle) {
      shard.idle = setTimeout(() => {
        if (shard.channels.size === 0) {
          shard.closed = true;
          if (shards.get(shard.node) === shard) shards.delete(shard.node);
          shard.redis.disconnect();
        }
      }, idleMs);
      shard.idle.unref();
    }
  }

  /** Places every wanted channel that is not where the slot map says; false if some could not be. */
  function reconcile(): boolean {
    let complete = true;
    for (const [channel, slot] of wanted) {
      const current = placed.get(channel);
      const node = nodeOf(slot);
      if (current && !current.closed && current.node === node) continue;
      if (current) {
        // The slot moved: what was published to it meanwhile may be lost.
        missed = true;
        takeOff(channel, current);
      }
      if (!place(channel, slot)) complete = false;
    }
    return complete;
  }

  function scheduleRepair() {
    if (repairTimer || closed) return;
    const delay = repairDelayMs;
    repairDelayMs = Math.min(repairDelayMs * 2, MAX_REPAIR_DELAY_MS);
    repairTimer = setTimeout(() => {
      cluster.refreshSlotsCache((err) => {
        repairTimer = undefined;
        // Placed from the slot map as it stands; what cannot be placed yet is tried again.
        if (err && !closed) ignored('slots_refresh', err, { channels: wanted.size - acked.size });
        if (closed) return;
        if (!reconcile()) scheduleRepair();
      });
    }, delay);
    repairTimer.unref();
  }

  const checker = setInterval(() => {
    if (!closed && !reconcile()) scheduleRepair();
  }, options.checkIntervalMs ?? 2000);
  checker.unref();

  return {
    subscribe(channel) {
      if (closed || wanted.has(channel)) return;
      const slot = hashSlot(channel);
      wanted.set(channel, slot);
      if (!place(channel, slot)) scheduleRepair();
    },
    unsubscribe(channel) {
      if (!wanted.delete(channel)) return;
      const shard = placed.get(channel);
      if (shard) takeOff(channel, shard);
      acked.delete(channel);
      settle();
    },
    onMessage(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    onResubscribed(listener) {
      resubscribedListeners.add(listener);
      return () => resubscribedListeners.delete(listener);
    },
    isConnected() {
      return cluster.status === 'ready' && acked.size === wanted.size;
    },
    shards() {
      return [...shards.values()].filter((shard) => shard.channels.size > 0).map((shard) => shard.node);
    },
    async close() {
      closed = true;
      clearInterval(checker);
      clearTimeout(repairTimer);
      // Nothing to flush on a subscriber connection, and a dead node's would wait out its connect.
      for (const shard of [...shards.values()]) {
        shard.closed = true;
        clearTimeout(shard.idle);
        shard.redis.disconnect();
      }
      shards.clear();
      placed.clear();
      acked.clear();
      wanted.clear();
      messageListeners.clear();
      resubscribedListeners.clear();
    },
  };
}
