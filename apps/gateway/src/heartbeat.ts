import type { EventBus } from '@tally/events';
import type { Logger } from 'pino';
import { CLOSE, type Connection } from './connection';
import type { Feed, Feeds } from './feed';
import type { GatewayMetrics } from './gateway-metrics';
import type { Presence } from './presence';

/**
 * One heartbeat of one connection. A client that answered the last ping, or that took some of what
 * was waiting for it (its pong may be queued behind the data), is pinged again. One that did
 * neither is gone: closed with 1013 if data waits for it (it stopped reading), dropped otherwise.
 */
export function beat(conn: Connection, metrics: GatewayMetrics): void {
  if (!conn.alive && !conn.drained) {
    if (conn.ws.bufferedAmount > 0) {
      metrics.slowConsumerCloses.inc();
      conn.close(CLOSE.tooSlow, 'too slow to read');
    } else {
      conn.terminate();
    }
    return;
  }
  conn.alive = false;
  conn.wakeIfRoom();
  conn.ping();
  conn.beaten();
}

export type HeartbeatDeps = {
  intervalMs: number;
  /** The open connections of one slice: those whose `serial % heartbeatSlices(intervalMs)` is `slice`. */
  connectionsIn: (slice: number) => Iterable<Connection>;
  feeds: Feeds;
  presence: Presence;
  metrics: GatewayMetrics;
};

/**
 * The heartbeat's sweep is spread over up to this many ticks per interval, each at least SLICE_MS
 * apart: at the default 25 s, 500 ticks, so 10,000 connections are pinged 20 at a time (a ping is a
 * write of its own; 500 at once held deliveries up by 50–100 ms on a busy 2-core machine).
 */
const MAX_SLICES = 500;
const SLICE_MS = 50;

/** How many slices the sweep of each interval has (each connection beats in slice `serial % slices`). */
export const heartbeatSlices = (intervalMs: number): number =>
  Math.max(1, Math.min(MAX_SLICES, Math.floor(intervalMs / SLICE_MS)));

/** A group's heartbeat slice: the same one every interval (its presence entries live two intervals). */
function sliceOf(groupId: string, slices: number): number {
  let hash = 0;
  for (let i = 0; i < groupId.length; i++) hash = (hash * 31 + groupId.charCodeAt(i)) >>> 0;
  return hash % slices;
}

/**
 * Every `intervalMs`: each connection's beat, each feed's presence refresh and a safety read of its
 * log. One timer for the whole gateway; with a long interval its sweep is spread over slices (each
 * connection beats in the slice of its serial number, each feed in the slice its group id hashes to),
 * so that 10,000 pings, or a read of every feed, are not one burst that holds up the events due
 * meanwhile.
 */
export function startHeartbeat(deps: HeartbeatDeps): () => void {
  const slices = heartbeatSlices(deps.intervalMs);
  let slice = 0;
  const feedSlices = new WeakMap<Feed, number>();
  const tick = () => {
    const current = slice;
    slice = (slice + 1) % slices;
    // Its own connections only (kept apart by the gateway): not a walk over all of them per tick.
    for (const conn of [...deps.connectionsIn(current)]) beat(conn, deps.metrics);
    // The feeds too, a slice at a time: their reads of the log and of presence do not all queue at once.
    for (const feed of deps.feeds.all()) {
      let feedSlice = feedSlices.get(feed);
      if (feedSlice === undefined) {
        feedSlice = sliceOf(feed.groupId, slices);
        feedSlices.set(feed, feedSlice);
      }
      if (feedSlice !== current) continue;
      void deps.presence.refresh(feed);
      void deps.feeds.refresh(feed);
    }
  };
  // After the I/O that is already waiting (a pong, a drain) has been handled: after a stall of this
  // process, timers would otherwise run first and count live clients as silent.
  const timer = setInterval(() => setImmediate(tick), deps.intervalMs / slices);
  timer.unref();
  return () => clearInterval(timer);
}

export type BusWatchDeps = {
  bus: EventBus;
  /** How often every feed reads its log while the bus is down. */
  pollMs: number;
  feeds: Feeds;
  presence: Presence;
  metrics: GatewayMetrics;
  logger: Logger;
};

/**
 * While the bus is down no notification arrives, so every feed reads its log every `pollMs`
 * instead: delivery goes on, in order, at most `pollMs` late. When the bus is back, every feed
 * reads what it may have missed and presence entries are written again.
 */
export function startBusWatch(deps: BusWatchDeps): () => void {
  const { bus, feeds, presence, metrics, logger } = deps;
  const isUp = () => bus.isConnected?.() ?? true;
  let up = isUp();
  metrics.busConnected.set(up ? 1 : 0);
  const timer = setInterval(() => {
    const now = isUp();
    if (now !== up) {
      up = now;
      metrics.busConnected.set(up ? 1 : 0);
      if (!up) logger.warn({ pollMs: deps.pollMs }, 'event bus down: polling the event log');
    }
    if (!up) {
      metrics.logPolls.inc();
      feeds.refreshAll();
    }
  }, deps.pollMs);
  timer.unref();
  const offReconnect = bus.onReconnect(() => {
    up = true;
    metrics.busConnected.set(1);
    logger.info('event bus back: catching every feed up');
    feeds.refreshAll();
    for (const feed of feeds.all()) void presence.refresh(feed);
  });
  return () => {
    clearInterval(timer);
    offReconnect();
  };
}
