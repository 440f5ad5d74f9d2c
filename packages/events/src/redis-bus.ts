import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type BusListener, type BusMessage, channelOf, type EventBus, messageText } from './event-bus';
import { ignoredErrorsOf, type OnIgnoredError } from './ignored-error';
import type { ShardedSubscriber } from './sharded-subscriber';

/**
 * A group's channel on a Redis Cluster (sharded pub/sub): the group id is the hash tag, so the
 * channel lives in the same slot, on the same shard, as the group's presence set.
 */
export const shardedChannelOf = (groupId: string): string => `tally:group:{${groupId}}`;

/** A message as a bus publishes it on the channels `channelFor` names: the channel and the JSON text. */
const publicationWith =
  (channelFor: (groupId: string) => string) =>
  (message: BusMessage): { channel: string; message: string } => ({
    channel: channelFor(message.groupId),
    message: messageText(message),
  });

/** A message as the bus publishes it: the group's channel and the JSON text. */
export const publicationOf = publicationWith(channelOf);

/** A message as the sharded bus publishes it (`SPUBLISH` to the group's sharded channel). */
export const shardedPublicationOf = publicationWith(shardedChannelOf);

/** What both buses take besides their clients. */
export type RedisBusOptions = {
  logger?: Logger;
  /**
   * A malformed message heard (`bus_message_malformed`), a channel (un)subscribe that failed
   * (`subscribe`, `unsubscribe`), a slot-map refresh that failed (`slots_refresh`).
   * @default a warn line on `logger` for each
   */
  onIgnoredError?: OnIgnoredError;
};

/** Where a bus (un)subscribes its groups' channels: this process's subscriber connection(s). */
type ChannelSubscriber = { subscribe(channel: string): void; unsubscribe(channel: string): void };

/**
 * What the plain and the sharded bus share: each group's listeners in this process, with one
 * channel subscription per group however many listen (subscribed for the first, unsubscribed after
 * the last); the deliverer of what the subscriber connection hears; and the listeners told to
 * re-read the log after messages may have been missed.
 */
