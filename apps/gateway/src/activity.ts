import type { EventBus, EventLog, GroupEvent } from '@tally/events';
import type { IgnoredErrors } from '@tally/http-kit';
import type { Connection } from './connection';

type Watched = {
  /** Connections following this group's activity. */
  conns: Set<Connection>;
  /** The newest seq told about: a repeated announcement (the relay's, after the writer's) is dropped. */
  seq: number;
  off: () => void;
};

/**
 * Activity across a user's groups (API.md §8a "Live"): after `{"type":"activity.subscribe"}` a
 * connection hears `{"type":"activity","groupId","eventId","seq","eventType"}` for each new event of
 * any group its user is in, without a subscription per group. On the message the gateway reads
 * the user's groups (one query) and listens to their bus channels itself, ONE listener per group
 * and gateway whatever the number of connections following it (the bus's subscriptions are
 * reference-counted too): a write costs Redis what it did, one message per gateway that listens.
 * A `member.removed` of the user stops that group for them. A group the user joins afterwards is
 * followed after the next `activity.subscribe` (the SDK sends it on every (re)connect and the app
 * after it joins or creates a group): the bus has per-group channels only, and nothing on those of
 * the user's current groups says they joined another.
 *
 * These are hints, not the log: one lost while the bus is down is not repaired. The feed
 * (`GET /v1/me/activity`) is the truth; a client refetches its first page on reconnect.
 */
export function createActivity(deps: { eventLog: EventLog; bus: EventBus; ignoredErrors: IgnoredErrors }) {
  const { eventLog, bus } = deps;
  const groups = new Map<string, Watched>();
  const following = new Map<Connection, Set<string>>();

  async function eventOf(groupId: string, seq: number, carried: GroupEvent | undefined) {
    if (carried) return carried;
    const [event] = await eventLog.read(groupId, seq - 1, 1);
    return event?.seq === seq ? event : undefined;
  }

  function tell(groupId: string, watched: Watched, event: GroupEvent): void {
    if (event.seq <= watched.seq) return;
    watched.seq = event.seq;
    const frame = JSON.stringify({
      type: 'activity',
      groupId,
      eventId: event.id,
      seq: event.seq,
      eventType: event.type,
    });
    const removed =
      event.type === 'member.removed' ? (event.data['userId'] as string | undefined) : undefined;
    for (const conn of [...watched.conns]) {
      if (conn.userId === removed) {
        stop(conn, groupId);
        continue;
      }
      conn.sendFrame(frame, 'activity');
    }
  }

  function watch(groupId: string): Watched {
    const known = groups.get(groupId);
    if (known) return known;
    const watched: Watched = { conns: new Set(), seq: 0, off: () => {} };
    watched.off = bus.subscribe(groupId, (message) => {
      if (message.kind !== 'event' || message.seq <= watched.seq) return;
      eventOf(groupId, message.seq, message.event).then(
        (event) => {
          if (event) tell(groupId, watched, event);
        },
        (error: unknown) => deps.ignoredErrors('activity_read', error, { groupId }),
      );
    });
    groups.set(groupId, watched);
    return watched;
  }

  function stop(conn: Connection, groupId: string): void {
    following.get(conn)?.delete(groupId);
    const watched = groups.get(groupId);
    if (!watched) return;
    watched.conns.delete(conn);
    if (watched.conns.size > 0) return;
    watched.off();
    groups.delete(groupId);
  }

  return {
    /** Starts (or refreshes, with the user's current groups) the connection's activity. */
    async subscribe(conn: Connection, id: string | undefined): Promise<void> {
      const current = new Set(await eventLog.groupsOf(conn.userId));
      if (conn.closed) return;
      const before = following.get(conn) ?? new Set<string>();
      for (const groupId of before) if (!current.has(groupId)) stop(conn, groupId);
      for (const groupId of current) watch(groupId).conns.add(conn);
      following.set(conn, current);
      conn.send({ type: 'activity.subscribed', id, groupCount: current.size });
    },
    unsubscribe(conn: Connection, id: string | undefined): void {
      this.end(conn);
      conn.send({ type: 'activity.unsubscribed', id });
    },
    /** The connection closed (or stopped following): its groups are let go. */
    end(conn: Connection): void {
      for (const groupId of [...(following.get(conn) ?? [])]) stop(conn, groupId);
      following.delete(conn);
    },
    /** Groups this gateway listens to for activity (for tests and metrics). */
    groupCount: (): number => groups.size,
  };
}

export type Activity = ReturnType<typeof createActivity>;
