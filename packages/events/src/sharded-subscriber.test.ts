import { Cluster } from 'ioredis';
import { startRedisCluster, type ThrowawayRedisCluster } from '../../../test/support/redis-cluster';
import { startupNodes } from '../../../test/support/test-database';
import { until } from '../../../test/support/until';
import type { BusMessage, EventBus } from './event-bus';
import { hashSlot } from './hash-slot';
import { createShardedRedisBus, shardedChannelOf } from './redis-bus';
import { createShardedSubscriber, type ShardedSubscriber } from './sharded-subscriber';

/**
 * The sharded subscriber when the cluster changes under it, on a cluster of its own (3 primaries,
 * a replica each, 1 s node timeout): a slot moved to another primary (`-sunsubscribe`), and a
 * primary SIGKILLed (its replica promoted). Either way its channels are subscribed again where
 * they now live, and `onReconnect` tells the bus's users to re-read what they may have missed.
 */
describe('sharded subscriber through resharding and failover', () => {
  let cluster: ThrowawayRedisCluster;
  let publisher: Cluster;
  let subscriber: ShardedSubscriber;
  let bus: EventBus;
  let resubscribed = 0;
  const heard = new Map<string, number[]>();
  const groups = Array.from({ length: 30 }, (_, i) => `grp_moving_${i}`);

  let seq = 0;
  /** Publishes to every group until each has heard one more message than before. */
  const everyGroupHears = async (what: string) => {
    const before = new Map(groups.map((g) => [g, heard.get(g)?.length ?? 0]));
    await until(
      async () => {
        seq++;
        await Promise.all(
          groups.map((groupId) =>
            bus.publish({ kind: 'event', groupId, seq, eventId: `evt_${seq}` }).catch(() => {}),
          ),
        );
        return groups.every((g) => (heard.get(g)?.length ?? 0) > (before.get(g) ?? 0));
      },
      { what, intervalMs: 20 },
    );
  };

  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1, nodeTimeoutMs: 1000 });
    publisher = new Cluster(startupNodes(cluster.nodes), { slotsRefreshInterval: 1000 });
    publisher.on('error', () => {});
    // The periodic placement check is off (a minute), so what is tested is the reaction to the
    // shard itself: its `-sunsubscribe` push, its connection closing.
    subscriber = createShardedSubscriber({ cluster: publisher, checkIntervalMs: 60_000 });
    bus = createShardedRedisBus({ publisher, subscriber });
    bus.onReconnect(() => resubscribed++);
    for (const groupId of groups) {
      heard.set(groupId, []);
      bus.subscribe(groupId, (m: BusMessage) => {
        if (m.kind === 'event') heard.get(groupId)?.push(m.seq);
      });
    }
    await until(() => bus.isConnected?.() === true, 'the first subscriptions');
    await everyGroupHears('the first messages');
  }, 60_000);
  afterAll(async () => {
    await bus?.close();
    await subscriber?.close();
    publisher?.disconnect();
    await cluster?.stop();
  });

  it('follows a slot moved to another primary (-sunsubscribe), and asks for a re-read', async () => {
    const moved = groups[0] as string;
    const slot = hashSlot(shardedChannelOf(moved));
    const nodes = await cluster.topology();
    const source = nodes.find((n) => n.role === 'master' && n.slots.some(([a, b]) => slot >= a && slot <= b));
    const target = nodes.find((n) => n.role === 'master' && n !== source);
    if (!source || !target) throw new Error('no primaries');
    const before = resubscribed;
    // An empty slot (nothing but the channel lives there) moved by hand, as redis-cli --cluster reshard does.
    await cluster.node(target.port).cluster('SETSLOT', slot, 'IMPORTING', source.id);
    await cluster.node(source.port).cluster('SETSLOT', slot, 'MIGRATING', target.id);
    for (const node of [
      target,
      source,
      ...nodes.filter((n) => n.role === 'master' && n !== source && n !== target),
    ])
      await cluster.node(node.port).cluster('SETSLOT', slot, 'NODE', target.id);
    await until(() => resubscribed > before, 'the re-read after the move');
    expect(subscriber.shards()).toContain(`127.0.0.1:${target.port}`);
    await everyGroupHears('messages after the move');
    expect(bus.isConnected?.()).toBe(true);
  });

  it('follows a SIGKILLed primary’s channels to its promoted replica, and asks for a re-read', async () => {
    const victimGroup = groups[1] as string;
    const victim = await cluster.masterOfSlot(hashSlot(shardedChannelOf(victimGroup)));
    const before = resubscribed;
    await cluster.kill(victim);
    await until(() => bus.isConnected?.() === false, 'the bus to notice');
    await cluster.waitHealthy();
    await until(() => resubscribed > before, 'the re-read after the failover');
    expect(bus.isConnected?.()).toBe(true);
    expect(subscriber.shards()).not.toContain(`127.0.0.1:${victim}`);
    await everyGroupHears('messages after the failover');
    // Per group, messages arrive in publish order (a missed one is for the re-read to find).
    for (const g of groups) {
      const seqs = heard.get(g) ?? [];
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
    // The old primary comes back empty and rejoins as its successor's replica: nothing moves.
    const before2 = resubscribed;
    await cluster.restart(victim);
    await cluster.waitHealthy({ replicas: 1 });
    expect((await cluster.topology()).find((n) => n.port === victim)?.role).toBe('replica');
    await everyGroupHears('messages after the old primary rejoined');
    expect(resubscribed).toBe(before2);
  });
});
