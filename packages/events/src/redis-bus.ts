import type { Redis } from 'ioredis';
import { type BusListener, type BusMessage, channelOf, type EventBus } from './event-bus';

/** A message as the bus publishes it: the group's channel and the JSON text. */
export const publicationOf = (message: BusMessage): { channel: string; message: string } => ({
  channel: channelOf(message.groupId),
  message: JSON.stringify(message),
});

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

  subscriber?.on('message', (channel: string, raw: string) => {
    let message: BusMessage;
    try {
      message = JSON.parse(raw) as BusMessage;
    } catch {
      return;
    }
    if (channelOf(message.groupId) !== channel) return;
    for (const listener of [...(listeners.get(message.groupId) ?? [])]) listener(message);
  });
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
