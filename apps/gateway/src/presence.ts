import { randomBytes } from 'node:crypto';
import type { EventBus, PresenceStore } from '@tally/events';
import { createIgnoredErrors, type IgnoredErrors } from '@tally/http-kit';
import type { Logger } from 'pino';
import type { Feed, Subscription } from './feed';

export type PresenceDeps = {
  store: PresenceStore;
  bus: EventBus;
  logger: Logger;
  /**
   * The store unreachable (`presence_store`: entries are written again at the next heartbeat, and
   * the list falls back to this gateway's users), a presence announcement not published
   * (`presence_publish`: other gateways re-read at their heartbeat), an update that failed
   * (`presence_update`). @default createIgnoredErrors({ logger })
   */
  ignoredErrors?: IgnoredErrors;
  /** Lifetime of an entry; the heartbeat refreshes it. */
  ttlMs: number;
  /** The group's feed on this gateway, if it still has one. */
  findFeed(groupId: string): Feed | undefined;
  /** This gateway's name in presence entries; random by default. */
  instanceId?: string;
};

/**
 * Who is online in each group (API.md §8 `presence`): one entry per user and group on this gateway
 * in the presence store, kept while the user has a live subscription to the group here (counted
 * locally, so a user's second connection costs no store write), and a `presence` message to a
 * group's local subscribers whenever the list of users changes, serialised once for all of them.
 * While the store is unreachable (Redis down), a group's list is the users subscribed on this
 * gateway only.
 */
