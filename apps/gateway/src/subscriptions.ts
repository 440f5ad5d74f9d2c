import type { EventLog } from '@tally/events';
import type { Connection } from './connection';
import type { Feed, Feeds, Subscription } from './feed';
import type { GatewayMetrics } from './gateway-metrics';
import type { Presence } from './presence';

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
 */
export function createSubscriptions(deps: SubscriptionsDeps) {
  const { eventLog, feeds, presence, metrics } = deps;

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
    if (!(await eventLog.isMember(groupId, conn.userId))) {
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
      const sub = register(conn, feed, afterSeq ?? feed.head);
      // Membership again, now that the subscription hears every new event. A removal this read
      // does not see commits later, so its `member.removed` has a seq above `lastSeq` and the pump
      // ends the subscription there; one it sees may be at or below `lastSeq`, so nothing is sent.
      if (!(await eventLog.isMember(groupId, conn.userId))) {
        void end(sub);
        if (wanted()) conn.send({ type: 'error', id, code: 'not_found' });
        return;
      }
      if (sub.ended) return;
      sub.held = false;
      await feeds.pump(sub);
      if (sub.ended) return;
      conn.send({ type: 'subscribed', id, groupId, seq: sub.lastSeq });
      sub.live = true;
      await presence.join(sub);
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
