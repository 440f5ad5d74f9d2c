import type { EventBus } from '@tally/events';
import type { Logger } from 'pino';
import { CLOSE, type Connection } from './connection';
import type { Feeds } from './feed';
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
  conn.drained = false;
  conn.wakeIfRoom();
  conn.ws.ping();
}

export type HeartbeatDeps = {
  intervalMs: number;
  connections: () => Iterable<Connection>;
  feeds: Feeds;
  presence: Presence;
  metrics: GatewayMetrics;
};

/** Every `intervalMs`: each connection's beat, each feed's presence refresh and a safety read of its log. */
export function startHeartbeat(deps: HeartbeatDeps): () => void {
  const tick = () => {
    for (const conn of [...deps.connections()]) beat(conn, deps.metrics);
    for (const feed of deps.feeds.all()) {
      void deps.presence.refresh(feed);
      void deps.feeds.refresh(feed);
    }
  };
  // After the I/O that is already waiting (a pong, a drain) has been handled: after a stall of this
  // process, timers would otherwise run first and count live clients as silent.
  const timer = setInterval(() => setImmediate(tick), deps.intervalMs);
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
