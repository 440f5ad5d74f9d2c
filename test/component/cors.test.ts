/**
 * CORS_ORIGINS on the real server (apps/api/src/http/cors.ts): what a page on an allowed origin can
 * read (Location, ETag, Idempotent-Replayed, RateLimit-*, Retry-After, X-Request-Id), refusals that
 * still carry the CORS headers, and preflights that need no token, cost no rate budget and never
 * get 401. The browser side: test/browser/sdk-cross-origin.test.ts.
 */
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

const APP = 'http://localhost:5173';
const OTHER = 'https://elsewhere.example.com';
/** Per user, and per IP on /v1/auth/* (the four registrations and one login below fit in it). */
const LIMIT = 6;
const corsHeaders = (headers: Record<string, string>) =>
  Object.keys(headers).filter((h) => h.startsWith('access-control-'));
const exposed = (headers: Record<string, string>) =>
  (headers['access-control-expose-headers'] ?? '').split(/,\s*/).map((h) => h.toLowerCase());

describe('CORS_ORIGINS on the real server', () => {
  let server: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cleo: TestUser;
  let dan: TestUser;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        CORS_ORIGINS: `${APP}, https://app.example.com`,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      },
    });
    ada = await server.register('Ada');
    bob = await server.register('Bob');
    cleo = await server.register('Cleo');
    dan = await server.register('Dan');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers preflights without a token, before authentication, and at no cost to any budget', async () => {
    for (let i = 0; i < LIMIT * 3; i++) {
      for (const [path, method] of [
        ['/v1/expenses', 'POST'],
        ['/v1/expenses/exp_x', 'PATCH'],
        ['/v1/me', 'GET'],
        ['/v1/auth/login', 'POST'],
      ] as const) {
        const res = await server.request
          .options(path)
          .set('Origin', APP)
          .set('Access-Control-Request-Method', method)
          .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key,if-match');
        expect(res.status).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe(APP);
        expect(res.headers['access-control-allow-methods']).toContain(method);
        const allowed = (res.headers['access-control-allow-headers'] ?? '').toLowerCase();
        for (const header of [
          'authorization',
          'content-type',
          'idempotency-key',
          'if-match',
          'if-none-match',
        ]) {
          expect(allowed).toContain(header);
        }
        expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
        expect(res.headers['ratelimit-remaining']).toBeUndefined();
      }
    }
    // Ada's whole budget is still there: the first request after all those preflights has LIMIT - 1 left.
    const me = await server.request.get('/v1/me').set(ada.auth).set('Origin', APP);
    expect(me.status).toBe(200);
    expect(me.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
    // And the per-IP budget of /v1/auth/* (four registrations so far) too.
    const login = await server.request
      .post('/v1/auth/login')
      .set('Origin', APP)
      .send({ email: ada.email, password: 'correct horse battery' });
    expect(login.status).toBe(200);
    expect(login.headers['ratelimit-remaining']).toBe(String(LIMIT - 5));
  });

  it('lets an allowed origin read Location, ETag, Idempotent-Replayed and X-Request-Id of a keyed write', async () => {
    const group = await server.request
      .post('/v1/groups')
      .set(bob.auth)
      .set('Origin', APP)
      .send({ name: 'Trip' });
    expect(group.status).toBe(201);
    const groupId: string = group.body.id;
    const key = newKey();
    const body = {
      groupId,
      description: 'Dinner',
      amount: 1200,
      paidBy: bob.id,
      split: { type: 'equal', between: [bob.id] },
    };
    const post = () =>
      server.request
        .post('/v1/expenses')
        .set(bob.auth)
        .set('Origin', 'https://app.example.com')
        .set('Idempotency-Key', key)
        .send(body);
    const first = await post();
    expect(first.status).toBe(201);
    const again = await post();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    for (const res of [first, again]) {
      expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(res.headers['vary']).toMatch(/\bOrigin\b/);
      expect(res.headers['location']).toBe(`/v1/expenses/${first.body.id}`);
      expect(res.headers['etag']).toBeDefined();
      expect(exposed(res.headers)).toEqual(
        expect.arrayContaining([
          'location',
          'etag',
          'idempotent-replayed',
          'retry-after',
          'ratelimit-limit',
          'ratelimit-remaining',
          'ratelimit-reset',
          'x-request-id',
        ]),
      );
    }
  });

  it('keeps the CORS headers on refusals: 401 without a token, 429 with Retry-After', async () => {
    const anonymous = await server.request.get('/v1/me').set('Origin', APP);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['access-control-allow-origin']).toBe(APP);
    expect(exposed(anonymous.headers)).toContain('retry-after');

    let over: Awaited<ReturnType<typeof server.request.get>> | undefined;
    for (let i = 0; i <= LIMIT && over === undefined; i++) {
      const res = await server.request.get('/v1/me').set(cleo.auth).set('Origin', APP);
      if (res.status === 429) over = res;
    }
    expect(over?.body.code).toBe('rate_limited');
    expect(over?.headers['access-control-allow-origin']).toBe(APP);
    expect(Number(over?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(exposed(over?.headers ?? {})).toEqual(expect.arrayContaining(['retry-after', 'ratelimit-reset']));
  });

  it('gives another origin no CORS header and treats the request as it would a same-origin one', async () => {
    const res = await server.request.get('/v1/me').set(dan.auth).set('Origin', OTHER);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(dan.id);
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(res.headers['vary']).toMatch(/\bOrigin\b/);
    // Its preflight is not answered for it: it goes on to authentication like any OPTIONS request.
    const preflight = await server.request
      .options('/v1/expenses')
      .set('Origin', OTHER)
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).not.toBe(204);
    expect(corsHeaders(preflight.headers)).toEqual([]);
  });

  it('applies to /v1 only: probes, metrics and the docs are not for pages on other origins', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/docs']) {
      const res = await server.request.get(path).set('Origin', APP);
      expect(res.status).toBe(200);
      expect(corsHeaders(res.headers)).toEqual([]);
    }
  });
});
