/**
 * Login throttling (API.md §2): per account and per client IP, growing delays after the free
 * attempts, `429 rate_limited` with `Retry-After` while a key is locked, shared through Redis, per
 * process without it; the per-IP budget of /v1/auth/*; and answers that do not tell whether an
 * email has an account (neither by content nor by the work they cost).
 */
import crypto from 'node:crypto';
import { createLoginThrottle } from '@tally/api';
import { AppError } from '@tally/http-kit';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import type { Response } from 'supertest';
import { withoutClock } from '../support/clock-headers';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { type ThrowawayRedis, throwawayRedises } from '../support/throwaway-redis';
import { expectProblem } from './component-helpers';

const PASSWORD = 'correct horse battery';
const realScrypt = crypto.scrypt;
/**
 * Low thresholds, and a first lock that outlasts the test: whatever the machine's speed, an attempt
 * after the one that locks finds the key locked (with the default 1 s, a loaded machine let the next
 * one of a sequence or a burst arrive after the lock had ended). That a lock ends, and the right
 * password then gets in, is test/client/login-throttle.test.ts's.
 */
const LOCKED = {
  LOGIN_THROTTLE_ACCOUNT_FREE_FAILURES: '5',
  LOGIN_THROTTLE_IP_FREE_FAILURES: '20',
  LOGIN_THROTTLE_FIRST_DELAY_SECONDS: '600',
  LOGIN_THROTTLE_MAX_DELAY_SECONDS: '600',
  LOGIN_THROTTLE_DECAY_SECONDS: '900',
};

let ipCounter = 0;
/** A fresh client IP from TEST-NET-3 (203.0.113.0/24) and beyond, per call. */
const freshIp = () => {
  const n = ++ipCounter + ((process.pid * 7) % 5000);
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
};

const login = (t: TestServer, email: string, password: string, ip: string) =>
  t.request.post('/v1/auth/login').set('X-Forwarded-For', ip).send({ email, password });

function expectThrottled(res: Response): number {
  expectProblem(res, 429, 'rate_limited');
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  return retryAfter;
}

