/** A doorbell for committed events: the log in PostgreSQL is the truth, this only says "look". */
export type EventNotification = { groupId: string; seq: number; eventId: string };

export type EventBus = {
  publish(notification: EventNotification): Promise<void>;
  /** Returns an unsubscribe function. */
  subscribe(listener: (notification: EventNotification) => void): () => void;
  close(): Promise<void>;
};

/** The in-process bus of the embedded default (ROLE=all without REDIS_URL). */
export function createInProcessBus(): EventBus {
  const listeners = new Set<(n: EventNotification) => void>();
  return {
    async publish(notification) {
      for (const listener of listeners) {
        queueMicrotask(() => listener(notification));
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
