import { Redis } from 'ioredis';
import { countRedisRoundTrips, isLivenessBeat } from '../support/redis-round-trips';
import { ensureRedis, type ThrowawayService } from '../support/services';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';

/**
 * What a keyed `POST /v1/expenses` costs in Redis round trips (issue #10 item 2), counted on the
 * sockets of an in-process server against a throwaway Redis. At first: rate limit, claim, complete
 * and publish, four writes. Then the completion record and the event's notification went out in one
 * script: three. Now the rate limit reserves a user's budget ahead (rate-limit.ts) instead of asking
 * Redis on every request: two, the claim and the completion. A replay is its claim alone, and a
 * read makes none.
 */
const CEILING_PER_KEYED_WRITE = 2;
const WRITES = 5;

describe('Redis round trips of a keyed write', () => {
  let redis: ThrowawayService;
  let port: number;
  let t: TestServer;
  let ada: TestUser;
  let groupId: string;

  beforeAll(async () => {
    redis = await ensureRedis({ ephemeral: true });
    port = Number(new URL(redis.url).port);
    t = await startTestServer({ env: { REDIS_URL: redis.url } });
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
  });
  afterAll(async () => {
    await t?.stop();
    await redis?.stop();
  });

  const post = (key: string) => t.postOwnExpense(ada, groupId, key);

  it(`costs at most ${CEILING_PER_KEYED_WRITE} round trips, the event published with the completion`, async () => {
    // The first write loads the scripts into Redis (a one-off `EVALSHA` miss per script).
    expect((await post(newKey())).status).toBe(201);

    const trips = countRedisRoundTrips(port, { ignore: isLivenessBeat });
    for (let i = 0; i < WRITES; i++) expect((await post(newKey())).status).toBe(201);
    const { writes, commands } = trips.stop();

    expect(writes).toBeLessThanOrEqual(CEILING_PER_KEYED_WRITE * WRITES);
    // Every write still claims, and completes and publishes: nothing was skipped.
    expect(commands.filter((c) => c === 'EVALSHA' || c === 'EVAL').length).toBeGreaterThanOrEqual(2 * WRITES);
    expect(commands).not.toContain('PUBLISH');
  });

  it('answers a replay with one round trip (its claim) and a read with none', async () => {
    const key = newKey();
    const first = await post(key);
    expect(first.status).toBe(201);

    let trips = countRedisRoundTrips(port, { ignore: isLivenessBeat });
    for (let i = 0; i < WRITES; i++) {
      const again = await post(key);
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(first.body.id);
    }
    let traffic = trips.stop();
    expect(traffic.writes).toBeLessThanOrEqual(WRITES);
    expect(traffic.commands.filter((c) => c === 'EVALSHA' || c === 'EVAL')).toHaveLength(WRITES);

    trips = countRedisRoundTrips(port, { ignore: isLivenessBeat });
    for (let i = 0; i < WRITES; i++) {
      expect((await t.request.get(`/v1/expenses/${first.body.id}`).set(ada.auth)).status).toBe(200);
      expect((await t.request.get(`/v1/groups/${groupId}/balances`).set(ada.auth)).status).toBe(200);
    }
    traffic = trips.stop();
    expect(traffic).toEqual({ writes: 0, commands: [] });
  });

  it('still announces the committed event to a subscriber, and marks it published', async () => {
    const listener = new Redis(redis.url);
    try {
      const heard = new Promise<string>((resolve) => listener.on('message', (_channel, raw) => resolve(raw)));
      await listener.subscribe(`tally:group:${groupId}`);
      const res = await post(newKey());
      expect(res.status).toBe(201);
      const message = JSON.parse(await heard) as {
        kind: string;
        groupId: string;
        seq: number;
        eventId: string;
      };
      expect(message).toMatchObject({ kind: 'event', groupId });
      expect(message.seq).toBeGreaterThan(0);
      // The writer marks it published (the relay would only after its grace period, and count it).
      const knex = t.db!.knex;
      await until(
        async () =>
          (await knex('events').where({ id: message.eventId }).first('published_at'))?.published_at != null,
        'the event to be marked published',
      );
      const metrics = (await t.request.get('/metrics')).text;
      expect(metrics).toMatch(/^outbox_republished_total 0$/m);
    } finally {
      listener.disconnect();
    }
  });

  it('shares one socket write among commands issued together on a command connection', async () => {
    const { redisCommandOptions } = await import('../../apps/server/src/redis-clients');
    const client = new Redis(redis.url, { ...redisCommandOptions, lazyConnect: true });
    try {
      await client.connect();
      const trips = countRedisRoundTrips(port);
      const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => client.get(`rt:${i}`)));
      const { writes, commands } = trips.stop();
      expect(replies).toHaveLength(10);
      expect(commands.filter((c) => c === 'GET')).toHaveLength(10);
      expect(writes).toBe(1);
    } finally {
      client.disconnect();
    }
  });
});
