import type { EventBus, PresenceStore } from '@tally/events';
import type { Logger } from 'pino';
import type { Feed, Subscription } from './feed';

export type PresenceDeps = {
  store: PresenceStore;
  bus: EventBus;
  logger: Logger;
  /** Lifetime of an entry; the heartbeat refreshes it. */
  ttlMs: number;
  /** The group's feed on this gateway, if it still has one. */
  findFeed(groupId: string): Feed | undefined;
};

/**
 * Who is online in each group (API.md §8 `presence`): one entry per live subscription in the
 * presence store, and a `presence` message to a group's local subscribers whenever the list of
 * users changes. While the store is unreachable (Redis down), a group's list is the users
 * subscribed on this gateway only.
 */
export function createPresence(deps: PresenceDeps) {
  const { store, bus, logger, ttlMs } = deps;
  /**
   * The store operations on each entry (connection and group), in order: a removal runs after a
   * touch in flight, and a replaced subscription's removal before its successor's first touch.
   */
  const entryOps = new Map<string, Promise<void>>();
  /** The list last sent to each feed's subscribers, and the queue that serialises its updates. */
  const lastSent = new WeakMap<Feed, string>();
  const updates = new WeakMap<Feed, Promise<boolean>>();
  /** Subscriptions that have been sent the online list; and those that have (or had) an entry. */
  const told = new WeakSet<Subscription>();
  const joined = new WeakSet<Subscription>();

  function onEntry(sub: Subscription, op: () => Promise<void>): Promise<void> {
    const key = `${sub.conn.id}|${sub.feed.groupId}`;
    const next = (entryOps.get(key) ?? Promise.resolve()).then(op).catch((err: unknown) => {
      logger.debug({ err, groupId: sub.feed.groupId }, 'presence store unavailable');
    });
    entryOps.set(key, next);
    void next.then(() => {
      if (entryOps.get(key) === next) entryOps.delete(key);
    });
    return next;
  }

  /** Adds or refreshes the entry of a subscription that has not ended. */
  const touch = (sub: Subscription) =>
    onEntry(sub, async () => {
      if (!sub.ended) await store.touch(sub.feed.groupId, sub.conn.id, sub.conn.userId, ttlMs);
    });

  /** The users subscribed to the group on this gateway: the list while the store is unreachable. */
  function localOnline(feed: Feed): string[] {
    const users = new Set<string>();
    for (const sub of feed.subs) if (sub.live && !sub.ended) users.add(sub.conn.userId);
    return [...users].sort();
  }

  async function online(feed: Feed): Promise<string[]> {
    try {
      return await store.online(feed.groupId);
    } catch {
      return localOnline(feed);
    }
  }

  async function sendIfChanged(feed: Feed): Promise<boolean> {
    const list = await online(feed);
    const key = JSON.stringify(list);
    if (key === lastSent.get(feed)) return false;
    lastSent.set(feed, key);
    for (const sub of feed.subs) {
      if (sub.live && !sub.ended) {
        sub.conn.send({ type: 'presence', groupId: feed.groupId, online: list });
        told.add(sub);
      }
    }
    return true;
  }

  /**
   * Sends the group's online list to its live local subscribers when it changed; true if it did.
   * Serialised per feed, so two triggers at once (a local change and its own echo on the bus)
   * cannot both see the same change and send it twice.
   */
  function update(feed: Feed): Promise<boolean> {
    const next = (updates.get(feed) ?? Promise.resolve(false))
      .then(() => sendIfChanged(feed))
      .catch(() => false);
    updates.set(feed, next);
    return next;
  }

  /** Tells every gateway (this one included) that the group's presence may have changed. */
  async function announce(groupId: string): Promise<void> {
    await bus.publish({ kind: 'presence', groupId }).catch(() => {});
    const feed = deps.findFeed(groupId);
    if (feed) await update(feed);
  }

  return {
    update,
    /**
     * A subscription went live: its entry, the news for everyone, and the online list for the
     * newcomer exactly once (with everyone when its arrival changed the list, else on its own).
     */
    async join(sub: Subscription): Promise<void> {
      joined.add(sub);
      await touch(sub);
      if (sub.ended) return;
      await announce(sub.feed.groupId);
      const list = lastSent.get(sub.feed);
      if (!told.has(sub) && !sub.ended && list !== undefined) {
        sub.conn.send({ type: 'presence', groupId: sub.feed.groupId, online: JSON.parse(list) as string[] });
        told.add(sub);
      }
    },
    /** An ended subscription: its entry goes (after any touch still in flight), and everyone hears. */
    async leave(sub: Subscription): Promise<void> {
      if (!joined.has(sub)) return;
      await onEntry(sub, () => store.remove(sub.feed.groupId, sub.conn.id));
      await announce(sub.feed.groupId);
    },
    /** Heartbeat: refreshes the entries of the feed's live subscriptions and re-reads its list. */
    async refresh(feed: Feed): Promise<void> {
      for (const sub of feed.subs) if (sub.live) void touch(sub);
      await update(feed);
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;
