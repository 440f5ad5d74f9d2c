import type { Knex } from 'knex';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { BOTH_STORES, holdGroupLock, outcomeCount } from './hold-group';

/**
 * ARCHITECTURE.md#the-idempotency-layer-around-it (step 2, wait for a live owner): a retry whose key a
 * live process holds waits briefly for that outcome (IDEMPOTENCY_IN_PROGRESS_WAIT_MS, 2 s by default)
 * and replays it, rather than answering `409 in_progress` at once. Both stores, real PostgreSQL.
 */
describe.each(BOTH_STORES)('a retry of a key that a live request holds, with the $store store', ({ env }) => {
  let t: TestServer;
  let knex: Knex;
  let ada: TestUser;
  let groupId: string;

  beforeAll(async () => {
    t = await startTestServer({ env: env() });
    knex = t.db!.knex;
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
  });
  afterAll(async () => {
    await t.stop();
  });

  const post = (key: string) =>
    t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send({
        groupId,
        description: 'Waited for',
        amount: 2500,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      })
      .then((res) => res);

  it('waits for the outcome of the request holding the key and replays it', async () => {
    const key = newKey();
    // The first request stays inside its transaction while the test holds the group's lock.
    const lock = await holdGroupLock(knex, groupId);
    const first = post(key);
    let second: ReturnType<typeof post> | undefined;
    try {
      await lock.waitedOn();
      const waitedBefore = await outcomeCount(t, 'waited');
      second = post(key);
      await until(async () => (await outcomeCount(t, 'waited')) > waitedBefore, 'the retry to wait');
    } finally {
      await lock.release();
    }
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(201);
    expect(a.headers['idempotent-replayed']).toBeUndefined();
    expect(b?.status).toBe(201);
    expect(b?.headers['idempotent-replayed']).toBe('true');
    expect(b?.body).toEqual(a.body);
    expect(b?.headers.location).toBe(a.headers.location);
    expect(await knex('expenses').where({ group_id: groupId, description: 'Waited for' })).toHaveLength(1);
  });
});