function createGroupListeners(options: {
  channelFor: (groupId: string) => string;
  /** Absent: the bus publishes only, and `subscribe` throws `withoutSubscriber`. */
  subscriber: ChannelSubscriber | undefined;
  withoutSubscriber: string;
  ignored: OnIgnoredError;
}) {
  const { channelFor, subscriber, ignored } = options;
  const listeners = new Map<string, Set<BusListener>>();
  const reconnectListeners = new Set<() => void>();

  return {
    /**
     * What the subscriber connection does with a message on `channel`: parse it, drop it unless it
     * is about the group the channel is for, and hand it to that group's listeners.
     */
    deliver(channel: string, raw: string): void {
      let message: BusMessage;
      try {
        message = JSON.parse(raw) as BusMessage;
      } catch (err) {
        ignored('bus_message_malformed', err, { channel });
        return;
      }
      if (typeof message?.groupId !== 'string' || channelFor(message.groupId) !== channel) {
        ignored('bus_message_malformed', new Error('a message not about its channel’s group'), { channel });
        return;
      }
      for (const listener of [...(listeners.get(message.groupId) ?? [])]) listener(message);
    },
    /** Messages may have been missed: every `onReconnect` listener re-reads. */
    reconnected(): void {
      for (const listener of [...reconnectListeners]) listener();
    },
    subscribe(groupId: string, listener: BusListener): () => void {
      if (!subscriber) throw new Error(options.withoutSubscriber);
      let set = listeners.get(groupId);
      if (!set) {
        set = new Set();
        listeners.set(groupId, set);
        subscriber.subscribe(channelFor(groupId));
      }
      set.add(listener);
      return () => {
        const current = listeners.get(groupId);
        if (!current) return;
        current.delete(listener);
        if (current.size === 0) {
          listeners.delete(groupId);
          subscriber.unsubscribe(channelFor(groupId));
        }
      };
    },
    onReconnect(listener: () => void): () => void {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    clear(): void {
      listeners.clear();
      reconnectListeners.clear();
    },
  };
}

/**
 * Redis pub/sub bus: `publisher` is a normal connection; `subscriber` (gateways only) is this
 * process's ONE subscriber connection, on which group channels are (un)subscribed as local interest changes.
 * Receives its clients; never opens a connection.
 */
export function createRedisBus(
  options: RedisBusOptions & { publisher: Redis; subscriber?: Redis },
): EventBus {
  const { publisher, subscriber } = options;
  const ignored = ignoredErrorsOf(options);
  const groups = createGroupListeners({
    channelFor: channelOf,
    subscriber: subscriber && {
      subscribe(channel) {
        // A subscribe sent while disconnected waits in ioredis's queue; one that failed leaves the
        // group to the gateway's own reads of the log (each heartbeat's, and polls while down).
        subscriber.subscribe(channel).catch((err: unknown) => ignored('subscribe', err, { channel }));
      },
      unsubscribe(channel) {
        subscriber.unsubscribe(channel).catch((err: unknown) => ignored('unsubscribe', err, { channel }));
      },
    },
    withoutSubscriber: 'this bus publishes only: it was created without a subscriber connection',
    ignored,
  });
  let readyBefore = subscriber?.status === 'ready';

  subscriber?.on('message', groups.deliver);
  // ioredis re-subscribes its channels itself after a reconnect; what was published meanwhile is
  // gone, so listeners are told to re-read the log.
  subscriber?.on('ready', () => {
    if (readyBefore) groups.reconnected();
    readyBefore = true;
  });

  return {
    async publish(message) {
      const publication = publicationOf(message);
      await publisher.publish(publication.channel, publication.message);
    },
    subscribe: groups.subscribe,
    onReconnect: groups.onReconnect,
    isConnected() {
      return (subscriber ?? publisher).status === 'ready';
    },
    async close() {
      groups.clear();
    },
  };
}

/**
 * The bus on a Redis Cluster: `SPUBLISH` to the group's sharded channel (one shard carries a
 * group's messages, not every node as cluster-wide `PUBLISH` would); gateways listen through a
 * `ShardedSubscriber`, one connection per shard they need. When a shard's subscriptions were lost
 * and are back (failover, resharding), `onReconnect` listeners re-read the log. Receives its
 * clients; the cluster client must have no `keyPrefix` (channels are matched by name).
 */
export function createShardedRedisBus(
  options: RedisBusOptions & { publisher: Cluster; subscriber?: ShardedSubscriber },
): EventBus {
  const { publisher, subscriber } = options;
  const ignored = ignoredErrorsOf(options);
  const groups = createGroupListeners({
    channelFor: shardedChannelOf,
    subscriber,
    withoutSubscriber: 'this bus publishes only: it was created without a sharded subscriber',
    ignored,
  });

  const offMessage = subscriber?.onMessage(groups.deliver);
  const offResubscribed = subscriber?.onResubscribed(groups.reconnected);

  return {
    async publish(message) {
      const publication = shardedPublicationOf(message);
      try {
        await publisher.spublish(publication.channel, publication.message);
      } catch (error) {
        // A MOVED that ioredis did not follow (several in one auto-pipeline): refresh the slot map
        // now rather than at the next periodic refresh. The relay republishes what failed.
        if (/MOVED|CLUSTERDOWN/.test((error as Error).message))
          publisher.refreshSlotsCache((err) => {
            if (err) ignored('slots_refresh', err);
          });
        throw error;
      }
    },
    subscribe: groups.subscribe,
    onReconnect: groups.onReconnect,
    isConnected() {
      return subscriber ? subscriber.isConnected() : publisher.status === 'ready';
    },
    async close() {
      offMessage?.();
      offResubscribed?.();
      groups.clear();
    },
  };
}
