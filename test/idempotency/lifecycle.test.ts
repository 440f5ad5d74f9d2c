import type { Knex } from 'knex';
import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { BOTH_STORES, holdGroupLock } from './hold-group';

/**
 * API.md §7's key lifecycle, every row, against both stores: Redis (the fleet) and the in-process
 * store of the embedded default. Both run on real PostgreSQL.
 */
describe.each(BOTH_STORES)('idempotency lifecycle with the $store store', ({ env }) => {
  let t: TestServer;
  let knex: Knex;
  let ada: TestUser;
  let bob: TestUser;
  let groupId: string;

  beforeAll(async () => {
    // A short wait for a live owner's outcome: the in-progress answer comes long before the
    // database gives up on the group lock the in-progress test holds.
    t = await startTestServer({ env: { ...env(), IDEMPOTENCY_IN_PROGRESS_WAIT_MS: '200' } });
    knex = t.db!.knex;
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    groupId = await t.createGroup(ada, [bob]);
  });
  afterAll(async () => {
    await t.stop();
  });

  const expenseBody = (extra: Record<string, unknown> = {}) => ({
    groupId,
    description: 'Dinner',
    amount: 90000,
    paidBy: ada.id,
    split: { type: 'equal', between: [ada.id, bob.id] },
    ...extra,
  });
  const postExpense = (key: string, body: unknown, user: TestUser = ada) =>
    t.request
      .post('/v1/expenses')
      .set(user.auth)
      .set('Idempotency-Key', key)
      .send(body as object);
  const countExpenses = async () => Number((await knex('expenses').count({ n: '*' }))[0]?.n);

  it('executes an unseen key once and replays the recorded response exactly', async () => {
    const key = newKey();
    const before = await countExpenses();
    const first = await postExpense(key, expenseBody());
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await postExpense(key, expenseBody());
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await countExpenses()).toBe(before + 1);
  });

  it('treats the same JSON with keys in another order and other whitespace as the same request', async () => {
    const key = newKey();
    const first = await postExpense(key, expenseBody());
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(expenseBody()).reverse()), null, 2);
    const again = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .set('Content-Type', 'application/json')
      .send(reordered);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
  });

  it('answers 409 idempotency_key_reused for the same key with another body, and records nothing', async () => {
    const key = newKey();
    const first = await postExpense(key, expenseBody());
    const before = await countExpenses();
    const other = await postExpense(key, expenseBody({ amount: 12345 }));
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(other.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(await countExpenses()).toBe(before);
    // The original is still what the key replays.
    const again = await postExpense(key, expenseBody());
    expect(again.body).toEqual(first.body);
  });

  it('answers 409 idempotency_key_reused for the same key with another method on the same path', async () => {
    const created = await postExpense(newKey(), expenseBody());
    const key = newKey();
    const put = await t.request
      .put(`/v1/expenses/${created.body.id}`)
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send(expenseBody());
    expect(put.status).toBe(200);
    const patch = await t.request
      .patch(`/v1/expenses/${created.body.id}`)
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send({ description: 'Patched with a used key' });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('idempotency_key_reused');
  });

  it('answers 409 idempotency_key_in_progress with Retry-After: 1 while the first request runs', async () => {
    const key = newKey();
    // Hold the group's row lock so that the first request stays inside its transaction.
    const lock = await holdGroupLock(knex, groupId);
    const first = postExpense(key, expenseBody()).then((r) => r);
    try {
      await lock.waitedOn();
      // The second waits for the first's outcome (IDEMPOTENCY_IN_PROGRESS_WAIT_MS), then gives up.
      const second = await postExpense(key, expenseBody());
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('idempotency_key_in_progress');
      expect(second.headers['retry-after']).toBe('1');
    } finally {
      await lock.release();
    }
    const done = await first;
    expect(done.status).toBe(201);
    const third = await postExpense(key, expenseBody());
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(third.body.id).toBe(done.body.id);
  });

  it("records the operation's own 4xx outcomes and replays them", async () => {
    const carol = await t.register('Carol');
    const key = newKey();
    const body = expenseBody({ split: { type: 'equal', between: [ada.id, carol.id] } });
    const first = await postExpense(key, body);
    expect(first.status).toBe(422);
    expect(first.body.code).toBe('not_a_member');
    // Even once the request would succeed, the key keeps answering what it answered.
    await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: carol.id });
    const again = await postExpense(key, body);
    expect(again.status).toBe(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers['content-type']).toMatch(/application\/problem\+json/);

    const missingKey = newKey();
    const notFound = await postExpense(
      missingKey,
      expenseBody({ groupId: 'grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC' }),
    );
    expect(notFound.status).toBe(404);
    const notFoundAgain = await postExpense(
      missingKey,
      expenseBody({ groupId: 'grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC' }),
    );
    expect(notFoundAgain.status).toBe(404);
    expect(notFoundAgain.headers['idempotent-replayed']).toBe('true');
  });

  it('records 412 and replays DELETE as 204', async () => {
    const created = await postExpense(newKey(), expenseBody());
    const key412 = newKey();
    const stale = await t.request
      .delete(`/v1/expenses/${created.body.id}`)
      .set(ada.auth)
      .set('If-Match', '"v999"')
      .set('Idempotency-Key', key412);
    expect(stale.status).toBe(412);
    const staleAgain = await t.request
      .delete(`/v1/expenses/${created.body.id}`)
      .set(ada.auth)
      .set('If-Match', '"v999"')
      .set('Idempotency-Key', key412);
    expect(staleAgain.status).toBe(412);
    expect(staleAgain.headers['idempotent-replayed']).toBe('true');

    const key = newKey();
    const del = await t.request
      .delete(`/v1/expenses/${created.body.id}`)
      .set(ada.auth)
      .set('Idempotency-Key', key);
    expect(del.status).toBe(204);
    const delAgain = await t.request
      .delete(`/v1/expenses/${created.body.id}`)
      .set(ada.auth)
      .set('Idempotency-Key', key);
    expect(delAgain.status).toBe(204);
    expect(delAgain.headers['idempotent-replayed']).toBe('true');
    expect(delAgain.text).toBe('');
  });

  it("does not record 401 or the layer's own 400: the key stays free", async () => {
    const key = newKey();
    const unauthenticated = await t.request
      .post('/v1/expenses')
      .set('Authorization', 'Bearer nope')
      .set('Idempotency-Key', key)
      .send(expenseBody());
    expect(unauthenticated.status).toBe(401);
    const invalidKey = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', '')
      .send(expenseBody());
    expect(invalidKey.status).toBe(400);
    expect(invalidKey.body.code).toBe('idempotency_key_invalid');
    const real = await postExpense(key, expenseBody());
    expect(real.status).toBe(201);
    expect(real.headers['idempotent-replayed']).toBeUndefined();
  });

  it('scopes keys by user and by path', async () => {
    const key = newKey();
    const mine = await postExpense(key, expenseBody());
    const bobs = await postExpense(key, expenseBody(), bob);
    expect(bobs.status).toBe(201);
    expect(bobs.headers['idempotent-replayed']).toBeUndefined();
    expect(bobs.body.id).not.toBe(mine.body.id);
    const settlement = await t.request
      .post('/v1/settlements')
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 100 });
    expect(settlement.status).toBe(201);
    expect(settlement.headers['idempotent-replayed']).toBeUndefined();
  });

  it('accepts the quoted structured-header form as the same key', async () => {
    const key = newKey();
    const first = await postExpense(key, expenseBody());
    const quoted = await postExpense(`"${key}"`, expenseBody());
    expect(quoted.headers['idempotent-replayed']).toBe('true');
    expect(quoted.body.id).toBe(first.body.id);
  });

  it('honours optional keys on group and member writes', async () => {
    const key = newKey();
    const a = await t.request
      .post('/v1/groups')
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send({ name: 'Flat' });
    const b = await t.request
      .post('/v1/groups')
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send({ name: 'Flat' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body.id).toBe(a.body.id);
    expect(Number((await knex('groups').where({ name: 'Flat' }).count({ n: '*' }))[0]?.n)).toBe(1);
    // Without a key, group writes simply run.
    const c = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Flat' });
    expect(c.status).toBe(201);
    expect(c.body.id).not.toBe(a.body.id);
  });
});

describe('idempotency retention', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl(), IDEMPOTENCY_TTL_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('treats a key as unseen after the retention period, in Redis and in PostgreSQL', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    const key = newKey();
    const body = {
      groupId,
      description: 'Taxi',
      amount: 500,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    };
    const first = await t.request.post('/v1/expenses').set(ada.auth).set('Idempotency-Key', key).send(body);
    const replay = await t.request.post('/v1/expenses').set(ada.auth).set('Idempotency-Key', key).send(body);
    expect(replay.body.id).toBe(first.body.id);
    // Wait until the retention has passed by PostgreSQL's clock (and the store's copy, set a moment later).
    await until(
      async () =>
        (
          await t.db!.knex.raw(
            "select count(*)::int as n from idempotency_records where user_id = ? and key = ? and expires_at > now() - interval '200 milliseconds'",
            [ada.id, key],
          )
        ).rows[0].n === 0,
      'the key to pass its retention',
    );
    const later = await t.request.post('/v1/expenses').set(ada.auth).set('Idempotency-Key', key).send(body);
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);
    const records = await t.db!.knex('idempotency_records').where({ user_id: ada.id, key });
    expect(records).toHaveLength(1);
  });
});
