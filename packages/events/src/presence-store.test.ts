import { createTestRedis } from '../../../test/support/test-database';
import { createMemoryPresenceStore, createRedisPresenceStore } from './presence-store';
import { describePresenceStoreContract } from './presence-store.contract';

describePresenceStoreContract('in-memory', async () => ({
  store: createMemoryPresenceStore(),
  teardown: async () => {},
}));

describePresenceStoreContract('Redis', async () => {
  const testRedis = await createTestRedis();
  return { store: createRedisPresenceStore({ redis: testRedis.redis }), teardown: testRedis.quit };
});
