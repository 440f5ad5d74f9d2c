import type { Redis } from 'ioredis';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '../../../test/support/test-database';
import { until } from '../../../test/support/until';
import { createDurableRecords } from './durable-records';
import { fingerprintOf } from './fingerprint';
import {
  createIdempotencyLayer,
  IdempotencyConflict,
  type IdempotencyLayerOptions,
} from './idempotency-layer';
import type { IdempotencyStore } from './idempotency-store';
import { createMemoryIdempotencyStore } from './memory-store';
import { createRedisIdempotencyStore } from './redis-store';

/**
 * The layer's steps as a write route takes them: claim, record, complete (publishing the write's
 * events with the completion where the store can), or release. The durable record's own insert is
 * the API's (its statement); here only its replay is.
 */
describe('idempotency layer: claim, complete, release', () => {
  let db: TestDatabase;
  let testRedis: TestRedis;
  let listener: Redis;
  const channel = `tally:test:announce:${process.pid}:${Date.now()}`;
  const heard: string[] = [];
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    testRedis = await createTestRedis();
    listener = testRedis.redis.duplicate();
    listener.on('message', (_channel: string, message: string) => heard.push(message));
    await listener.subscribe(channel);
  });
  afterAll(async () => {
    listener?.disconnect();
    await testRedis?.quit();
    await db?.drop();
  });

  const layerOn = (store: IdempotencyStore, extra: Partial<IdempotencyLayerOptions> = {}) =>
    createIdempotencyLayer({
      store,
      durable: createDurableRecords({ knex: db.knex }),
      ttlSeconds: 60,
      processId: 'this-process',
      inProgressWaitMs: 0,
      ...extra,
    });
  const request = () => ({
    userId: 'usr_1',
    key: `k-${++n}`,
    path: '/v1/expenses',
    fingerprint: fingerprintOf('POST', { n }),
  });
  /** A connection of its own, to lose. */
  const connected = async () => {
    const conn = testRedis.redis.duplicate({ enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    if (conn.status === 'wait') await conn.connect();
    await until(() => conn.status === 'ready', 'the connection');
    return conn;
  };
  const reply = { status: 201, body: { ok: true }, headers: {} };
  const publication = (id: string) => ({ channel, message: JSON.stringify({ id }) });

  it('publishes the events with the completion on Redis, and replays the answer to a retry', async () => {
    const layer = layerOn(createRedisIdempotencyStore({ redis: testRedis.redis }));
    const req = request();
    const claimed = await layer.claim(req);
    expect(claimed.replay).toBeUndefined();
    const lease = claimed.lease!;
    expect(layer.record(lease, reply)).toMatchObject({ userId: 'usr_1', key: req.key, path: '/v1/expenses' });
    expect(await layer.complete(lease, reply, () => [publication(`evt_${n}`)])).toBe('completion');
    await until(() => heard.includes(JSON.stringify({ id: `evt_${n}` })), 'the notification');

    const again = await layer.claim(req);
    expect(again.replay).toMatchObject({ status: 201, headers: { 'Idempotent-Replayed': 'true' } });
    const other = fingerprintOf('POST', { other: true });
    await expect(layer.claim({ ...req, fingerprint: other })).rejects.toMatchObject({ kind: 'reused' });
  });

  it('leaves the events to the writer with the in-memory store (the embedded default)', async () => {
    const store = createMemoryIdempotencyStore();
    const layer = layerOn(store);
    const { lease } = await layer.claim(request());
    expect(await layer.complete(lease!, reply, () => [publication('evt_memory')])).toBe('nobody');
    store.close();
  });

  it('frees a released key for a retry, and holds a running one (409 in progress)', async () => {
    // In memory, every owner process is alive: a running key is not taken over.
    const store = createMemoryIdempotencyStore();
    const layer = layerOn(store);
    const req = request();
    const { lease } = await layer.claim(req);
    const conflict = await layer.claim(req).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(IdempotencyConflict);
    expect(conflict).toMatchObject({ kind: 'in_progress' });
    await layer.release(lease!);
    expect((await layer.claim(req)).lease).toBeDefined();
    store.close();
  });

  /** A layer on a Redis connection of its own, lost once the key is claimed; what it counted as ignored. */
  async function claimedThenRedisLost() {
    const ignored: string[] = [];
    const conn = await connected();
    const layer = layerOn(createRedisIdempotencyStore({ redis: conn }), {
      onIgnoredError: (reason) => ignored.push(reason),
    });
    const { lease } = await layer.claim(request());
    conn.disconnect();
    return { layer, lease: lease!, ignored };
  }

  it('answers when Redis is lost before the completion: the events are left to the relay, the error counted', async () => {
    const { layer, lease, ignored } = await claimedThenRedisLost();
    expect(await layer.complete(lease, reply, () => [publication('evt_lost')])).toBe('unknown');
    expect(ignored).toEqual(['idempotency_completion']);
  });

  it('counts a release that cannot reach Redis instead of dropping it', async () => {
    const { layer, lease, ignored } = await claimedThenRedisLost();
    await layer.release(lease);
    expect(ignored).toEqual(['lease_release']);
  });
});
