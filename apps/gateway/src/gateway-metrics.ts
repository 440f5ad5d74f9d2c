import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export function createGatewayMetrics(registry?: Registry) {
  const registers = registry ? [registry] : [];
  /**
   * Messages sent since the last scrape, by type: counted in a plain object on the send path (one
   * increment per message, no label hashing) and added to `ws_messages_sent_total` when it is read.
   */
  let unsent: Record<string, number> = {};
  const messagesSent = new Counter({
    name: 'ws_messages_sent_total',
    help: 'Messages sent to clients, by type',
    labelNames: ['type'] as const,
    registers,
    collect() {
      const counts = unsent;
      unsent = {};
      for (const type of Object.keys(counts)) this.inc({ type }, counts[type] as number);
    },
  });
  return {
    messagesSent,
    /** Counts `count` messages of `type` sent (reported as `ws_messages_sent_total{type}`). */
    sent(type: string, count = 1): void {
      unsent[type] = (unsent[type] ?? 0) + count;
    },
    connections: new Gauge({ name: 'ws_connections', help: 'Open WebSocket connections', registers }),
    subscriptions: new Gauge({
      name: 'ws_subscriptions',
      help: 'Group subscriptions on this gateway',
      registers,
    }),
    feeds: new Gauge({
      name: 'ws_feeds',
      help: 'Groups with a feed (subscribers, or a subscribe in progress) on this gateway',
      registers,
    }),
    gapFills: new Counter({
      name: 'ws_gap_fills_total',
      help: 'Events read from the log because their notification was missing or late',
      registers,
    }),
    eventsCarried: new Counter({
      name: 'ws_events_carried_total',
      help: 'Events a feed took from their announcement on the bus instead of reading the log',
      registers,
    }),
    fanoutLag: new Histogram({
      name: 'ws_fanout_lag_seconds',
      help: 'From an event being committed to its delivery to the live subscribers of a feed (one observation per event and feed, as it is sent to all of them in one pass)',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    slowConsumerCloses: new Counter({
      name: 'ws_slow_consumer_closes_total',
      help: 'Connections closed with 1013 because they read too slowly',
      registers,
    }),
    serverCloses: new Counter({
      name: 'ws_server_closes_total',
      help: 'Connections the server closed, by close code (1008, 1012, 1013, 4401)',
      labelNames: ['code'] as const,
      registers,
    }),
    limitHits: new Counter({
      name: 'ws_limit_hits_total',
      help: 'Requests refused by a limit: subscriptions (per connection), messages (per second), connections (per user)',
      labelNames: ['limit'] as const,
      registers,
    }),
    busConnected: new Gauge({
      name: 'ws_bus_connected',
      help: 'Whether the event bus is connected (1); at 0 every feed polls the log instead',
      registers,
    }),
    logPolls: new Counter({
      name: 'ws_log_polls_total',
      help: 'Polls of every feed’s log while the event bus was down',
      registers,
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;
