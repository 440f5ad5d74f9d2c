import { newKey, startTestServer, type TestServer } from '../support/test-server';
import { type ThrowawayRedis, throwawayRedises } from '../support/throwaway-redis';

const LIMIT = 5;

/**
 * Budgets are shared through Redis by design, so this file keeps its counters in a throwaway Redis
 * (or Redis Cluster) of its own: every test process talks from 127.0.0.1, and other files must not
 * spend its budget.
 */
describe.each(throwawayRedises)('rate limits shared by every instance through $redis', ({ start }) => {
  let a: TestServer;
  let b: TestServer;
  let redis: ThrowawayRedis;
  beforeAll(async () => {
    redis = await start();
    const env = {
      ...redis.env,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT),
    };
    a = await startTestServer({ env });
    // A second instance on the same database and Redis, as behind a load balancer.
    b = await startTestServer({ env: { ...env, DATABASE_URL: a.db!.url } });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await redis?.stop();
  });

  it('gives each user one budget across instances, then 429 rate_limited with Retry-After', async () => {
    const ada = await a.register('Ada');
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await (i % 2 === 0 ? a : b).request.get('/v1/me').set(ada.auth);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe(String(LIMIT));
      remaining.push(Number(res.headers['ratelimit-remaining']));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const over = await b.request.get('/v1/groups').set(ada.auth);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('rate_limited');
    expect(over.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(over.headers['ratelimit-remaining']).toBe('0');
    // Another user is not affected.
    const bob = await b.register('Bob');
    expect((await a.request.get('/v1/me').set(bob.auth)).status).toBe(200);
  });

  it('does not record a 429 against the idempotency key', async () => {
    const ada = await a.register('Ada');
    const group = await a.request.post('/v1/groups').set(ada.auth).send({ name: 'Limits' });
    expect(group.status).toBe(201);
    for (let i = 0; i < LIMIT - 1; i++) await a.request.get('/v1/me').set(ada.auth);
    const key = newKey();
    const body = {
      groupId: group.body.id,
      description: 'Tea',
      amount: 300,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    };
    const limited = await b.request.post('/v1/expenses').set(ada.auth).set('Idempotency-Key', key).send(body);
    expect(limited.status).toBe(429);
    const records = await a.db!.knex('idempotency_records').where({ user_id: ada.id, key });
    expect(records).toHaveLength(0);
  });

  it('limits /v1/auth/* per client IP', async () => {
    const ip = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      const res = await (i % 2 === 0 ? a : b).request
        .post('/v1/auth/login')
        .set('X-Forwarded-For', ip)
        .send({ email: 'nobody@example.com', password: 'wrong password' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const otherIp = await a.request
      .post('/v1/auth/login')
      .set('X-Forwarded-For', '203.0.113.8')
      .send({ email: 'nobody@example.com', password: 'wrong password' });
    expect(otherIp.status).toBe(401);
  });
});

describe('rate limits on the embedded default', () => {
  it('counts in process when there is no Redis', async () => {
    const t = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const ada = await t.register('Ada');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await t.request.get('/v1/me').set(ada.auth)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await t.stop();
    }
  });
});
