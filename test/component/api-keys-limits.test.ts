/**
 * API keys' limits (API.md §2.6, §9): failed key attempts throttled per client IP, in one process
 * and shared by two through Redis; and each key's requests spending a budget of its own.
 */
import { checksumOf, isWellFormedSecret, SECRET_PREFIX } from '@tally/api';
import { redisUrl } from '../support/test-database';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem } from './component-helpers';

let ipCounter = 0;
/** A fresh client IP per call (TEST-NET-2, 198.51.100.0/24, and around), so files sharing Redis do not meet. */
const freshIp = () => {
  const n = ++ipCounter + ((process.pid * 13) % 5000);
  return `198.${51 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
};

const createKey = async (t: TestServer, user: TestUser, scopes = ['read']): Promise<string> => {
  const res = await t.request.post('/v1/me/api-keys').set(user.auth).send({ name: 'script', scopes });
  expect(res.status).toBe(201);
  return res.body.secret;
};
const asKey = (t: TestServer, secret: string, ip: string) =>
  t.request.get('/v1/me').set('Authorization', `Bearer ${secret}`).set('X-Forwarded-For', ip);

/** A key of the right shape and checksum that no account holds: each use is a failed lookup. */
const unknownKey = () => {
  const random = `${'Z'.repeat(37)}${String(++ipCounter).padStart(6, '0')}`;
  return `${SECRET_PREFIX}${random}${checksumOf(random)}`;
};

function expectThrottled(res: Awaited<ReturnType<typeof asKey>>) {
  expectProblem(res, 429, 'rate_limited');
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

const FAILURES = { API_KEY_FAILURES_PER_IP: '3', API_KEY_FAILURE_WINDOW_SECONDS: '600' };

describe('failed API-key attempts on one process (no Redis)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: FAILURES });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses every key from an IP past its free failures with 429 and Retry-After; other IPs go on', async () => {
    const ada = await t.register('Ada');
    const secret = await createKey(t, ada);
    const ip = freshIp();
    const bad = [`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`, 'tally_sk_x', unknownKey()];
    for (const key of bad) expectProblem(await asKey(t, key, ip), 401, 'unauthenticated');
    // The fourth failure locks the IP; then even the right key is refused from it, without a lookup.
    expectThrottled(await asKey(t, bad[0] as string, ip));
    expectThrottled(await asKey(t, secret, ip));
    const metrics = (await t.request.get('/metrics')).text;
    expect(metrics).toMatch(/login_throttled_total\{scope="api_key"\} [1-9]/);
    // Another IP, and the user's own token from the locked IP, are not affected.
    expect((await asKey(t, secret, freshIp())).status).toBe(200);
    expect((await t.request.get('/v1/me').set(ada.auth).set('X-Forwarded-For', ip)).status).toBe(200);
  });

  it('does not count a key that works', async () => {
    const ada = await t.register('Ada');
    const secret = await createKey(t, ada);
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await asKey(t, secret, ip)).status).toBe(200);
  });
});

describe('failed API-key attempts shared by two processes through Redis', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = { ...FAILURES, REDIS_URL: redisUrl() };
    a = await startTestServer({ env });
    b = await startTestServer({ env: { ...env, DATABASE_URL: a.db!.url } });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('counts failures on either process against one allowance', async () => {
    const ada = await a.register('Ada');
    const secret = await createKey(a, ada);
    const ip = freshIp();
    const bad = unknownKey();
    expect(isWellFormedSecret(bad)).toBe(true);
    expectProblem(await asKey(a, bad, ip), 401, 'unauthenticated');
    expectProblem(await asKey(b, bad, ip), 401, 'unauthenticated');
    expectProblem(await asKey(a, bad, ip), 401, 'unauthenticated');
    // The fourth, on B: over the IP's three, counted in Redis.
    expectThrottled(await asKey(b, bad, ip));
    expectThrottled(await asKey(b, secret, ip));
    // A learns of the lock at its own next failure.
    expectThrottled(await asKey(a, bad, ip));
    expectThrottled(await asKey(a, secret, ip));
  });
});

describe('rate limits of API keys (API.md §9)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('gives each key a budget of its own, apart from its user’s', async () => {
    const ada = await t.register('Ada');
    const first = await createKey(t, ada); // the user's first point
    const second = await createKey(t, ada); // and second
    const ip = freshIp();
    // A request outside the key's scopes is refused, and spends the key's budget all the same.
    const refused = await t.request
      .post('/v1/groups')
      .set('Authorization', `Bearer ${first}`)
      .set('X-Forwarded-For', ip)
      .send({ name: 'Nope' });
    expectProblem(refused, 403, 'insufficient_scope');
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await asKey(t, first, ip);
      expect(res.status).toBe(200);
      remaining.push(res.headers['ratelimit-remaining'] as string);
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    const over = await asKey(t, first, ip);
    expectProblem(over, 429, 'rate_limited');
    expect(over.headers['ratelimit-limit']).toBe('5');
    // The other key, and the user's token, still have theirs.
    expect((await asKey(t, second, ip)).headers['ratelimit-remaining']).toBe('4');
    const mine = await t.request.get('/v1/me').set(ada.auth);
    expect(mine.status).toBe(200);
    expect(mine.headers['ratelimit-remaining']).toBe('2');
  });
});
