import { Cluster } from 'ioredis';
import {
  createTestRedisCluster,
  redisClusterNodes,
  startupNodes,
  type TestRedisCluster,
} from '../../../test/support/test-database';
import { until } from '../../../test/support/until';
import { describeEventBusContract } from './event-bus.contract';
import { hashSlot } from './hash-slot';
import { createRedisPresenceStore } from './presence-store';
import { describePresenceStoreContract } from './presence-store.contract';
import { createShardedRedisBus, shardedChannelOf, shardedPublicationOf } from './redis-bus';
import { createShardedSubscriber } from './sharded-subscriber';

/** The same suites as on one Redis, against the test Redis Cluster (3 primaries). */

describeEventBusContract('Redis Cluster (sharded pub/sub)', async () => {
  const publisher = new Cluster(startupNodes());
  const subscriber = createShardedSubscriber({ cluster: publisher });
  const bus = createShardedRedisBus({ publisher, subscriber });
  return {
    bus,
    teardown: async () => {
      await bus.close();
      await subscriber.close();
      await publisher.quit();
    },
  };
});

describePresenceStoreContract('Redis Cluster', async () => {
  const testCluster = await createTestRedisCluster();
  return {
    store: createRedisPresenceStore({ redis: testCluster.redis, hashTag: true }),
    teardown: testCluster.quit,
  };
});

describe('hash slots', () => {
  let cluster: TestRedisCluster;
  beforeAll(async () => {
    cluster = await createTestRedisCluster();
  });
  afterAll(async () => {
    await cluster.quit();
  });

  it('are the ones Redis computes (CLUSTER KEYSLOT), hash tags included', async () => {
    const keys = [
      'tally:group:{grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC}',
      'presence:{grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC}',
      'idem:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0',
      'idem:alive:4b0c6f4e-8d7a-4d6c-9b0e-2f1a3c5d7e9f',
      'rl:user:usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC',
      '{}empty-tag',
      'a{}{b}',
      '{unclosed',
      'two{a}{b}',
      'ünïcødé{ключ}',
      '',
      ...Array.from({ length: 200 }, (_, i) => `k${i}:${(i * 7919).toString(36)}`),
    ];
    const node = cluster.redis.nodes('master')[0];
    if (!node) throw new Error('no primary');
    for (const key of keys) expect([key, hashSlot(key)]).toEqual([key, await node.cluster('KEYSLOT', key)]);
  });

  it("put a group's sharded channel and its presence set in one slot", () => {
    for (const groupId of ['grp_a', 'grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC']) {
      expect(hashSlot(`presence:{${groupId}}`)).toBe(hashSlot(shardedChannelOf(groupId)));
    }
  });
});

describe('Redis Cluster event bus', () => {
  let publisher: Cluster;
  beforeAll(async () => {
    publisher = new Cluster(startupNodes());
    await until(() => publisher.status === 'ready', 'the cluster client');
  });
  afterAll(async () => {
    await publisher.quit();
  });

  /** The subscriber connections named `name` on each primary, by port. */
  const connectionsNamed = async (name: string) => {
    const counts: Record<number, number> = {};
    for (const node of publisher.nodes('master')) {
      const list = String(await node.call('CLIENT', 'LIST'));
      counts[node.options.port as number] = list
        .split('\n')
        .filter((line) => line.includes(`name=${name} `)).length;
    }
    return counts;
  };
  const masterOf = (channel: string) => publisher.slots[hashSlot(channel)]?.[0];

  it('holds one subscriber connection per shard its groups need, and none to the others', async () => {
    const name = `tally-sharded-${process.pid}`;
    const subscriber = createShardedSubscriber({
      cluster: publisher,
      redisOptions: { connectionName: name },
    });
    const bus = createShardedRedisBus({ publisher, subscriber });
    try {
      // Groups whose channels one primary serves: that primary only.
      const first = masterOf(shardedChannelOf('grp_pick_0'));
      const oneShard = Array.from({ length: 400 }, (_, i) => `grp_pick_${i}`)
        .filter((g) => masterOf(shardedChannelOf(g)) === first)
        .slice(0, 10);
      expect(oneShard).toHaveLength(10);
      const offs = oneShard.map((g) => bus.subscribe(g, () => {}));
      await until(() => bus.isConnected?.() === true, 'the subscriptions');
      expect(subscriber.shards()).toEqual([first]);
      const counts = await connectionsNamed(name);
      expect(Object.values(counts).sort()).toEqual([0, 0, 1]);
      expect(counts[Number(first?.split(':')[1])]).toBe(1);
      // Many groups: every shard, still one connection each.
      offs.push(...Array.from({ length: 60 }, (_, i) => bus.subscribe(`grp_many_${i}`, () => {})));
      await until(() => bus.isConnected?.() === true, 'the subscriptions');
      expect(subscriber.shards()).toHaveLength(3);
      expect(Object.values(await connectionsNamed(name))).toEqual([1, 1, 1]);
      for (const off of offs) off();
    } finally {
      await bus.close();
      await subscriber.close();
    }
  });

  it('delivers a publication made outside the bus (the completion’s SPUBLISH) as its own', async () => {
    const subscriber = createShardedSubscriber({ cluster: publisher });
    const bus = createShardedRedisBus({ publisher, subscriber });
    try {
      const groupId = `grp_publication_${process.pid}_${Date.now()}`;
      const message = { kind: 'event', groupId, seq: 7, eventId: 'evt_7' } as const;
      const heard = new Promise((resolve) => bus.subscribe(groupId, resolve));
      await until(() => bus.isConnected?.() === true, 'the subscription');
      const { channel, message: text } = shardedPublicationOf(message);
      expect(await publisher.spublish(channel, text)).toBe(1);
      await expect(heard).resolves.toEqual(message);
    } finally {
      await bus.close();
      await subscriber.close();
    }
  });

  it('is not connected while a subscription is not acknowledged, and says so', async () => {
    const lonely = new Cluster(startupNodes(redisClusterNodes()), { lazyConnect: true });
    const subscriber = createShardedSubscriber({ cluster: lonely });
    const bus = createShardedRedisBus({ publisher: lonely, subscriber });
    try {
      bus.subscribe('grp_before_connect', () => {});
      // No slot map yet: nowhere to subscribe.
      expect(bus.isConnected?.()).toBe(false);
      await lonely.connect();
      await until(() => bus.isConnected?.() === true, 'the subscription once the cluster answers');
    } finally {
      await bus.close();
      await subscriber.close();
      lonely.disconnect();
    }
  });
});
