import type { GroupEvent } from './event-log';

/**
 * The doorbell between API and gateway processes. The event log in PostgreSQL is the truth; a
 * message here says "group G has an event with seq N" (or "presence in G changed"), and a lost
 * message is repaired from the log. A writer's own announcement also carries the committed event
 * (`event`, when small: see `eventMessage`), exactly as the log returns it, so that a gateway whose
 * feed is at seq N - 1 needs no read; without it (the relay's, an older writer's, a large event)
 * the gateway reads the log as before.
 */
export type BusMessage =
  | { kind: 'event'; groupId: string; seq: number; eventId: string; event?: GroupEvent }
  | { kind: 'presence'; groupId: string }
  | { kind: 'membership'; groupId: string; userId: string }
  | UserRevokedMessage
  | SessionRevokedMessage;

/**
 * Not about a group: on the control channel (`groupId` is `USER_CONTROL_GROUP`, which no group id
 * can be), every gateway hears that a user's sessions are over (their account was deleted; later
 * "sign out everywhere") and closes their WebSockets with 4401.
 */
export type UserRevokedMessage = { kind: 'user.revoked'; groupId: typeof USER_CONTROL_GROUP; userId: string };

/** The pseudo-group of the control channel (`tally:group:~users`): group ids are `grp_…`. */
export const USER_CONTROL_GROUP = '~users';

export const userRevokedMessage = (userId: string): UserRevokedMessage => ({
  kind: 'user.revoked',
  groupId: USER_CONTROL_GROUP,
  userId,
});

/**
 * On the control channel as well: sessions of a user were signed out (API.md §2: logout, logout-all,
 * a device signed out, refresh-token reuse). Every gateway closes the WebSockets opened or last
 * authenticated with an access token of one of `sessionIds` (its `sid`) with 4401, and refuses such
 * tokens at the upgrade until they have expired. The user's other sessions are untouched.
 */
export type SessionRevokedMessage = {
  kind: 'session.revoked';
  groupId: typeof USER_CONTROL_GROUP;
  userId: string;
  sessionIds: string[];
};

export const sessionRevokedMessage = (
  userId: string,
  sessionIds: readonly string[],
): SessionRevokedMessage => ({
  kind: 'session.revoked',
  groupId: USER_CONTROL_GROUP,
  userId,
  sessionIds: [...sessionIds],
});

/** An event's announcement. */
export type EventMessage = Extract<BusMessage, { kind: 'event' }>;

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

/** Events whose JSON is larger than this are announced without their body (the gateway reads the log). */
export const MAX_INLINE_EVENT_BYTES = 4096;

/**
 * The event as the event log's `read` returns it once written (`toEvent` of its row): the same
 * fields in the same order, `occurredAt` at millisecond precision, `data` as its JSON text (the
 * `json` column keeps the writer's text since migration 013, so its keys stay in the writer's
 * order). Serialised, it is byte for byte what the log read gives.
 */
export function eventAsLogged(event: GroupEvent): GroupEvent {
  return {
    id: event.id,
    seq: Number(event.seq),
    type: event.type,
    groupId: event.groupId,
    actorId: event.actorId,
    occurredAt: new Date(event.occurredAt).toISOString(),
    data: JSON.parse(JSON.stringify(event.data)) as Record<string, unknown>,
  };
}

/**
 * A writer's announcement of its committed event, carrying the event as the writer built it (no
 * copy, no serialisation here: it is on every write's path). The gateway
 * puts it in the log's form (`eventAsLogged`) when it takes it, once per event and feed; a bus that
 * serialises drops it when the text would be over `MAX_INLINE_EVENT_BYTES` (`messageText`). Call it
 * only after the commit.
 */
export function eventMessage(event: GroupEvent): EventMessage {
  return { kind: 'event', groupId: event.groupId, seq: event.seq, eventId: event.id, event };
}

/**
 * A bus message as JSON text for Redis: an announcement whose text would be over `maxInlineBytes`
 * (UTF-8) goes without its event, as the doorbell alone.
 */
export function messageText(message: BusMessage, maxInlineBytes = MAX_INLINE_EVENT_BYTES): string {
  const text = JSON.stringify(message);
  if (message.kind !== 'event' || message.event === undefined) return text;
  // Length in UTF-16 units is at most the UTF-8 length: only a near miss needs the exact count.
  if (text.length <= maxInlineBytes / 3 || Buffer.byteLength(text, 'utf8') <= maxInlineBytes) return text;
  const { event: _left, ...doorbell } = message;
  return JSON.stringify(doorbell);
}
