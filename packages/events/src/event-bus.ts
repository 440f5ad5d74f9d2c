/**
 * The doorbell between API and gateway processes. The event log in PostgreSQL is the truth; a
 * message here only says "group G has an event with seq N" (or "presence in G changed"), and a
 * lost message is repaired from the log.
 */
export type BusMessage =
  | { kind: 'event'; groupId: string; seq: number; eventId: string }
  | { kind: 'presence'; groupId: string }
  | { kind: 'membership'; groupId: string; userId: string };

export type BusListener = (message: BusMessage) => void;

export type EventBus = {
  publish(message: BusMessage): Promise<void>;
  /**
   * Listens to one group's messages. Subscriptions are reference-counted per group on the bus's
   * single subscriber connection. Returns the unsubscribe function.
   */
  subscribe(groupId: string, listener: BusListener): () => void;
  /** Called after the bus (re)connected: messages may have been missed, so callers re-check the log. */
  onReconnect(listener: () => void): () => void;
  /**
   * Whether messages can arrive now. False while the subscriber connection is down: nothing is
   * heard, and listeners must read the log themselves until it is back. Absent: always true.
   */
  isConnected?(): boolean;
  close(): Promise<void>;
};

export const channelOf = (groupId: string): string => `tally:group:${groupId}`;
