/**
 * What a request with an API key costs (API.md §2.6), counted, not timed: PostgreSQL round trips of
 * one request (the key's lookup by hash, which also writes `last_used_at` at most once a minute,
 * then the route's own), and Redis round trips against a throwaway Redis (none for a key that
 * works: only failures are counted there; the key's rate-limit budget is reserved ahead, as a user's).
 */
import { countRedisRoundTrips, isLivenessBeat } from '../support/redis-round-trips';
import { type RoundTripWatch, watchRoundTrips } from '../support/round-trips';
import { ensureRedis, type ThrowawayService } from '../support/services';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

const REQUESTS = 5;

describe('round trips of a request with an API key', () => {
  let redis: ThrowawayService;
  let port: number;
  let t: TestServer;
  let trips: RoundTripWatch;
  let ada: TestUser;
  let groupId: string;
  let secret: string;
  const withKey = () => ({ Authorization: `Bearer ${secret}` });

  beforeAll(async () => {
    redis = await ensureRedis({ ephemeral: true });
    port = Number(new URL(redis.url).port);
    // The token's account check held for the run (as round-trips.test.ts does), to compare like with like.
    t = await startTestServer({ env: { REDIS_URL: redis.url, ACCOUNT_STATUS_TTL_MS: '900000' } });
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
    const created = await t.request
      .post('/v1/me/api-keys')
      .set(ada.auth)
      .send({ name: 'k', scopes: ['read', 'write'] });
    secret = created.body.secret;
    // Warm: the key's first use writes last_used_at and reserves its budget; the scripts are loaded.
    expect((await t.request.get('/v1/me').set(withKey())).status).toBe(200);
    expect((await t.request.get('/v1/me').set(ada.auth)).status).toBe(200);
    expect((await t.postOwnExpense(ada, groupId, newKey()).set(withKey())).status).toBe(201);
    trips = watchRoundTrips(t);
  });
  afterAll(async () => {
    trips?.stop();
    await t?.stop();
    await redis?.stop();
  });

  it('costs one PostgreSQL round trip more than a token whose account check is fresh: the lookup', async () => {
    const byKey = await trips.measure((id) => t.request.get('/v1/me').set(withKey()).set('X-Request-Id', id));
    const byToken = await trips.measure((id) =>
      t.request.get('/v1/me').set(ada.auth).set('X-Request-Id', id),
    );
    expect(byKey.res.status).toBe(200);
    expect(byToken.res.status).toBe(200);
    expect(byKey.roundTrips).toBe(byToken.roundTrips + 1);
    expect(byKey.statements[0]).toMatch(/api_keys/);
    const write = await trips.measure((id) =>
      t.postOwnExpense(ada, groupId, newKey()).set(withKey()).set('X-Request-Id', id),
    );
    expect(write.res.status).toBe(201);
    expect(write.roundTrips).toBe(2);
    console.log(
      `PostgreSQL round trips: GET /v1/me by key ${byKey.roundTrips}, by token ${byToken.roundTrips}; ` +
        `keyed POST /v1/expenses by key ${write.roundTrips}`,
    );
  });

  it('makes no Redis round trip for a key that works, one for a failed attempt', async () => {
    let counted = countRedisRoundTrips(port, { ignore: isLivenessBeat });
    for (let i = 0; i < REQUESTS; i++)
      expect((await t.request.get('/v1/me').set(withKey())).status).toBe(200);
    const reads = counted.stop();
    // The key's budget: at most one reservation for the five (reserved ahead, up to 64 points at a time).
    expect(reads.writes).toBeLessThanOrEqual(1);

    counted = countRedisRoundTrips(port, { ignore: isLivenessBeat });
    const wrong = `${secret.slice(0, -7)}ZZZZZZZ`;
    expect((await t.request.get('/v1/me').set('Authorization', `Bearer ${wrong}`)).status).toBe(401);
    const failed = counted.stop();
    expect(failed.writes).toBe(1);
    console.log(
      `Redis round trips: ${REQUESTS} reads by key ${reads.writes}; one failed attempt ${failed.writes}`,
    );
  });
});
