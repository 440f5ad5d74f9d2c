import { Redis } from 'ioredis';
import { ensureRedis } from '../../../test/support/services';
import { redisUrl } from '../../../test/support/test-database';
import { until } from '../../../test/support/until';
import { describeEventBusContract } from './event-bus.contract';
import { createRedisBus, publicationOf } from './redis-bus';

describeEventBusContract('Redis', async () => {
  const publisher = new Redis(redisUrl());
  const subscriber = new Redis(redisUrl());
  const bus = createRedisBus({ publisher, subscriber });
  return {
    bus,
    teardown: async () => {
      await bus.close();
      await publisher.quit();
      await subscriber.quit();
    },
  };
});

describe('Redis event bus', () => {
  it('holds one subscriber connection whatever the number of groups', async () => {
    const name = `tally-bus-test-${process.pid}`;
    const publisher = new Redis(redisUrl());
    const subscriber = new Redis(redisUrl(), { connectionName: name });
    const bus = createRedisBus({ publisher, subscriber });
    const offs = Array.from({ length: 50 }, (_, i) => bus.subscribe(`grp_many_${i}`, () => {}));
    // Redis acknowledges the subscriptions asynchronously.
    await until(async () => {
      expect(await publisher.call('PUBSUB', 'CHANNELS', 'tally:group:grp_many_*')).toHaveLength(50);
    }, 'the 50 subscriptions');
    const clients = String(await publisher.call('CLIENT', 'LIST'));
    expect(clients.split('\n').filter((line) => line.includes(`name=${name}`))).toHaveLength(1);
    for (const off of offs) off();
    await bus.close();
    await publisher.quit();
    await subscriber.quit();
  });
});

describe('a publication made outside the bus (the idempotency completion script)', () => {
  it('reaches the bus’s listeners as the bus’s own publish would', async () => {
    const publisher = new Redis(redisUrl());
    const subscriber = new Redis(redisUrl());
    const bus = createRedisBus({ publisher, subscriber });
    const groupId = `grp_publication_${process.pid}_${Date.now()}`;
    const message = { kind: 'event', groupId, seq: 7, eventId: 'evt_7' } as const;
    const heard = new Promise((resolve) => bus.subscribe(groupId, resolve));
    const { channel, message: text } = publicationOf(message);
    // Published raw, as a Lua script does, until the subscription is in place.
    await until(async () => (await publisher.publish(channel, text)) > 0, 'a subscriber to hear it');
    await expect(heard).resolves.toEqual(message);
    await bus.close();
    await publisher.quit();
    await subscriber.quit();
  });
});

describe('Redis event bus when Redis goes away', () => {
  it('says it is not connected while its subscriber is down, and calls onReconnect when it is back', async () => {
    const server = await ensureRedis({ ephemeral: true });
    const publisher = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const subscriber = new Redis(server.url, { retryStrategy: () => 50 });
    publisher.on('error', () => {});
    subscriber.on('error', () => {});
    try {
      await until(() => subscriber.status === 'ready');
      const bus = createRedisBus({ publisher, subscriber });
      let reconnects = 0;
      bus.onReconnect(() => reconnects++);
      expect(bus.isConnected?.()).toBe(true);
      await server.down();
      await until(() => bus.isConnected?.() === false);
      expect(reconnects).toBe(0);
      await server.up();
      await until(() => reconnects === 1);
      expect(bus.isConnected?.()).toBe(true);
      await bus.close();
    } finally {
      subscriber.disconnect();
      publisher.disconnect();
      await server.stop();
    }
  });
});

describe('Redis event bus: errors it does not act on', () => {
  it('reports a malformed message (bus_message_malformed) and an unsubscribe that failed (unsubscribe)', async () => {
    const publisher = new Redis(redisUrl());
    // A subscriber of its own, closed under the bus by the test.
    const subscriber = new Redis(redisUrl());
    const reported: { reason: string; error: unknown; context?: Record<string, unknown> }[] = [];
    const bus = createRedisBus({
      publisher,
      subscriber,
      onIgnoredError: (reason, error, context) => reported.push({ reason, error, context }),
    });
    const groupId = `grp_ignored_${process.pid}_${Date.now()}`;
    const { channel } = publicationOf({ kind: 'presence', groupId });
    const malformed = { reason: 'bus_message_malformed', error: expect.any(Error), context: { channel } };
    try {
      const off = bus.subscribe(groupId, () => {});
      // Not JSON, published until the subscription is in place to hear it.
      await until(async () => (await publisher.publish(channel, '{not json')) > 0);
      await until(() => reported.length === 1);
      // JSON, but about another group than its channel's.
      await publisher.publish(channel, JSON.stringify({ kind: 'presence', groupId: 'grp_other' }));
      await until(() => reported.length === 2);
      expect(reported).toEqual([malformed, malformed]);

      subscriber.disconnect();
      off();
      await until(() => reported.length === 3);
      expect(reported[2]).toEqual({ reason: 'unsubscribe', error: expect.any(Error), context: { channel } });
    } finally {
      await bus.close();
      publisher.disconnect();
      subscriber.disconnect();
    }
  });
});
