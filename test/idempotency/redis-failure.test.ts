import { Redis } from 'ioredis';
import { ensureRedis, type RunningService } from '../support/services';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

async function expenseCount(t: TestServer, groupId: string) {
  return Number((await t.db!.knex('expenses').where({ group_id: groupId }).count({ n: '*' }))[0]?.n);
}

async function setUp(t: TestServer) {
  const ada = await t.register('Ada');
  const groupId = await t.createGroup(ada);
  const body = {
    groupId,
    description: 'Hotel',
    amount: 250000,
    paidBy: ada.id,
    split: { type: 'equal', between: [ada.id] },
  };
  return { ada, groupId, body };
}

const post = (t: TestServer, user: TestUser, key: string, body: object) =>
  t.request.post('/v1/expenses').set(user.auth).set('Idempotency-Key', key).send(body);

describe('when Redis loses its data between a request and its retry', () => {
  let t: TestServer;
  let redis: Redis;
  // A throwaway Redis of this file's own: FLUSHDB here must not touch anybody else's keys.
  let ownRedis: RunningService;
  beforeAll(async () => {
    ownRedis = await ensureRedis({ ephemeral: true });
    redis = new Redis(ownRedis.url);
    t = await startTestServer({ env: { REDIS_URL: ownRedis.url } });
  });
  afterAll(async () => {
    await t?.stop();
    await redis?.quit();
    await ownRedis?.stop();
  });

  it('replays the durable record from PostgreSQL instead of creating a second expense', async () => {
    const { ada, groupId, body } = await setUp(t);
    const key = newKey();
    const first = await post(t, ada, key, body);
    expect(first.status).toBe(201);
    expect(await redis.dbsize()).toBeGreaterThan(0);
    await redis.flushdb();
    const retry = await post(t, ada, key, body);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await expenseCount(t, groupId)).toBe(1);
    // …and the replayed response is back in Redis: the next retry is answered from there.
    expect(await redis.dbsize()).toBeGreaterThan(0);
  });

  it('still refuses the key for a different body after the flush', async () => {
    const { ada, groupId, body } = await setUp(t);
    const key = newKey();
    await post(t, ada, key, body);
    await redis.flushdb();
    const other = await post(t, ada, key, { ...body, amount: 1 });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await expenseCount(t, groupId)).toBe(1);
  });
});

describe('when Redis is unreachable', () => {
  let t: TestServer;
  let privateRedis: RunningService;
  beforeAll(async () => {
    privateRedis = await ensureRedis({ ephemeral: true });
    t = await startTestServer({ env: { REDIS_URL: privateRedis.url } });
  });
  afterAll(async () => {
    await t.stop();
    await privateRedis.stop();
  });

  it('keeps money writes exactly-once through the PostgreSQL path alone', async () => {
    const { ada, groupId, body } = await setUp(t);
    const before = await post(t, ada, newKey(), body);
    expect(before.status).toBe(201);
    const key = newKey();
    const recorded = await post(t, ada, key, body);
    expect(recorded.status).toBe(201);

    await privateRedis.stop();

    const retry = await post(t, ada, key, body);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.id).toBe(recorded.body.id);

    // Concurrent duplicates of a new key serialise on the durable record's unique key.
    const fresh = newKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(t, ada, fresh, body)));
    for (const answer of answers) expect(answer.status).toBe(201);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await expenseCount(t, groupId)).toBe(3);

    // Redis is not needed for exactly-once writes, so it does not take the process out of rotation.
    const ready = await t.request.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'up', redis: 'down' } });
  });
});
