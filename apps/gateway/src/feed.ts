import {
  type EventBus,
  type EventLog,
  type EventMessage,
  eventAsLogged,
  type GroupEvent,
} from '@tally/events';
import { createIgnoredErrors, type IgnoredErrors } from '@tally/http-kit';
import type { Logger } from 'pino';
import { type Connection, PreparedFrame } from './connection';
import type { GatewayMetrics } from './gateway-metrics';

/** Events read from the log in one go when a feed catches up with a notification. */
const PAGE = 500;
/** Events read from the log in one go for a subscription behind the cache (its catch-up). */
const CATCH_UP_PAGE = 100;
/** The newest events each feed keeps, with their frames, for all its subscribers. */
const CACHE_SIZE = 256;

/** One connection's subscription to one group. */
export type Subscription = {
  conn: Connection;
  feed: Feed;
  /** The last seq delivered on this connection: the next one sent is exactly lastSeq + 1. */
  lastSeq: number;
  /** Nothing is sent while held: the subscribe flow has not re-checked membership yet. */
  held: boolean;
  /** Confirmed with `subscribed`: it is online and gets presence. */
  live: boolean;
  ended: boolean;
  running: Promise<void> | undefined;
  again: boolean;
};

/** One group's events for every local subscriber, read from the log once. */
export type Feed = {
  groupId: string;
  subs: Set<Subscription>;
  /** Subscriptions and subscribe flows holding the feed; at 0 it is dropped. */
  refs: number;
  /** The highest seq read from the log; `cache` holds the newest events up to it, contiguous. */
  head: number;
  cache: GroupEvent[];
  /** The `event` message of each cached event, serialised and encoded once for every local subscriber. */
  frames: Map<number, PreparedFrame>;
  /**
   * Users known to be members as of `head`: a subscribe of theirs needs no membership read. A user
   * leaves the set as the feed reads their `member.removed` (a removal beyond `head` is delivered
   * to, and ends, every subscription registered before it is read).
   */
  members: Set<string>;
  /** `member.removed` events read so far: a membership read that saw none happen may vouch for its user. */
  removals: number;
  ready: Promise<void>;
  /** `ready` has resolved: `head` is where the log stood (or later). */
  loaded: boolean;
  refreshing: Promise<void> | undefined;
  again: boolean;
  off: () => void;
};

export type FeedsDeps = {
  eventLog: EventLog;
  bus: EventBus;
  metrics: GatewayMetrics;
  logger: Logger;
  /**
   * A read of the log or a delivery that failed (`feed_refresh`, `feed_delivery`): the next
   * notification, poll or heartbeat tries again. @default createIgnoredErrors({ logger })
   */
  ignoredErrors?: IgnoredErrors;
  /** A subscription just delivered the `member.removed` event of its own user: it must end there. */
  onSelfRemoved(sub: Subscription): void;
  /** The bus says the group's presence may have changed. */
  onPresenceChange(feed: Feed): void;
};

const isSelfRemoval = (event: GroupEvent, userId: string) =>
  event.type === 'member.removed' && event.data['userId'] === userId;

/**
 * The committed event an announcement carries (its writer's, see `eventMessage`), when it is there
 * and is the event the message names, in the form a read of the log gives it (`eventAsLogged`: the
 * writer sends it as it built it), so its frame is byte for byte a log read's; undefined otherwise
 * (the relay's, an older writer's, a large event's), and the log is read instead.
 */
function carried(message: EventMessage): GroupEvent | undefined {
  const event = message.event as Partial<GroupEvent> | null | undefined;
  if (
    event === undefined ||
    event === null ||
    typeof event !== 'object' ||
    event.seq !== message.seq ||
    event.groupId !== message.groupId ||
    event.id !== message.eventId ||
    typeof event.type !== 'string' ||
    typeof event.occurredAt !== 'string' ||
    typeof event.data !== 'object' ||
    event.data === null
  )
    return undefined;
  return eventAsLogged(event as GroupEvent);
}

/**
 * The feeds of one gateway: per group, a cache of the newest events filled by one read of the log
 * for all local subscribers (on a notification, a poll, a reconnect), and per subscription a pump
 * that only ever sends the event after the last one it sent, at the pace the client reads.
 */