export function createPresence(deps: PresenceDeps) {
  const { store, bus, ttlMs } = deps;
  const ignored = deps.ignoredErrors ?? createIgnoredErrors({ logger: deps.logger });
  /** This gateway's name in the store's entries (an entry is `<instance>.<user>` in the group). */
  const instance = deps.instanceId ?? `gw${randomBytes(9).toString('base64url')}`;
  /** Live subscriptions (joined, not yet left) of each user, per group, on this gateway. */
  const local = new Map<string, Map<string, number>>();
  /**
   * The store operations on each entry (group and user), in order, each doing what the local count
   * says when it runs: an entry is written while the user has a live subscription here, removed after.
   */
  const entryOps = new Map<string, Promise<void>>();
  /** The list last sent to each feed's subscribers, and the queue that serialises its updates. */
  const lastSent = new WeakMap<Feed, string>();
  const updates = new WeakMap<Feed, Promise<boolean>>();
  /** Updates of each feed queued or running. */
  const updating = new WeakMap<Feed, number>();
  /** Subscriptions that have been sent the online list; and those that have joined and not left. */
  const told = new WeakSet<Subscription>();
  const joined = new WeakSet<Subscription>();

  const countOf = (groupId: string, userId: string) => local.get(groupId)?.get(userId) ?? 0;
  const entryId = (userId: string) => `${instance}.${userId}`;

  function onEntry(groupId: string, userId: string, op: () => Promise<void>): Promise<void> {
    const key = `${groupId}\n${userId}`;
    const next = (entryOps.get(key) ?? Promise.resolve())
      .then(op)
      .catch((err: unknown) => ignored('presence_store', err, { groupId }));
    entryOps.set(key, next);
    void next.then(() => {
      if (entryOps.get(key) === next) entryOps.delete(key);
    });
    return next;
  }

  /** Writes (or refreshes) the user's entry, if they still have a live subscription here. */
  const touch = (groupId: string, userId: string) =>
    onEntry(groupId, userId, async () => {
      if (countOf(groupId, userId) > 0) await store.touch(groupId, entryId(userId), userId, ttlMs);
    });

  /** Removes the user's entry, unless they have a live subscription here again. */
  const untouch = (groupId: string, userId: string) =>
    onEntry(groupId, userId, async () => {
      if (countOf(groupId, userId) === 0) await store.remove(groupId, entryId(userId));
    });

  /** The users subscribed to the group on this gateway: the list while the store is unreachable. */
  function localOnline(feed: Feed): string[] {
    return [...(local.get(feed.groupId)?.keys() ?? [])].sort();
  }

  async function online(feed: Feed): Promise<string[]> {
    try {
      return await store.online(feed.groupId);
    } catch (err) {
      ignored('presence_store', err, { groupId: feed.groupId });
      return localOnline(feed);
    }
  }

  async function sendIfChanged(feed: Feed): Promise<boolean> {
    const list = await online(feed);
    const key = JSON.stringify(list);
    if (key === lastSent.get(feed)) return false;
    lastSent.set(feed, key);
    const frame = `{"type":"presence","groupId":${JSON.stringify(feed.groupId)},"online":${key}}`;
    for (const sub of feed.subs) {
      if (sub.live && !sub.ended) {
        sub.conn.sendFrame(frame, 'presence');
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
    updating.set(feed, (updating.get(feed) ?? 0) + 1);
    const next = (updates.get(feed) ?? Promise.resolve(false))
      .then(() => sendIfChanged(feed))
      .catch((err: unknown) => {
        ignored('presence_update', err, { groupId: feed.groupId });
        return false;
      })
      .finally(() => {
        const left = (updating.get(feed) ?? 1) - 1;
        if (left > 0) updating.set(feed, left);
        else updating.delete(feed);
      });
    updates.set(feed, next);
    return next;
  }

  /** Tells every gateway (this one included) that the group's presence may have changed. */
  async function announce(groupId: string): Promise<void> {
    await bus
      .publish({ kind: 'presence', groupId })
      .catch((err: unknown) => ignored('presence_publish', err, { groupId }));
    const feed = deps.findFeed(groupId);
    if (feed) await update(feed);
  }

  return {
    update,
    /**
     * A subscription went live: the user's entry and the news for everyone when it is their first
     * here, and the online list for the newcomer exactly once (with everyone when its arrival
     * changed the list, else on its own).
     */
    async join(sub: Subscription): Promise<void> {
      if (sub.ended || joined.has(sub)) return;
      joined.add(sub);
      const { feed, conn } = sub;
      const { groupId } = feed;
      let users = local.get(groupId);
      if (!users) {
        users = new Map();
        local.set(groupId, users);
      }
      const count = (users.get(conn.userId) ?? 0) + 1;
      users.set(conn.userId, count);
      if (count === 1) {
        await touch(groupId, conn.userId);
        if (sub.ended) return;
        await announce(groupId);
      } else if (!lastSent.has(feed) || updating.has(feed)) {
        // The user is online here already: the list has not changed. Wait for the update in
        // flight, if any (it may be the one that tells the newcomer), or read the list once;
        // with none, the list last sent is told at once (in the same write as `subscribed`).
        await (lastSent.has(feed) ? updates.get(feed) : update(feed));
      }
      const list = lastSent.get(feed);
      if (!told.has(sub) && !sub.ended && list !== undefined) {
        sub.conn.sendFrame(
          `{"type":"presence","groupId":${JSON.stringify(groupId)},"online":${list}}`,
          'presence',
        );
        told.add(sub);
      }
    },
    /** An ended subscription: the user's last one here takes their entry (after any write in flight), and everyone hears. */
    async leave(sub: Subscription): Promise<void> {
      if (!joined.has(sub)) return;
      joined.delete(sub);
      const { groupId } = sub.feed;
      const userId = sub.conn.userId;
      const users = local.get(groupId);
      const count = (users?.get(userId) ?? 0) - 1;
      if (count > 0) {
        users?.set(userId, count);
        return;
      }
      users?.delete(userId);
      if (users?.size === 0) local.delete(groupId);
      await untouch(groupId, userId);
      await announce(groupId);
    },
    /** Heartbeat: refreshes the entries of the feed's users online here and re-reads its list. */
    async refresh(feed: Feed): Promise<void> {
      for (const userId of local.get(feed.groupId)?.keys() ?? []) void touch(feed.groupId, userId);
      await update(feed);
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;
