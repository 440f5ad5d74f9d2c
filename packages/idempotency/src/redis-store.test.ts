import type { Redis } from 'ioredis';
import { createTestRedis } from '../../../test/support/test-database';
import { type ContractProcess, describeIdempotencyStoreContract } from './idempotency-store.contract';
import { createRedisLiveness, livenessKeyPrefix, type ProcessLiveness } from './liveness';
import { createRedisIdempotencyStore } from './redis-store';

/** Short liveness settings, so that a killed process counts as dead within a second. */
const TTL_MS = 1000;
const INTERVAL_MS = 100;

async function until(condition: () => Promise<boolean>, what: string, deadlineMs = 5_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

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