async function metric(t: TestServer, scope: string): Promise<number> {
  const text = (await t.request.get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`login_throttled_total{scope="${scope}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('login throttling on one process (no Redis)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: LOCKED });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('throttles 50 wrong passwords from 10 IPs; the right one from a fresh IP is refused while locked', async () => {
    const ada = await t.register('Ada');
    const ips = Array.from({ length: 10 }, freshIp);
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await login(t, ada.email, `wrong guess ${i}`, ips[i % 10]!);
      if (res.status === 429) expectThrottled(res);
      else expectProblem(res, 401, 'invalid_credentials');
      statuses.push(res.status);
    }
    // 5 free, the 6th locks: the 44 after it never reached a hash.
    expect(statuses).toEqual([...Array(6).fill(401), ...Array(44).fill(429)]);
    expect(await metric(t, 'account')).toBeGreaterThanOrEqual(44);
    // The right password from an IP never seen: the account is still locked.
    expectThrottled(await login(t, ada.email, PASSWORD, freshIp()));
  });

  it('resets the account on a successful login: 5 more failures are free again (the 6th locks)', async () => {
    const ada = await t.register('Ada');
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await login(t, ada.email, `wrong ${i}`, ip)).status).toBe(401);
    expect((await login(t, ada.email, PASSWORD, ip)).status).toBe(200);
    // Without the reset the first of these would be the 6th failure and lock the second.
    const after: number[] = [];
    for (let i = 0; i < 8; i++) after.push((await login(t, ada.email, `again ${i}`, ip)).status);
    expect(after).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  });

  it('locks an email that has no account the same way, so a 429 reveals nothing', async () => {
    const email = uniqueEmail('nobody');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(t, email, `guess ${i}`, freshIp())).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  });

  it('throttles one IP trying many accounts (20 free failures per IP)', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await login(t, uniqueEmail(`spray${i}`), 'password spraying', ip);
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 21)).toEqual(Array(21).fill(401));
    expect(statuses.slice(21)).toEqual([429, 429, 429, 429]);
    // Another IP is not affected.
    expect((await login(t, uniqueEmail('other'), 'password spraying', freshIp())).status).toBe(401);
    expect(await metric(t, 'ip')).toBeGreaterThanOrEqual(4);
  });

  it('counts a successful login against neither key', async () => {
    const bob = await t.register('Bob');
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await login(t, bob.email, PASSWORD, ip)).status);
    expect(statuses).toEqual(Array(30).fill(200));
  });
});

describe('answers that do not tell whether an email has an account', () => {
  let t: TestServer;
  beforeAll(async () => {
    // The test server's default thresholds (1,000,000) keep the throttle out of the timing.
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const comparable = (res: Response) => {
    const { requestId: _r, instance: _i, ...body } = res.body as Record<string, unknown>;
    // The clock-derived headers (Date, the window's seconds left) bounded: a second may pass between two.
    const headers = withoutClock(res.headers);
    for (const name of ['x-request-id', 'content-length', 'etag']) delete headers[name];
    return { status: res.status, body, headers };
  };

  it('answers an unknown email, a deleted account and a wrong password alike', async () => {
    const ada = await t.register('Ada');
    const cleo = await t.register('Cleo');
    const deleted = await t.request.delete('/v1/me').set(cleo.auth);
    const wrong = await login(t, ada.email, 'not the password', freshIp());
    const unknown = await login(t, uniqueEmail('ghost'), 'not the password', freshIp());
    expectProblem(wrong, 401, 'invalid_credentials');
    expect(comparable(unknown)).toEqual(comparable(wrong));
    expect(deleted.status).toBe(204);
    // Its old password: a deleted account has no email and no password left to sign in with.
    const gone = await login(t, cleo.email, PASSWORD, freshIp());
    expect(comparable(gone)).toEqual(comparable(wrong));
    // A login password over 1024 characters is refused before anything is hashed, for any email alike.
    const long = 'x'.repeat(1025);
    const a = await login(t, ada.email, long, freshIp());
    const b = await login(t, uniqueEmail('ghost'), long, freshIp());
    expect(comparable(a)).toEqual(comparable(b));
    expect(a.status).toBe(422);
  });

  it('does the same work for an unknown email, a deleted account and a wrong password: one scrypt of one cost', async () => {
    // What makes their answers take as long: each derives one key with the parameters of a real
    // account's hash (the unknown ones against a dummy hash), and nothing else is hashed. Asserted as
    // that work, not as times (a timing comparison of 400 logins took 95 s and a loaded machine's noise).
    const ada = await t.register('Ada');
    const cleo = await t.register('Cleo');
    expect((await t.request.delete('/v1/me').set(cleo.auth)).status).toBe(204);
    const derivations: string[] = [];
    const scrypt = jest.spyOn(crypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
      const [, salt, keyLength, options] = args as [unknown, Buffer, number, crypto.ScryptOptions];
      derivations.push(JSON.stringify([salt.length, keyLength, options.N, options.r, options.p]));
      return realScrypt(...(args as Parameters<typeof crypto.scrypt>));
    }) as typeof crypto.scrypt);
    const workOf = async (email: string) => {
      derivations.length = 0;
      expectProblem(await login(t, email, 'not the password at all', freshIp()), 401, 'invalid_credentials');
      return [...derivations];
    };
    try {
      const wrong = await workOf(ada.email);
      expect(wrong).toHaveLength(1);
      expect(await workOf(uniqueEmail('ghost'))).toEqual(wrong);
      expect(await workOf(cleo.email)).toEqual(wrong);
      // The check is not vacuous: the right password is one derivation of that cost too.
      derivations.length = 0;
      expect((await login(t, ada.email, PASSWORD, freshIp())).status).toBe(200);
      expect(derivations).toEqual(wrong);
    } finally {
      scrypt.mockRestore();
    }
  });
});

describe('the per-IP budget of /v1/auth/*', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers 429 rate_limited with Retry-After past AUTH_RATE_LIMIT_PER_MINUTE, apart from the general budget', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.request
        .post('/v1/auth/register')
        .set('X-Forwarded-For', ip)
        .send({ email: uniqueEmail('budget'), name: 'B', password: PASSWORD });
      expect(res.headers['ratelimit-limit']).toBe('3');
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201]);
    const over = await login(t, uniqueEmail('budget'), PASSWORD, ip);
    expectThrottled(over);
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(await metric(t, 'auth_budget')).toBe(1);
    // The general budget (RATE_LIMIT_PER_MINUTE, 1,000,000 here) of a signed-in user is untouched.
    const ada = await t.register('Ada');
    expect((await t.request.get('/v1/me').set(ada.auth)).headers['ratelimit-limit']).toBe('1000000');
  });
});

describe('TRUST_PROXY: whom X-Forwarded-For is believed from', () => {
  let t: TestServer;
  beforeAll(async () => {
    // The test client connects from loopback, which this rule does not trust: a client that is not a
    // proxy, as one on a private network is by default.
    t = await startTestServer({
      env: {
        ...LOCKED,
        TRUST_PROXY: '192.0.2.1',
        LOGIN_THROTTLE_IP_FREE_FAILURES: '3',
        AUTH_RATE_LIMIT_PER_MINUTE: '100',
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('records the peer address as the session’s ip', async () => {
    const ada = await t.register('Ada');
    const res = await t.request
      .post('/v1/auth/login')
      .set('X-Forwarded-For', '203.0.113.77')
      .send({ email: ada.email, password: PASSWORD });
    expect(res.status).toBe(200);
    const sessions = await t.request.get('/v1/me/sessions').set(ada.auth);
    expect(sessions.body.data.map((s: { ip: string }) => s.ip)).toEqual(['127.0.0.1', '127.0.0.1']);
  });

  it('counts a client that rotates X-Forwarded-For as the one IP it is: login throttle and /v1/auth budget', async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Another email and another claimed address each time: only the IP counter can stop it.
      const res = await login(t, uniqueEmail(`rotate${i}`), `guess ${i}`, freshIp());
      statuses.push(res.status);
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    // Three free failures, a fourth that locks the IP, then 429 (main: every claimed IP was fresh).
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect(await metric(t, 'ip')).toBeGreaterThanOrEqual(1);
    // One budget for every attempt, whatever the header claimed: it goes down (main: each claimed
    // address had a fresh one, 99 left every time). Not compared by value: a minute may turn.
    expect(new Set(remaining).size).toBeGreaterThan(1);
  });
});

describe.each(throwawayRedises)('login throttling shared through $redis', ({ start }) => {
  let a: TestServer;
  let b: TestServer;
  let redis: ThrowawayRedis;
  beforeAll(async () => {
    redis = await start();
    const env = { ...LOCKED, ...redis.env };
    a = await startTestServer({ env });
    b = await startTestServer({ env: { ...env, DATABASE_URL: a.db!.url } });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await redis?.stop();
  });

  it('counts one account across instances', async () => {
    const ada = await a.register('Ada');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await login(i % 2 === 0 ? a : b, ada.email, `wrong ${i}`, freshIp())).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    // Parallel guesses cannot slip past the count: of 20 at once on both instances, none is hashed.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(i % 2 === 0 ? a : b, ada.email, `burst ${i}`, freshIp())),
    );
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(429));
  });

  it('lets no more than the free attempts of a burst through before the first answer', async () => {
    const email = uniqueEmail('burst');
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(i % 2 === 0 ? a : b, email, `burst ${i}`, freshIp())),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(24);
  });
});

describe('login throttling without Redis: per process', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer({ env: LOCKED });
    b = await startTestServer({ env: { ...LOCKED, DATABASE_URL: a.db!.url } });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('counts on each process alone', async () => {
    const email = uniqueEmail('local');
    const onA: number[] = [];
    for (let i = 0; i < 7; i++) onA.push((await login(a, email, `wrong ${i}`, freshIp())).status);
    expect(onA).toEqual([401, 401, 401, 401, 401, 401, 429]);
    expect((await login(b, email, 'wrong on b', freshIp())).status).toBe(401);
  });
});

describe('a Redis that cannot be reached', () => {
  it('falls back to counting in this process, and counts the ignored errors', async () => {
    // Nothing listens on port 1: every call fails at once.
    const down = new Redis({
      port: 1,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    const registry = new Registry();
    try {
      const throttle = createLoginThrottle({
        redis: down,
        accountFreeFailures: 2,
        firstDelaySeconds: 600,
        registry,
      });
      const outcomes: (number | string)[] = [];
      for (let i = 0; i < 4; i++) {
        try {
          await throttle.attempt('ada@example.com', '203.0.113.9');
          outcomes.push('counted');
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          outcomes.push((error as AppError).status);
        }
      }
      expect(outcomes).toEqual(['counted', 'counted', 'counted', 429]);
      const text = await registry.metrics();
      expect(text).toMatch(/ignored_errors_total\{reason="login_throttle"\} [1-9]/);
      expect(text).toMatch(/login_throttled_total\{scope="account"\} 1/);
    } finally {
      down.disconnect();
    }
  });
});
