import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { EventBus, EventLog, GroupEvent, PresenceStore } from '@tally/events';
import { type AccessTokens, AppError, problemResponseText, unavailable } from '@tally/http-kit';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { createGatewayMetrics } from './gateway-metrics';
import { parseClientMessage } from './protocol';

export type GatewayDeps = {
  eventLog: EventLog;
  tokens: AccessTokens;
  bus: EventBus;
  presence: PresenceStore;
  logger: Logger;
  registry?: Registry;
  /** Ping interval; a connection that misses one pong is dropped. Presence expires after two. */
  heartbeatMs: number;
  isDraining?: () => boolean;
};

/** Frames over 64 KiB close the connection with 1009 (ws enforces `maxPayload`). */
export const MAX_FRAME_BYTES = 64 * 1024;
/** A client with more than this buffered is too slow to read and is closed with 1013. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
const PAGE = 500;
const CACHE_SIZE = 256;

type Connection = {
  id: string;
  userId: string;
  ws: WebSocket;
  alive: boolean;
  closed: boolean;
  subs: Map<string, Subscription>;
};

type Subscription = {
  conn: Connection;
  feed: Feed;
  /** The last seq delivered on this connection: the next one sent is exactly lastSeq + 1. */
  lastSeq: number;
  ready: boolean;
  /** Whether this subscription has been told the online set yet. */
  toldPresence: boolean;
  active: boolean;
  running: Promise<void> | undefined;
  again: boolean;
};

type Feed = {
  groupId: string;
  subs: Set<Subscription>;
  /** The highest seq read from the log; `cache` holds the newest events up to it, contiguous. */
  head: number;
  cache: GroupEvent[];
  /** The `event` message of each cached event, serialised once for every local subscriber. */
  frames: Map<number, string>;
  ready: Promise<void>;
  refreshing: Promise<void> | undefined;
  again: boolean;
  off: () => void;
  lastPresence: string;
  presenceQueue: Promise<void>;
};

/** Refuses an upgrade with a problem+json HTTP response; the socket never becomes a WebSocket. */
function rejectUpgrade(socket: Duplex, error: AppError): void {
  socket.end(problemResponseText(error, randomUUID()));
  socket.destroy();
}

function tokenOf(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  return match?.[1] ?? url.searchParams.get('access_token') ?? undefined;
}

/**
 * The WebSocket gateway of API.md §8. Per connection and group, events go out in `seq` order with
 * no gap and no duplicate: every delivery is "what comes after the last seq this connection got",
 * served from a per-group cache that one read of the log fills for all local subscribers, and a
 * notification that skips ahead makes the feed read the missing events first.
 */
