import { Redis } from 'ioredis';
import { redisUrl } from '../../../test/support/test-database';
import { describeEventBusContract } from './event-bus.contract';
import { createRedisBus } from './redis-bus';

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
    await new Promise((resolve) => setTimeout(resolve, 100));
    const clients = String(await publisher.call('CLIENT', 'LIST'));
    const channels = (await publisher.call('PUBSUB', 'CHANNELS', 'tally:group:grp_many_*')) as string[];
    expect(channels).toHaveLength(50);
    expect(clients.split('\n').filter((line) => line.includes(`name=${name}`))).toHaveLength(1);
    for (const off of offs) off();
    await bus.close();
    await publisher.quit();
    await subscriber.quit();
  });
});
