import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export function createGatewayMetrics(registry?: Registry) {
  const registers = registry ? [registry] : [];
  return {
    connections: new Gauge({ name: 'ws_connections', help: 'Open WebSocket connections', registers }),
    subscriptions: new Gauge({
      name: 'ws_subscriptions',
      help: 'Group subscriptions on this gateway',
      registers,
    }),
    messagesSent: new Counter({
      name: 'ws_messages_sent_total',
      help: 'Messages sent to clients, by type',
      labelNames: ['type'] as const,
      registers,
    }),
    gapFills: new Counter({
      name: 'ws_gap_fills_total',
      help: 'Events read from the log because their notification was missing or late',
      registers,
    }),
    fanoutLag: new Histogram({
      name: 'ws_fanout_lag_seconds',
      help: 'From an event being committed to its delivery to a live subscriber',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    slowConsumerCloses: new Counter({
      name: 'ws_slow_consumer_closes_total',
      help: 'Connections closed with 1013 because they read too slowly',
      registers,
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;
