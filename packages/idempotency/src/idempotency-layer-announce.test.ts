import type { Redis } from 'ioredis';
import {
  createTestDatabase,
  createTestRedis,
  type TestDatabase,
  type TestRedis,
} from '../../../test/support/test-database';
import { createDurableRecords } from './durable-records';
import { type Announcer, createIdempotencyLayer, type TransactionHook } from './idempotency-layer';
import type { IdempotencyStore } from './idempotency-store';
import { createMemoryIdempotencyStore } from './memory-store';
import { createRedisIdempotencyStore } from './redis-store';

/** An announcer that records what it was asked to do; its publications go to `channel`. */
function recordingAnnouncer(channel: string) {
  const seen = { published: [] as unknown[], fallback: [] as unknown[] };
  const announcer: Announcer = {
    publications: (events) => events.map((e) => ({ channel, message: JSON.stringify(e) })),
    published: (events) => seen.published.push(...events),
    fallback: (events) => seen.fallback.push(...events),
  };
  return { announcer, seen };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('idempotency layer: a keyed write’s events go out with its completion', () => {
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

  /** One keyed write through `store`; returns what its writer's `announce` answered. */
  async function write(store: IdempotencyStore, announcer: Announcer, after?: () => void) {
    const layer = createIdempotencyLayer({
      store,
      durable: createDurableRecords({ knex: db.knex }),
      ttlSeconds: 60,
      processId: 'this-process',
      announcer,
    });
    let taken: boolean | undefined;
    const request = { userId: 'usr_1', key: `k-${++n}`, method: 'POST', path: '/v1/expenses', body: { n } };
    const outcome = await layer.execute(
      request,
      async (hook: TransactionHook) => {
        const reply = { status: 201, body: { n }, headers: {} };
        await hook.insert(reply);
        hook.written();
        taken = hook.announce?.([{ id: `evt_${n}` }]);
        after?.();
        return reply;
      },
      () => undefined,
    );
    return { taken, outcome };
  }

  it('takes the events with a Redis store and publishes them with the completion', async () => {
    const { announcer, seen } = recordingAnnouncer(channel);
    const { taken, outcome } = await write(
      createRedisIdempotencyStore({ redis: testRedis.redis }),
      announcer,
    );
    expect(taken).toBe(true);
    expect(outcome.replayed).toBe(false);
    expect(seen.published).toEqual([{ id: `evt_${n}` }]);
    await until(() => heard.includes(JSON.stringify({ id: `evt_${n}` })), 'the notification');
  });

  it('leaves them to the writer with the in-memory store (the embedded default)', async () => {
    const { announcer, seen } = recordingAnnouncer(channel);
    const store = createMemoryIdempotencyStore();
    const { taken } = await write(store, announcer);
    store.close();
    expect(taken).toBe(false);
    expect(seen.published).toEqual([]);
  });

  it('hands events taken back to the writer’s own announcement when the write fails after its commit', async () => {
    const { announcer, seen } = recordingAnnouncer(channel);
    const store = createRedisIdempotencyStore({ redis: testRedis.redis });
    await expect(
      write(store, announcer, () => {
        throw new Error('the route failed after its commit');
      }),
    ).rejects.toThrow('after its commit');
    expect(seen.fallback).toEqual([{ id: `evt_${n}` }]);
    expect(seen.published).toEqual([]);
  });

  it('answers the write when Redis is lost before the completion, and leaves its events unmarked for the relay', async () => {
    const { announcer, seen } = recordingAnnouncer(channel);
    const conn = testRedis.redis.duplicate({ enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    await conn.ping().catch(() => undefined);
    await until(() => conn.status === 'ready', 'the connection');
    const store = createRedisIdempotencyStore({ redis: conn });
    const { taken, outcome } = await write(store, announcer, () => conn.disconnect());
    expect(taken).toBe(true);
    expect(outcome).toMatchObject({ replayed: false, reply: { status: 201 } });
    expect(seen.published).toEqual([]);
    expect(seen.fallback).toEqual([]);
  });
});
