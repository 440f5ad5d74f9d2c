import { createInProcessBus, createRedisPresenceStore, type PresenceStore } from '@tally/events';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Connection } from '../../apps/gateway/src/connection';
import type { Feed, Subscription } from '../../apps/gateway/src/feed';
import { createGatewayMetrics } from '../../apps/gateway/src/gateway-metrics';
import { createPresence } from '../../apps/gateway/src/presence';
import { ensureRedis, type ThrowawayService } from '../support/services';
import { createTestRedis, createTestRedisCluster } from '../support/test-database';
import { until } from '../support/until';
import { socketPair, type TestSocket } from './ws-client';

/** Presence on its own: the Redis presence store, the in-process bus, real sockets as subscribers. */
describe('presence', () => {
  const metrics = createGatewayMetrics(new Registry());
  const pairs: { close(): Promise<void> }[] = [];
  let counter = 0;
  const feedOf = (): Feed => ({
    groupId: `grp_presence_${process.pid}_${++counter}`,
    subs: new Set(),
    refs: 0,
    head: 0,
    cache: [],
    frames: new Map(),
    members: new Set(),
    removals: 0,
    ready: Promise.resolve(),
    loaded: true,
    refreshing: undefined,
    again: false,
    off: () => {},
  });
  const member = async (feed: Feed, userId: string): Promise<{ sub: Subscription; client: TestSocket }> => {
    const pair = await socketPair();
    pairs.push(pair);
    const conn = new Connection(pair.server, userId, { metrics, onClose: () => {} });
    const sub: Subscription = {
      conn,
      feed,
      lastSeq: 0,
      held: false,
      live: true,
      ended: false,
      running: undefined,
      again: false,
    };
    feed.subs.add(sub);
    return { sub, client: pair.client };
  };
  const presenceWith = (store: PresenceStore, feeds: Feed[]) =>
    createPresence({
      store,
      bus: createInProcessBus(),
      logger: pino({ level: 'silent' }),
      ttlMs: 60_000,
      findFeed: (groupId) => feeds.find((f) => f.groupId === groupId),
    });
  const lists = (client: TestSocket) => client.all('presence').map((m) => m['online']);

  afterAll(async () => {
    for (const pair of pairs) await pair.close();
  });

  /** The store on one Redis, and on a Redis Cluster (the key hash-tagged by group); `exists` reads the group's key. */
  describe.each([
    {
      redis: 'Redis',
      create: async () => {
        const r = await createTestRedis();
        const store = createRedisPresenceStore({ redis: r.redis });
        return { store, exists: (g: string) => r.redis.exists(`presence:${g}`), quit: r.quit };
      },
    },
    {
      redis: 'a Redis Cluster',
      create: async () => {
        const r = await createTestRedisCluster();
        const store = createRedisPresenceStore({ redis: r.redis, hashTag: true });
        return { store, exists: (g: string) => r.redis.exists(`presence:{${g}}`), quit: r.quit };
      },
    },
  ])('with $redis', ({ create }) => {
    let redis: Awaited<ReturnType<typeof create>>;
    let store: PresenceStore;
    beforeAll(async () => {
      redis = await create();
      store = redis.store;
    });
    afterAll(async () => {
      await redis.quit();
    });

    it('tells everyone when the list changes, and a newcomer that did not change it once, on its own', async () => {
      const feed = feedOf();
      const presence = presenceWith(store, [feed]);
      const ada = await member(feed, 'usr_ada');
      await presence.join(ada.sub);
      const bob = await member(feed, 'usr_bob');
      await presence.join(bob.sub);
      const adaAgain = await member(feed, 'usr_ada');
      await presence.join(adaAgain.sub);
      await until(() => lists(adaAgain.client).length === 1);
      expect(lists(ada.client)).toEqual([['usr_ada'], ['usr_ada', 'usr_bob']]);
      expect(lists(bob.client)).toEqual([['usr_ada', 'usr_bob']]);
      expect(lists(adaAgain.client)).toEqual([['usr_ada', 'usr_bob']]);

      bob.sub.ended = true;
      feed.subs.delete(bob.sub);
      await presence.leave(bob.sub);
      await until(() => lists(ada.client).length === 3);
      expect(lists(ada.client).at(-1)).toEqual(['usr_ada']);
      expect(await store.online(feed.groupId)).toEqual(['usr_ada']);
    });

    it('leaves no entry for a subscription that ended while its first write was on its way', async () => {
      const feed = feedOf();
      const presence = presenceWith(store, [feed]);
      const { sub } = await member(feed, 'usr_gone');
      const joining = presence.join(sub);
      sub.ended = true;
      feed.subs.delete(sub);
      await Promise.all([joining, presence.leave(sub)]);
      const late = await member(feed, 'usr_late');
      late.sub.ended = true;
      await presence.join(late.sub); // ended before it joined: writes nothing
      expect(await store.online(feed.groupId)).toEqual([]);
      expect(await redis.exists(feed.groupId)).toBe(0);
    });
  });

  describe('while Redis is unreachable', () => {
    let server: ThrowawayService;
    let client: Redis;
    beforeAll(async () => {
      server = await ensureRedis({ ephemeral: true });
      client = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
      client.on('error', () => {});
      await server.down();
    });
    afterAll(async () => {
      client.disconnect();
      await server.stop();
    });

    it('lists the members subscribed on this gateway', async () => {
      const store = createRedisPresenceStore({ redis: client });
      await expect(store.online('grp_any')).rejects.toThrow();
      const feed = feedOf();
      const presence = presenceWith(store, [feed]);
      const bob = await member(feed, 'usr_bob');
      await presence.join(bob.sub);
      const ada = await member(feed, 'usr_ada');
      await presence.join(ada.sub);
      await until(() => lists(bob.client).length === 2);
      expect(lists(bob.client)).toEqual([['usr_bob'], ['usr_ada', 'usr_bob']]);
      expect(lists(ada.client)).toEqual([['usr_ada', 'usr_bob']]);
    });
  });
});
