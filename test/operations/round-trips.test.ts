/**
 * Pins the PostgreSQL round trips per request (issue #10): on this VM every round trip is a
 * syscall-heavy, expensive thing, so the counts are what makes the speed. Timings belong in the
 * bench, not here; this counts query messages sent to the server on behalf of each request.
 */
import { type RoundTripWatch, watchRoundTrips } from '../support/round-trips';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

/**
 * The ceilings. Reads are one statement each (the membership check is folded into it), sent as a
 * prepared (named) statement. A write to a group this process knows is ONE prepared statement in
 * autocommit (the guard, the rows, the balances, the event and the durable record; issue #10: it
 * was 5, BEGIN, lock, snapshot, write, COMMIT). A write to a record by its id reads the record with
 * its group's state first: 2. A write whose state went out of date behind this process's back
 * (another process wrote the group) costs one statement more, which returns the current state.
 */
const CEILING = {
  'keyed POST /v1/expenses': 1,
  'keyed POST /v1/settlements': 1,
  'keyed PATCH /v1/expenses/{id}': 2,
  'keyed DELETE /v1/expenses/{id}': 2,
  'keyed POST /v1/expenses (state changed by another process)': 2,
  'replay of a keyed POST': 0,
  'GET /v1/expenses/{id}': 1,
  'GET /v1/settlements/{id}': 1,
  'GET /v1/groups/{id}/balances': 1,
  'GET /v1/groups/{id}/expenses': 1,
  'GET /v1/groups/{id}/expenses (next page)': 1,
  'GET /v1/groups/{id}/settlements': 1,
  'GET /v1/groups/{id}/events': 1,
  'GET /v1/groups': 1,
  'GET /v1/groups/{id}': 1,
  'GET /v1/me': 1,
  'GET /v1/groups/{id}/balances (non-member: 404)': 1,
  'GET /v1/expenses/{id} (non-member: 404)': 1,
  'GET /v1/groups/{id}/expenses (bad cursor: 422)': 1,
  'GET /v1/groups/{id}/events (non-member, bad cursor: 404)': 1,
  'GET /v1/groups/{id}/rates': 1,
  'GET /v1/groups/{id}/balances?in= (converted)': 1,
} as const;

/** The requests that must go out as named statements only (the harness shows a name as `[name] …`). */
const PREPARED = new Set<string>(
  Object.keys(CEILING).filter(
    (e) =>
      e.startsWith('keyed') ||
      e.startsWith('GET /v1/groups') ||
      e.startsWith('GET /v1/expenses') ||
      e.startsWith('GET /v1/settlements'),
  ),
);

type Row = { endpoint: keyof typeof CEILING; status: number; roundTrips: number; statements: string[] };

