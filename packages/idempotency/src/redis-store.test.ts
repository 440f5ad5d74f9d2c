import { createTestRedis } from '../../../test/support/test-database';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';
import { createRedisIdempotencyStore } from './redis-store';

describeIdempotencyStoreContract('Redis', async () => {
  const testRedis = await createTestRedis();
  return { store: createRedisIdempotencyStore({ redis: testRedis.redis }), teardown: testRedis.quit };
});
