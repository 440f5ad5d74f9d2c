import type { Redis } from 'ioredis';
import { createTestRedis } from '../../../test/support/test-database';
import { until } from '../../../test/support/until';
import { type ContractProcess, describeIdempotencyStoreContract } from './idempotency-store.contract';
import { createRedisLiveness, livenessKeyPrefix, type ProcessLiveness } from './liveness';
import { createRedisIdempotencyStore } from './redis-store';

/** Short liveness settings, so that a killed process counts as dead within a second. */
const TTL_MS = 1000;
const INTERVAL_MS = 100;

describeIdempotencyStoreContract('Redis', async () => {
  const testRedis = await createTestRedis();
  const connections: { redis: Redis; liveness: ProcessLiveness }[] = [];
  return {
    store: createRedisIdempotencyStore({ redis: testRedis.redis }),
    async spawnProcess(): Promise<ContractProcess> {
      // Each process has a connection of its own (with the test's key prefix), as a real one would.
      const redis = testRedis.redis.duplicate();
      const liveness = createRedisLiveness({ redis, ttlMs: TTL_MS, intervalMs: INTERVAL_MS });
      connections.push({ redis, liveness });
      await liveness.start();
      const mark = `${livenessKeyPrefix('idem:')}${liveness.processId}`;
      return {
        processId: liveness.processId,
        async kill() {
          // As after a SIGKILL: the connection drops, the heartbeat stops, the mark lapses by itself.
          redis.disconnect();
          await liveness.stop();
          await until(async () => (await testRedis.redis.exists(mark)) === 0, 'the liveness mark to lapse');
        },
      };
    },
    async teardown() {
      for (const { redis, liveness } of connections) {
        await liveness.stop();
        redis.disconnect();
      }
      await testRedis.quit();
    },
  };
});

describe('Redis store: completing with the write’s notifications', () => {
  let testRedis: Awaited<ReturnType<typeof createTestRedis>>;
  let listener: Redis;
  const channel = `tally:test:${process.pid}:${Date.now()}`;
  const heard: string[] = [];
  const owner = { token: 'tok-1', processId: 'proc-1' };
  const response = { status: 201, headers: {}, body: '{}' };

  beforeAll(async () => {
    testRedis = await createTestRedis();
    listener = testRedis.redis.duplicate();
    listener.on('message', (_channel: string, message: string) => heard.push(message));
    await listener.subscribe(channel);
  });
  afterAll(async () => {
    listener.disconnect();
    await testRedis.quit();
  });

  it('records the response and publishes in one command', async () => {
    const store = createRedisIdempotencyStore({ redis: testRedis.redis });
    await store.claim('scope-a', 'fp', owner, 10_000);
    const done = await store.completeAndPublish?.('scope-a', owner.token, 'fp', response, 60_000, [
      { channel, message: 'one' },
      { channel, message: 'two' },
    ]);
    expect(done).toBe(true);
    const claim = await store.claim('scope-a', 'fp', { token: 'tok-2', processId: 'proc-1' }, 10_000);
    expect(claim).toEqual({ claimed: false, entry: { state: 'completed', fingerprint: 'fp', response } });
    await until(async () => heard.length >= 2, 'both notifications');
    expect(heard.slice(0, 2)).toEqual(['one', 'two']);
  });

  it('publishes even when the lease is no longer the caller’s, and leaves the record alone', async () => {
    const store = createRedisIdempotencyStore({ redis: testRedis.redis });
    await store.claim('scope-b', 'fp', owner, 10_000);
    const before = heard.length;
    const done = await store.completeAndPublish?.('scope-b', 'not-the-owner', 'fp', response, 60_000, [
      { channel, message: 'committed anyway' },
    ]);
    expect(done).toBe(false);
    // The claim stands as it was (read directly: without a liveness mark, a claim would take it over).
    const raw = await testRedis.redis.get('idem:scope-b');
    expect(JSON.parse(raw ?? '{}')).toMatchObject({ s: 'p', o: owner.token });
    await until(async () => heard.length > before, 'the notification');
    expect(heard[before]).toBe('committed anyway');
  });
});
