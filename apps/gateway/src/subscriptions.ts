import type { EventLog } from '@tally/events';
import type { Connection } from './connection';
import type { Feed, Feeds, Subscription } from './feed';
import type { GatewayMetrics } from './gateway-metrics';
import type { Presence } from './presence';

const nothing = () => {};

export type SubscriptionsDeps = {
  eventLog: EventLog;
  feeds: Feeds;
  presence: Presence;
  metrics: GatewayMetrics;
  maxSubscriptionsPerConnection: number;
};

/**
 * Subscribe, unsubscribe and the end of a subscription. The subscribe flow awaits the database
 * several times; after each await it checks that it is still wanted (the socket open, no later
 * subscribe or unsubscribe of the group), so a socket that goes away mid-way leaves nothing behind.
 *
 * Membership costs one read per user and group, not one per connection: subscribes asking about
 * the same user and group before the read is sent share it, and once a read made after a
 * subscription started listening confirms the user, the group's feed vouches for them until it
 * reads their `member.removed` (see `Feed.members`).
 */
export function createSubscriptions(deps: SubscriptionsDeps) {
  const { eventLog, feeds, presence, metrics } = deps;

  /**
   * Membership reads per group and user: at most one sent and one waiting to be sent, whatever
   * the number of subscribes asking (a burst of a user's connections costs a few reads, not one each).
   */
  const reads = new Map<string, { sent?: Promise<boolean>; waiting?: Promise<boolean> }>();

  /**
   * Whether the user is a member. `fresh`: from a read sent after this call (what the re-check of a
   * registered subscription needs), shared by every call made before it is sent; otherwise a read
   * already on its way will do.
   */
  function readMembership(groupId: string, userId: string, fresh: boolean): Promise<boolean> {
    const key = `${groupId}\n${userId}`;
    let state = reads.get(key);
    if (!state) {
      state = {};
      reads.set(key, state);
    }
    if (!fresh && state.sent !== undefined) return state.sent;
    if (state.waiting !== undefined) return state.waiting;
    const pair = state;
    // Sent once the read on its way (if any) is answered, and never in the turn it was asked in,
    // so that the subscribes arriving together share it. That read's failure is its own callers'
    // (their subscribe fails and is logged), so here it only means "answered".
    const before = pair.sent ?? new Promise<void>((resolve) => setImmediate(resolve));
    const read: Promise<boolean> = before.then(nothing, nothing).then(() => {
      pair.waiting = undefined;
      pair.sent = read;
      return eventLog.isMember(groupId, userId);
    });
    pair.waiting = read;
    const done = () => {
      if (pair.sent === read) pair.sent = undefined;
      if (pair.sent === undefined && pair.waiting === undefined && reads.get(key) === pair) reads.delete(key);
    };
    read.then(done, done); // a failure goes to the callers given `read`
    return read;
  }

  /** Adds a held subscription (it sends nothing yet), replacing the connection's previous one. */
  function register(conn: Connection, feed: Feed, lastSeq: number): Subscription {
    const previous = conn.subs.get(feed.groupId);
    if (previous) void end(previous);
    feed.refs++;
    const sub: Subscription = {
      conn,
      feed,
      lastSeq,
      held: true,
      live: false,
      ended: false,
      running: undefined,
      again: false,
    };
    conn.subs.set(feed.groupId, sub);
    feed.subs.add(sub);
    metrics.subscriptions.inc();
    return sub;
  }

  /** Ends a subscription at once (nothing more is sent); its presence entry goes afterwards. */
  function end(sub: Subscription): Promise<void> {
    if (sub.ended) return Promise.resolve();
    sub.ended = true;
    const { conn, feed } = sub;
    if (conn.subs.get(feed.groupId) === sub) conn.subs.delete(feed.groupId);
    feed.subs.delete(sub);
    metrics.subscriptions.dec();
    feeds.release(feed);
    return presence.leave(sub);
  }

  async function start(
    conn: Connection,
    ticket: number,
    id: string | undefined,
    groupId: string,
    afterSeq?: number,
  ) {
    const wanted = () => conn.isCurrent(groupId, ticket);
    // A user the group's feed vouches for skips the read; anyone else is refused early if not a member.
    const vouched = feeds.get(groupId)?.members.has(conn.userId) === true;
    if (!vouched && !(await readMembership(groupId, conn.userId, false))) {
      if (wanted()) conn.send({ type: 'error', id, code: 'not_found' });
      return;
    }
    if (!wanted()) return;
    const feed = feeds.acquire(groupId);
    try {
      await feed.ready;
      // The feed's head may lag behind the log (a notification still on its way): look before refusing.
      if (afterSeq !== undefined && afterSeq > feed.head) await feeds.refresh(feed);
      if (!wanted()) return;
      if (afterSeq !== undefined && afterSeq > feed.head) {
        conn.send({ type: 'error', id, code: 'bad_message' });
        return;
      }
      // The event after `afterSeq` is no longer kept (EVENT_RETENTION_DAYS): a catch-up would wait at
      // the hole for ever. Say so instead, and subscribe nothing (API.md §8). The feed's cache, when it
      // reaches back that far, proves the event is there without a read.
      const cached = feed.cache[0];
      if (
        afterSeq !== undefined &&
        afterSeq < feed.head &&
        !(cached !== undefined && cached.seq <= afterSeq + 1) &&
        !(await eventLog.holds(groupId, afterSeq + 1))
      ) {
        if (wanted()) conn.send({ type: 'resync_required', id, groupId, seq: feed.head });
        return;
      }
      if (!wanted()) return;
      const sub = register(conn, feed, afterSeq ?? feed.head);
      // Membership again, now that the subscription hears every new event. A removal this read
      // does not see commits later, so its `member.removed` has a seq above `lastSeq` and the pump
      // ends the subscription there; one it sees may be at or below `lastSeq`, so nothing is sent.
      // The feed vouches for the user (checked in this same step as the registration) when every
      // removal up to its head has been read and none was theirs since a read like this one.
      if (!feed.members.has(conn.userId)) {
        const removals = feed.removals;
        if (!(await readMembership(groupId, conn.userId, true))) {
          void end(sub);
          if (wanted()) conn.send({ type: 'error', id, code: 'not_found' });
          return;
        }
        // No `member.removed` was read while the read was out: the user is a member as of the head.
        if (feed.removals === removals) feed.members.add(conn.userId);
      }
      if (sub.ended) return;
      sub.held = false;
      await feeds.pump(sub);
      if (sub.ended) return;
      // `subscribed` and, when the group's online list is known here, `presence` leave in one write.
      conn.cork();
      let joining: Promise<void>;
      try {
        conn.send({ type: 'subscribed', id, groupId, seq: sub.lastSeq });
        sub.live = true;
        joining = presence.join(sub);
      } finally {
        conn.uncork();
      }
      await joining;
    } finally {
      feeds.release(feed);
    }
  }

  return {
    end,
    /** `subscribe` (API.md §8): catch-up after `afterSeq`, then `subscribed`, then live events and presence. */
    async subscribe(
      conn: Connection,
      id: string | undefined,
      groupId: string,
      afterSeq?: number,
    ): Promise<void> {
      if (!conn.holds(groupId) && conn.groupCount() >= deps.maxSubscriptionsPerConnection) {
        metrics.limitHits.inc({ limit: 'subscriptions' });
        conn.send({ type: 'error', id, code: 'limit_exceeded' });
        return;
      }
      const ticket = conn.intend(groupId);
      try {
        await start(conn, ticket, id, groupId, afterSeq);
      } finally {
        conn.settle(groupId, ticket);
      }
    },
    /** Ends the group's subscription (and any subscribe of it in flight); answered even when there was none. */
    unsubscribe(conn: Connection, id: string | undefined, groupId: string): void {
      conn.settle(groupId, conn.intend(groupId));
      const sub = conn.subs.get(groupId);
      if (sub) void end(sub);
      conn.send({ type: 'unsubscribed', id, groupId });
    },
    /** The member was removed: the `member.removed` event went out, then this, then nothing more. */
    removed(sub: Subscription): void {
      sub.conn.send({ type: 'unsubscribed', groupId: sub.feed.groupId, reason: 'removed' });
      void end(sub);
    },
    /** Ends every subscription of a connection (it closed); resolves when their entries are gone. */
    endAll(conn: Connection): Promise<void> {
      return Promise.all([...conn.subs.values()].map(end)).then(() => undefined);
    },
  };
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;