describe('PostgreSQL round trips per request', () => {
  let t: TestServer;
  let trips: RoundTripWatch;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let groupId: string;
  const rows: Row[] = [];

  beforeAll(async () => {
    // An API process reads an account's status (deleted or not, API.md §11.3) once per user per
    // ACCOUNT_STATUS_TTL_MS (one round trip per user per 10 s by default, amortised over their
    // requests): held for the whole run here, so that the counts below are those of each request.
    t = await startTestServer({ env: { ACCOUNT_STATUS_TTL_MS: '900000' } });
    [ada, bob, eve] = [await t.register('Ada'), await t.register('Bob'), await t.register('Eve')];
    groupId = await t.createGroup(ada, [bob]);
    // A second group, so GET /v1/groups would show one query per group if it made one.
    await t.createGroup(ada, [bob, eve]);
    for (const user of [ada, bob, eve])
      expect((await t.request.get('/v1/me').set(user.auth)).status).toBe(200);
    trips = watchRoundTrips(t);
  });
  afterAll(async () => {
    trips?.stop();
    console.log(
      `PostgreSQL round trips per request (ceiling in brackets):\n${rows
        .map((r) => `  ${r.endpoint.padEnd(58)} ${r.status}  ${r.roundTrips} [${CEILING[r.endpoint]}]`)
        .join('\n')}`,
    );
    await t?.stop();
  });

  const measure = async (
    endpoint: keyof typeof CEILING,
    send: (requestId: string) => PromiseLike<{ status: number; body: unknown }>,
    status: number,
  ) => {
    const { res, roundTrips, statements } = await trips.measure(send);
    rows.push({ endpoint, status: res.status, roundTrips, statements });
    expect({ endpoint, status: res.status }).toEqual({ endpoint, status });
    return res as { status: number; body: Record<string, unknown> };
  };
  const lastSeq = async () =>
    Number((await t.server.knex('groups').where({ id: groupId }).first('last_seq')).last_seq);
  const get = (path: string, user: TestUser) => (id: string) =>
    t.request.get(path).set(user.auth).set('X-Request-Id', id);

  it('counts each request, and stays within the ceilings', async () => {
    const key = newKey();
    const body = {
      groupId,
      description: 'Dinner',
      amount: 3000,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id, bob.id] },
    };
    const post = (id: string) =>
      t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .set('X-Request-Id', id)
        .send(body);
    const created = await measure('keyed POST /v1/expenses', post, 201);
    const expenseId = created.body['id'] as string;
    await measure('replay of a keyed POST', post, 201);
    // A second expense and a settlement, so the lists have a next page and a settlement to read.
    await t.request.post('/v1/expenses').set(ada.auth).set('Idempotency-Key', newKey()).send(body);
    const settled = await measure(
      'keyed POST /v1/settlements',
      (id) =>
        t.request
          .post('/v1/settlements')
          .set(bob.auth)
          .set('Idempotency-Key', newKey())
          .set('X-Request-Id', id)
          .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 1000 }),
      201,
    );
    const patched = await measure(
      'keyed PATCH /v1/expenses/{id}',
      (id) =>
        t.request
          .patch(`/v1/expenses/${expenseId}`)
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .set('X-Request-Id', id)
          .send({ description: 'Dinner for two' }),
      200,
    );
    expect(patched.body['description']).toBe('Dinner for two');
    const doomed = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send(body);
    await measure(
      'keyed DELETE /v1/expenses/{id}',
      (id) =>
        t.request
          .delete(`/v1/expenses/${doomed.body.id}`)
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .set('X-Request-Id', id),
      204,
    );
    // Another process writes the group (a change made straight in the database, as its statement
    // would): this process's state of the group is out of date, and its next write finds out.
    await t.server.knex('groups').where({ id: groupId }).increment('last_seq', 1);
    await t.server.knex('events').insert({
      id: `evt_other_${Date.now()}`,
      group_id: groupId,
      seq: (await lastSeq()) as number,
      type: 'group.updated',
      actor_id: ada.id,
      occurred_at: new Date(),
      data: { group: {} },
    });
    const behind = await measure(
      'keyed POST /v1/expenses (state changed by another process)',
      (id) =>
        t.request
          .post('/v1/expenses')
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .set('X-Request-Id', id)
          .send(body),
      201,
    );
    expect(behind.body['id']).toBeDefined();

    await measure('GET /v1/expenses/{id}', get(`/v1/expenses/${expenseId}`, bob), 200);
    await measure('GET /v1/settlements/{id}', get(`/v1/settlements/${settled.body.id}`, ada), 200);
    await measure('GET /v1/groups/{id}/balances', get(`/v1/groups/${groupId}/balances`, ada), 200);
    const page = await measure(
      'GET /v1/groups/{id}/expenses',
      get(`/v1/groups/${groupId}/expenses?limit=1`, ada),
      200,
    );
    const cursor = encodeURIComponent(page.body['nextCursor'] as string);
    await measure(
      'GET /v1/groups/{id}/expenses (next page)',
      get(`/v1/groups/${groupId}/expenses?limit=1&cursor=${cursor}`, ada),
      200,
    );
    await measure('GET /v1/groups/{id}/settlements', get(`/v1/groups/${groupId}/settlements`, ada), 200);
    await measure('GET /v1/groups/{id}/events', get(`/v1/groups/${groupId}/events`, ada), 200);
    await measure('GET /v1/groups', get('/v1/groups', ada), 200);
    await measure('GET /v1/groups/{id}', get(`/v1/groups/${groupId}`, ada), 200);
    await measure('GET /v1/me', get('/v1/me', ada), 200);
    await measure(
      'GET /v1/groups/{id}/balances (non-member: 404)',
      get(`/v1/groups/${groupId}/balances`, eve),
      404,
    );
    await measure('GET /v1/expenses/{id} (non-member: 404)', get(`/v1/expenses/${expenseId}`, eve), 404);
    // Membership is checked before the cursor: a member learns the cursor is bad, a non-member not.
    await measure(
      'GET /v1/groups/{id}/expenses (bad cursor: 422)',
      get(`/v1/groups/${groupId}/expenses?cursor=bm9wZQ`, ada),
      422,
    );
    await measure(
      'GET /v1/groups/{id}/events (non-member, bad cursor: 404)',
      get(`/v1/groups/${groupId}/events?cursor=bm9wZQ`, eve),
      404,
    );

    await measure('GET /v1/groups/{id}/rates', get(`/v1/groups/${groupId}/rates`, ada), 200);
    await measure(
      'GET /v1/groups/{id}/balances?in= (converted)',
      get(`/v1/groups/${groupId}/balances?in=INR`, ada),
      200,
    );

    // Every endpoint measured; the ones over their ceiling are listed with the statements they sent.
    expect(rows.map((r) => r.endpoint).sort()).toEqual(Object.keys(CEILING).sort());
    expect(rows.filter((r) => r.roundTrips > CEILING[r.endpoint])).toEqual([]);
    expect(
      rows.filter(
        (r) => PREPARED.has(r.endpoint) && !r.statements.every((s) => /^\[(read|write|tally)_/.test(s)),
      ),
    ).toEqual([]);
  });
});
