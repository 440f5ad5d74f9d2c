/**
 * A gateway of its own, built from its parts beside a test server: the test server (ROLE=all, on the
 * test Redis) takes the writes and publishes their notifications; this gateway hears them on its own
 * Redis subscriber, reads the same database, and keeps presence under a key prefix of its own. Tests
 * may wrap the event log to act at a precise moment (e.g. commit a removal while a subscribe awaits
 * the database) and read the gateway's metrics directly.
 *
 *   const t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
 *   const g = await startGateway(t, { eventLog: (log) => ({ ...log, isMember: … }) });
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createEventLog,
  createRedisBus,
  createRedisPresenceStore,
  type EventLog,
  type PresenceStore,
} from '@tally/events';
import { createGateway, type Gateway, type GatewayDeps } from '@tally/gateway';
import { createAccessTokens } from '@tally/http-kit';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { redisUrl } from '../support/test-database';
import { TEST_JWT_SECRET, type TestServer } from '../support/test-server';

export type GatewayHarness = {
  url: string;
  gateway: Gateway;
  registry: Registry;
  presence: PresenceStore;
  /** The presence keys this gateway wrote that still exist. */
  presenceKeys(): Promise<string[]>;
  /** A gauge or counter's current value (summed over labels). */
  metric(name: string): Promise<number>;
  close(): Promise<void>;
};

export async function startGateway(
  t: TestServer,
  options: {
    eventLog?: (log: EventLog) => EventLog;
    heartbeatMs?: number;
    limits?: GatewayDeps['limits'];
  } = {},
): Promise<GatewayHarness> {
  const knex = t.db?.knex;
  if (!knex) throw new Error('startGateway needs a test server on PostgreSQL');
  const publisher = new Redis(redisUrl());
  const subscriber = new Redis(redisUrl());
  const prefix = `tally_test:presence:${randomBytes(4).toString('hex')}:`;
  const presence = createRedisPresenceStore({ redis: publisher, keyPrefix: prefix });
  const registry = new Registry();
  const bus = createRedisBus({ publisher, subscriber });
  const log = createEventLog({ knex });
  const gateway = createGateway({
    eventLog: options.eventLog ? options.eventLog(log) : log,
    tokens: createAccessTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 900 }),
    bus,
    presence,
    logger: pino({ level: 'silent' }),
    registry,
    heartbeatMs: options.heartbeatMs ?? 300,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const server = http.createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  server.on('upgrade', (req, socket, head) => {
    gateway.handleUpgrade(req, socket, head).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const presenceKeys = async () => {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await publisher.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    return keys;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    gateway,
    registry,
    presence,
    presenceKeys,
    async metric(name) {
      const metric = registry.getSingleMetric(name);
      if (!metric) throw new Error(`no metric ${name}`);
      return (await metric.get()).values.reduce((sum, v) => sum + v.value, 0);
    },
    async close() {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await bus.close();
      const keys = await presenceKeys();
      if (keys.length > 0) await publisher.del(...keys);
      await subscriber.quit();
      await publisher.quit();
    },
  };
}
