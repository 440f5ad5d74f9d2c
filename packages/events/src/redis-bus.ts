import type { Cluster, Redis } from 'ioredis';
import { type BusListener, type BusMessage, channelOf, type EventBus, messageText } from './event-bus';
import type { ShardedSubscriber } from './sharded-subscriber';

/** A message as the bus publishes it: the group's channel and the JSON text. */
export const publicationOf = (message: BusMessage): { channel: string; message: string } => ({
  channel: channelOf(message.groupId),
  message: messageText(message),
});

/**
 * What a subscriber connection does with a message on `channel`: parse it, drop it unless it is
 * about the group the channel is for (`channelFor`), and hand it to that group's listeners.
 */
function deliverer(
  listeners: Map<string, Set<BusListener>>,
  channelFor: (groupId: string) => string,
): (channel: string, raw: string) => void {
  return (channel, raw) => {
    let message: BusMessage;
    try {
      message = JSON.parse(raw) as BusMessage;
    } catch {
      return;
    }
    if (channelFor(message.groupId) !== channel) return;
    for (const listener of [...(listeners.get(message.groupId) ?? [])]) listener(message);
  };
}

/**
 * Redis pub/sub bus: `publisher` is a normal connection; `subscriber` (gateways only) is this
 * process's ONE subscriber connection, on which group channels are (un)subscribed as local interest changes.
 * Receives its clients; never opens a connection.
 */
export function createRedisBus(options: { publisher: Redis; subscriber?: Redis }): EventBus {
  const { publisher, subscriber } = options;
  const listeners = new Map<string, Set<BusListener>>();
  const reconnectListeners = new Set<() => void>();
  let readyBefore = subscriber?.status === 'ready';

  subscriber?.on('message', deliverer(listeners, channelOf));
  // ioredis re-subscribes its channels itself after a reconnect; what was published meanwhile is
  // gone, so listeners are told to re-read the log.
  subscriber?.on('ready', () => {
    if (readyBefore) for (const listener of [...reconnectListeners]) listener();
    readyBefore = true;
  });

  return {
    async publish(message) {
      const publication = publicationOf(message);
      await publisher.publish(publication.channel, publication.message);
    },
    subscribe(groupId, listener) {
      if (!subscriber)
        throw new Error('this bus publishes only: it was created without a subscriber connection');
      let set = listeners.get(groupId);
      if (!set) {
        set = new Set();
        listeners.set(groupId, set);
        subscriber.subscribe(channelOf(groupId)).catch(() => {
          // Not connected: ioredis subscribes again when it reconnects.
        });
      }
      set.add(listener);
      return () => {
        const current = listeners.get(groupId);
        if (!current) return;
        current.delete(listener);
        if (current.size === 0) {
          listeners.delete(groupId);
          subscriber?.unsubscribe(channelOf(groupId)).catch(() => {});
        }
      };
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    isConnected() {
      return (subscriber ?? publisher).status === 'ready';
    },
    async close() {
      listeners.clear();
      reconnectListeners.clear();
    },
  };
}

/**
 * A group's channel on a Redis Cluster (sharded pub/sub): the group id is the hash tag, so the
 * channel lives in the same slot, on the same shard, as the group's presence set.
 */
export const shardedChannelOf = (groupId: string): string => `tally:group:{${groupId}}`;

/** A message as the sharded bus publishes it (`SPUBLISH` to the group's sharded channel). */
export const shardedPublicationOf = (message: BusMessage): { channel: string; message: string } => ({
  channel: shardedChannelOf(message.groupId),
  message: messageText(message),
});

/**
 * The bus on a Redis Cluster: `SPUBLISH` to the group's sharded channel (one shard carries a
 * group's messages, not every node as cluster-wide `PUBLISH` would); gateways listen through a
 * `ShardedSubscriber`, one connection per shard they need. When a shard's subscriptions were lost
 * and are back (failover, resharding), `onReconnect` listeners re-read the log. Receives its
 * clients; the cluster client must have no `keyPrefix` (channels are matched by name).
 */
export function createShardedRedisBus(options: {
  publisher: Cluster;
  subscriber?: ShardedSubscriber;
}): EventBus {
  const { publisher, subscriber } = options;
  const listeners = new Map<string, Set<BusListener>>();
  const reconnectListeners = new Set<() => void>();

  const offMessage = subscriber?.onMessage(deliverer(listeners, shardedChannelOf));
  const offResubscribed = subscriber?.onResubscribed(() => {
    for (const listener of [...reconnectListeners]) listener();
  });

  return {
    async publish(message) {
      const publication = shardedPublicationOf(message);
      try {
        await publisher.spublish(publication.channel, publication.message);
      } catch (error) {
        // A MOVED that ioredis did not follow (several in one auto-pipeline): refresh the slot map
        // now rather than at the next periodic refresh. The relay republishes what failed.
        if (/MOVED|CLUSTERDOWN/.test((error as Error).message)) publisher.refreshSlotsCache();
        throw error;
      }
    },
    subscribe(groupId, listener) {
      if (!subscriber)
        throw new Error('this bus publishes only: it was created without a sharded subscriber');
      let set = listeners.get(groupId);
      if (!set) {
        set = new Set();
        listeners.set(groupId, set);
        subscriber.subscribe(shardedChannelOf(groupId));
      }
      set.add(listener);
      return () => {
        const current = listeners.get(groupId);
        if (!current) return;
        current.delete(listener);
        if (current.size === 0) {
          listeners.delete(groupId);
          subscriber.unsubscribe(shardedChannelOf(groupId));
        }
      };
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    isConnected() {
      return subscriber ? subscriber.isConnected() : publisher.status === 'ready';
    },
    async close() {
      offMessage?.();
      offResubscribed?.();
      listeners.clear();
      reconnectListeners.clear();
    },
  };
}