export function createGateway(deps: GatewayDeps) {
  const { eventLog, bus, presence, logger } = deps;
  const metrics = createGatewayMetrics(deps.registry);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    clientTracking: false,
    perMessageDeflate: false,
  });
  const connections = new Set<Connection>();
  const feeds = new Map<string, Feed>();
  const presenceTtlMs = deps.heartbeatMs * 2;

  function send(conn: Connection, message: Record<string, unknown> & { type: string }): boolean {
    return sendText(conn, JSON.stringify(message), message.type);
  }

  function sendText(conn: Connection, text: string, type: string): boolean {
    if (conn.closed || conn.ws.readyState !== WebSocket.OPEN) return false;
    if (conn.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      metrics.slowConsumerCloses.inc();
      conn.ws.close(1013, 'too slow to read');
      closeConnection(conn);
      return false;
    }
    conn.ws.send(text);
    metrics.messagesSent.inc({ type });
    return true;
  }

  // ---- feeds: one per group with local subscribers ------------------------------------------------
  function feedFor(groupId: string): Feed {
    const existing = feeds.get(groupId);
    if (existing) return existing;
    const feed: Feed = {
      groupId,
      subs: new Set(),
      head: 0,
      cache: [],
      frames: new Map(),
      ready: Promise.resolve(),
      refreshing: undefined,
      again: false,
      off: () => {},
      lastPresence: '',
      presenceQueue: Promise.resolve(),
    };
    // Listen first, then read where the log stands: nothing committed in between is missed.
    feed.off = bus.subscribe(groupId, (message) => {
      if (message.kind === 'event') {
        if (message.seq > feed.head) {
          if (message.seq > feed.head + 1 && feed.head > 0) metrics.gapFills.inc(message.seq - feed.head - 1);
          void refresh(feed);
        }
      } else if (message.kind === 'presence') {
        void updatePresence(feed);
      }
    });
    feed.ready = eventLog.lastSeq(groupId).then((seq) => {
      feed.head = Math.max(feed.head, seq ?? 0);
    });
    feeds.set(groupId, feed);
    return feed;
  }

  function dropFeedIfIdle(feed: Feed): void {
    if (feed.subs.size > 0) return;
    feed.off();
    feeds.delete(feed.groupId);
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
          for (;;) {
            const events = await eventLog.read(feed.groupId, feed.head, PAGE);
            for (const event of events) {
              if (event.seq !== feed.head + 1 && feed.cache.length > 0) {
                feed.cache = [];
                feed.frames.clear();
              }
              feed.cache.push(event);
              feed.head = event.seq;
            }
            if (feed.cache.length > CACHE_SIZE) {
              feed.cache = feed.cache.slice(-CACHE_SIZE);
              const oldest = feed.cache[0]?.seq ?? 0;
              for (const seq of feed.frames.keys()) if (seq < oldest) feed.frames.delete(seq);
            }
            if (events.length < PAGE) break;
          }
          for (const sub of feed.subs) void pump(sub);
        } while (feed.again);
      } catch (err) {
        logger.warn({ err, groupId: feed.groupId }, 'feed refresh failed');
      } finally {
        feed.refreshing = undefined;
      }
    })();
    return feed.refreshing;
  }

  function frameOf(feed: Feed, event: GroupEvent): string {
    const cached = feed.frames.get(event.seq);
    if (cached !== undefined && feed.cache.length > 0) return cached;
    const text = JSON.stringify({ type: 'event', groupId: event.groupId, seq: event.seq, event });
    const first = feed.cache[0];
    if (first && event.seq >= first.seq && event.seq <= feed.head) feed.frames.set(event.seq, text);
    return text;
  }

  /** Events after `seq`: from the feed's cache when it covers them, else from the log (catch-up). */
  async function eventsAfter(feed: Feed, seq: number): Promise<GroupEvent[]> {
    const first = feed.cache[0];
    if (first && first.seq <= seq + 1 && feed.head > seq) return feed.cache.slice(seq + 1 - first.seq);
    if (seq >= feed.head) return [];
    return eventLog.read(feed.groupId, seq, PAGE);
  }

  /** Sends this subscription everything after its lastSeq, in order; serialised per subscription. */
  function pump(sub: Subscription): Promise<void> {
    if (sub.running !== undefined) {
      sub.again = true;
      return sub.running;
    }
    sub.running = (async () => {
      try {
        do {
          sub.again = false;
          for (;;) {
            if (!sub.active) return;
            const events = await eventsAfter(sub.feed, sub.lastSeq);
            if (events.length === 0) break;
            for (const event of events) {
              if (!sub.active) return;
              if (event.seq <= sub.lastSeq) continue;
              if (event.seq !== sub.lastSeq + 1) break;
              if (!sendText(sub.conn, frameOf(sub.feed, event), 'event')) return;
              sub.lastSeq = event.seq;
              if (sub.ready) metrics.fanoutLag.observe((Date.now() - Date.parse(event.occurredAt)) / 1000);
              if (event.type === 'member.removed' && event.data['userId'] === sub.conn.userId) {
                send(sub.conn, { type: 'unsubscribed', groupId: event.groupId, reason: 'removed' });
                void removeSubscription(sub);
                return;
              }
            }
          }
        } while (sub.again);
      } catch (err) {
        logger.warn({ err, groupId: sub.feed.groupId }, 'delivery failed; the next event retries');
      } finally {
        sub.running = undefined;
      }
    })();
    return sub.running;
  }

  // ---- presence ---------------------------------------------------------------------------------
  /**
   * Sends the group's online set to its local subscribers when it changed; true if it did.
   * Serialised per feed, so two triggers at once (a local change and its own echo on the bus)
   * cannot both see the same change and send it twice.
   */
  function updatePresence(feed: Feed): Promise<boolean> {
    const next = feed.presenceQueue.then(() => sendPresenceIfChanged(feed));
    feed.presenceQueue = next.then(() => undefined);
    return next;
  }

  async function sendPresenceIfChanged(feed: Feed): Promise<boolean> {
    try {
      const online = await presence.online(feed.groupId);
      const key = JSON.stringify(online);
      if (key === feed.lastPresence) return false;
      feed.lastPresence = key;
      for (const sub of feed.subs) {
        if (sub.ready) {
          send(sub.conn, { type: 'presence', groupId: feed.groupId, online });
          sub.toldPresence = true;
        }
      }
      return true;
    } catch (err) {
      logger.warn({ err, groupId: feed.groupId }, 'presence update failed');
      return false;
    }
  }

  /** Tells every gateway (this one included) that the group's presence may have changed. */
  async function announcePresence(groupId: string): Promise<void> {
    await bus.publish({ kind: 'presence', groupId }).catch(() => {});
    const feed = feeds.get(groupId);
    if (feed) await updatePresence(feed);
  }

  // ---- subscriptions ------------------------------------------------------------------------------
  async function removeSubscription(sub: Subscription): Promise<void> {
    if (!sub.active) return;
    sub.active = false;
    const { conn, feed } = sub;
    if (conn.subs.get(feed.groupId) === sub) conn.subs.delete(feed.groupId);
    feed.subs.delete(sub);
    metrics.subscriptions.dec();
    dropFeedIfIdle(feed);
    await presence.remove(feed.groupId, conn.id).catch(() => {});
    await announcePresence(feed.groupId);
  }

  async function subscribe(
    conn: Connection,
    id: string | undefined,
    groupId: string,
    afterSeq: number | undefined,
  ) {
    if (!(await eventLog.isMember(groupId, conn.userId))) {
      send(conn, { type: 'error', id, code: 'not_found' });
      return;
    }
    const previous = conn.subs.get(groupId);
    if (previous) await removeSubscription(previous);
    if (conn.closed) return;
    const feed = feedFor(groupId);
    await feed.ready;
    const sub: Subscription = {
      conn,
      feed,
      lastSeq: afterSeq ?? feed.head,
      ready: false,
      toldPresence: false,
      active: true,
      running: undefined,
      again: false,
    };
    conn.subs.set(groupId, sub);
    feed.subs.add(sub);
    metrics.subscriptions.inc();
    // No read of the log here beyond the catch-up: the feed learnt where the log stood when it
    // was created, and every later event reaches it by notification, gap repair or the heartbeat poll.
    await pump(sub);
    if (!sub.active) return;
    send(conn, { type: 'subscribed', id, groupId, seq: sub.lastSeq });
    sub.ready = true;
    await presence.touch(groupId, conn.id, conn.userId, presenceTtlMs).catch(() => {});
    // A new subscriber learns who is online once: with everyone, if its arrival changed the set,
    // or on its own if it did not (e.g. the same user was already connected).
    await announcePresence(groupId);
    if (!sub.toldPresence && sub.active && feed.lastPresence !== '') {
      send(conn, { type: 'presence', groupId, online: JSON.parse(feed.lastPresence) as string[] });
      sub.toldPresence = true;
    }
  }

  async function onMessage(conn: Connection, data: RawData, isBinary: boolean): Promise<void> {
    const message = isBinary ? undefined : parseClientMessage(data.toString());
    if (!message) {
      send(conn, { type: 'error', code: 'bad_message' });
      return;
    }
    switch (message.type) {
      case 'ping':
        send(conn, { type: 'pong', id: message.id });
        return;
      case 'subscribe':
        await subscribe(conn, message.id, message.groupId, message.afterSeq);
        return;
      case 'unsubscribe': {
        const sub = conn.subs.get(message.groupId);
        if (sub) await removeSubscription(sub);
        send(conn, { type: 'unsubscribed', id: message.id, groupId: message.groupId });
        return;
      }
    }
  }

  function closeConnection(conn: Connection): void {
    if (conn.closed) return;
    conn.closed = true;
    connections.delete(conn);
    metrics.connections.dec();
    for (const sub of [...conn.subs.values()]) void removeSubscription(sub);
  }

  function onConnection(ws: WebSocket, userId: string): void {
    const conn: Connection = { id: randomUUID(), userId, ws, alive: true, closed: false, subs: new Map() };
    connections.add(conn);
    metrics.connections.inc();
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      onMessage(conn, data, isBinary).catch((err: unknown) => {
        logger.warn({ err }, 'websocket message failed');
        send(conn, { type: 'error', code: 'unavailable' });
      });
    });
    ws.on('close', () => closeConnection(conn));
    ws.on('error', () => closeConnection(conn));
    send(conn, { type: 'welcome', connectionId: conn.id, userId, heartbeatMs: deps.heartbeatMs });
  }

  // ---- heartbeat: liveness, presence refresh, and a safety poll of every feed ----------------------
  const heartbeat = setInterval(() => {
    for (const conn of connections) {
      if (!conn.alive) {
        conn.ws.terminate();
        closeConnection(conn);
        continue;
      }
      conn.alive = false;
      conn.ws.ping();
    }
    for (const feed of feeds.values()) {
      for (const sub of feed.subs) {
        void presence.touch(feed.groupId, sub.conn.id, sub.conn.userId, presenceTtlMs).catch(() => {});
      }
      void refresh(feed);
      void updatePresence(feed);
    }
  }, deps.heartbeatMs);
  heartbeat.unref();

  // After a Redis reconnect, notifications may have been lost: read every feed's log.
  const offReconnect = bus.onReconnect(() => {
    for (const feed of feeds.values()) void refresh(feed);
  });

  return {
    metrics,
    /** For the HTTP server's `upgrade` event. */
    async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
      socket.on('error', () => socket.destroy());
      const url = new URL(req.url ?? '/', 'http://gateway');
      if (url.pathname !== '/v1/ws') {
        rejectUpgrade(socket, new AppError('not_found', 404, 'There is no such route.'));
        return;
      }
      if (deps.isDraining?.()) {
        rejectUpgrade(socket, unavailable('This gateway is shutting down.', 1));
        return;
      }
      const token = tokenOf(req, url);
      const userId = token ? await deps.tokens.verify(token) : undefined;
      if (!userId) {
        rejectUpgrade(
          socket,
          new AppError('unauthenticated', 401, 'A valid bearer access token is required.', {
            headers: { 'WWW-Authenticate': 'Bearer realm="tally"' },
          }),
        );
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, userId));
    },
    connectionCount: () => connections.size,
    /** Closes every connection with 1012 (service restart); clients resume with `afterSeq`. */
    async close(): Promise<void> {
      clearInterval(heartbeat);
      offReconnect();
      const removals: Promise<void>[] = [];
      for (const conn of [...connections]) {
        conn.ws.close(1012, 'service restart');
        for (const sub of conn.subs.values())
          removals.push(presence.remove(sub.feed.groupId, conn.id).catch(() => {}));
        closeConnection(conn);
      }
      await Promise.all(removals);
      for (const feed of feeds.values()) feed.off();
      feeds.clear();
      wss.close();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