export function createFeeds(deps: FeedsDeps) {
  const { eventLog, bus, metrics } = deps;
  const ignored = deps.ignoredErrors ?? createIgnoredErrors({ logger: deps.logger });
  const feeds = new Map<string, Feed>();

  /** The group's feed, created (listening first, then reading where the log stands) if need be. */
  function acquire(groupId: string): Feed {
    const existing = feeds.get(groupId);
    if (existing) {
      existing.refs++;
      return existing;
    }
    const feed: Feed = {
      groupId,
      subs: new Set(),
      refs: 1,
      head: 0,
      cache: [],
      frames: new Map(),
      members: new Set(),
      removals: 0,
      ready: Promise.resolve(),
      loaded: false,
      refreshing: undefined,
      again: false,
      off: () => {},
    };
    // Listen first, then read where the log stands: nothing committed in between is missed.
    feed.off = bus.subscribe(groupId, (message) => {
      if (message.kind === 'event' && message.seq > feed.head) {
        // The very next event, carried by its announcement, while no read of the log is under
        // way: taken from the message, no read. Anything else (a gap, a message without the
        // event, the head not known yet, a read in flight that may already hold it) reads the log.
        if (message.seq === feed.head + 1 && feed.loaded && feed.refreshing === undefined) {
          const event = carried(message);
          if (event !== undefined) {
            take(feed, event);
            return;
          }
        }
        if (message.seq > feed.head + 1 && feed.head > 0) metrics.gapFills.inc(message.seq - feed.head - 1);
        void refresh(feed);
      } else if (message.kind === 'presence') {
        deps.onPresenceChange(feed);
      }
    });
    feed.ready = eventLog.lastSeq(groupId).then((seq) => {
      feed.head = Math.max(feed.head, seq ?? 0);
      feed.loaded = true;
    });
    // Not reported here: whatever awaits `ready` (the subscribe that acquired the feed, a refresh)
    // fails with it and reports it. This only keeps a feed no one awaits yet from an unhandled rejection.
    feed.ready.catch(() => {});
    feeds.set(groupId, feed);
    metrics.feeds.set(feeds.size);
    return feed;
  }

  /** Gives back one hold on the feed; the last one drops it. */
  function release(feed: Feed): void {
    feed.refs--;
    if (feed.refs > 0) return;
    feed.off();
    if (feeds.get(feed.groupId) === feed) feeds.delete(feed.groupId);
    metrics.feeds.set(feeds.size);
  }

  /** Reads what the log has beyond `head` (once, for all local subscribers) and pumps them. */
  function refresh(feed: Feed): Promise<void> {
    if (feed.refreshing !== undefined) {
      feed.again = true;
      return feed.refreshing;
    }
    feed.refreshing = (async () => {
      try {
        await feed.ready;
        do {
          feed.again = false;
          await readNew(feed);
          sendNew(feed);
        } while (feed.again);
      } catch (err) {
        ignored('feed_refresh', err, { groupId: feed.groupId });
      } finally {
        feed.refreshing = undefined;
      }
    })();
    return feed.refreshing;
  }

  async function readNew(feed: Feed): Promise<void> {
    for (;;) {
      const events = await eventLog.read(feed.groupId, feed.head, PAGE);
      for (const event of events) append(feed, event);
      trim(feed);
      if (events.length < PAGE) return;
    }
  }

  /** Puts an event read (or announced) after `head` into the cache, and moves `head` to it. */
  function append(feed: Feed, event: GroupEvent): void {
    if (event.seq !== feed.head + 1 && feed.cache.length > 0) {
      feed.cache = [];
      feed.frames.clear();
    }
    feed.cache.push(event);
    feed.head = event.seq;
    if (event.type === 'member.removed') {
      feed.removals++;
      const userId = event.data['userId'];
      if (typeof userId === 'string') feed.members.delete(userId);
    }
  }

  /** Keeps the newest CACHE_SIZE events (and their frames). */
  function trim(feed: Feed): void {
    if (feed.cache.length <= CACHE_SIZE) return;
    feed.cache = feed.cache.slice(-CACHE_SIZE);
    const oldest = feed.cache[0]?.seq ?? 0;
    for (const seq of feed.frames.keys()) if (seq < oldest) feed.frames.delete(seq);
  }

  /**
   * The event at `head + 1`, from its announcement: what a read of the log would have given (the
   * writer sent it as the log returns it), handled as that read's result would be, in this turn.
   */
  function take(feed: Feed, event: GroupEvent): void {
    try {
      append(feed, event);
      trim(feed);
      metrics.eventsCarried.inc();
      sendNew(feed);
    } catch (err) {
      ignored('feed_delivery', err, { groupId: feed.groupId });
    }
  }

  /** The `event` message of `event`, framed: serialised and framed once per event for the feed's cache. */
  function frameOf(feed: Feed, event: GroupEvent): PreparedFrame {
    const cached = feed.frames.get(event.seq);
    if (cached !== undefined && feed.cache.length > 0) return cached;
    const bytes = new PreparedFrame(
      Buffer.from(JSON.stringify({ type: 'event', groupId: event.groupId, seq: event.seq, event }), 'utf8'),
    );
    const first = feed.cache[0];
    if (first && event.seq >= first.seq && event.seq <= feed.head) feed.frames.set(event.seq, bytes);
    return bytes;
  }

  /** Events `sendCached` sent in the current pass (counted once per pass in `ws_messages_sent_total`). */
  let passSent = 0;

  /**
   * After a read of the log: every subscription that is idle, live and within the cache is sent
   * what it lacks here, in one synchronous pass over the feed's subscribers, each event's frame the
   * same bytes for all of them; the others (a catch-up from the log, a socket without room, a
   * subscription still being set up or already sending) go through their pump.
   */
  function sendNew(feed: Feed): void {
    passSent = 0;
    const first = feed.cache[0];
    /** The oldest event this pass sent to a live subscriber. */
    let oldest = Number.POSITIVE_INFINITY;
    for (const sub of feed.subs) {
      if (sub.running === undefined && !sub.held && !sub.ended && first && sub.lastSeq + 1 >= first.seq) {
        const before = sub.lastSeq;
        if (sendCached(sub, first.seq)) {
          if (sub.live && sub.lastSeq > before && before < oldest) oldest = before + 1;
          continue;
        }
      }
      void pump(sub);
    }
    metrics.sent('event', passSent);
    passSent = 0;
    if (!first || oldest === Number.POSITIVE_INFINITY) return;
    // One observation per event and feed: its live subscribers were all sent it in this pass.
    const now = Date.now();
    for (let i = Math.max(0, oldest - first.seq); i < feed.cache.length; i++)
      metrics.fanoutLag.observe((now - Date.parse((feed.cache[i] as GroupEvent).occurredAt)) / 1000);
  }

  /**
   * Sends the subscription the cached events after its lastSeq, in order, while its socket has room.
   * True when it is done (it has all of them, or it ended); false when its pump has to go on.
   */
  function sendCached(sub: Subscription, firstSeq: number): boolean {
    const { conn, feed } = sub;
    const cache = feed.cache;
    for (let i = sub.lastSeq + 1 - firstSeq; i < cache.length; i++) {
      const event = cache[i] as GroupEvent;
      if (!conn.hasRoom()) return false;
      if (!conn.write(frameOf(feed, event))) return true;
      passSent++;
      sub.lastSeq = event.seq;
      if (isSelfRemoval(event, conn.userId)) {
        deps.onSelfRemoved(sub);
        return true;
      }
      if (sub.ended || sub.held) return true;
    }
    return true;
  }

  /** Events after `seq`: from the feed's cache when it covers them, else from the log (catch-up). */
  async function eventsAfter(feed: Feed, seq: number): Promise<GroupEvent[]> {
    const first = feed.cache[0];
    if (first && first.seq <= seq + 1 && feed.head > seq) return feed.cache.slice(seq + 1 - first.seq);
    if (seq >= feed.head) return [];
    return eventLog.read(feed.groupId, seq, CATCH_UP_PAGE);
  }

  /** Sends the subscription everything after its lastSeq, in order; serialised per subscription. */
  function pump(sub: Subscription): Promise<void> {
    if (sub.running !== undefined) {
      sub.again = true;
      return sub.running;
    }
    sub.running = (async () => {
      try {
        do {
          sub.again = false;
          await deliver(sub);
        } while (sub.again);
      } catch (err) {
        // The next event, poll or heartbeat pumps it again, from its lastSeq.
        ignored('feed_delivery', err, { groupId: sub.feed.groupId });
      } finally {
        sub.running = undefined;
      }
    })();
    return sub.running;
  }

  async function deliver(sub: Subscription): Promise<void> {
    const { conn, feed } = sub;
    for (;;) {
      if (sub.ended || sub.held) return;
      const events = await eventsAfter(feed, sub.lastSeq);
      if (events.length === 0) return;
      for (const event of events) {
        if (event.seq <= sub.lastSeq) continue;
        // A hole in the log: wait for a later read rather than skip ahead.
        if (event.seq !== sub.lastSeq + 1) return;
        // Paced by the socket: a backlog goes out as the client reads it, never piles up here.
        if (!conn.hasRoom() && !(await conn.room())) return;
        if (sub.ended || !conn.sendFrame(frameOf(feed, event), 'event')) return;
        sub.lastSeq = event.seq;
        if (sub.live) metrics.fanoutLag.observe((Date.now() - Date.parse(event.occurredAt)) / 1000);
        if (isSelfRemoval(event, conn.userId)) {
          deps.onSelfRemoved(sub);
          return;
        }
      }
    }
  }

  return {
    acquire,
    release,
    refresh,
    pump,
    get: (groupId: string): Feed | undefined => feeds.get(groupId),
    all: (): Feed[] => [...feeds.values()],
    size: (): number => feeds.size,
    /** Reads every feed's log (after the bus reconnects, or on a poll). */
    refreshAll(): void {
      for (const feed of feeds.values()) void refresh(feed);
    },
    /** Stops listening for every feed (shutdown). */
    closeAll(): void {
      for (const feed of feeds.values()) feed.off();
      feeds.clear();
      metrics.feeds.set(0);
    },
  };
}

export type Feeds = ReturnType<typeof createFeeds>;
