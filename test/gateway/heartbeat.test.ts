import { randomBytes } from 'node:crypto';
import { createEventLog, createMemoryPresenceStore, createRedisBus, type EventLog } from '@tally/events';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Connection } from '../../apps/gateway/src/connection';
import { createFeeds } from '../../apps/gateway/src/feed';
import { createGatewayMetrics } from '../../apps/gateway/src/gateway-metrics';
import { beat, startBusWatch } from '../../apps/gateway/src/heartbeat';
import { createPresence } from '../../apps/gateway/src/presence';
import { ensureRedis, type ThrowawayService } from '../support/services';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';
import { socketPair } from './ws-client';

describe('the heartbeat of a connection', () => {
  const pairs: { close(): Promise<void> }[] = [];
  const connectionOn = async (options: { autoPong?: boolean } = {}) => {
    const pair = await socketPair(options);
    pairs.push(pair);
    const metrics = createGatewayMetrics(new Registry());
    const conn = new Connection(pair.server, 'usr_1', { metrics, onClose: () => {} });
    return { conn, client: pair.client, metrics };
  };
  afterAll(async () => {
    for (const pair of pairs) await pair.close();
  });
  /** Until the bytes handed to the kernel for the client stop growing (it reads nothing more). */
  const settled = async (conn: Connection) => {
    const socket = (conn.ws as unknown as { _socket: { bytesWritten: number; writableLength: number } })
      ._socket;
    const flushed = () => socket.bytesWritten - socket.writableLength;
    for (let last = -1; flushed() !== last; ) {
      last = flushed();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('pings a connection that answers, again and again', async () => {
    const { conn, client } = await connectionOn();
    for (let i = 1; i <= 3; i++) {
      beat(conn, createGatewayMetrics());
      await until(() => client.pings === i && conn.alive);
    }
    expect(conn.closed).toBe(false);
  });

  it('drops a connection that neither answered nor had anything waiting', async () => {
    const { conn, client } = await connectionOn({ autoPong: false });
    beat(conn, createGatewayMetrics());
    await until(() => client.pings === 1);
    beat(conn, createGatewayMetrics());
    expect(conn.closed).toBe(true);
    expect(await client.closeCode()).toBe(1006);
  });

  it('keeps a client whose pong is queued behind data it is reading, and closes one that stopped with 1013', async () => {
    const { conn, client, metrics } = await connectionOn();
    const raw = client.raw();
    raw.pause();
    let n = 0;
    while (conn.hasRoom())
      conn.sendFrame(JSON.stringify({ type: 'event', seq: n++, pad: 'x'.repeat(60_000) }), 'event');
    beat(conn, metrics); // the ping waits behind megabytes
    expect(conn.alive).toBe(false);
    // The client reads a little: bytes drain, its pong is still far behind them.
    while (!conn.drained) {
      raw.resume();
      await new Promise((resolve) => setImmediate(resolve));
      raw.pause();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // More is due meanwhile (what it read may have taken all that waited here), and then it stops:
    // data waits for it again, and nothing more leaves.
    while (conn.hasRoom())
      conn.sendFrame(JSON.stringify({ type: 'event', seq: n++, pad: 'x'.repeat(60_000) }), 'event');
    await settled(conn);
    expect(conn.alive).toBe(false);
    beat(conn, metrics);
    expect(conn.closed).toBe(false);
    // Now it reads nothing at all until the next beat.
    expect(conn.drained).toBe(false);
    beat(conn, metrics);
    expect(conn.closed).toBe(true);
    expect((await metrics.slowConsumerCloses.get()).values[0]?.value).toBe(1);
    raw.resume();
    expect(await client.closeCode()).toBe(1013);
  });
});

describe('the bus watch', () => {
  let redis: ThrowawayService;
  let db: TestDatabase;
  beforeAll(async () => {
    redis = await ensureRedis({ ephemeral: true });
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
    await redis.stop();
  });

  it('polls every feed’s log while the bus is down, and catches every feed up when it is back', async () => {
    const publisher = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const subscriber = new Redis(redis.url, { retryStrategy: () => 50 });
    publisher.on('error', () => {});
    subscriber.on('error', () => {});
    await until(() => subscriber.status === 'ready');
    const bus = createRedisBus({ publisher, subscriber });
    const metrics = createGatewayMetrics(new Registry());
    const groupId = `grp_${randomBytes(6).toString('hex')}`;
    await db
      .knex('groups')
      .insert({ id: groupId, name: 'G', currency: 'INR', created_at: new Date(), updated_at: new Date() });
    const reads: number[] = [];
    const real = createEventLog({ knex: db.knex });
    const eventLog: EventLog = {
      ...real,
      read: (g, after, limit) => {
        if (g === groupId) reads.push(Date.now());
        return real.read(g, after, limit);
      },
    };
    const logger = pino({ level: 'silent' });
    const feeds = createFeeds({
      eventLog,
      bus,
      metrics,
      logger,
      onSelfRemoved: () => {},
      onPresenceChange: () => {},
    });
    const presence = createPresence({
      store: createMemoryPresenceStore(),
      bus,
      logger,
      ttlMs: 60_000,
      findFeed: feeds.get,
    });
    const stop = startBusWatch({ bus, pollMs: 100, feeds, presence, metrics, logger });
    const polls = async () => (await metrics.logPolls.get()).values[0]?.value ?? 0;
    const connected = async () => (await metrics.busConnected.get()).values[0]?.value;
    try {
      const feed = feeds.acquire(groupId);
      await feed.ready;
      expect(await connected()).toBe(1);
      expect(await polls()).toBe(0);

      await redis.down();
      await until(async () => (await polls()) >= 3 && reads.length >= 3);
      expect(await connected()).toBe(0);

      const before = reads.length;
      await redis.up();
      await until(async () => (await connected()) === 1 && reads.length > before);
      expect(bus.isConnected?.()).toBe(true);
    } finally {
      stop();
      feeds.closeAll();
      await bus.close();
      subscriber.disconnect();
      publisher.disconnect();
    }
  });
});
