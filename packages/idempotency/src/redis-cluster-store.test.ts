import { type Cluster, Redis } from 'ioredis';
import { createTestRedisCluster, type TestRedisCluster } from '../../../test/support/test-database';
import { until } from '../../../test/support/until';
import { type ContractProcess, describeIdempotencyStoreContract } from './idempotency-store.contract';
import { createRedisLiveness, livenessKeyPrefix, type ProcessLiveness } from './liveness';
import { createRedisIdempotencyStore } from './redis-store';

/** The same contract as on one Redis, against the test Redis Cluster (3 primaries). */

const TTL_MS = 1000;
const INTERVAL_MS = 100;

/** A process sharing the store: a cluster connection of its own, and its liveness heartbeat. */
function processes(testCluster: TestRedisCluster) {
  const connections: { redis: Cluster; liveness: ProcessLiveness; killed: boolean }[] = [];
  return {
    async spawn(processId?: string): Promise<ContractProcess> {
      // No offline queue: once disconnected, a command fails at once (ioredis would queue it for ever).
      const redis = testCluster.redis.duplicate(undefined, { enableOfflineQueue: false });
      await redis.connect();
      const liveness = createRedisLiveness({ redis, ttlMs: TTL_MS, intervalMs: INTERVAL_MS, processId });
      const connection = { redis, liveness, killed: false };
      connections.push(connection);
      await liveness.start();
      const mark = `${livenessKeyPrefix('idem:')}${liveness.processId}`;
      return {
        processId: liveness.processId,
        async kill() {
          // As after a SIGKILL: the connection drops, the heartbeat stops, the mark lapses by itself.
          connection.killed = true;
          redis.disconnect();
          await liveness.stop();
          await until(async () => (await testCluster.redis.exists(mark)) === 0, 'the liveness mark to lapse');
        },
      };
    },
    async stopAll() {
      for (const { redis, liveness, killed } of connections) {
        if (killed) continue;
        await liveness.stop();
        redis.disconnect();
      }
    },
  };
}

describeIdempotencyStoreContract('Redis Cluster', async () => {
  const testCluster = await createTestRedisCluster();
  const spawned = processes(testCluster);
  return {
    store: createRedisIdempotencyStore({ redis: testCluster.redis }),
    spawnProcess: () => spawned.spawn(),
    async teardown() {
      await spawned.stopAll();
      await testCluster.quit();
    },
  };
});

describe('Redis Cluster store: keys on different shards', () => {
  let testCluster: TestRedisCluster;
  let spawned: ReturnType<typeof processes>;
  const response = { status: 201, headers: {}, body: '{}' };
  /** The primary (`host:port`) serving a key, with the client's prefix as it is stored. */
  const shardOf = async (key: string) => {
    const node = testCluster.redis.nodes('master')[0];
    const slot = Number(await node?.cluster('KEYSLOT', `${testCluster.prefix}${key}`));
    return testCluster.redis.slots[slot]?.[0] as string;
  };
  /** The first of `candidates` whose key lives on another shard than `key`. */
  const elsewhere = async (key: string, candidates: (i: number) => string) => {
    const mine = await shardOf(key);
    for (let i = 0; i < 1000; i++) if ((await shardOf(candidates(i))) !== mine) return candidates(i);
    throw new Error('every candidate on one shard');
  };

  beforeAll(async () => {
    testCluster = await createTestRedisCluster();
    spawned = processes(testCluster);
    await until(() => testCluster.redis.slots.length > 0, 'the slot map');
  });
  afterAll(async () => {
    await spawned.stopAll();
    await testCluster.quit();
  });

  it("takes over a dead owner's lease when its liveness mark lives on another shard", async () => {
    const store = createRedisIdempotencyStore({ redis: testCluster.redis });
    const scope = `scope-takeover-${Date.now()}`;
    // A process id whose mark (idem:alive:<id>) is not in the lease's shard: a script reading it
    // there would be refused ("non local key").
    const deadId = (await elsewhere(`idem:${scope}`, (i) => `idem:alive:dead-${i}`)).slice(
      'idem:alive:'.length,
    );
    const dead = await spawned.spawn(deadId);
    expect(await store.claim(scope, 'fp', { token: 'first', processId: dead.processId }, 60_000)).toEqual({
      claimed: true,
    });
    const live = await spawned.spawn();
    // Its owner alive: not taken over.
    expect(
      await store.claim(scope, 'fp', { token: 'second', processId: live.processId }, 60_000),
    ).toMatchObject({
      claimed: false,
      entry: { state: 'in_progress', owner: 'first' },
    });
    await dead.kill();
    expect(await store.claim(scope, 'fp', { token: 'second', processId: live.processId }, 60_000)).toEqual({
      claimed: true,
      tookOverFrom: deadId,
    });
    expect(await store.complete(scope, 'first', 'fp', response, 60_000)).toBe(false);
    expect(await store.complete(scope, 'second', 'fp', response, 60_000)).toBe(true);
  });

  it('records the response and SPUBLISHes the notifications, each on its own shard', async () => {
    const store = createRedisIdempotencyStore({ redis: testCluster.redis });
    const scope = `scope-publish-${Date.now()}`;
    // A group whose channel is served by another shard than the record: no script could do both.
    const channel = await elsewhere(`idem:${scope}`, (i) => `tally:group:{grp_elsewhere_${i}}`);
    // The test client's key prefix applies to sharded channels too (ioredis treats them as keys).
    const prefixed = `${testCluster.prefix}${channel}`;
    const [host, port] = (await shardOf(channel)).split(':');
    const subscriber = new Redis({ host, port: Number(port) });
    const heard: string[] = [];
    subscriber.on('smessage', (ch: string, message: string) => {
      if (ch === prefixed) heard.push(message);
    });
    try {
      await subscriber.ssubscribe(prefixed);
      const owner = { token: 'tok-1', processId: 'proc-1' };
      await store.claim(scope, 'fp', owner, 10_000);
      const done = await store.completeAndPublish?.(scope, owner.token, 'fp', response, 60_000, [
        { channel, message: 'one' },
        { channel, message: 'two' },
      ]);
      expect(done).toBe(true);
      expect(await store.claim(scope, 'fp', { token: 'tok-2', processId: 'proc-1' }, 10_000)).toEqual({
        claimed: false,
        entry: { state: 'completed', fingerprint: 'fp', response },
      });
      await until(() => heard.length >= 2, 'both notifications');
      expect(heard).toEqual(['one', 'two']);
      // Not the owner any more: the record stays, the notifications still go out.
      const late = await store.completeAndPublish?.(scope, 'not-the-owner', 'fp', response, 60_000, [
        { channel, message: 'committed anyway' },
      ]);
      expect(late).toBe(false);
      await until(() => heard.length >= 3, 'the late notification');
      expect(heard[2]).toBe('committed anyway');
    } finally {
      subscriber.disconnect();
    }
  });
});
