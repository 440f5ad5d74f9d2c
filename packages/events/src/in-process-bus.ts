import type { BusListener, BusMessage, EventBus } from './event-bus';

/** The bus of the embedded default (ROLE=all without REDIS_URL): same contract, one process. */
export function createInProcessBus(): EventBus {
  const listeners = new Map<string, Set<BusListener>>();
  return {
    async publish(message: BusMessage) {
      const set = listeners.get(message.groupId);
      if (!set) return;
      // Asynchronous, like a network hop: a publisher never runs subscriber code on its own stack.
      for (const listener of [...set]) queueMicrotask(() => listener(message));
    },
    subscribe(groupId, listener) {
      const set = listeners.get(groupId) ?? new Set<BusListener>();
      set.add(listener);
      listeners.set(groupId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(groupId);
      };
    },
    onReconnect() {
      return () => {};
    },
    isConnected() {
      return true;
    },
    async close() {
      listeners.clear();
    },
  };
}
