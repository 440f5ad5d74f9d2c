import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

/**
 * API.md §4: a PUT to an id that does not exist yet creates it, and repeating the same PUT leaves the
 * same state. Concurrent PUTs creating one client-chosen id under different keys (so the idempotency
 * layer does not serialise them) must give one 201 and 200s, never a 500 from the primary key.
 */
describe('concurrent PUT-create of one client-chosen id', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let groupId: string;

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    groupId = await t.createGroup(ada, [bob]);
  });
  afterAll(async () => {
    await t.stop();
  });

  const body = () => ({
    groupId,
    description: 'Tickets',
    amount: 30000,
    paidBy: ada.id,
    split: { type: 'equal', between: [ada.id, bob.id] },
  });

  it('answers ten PUTs of the same body under different keys with one 201 and nine 200s, one expense', async () => {
    const id = `race-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.request.put(`/v1/expenses/${id}`).set(ada.auth).set('Idempotency-Key', newKey()).send(body()),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    for (const a of answers) {
      expect(a.body.id).toBe(id);
      expect(a.body.version).toBe(1);
      expect(a.headers['idempotent-replayed']).toBeUndefined();
    }
    const rows = await t.db!.knex('expenses').where({ id });
    expect(rows).toHaveLength(1);
    // One creation event; the no-op PUTs append none.
    const events = await t
      .db!.knex('events')
      .where({ group_id: groupId })
      .whereRaw("data->'expense'->>'id' = ?", [id]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['expense.created']);
    const balances = await t.request.get(`/v1/groups/${groupId}/balances`).set(ada.auth);
    expect(balances.body.currencies[0].members).toEqual(
      expect.arrayContaining([
        { userId: ada.id, net: 15000 },
        { userId: bob.id, net: -15000 },
      ]),
    );
  });

  it('answers racing PUTs of one id into two different groups with one 201 and the other 422, never a 500', async () => {
    const otherGroup = await t.createGroup(ada, [bob]);
    const id = `race-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.request
          .put(`/v1/expenses/${id}`)
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .send({ ...body(), groupId: i % 2 === 0 ? groupId : otherGroup }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    const winner = created[0]!.body.groupId as string;
    for (const a of answers.filter((x) => x.status !== 201)) {
      // The same group: a no-op replacement; the other group: an expense cannot move (422).
      expect([200, 422]).toContain(a.status);
      if (a.status === 422) expect(a.body.code).toBe('validation_failed');
    }
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(await t.db!.knex('expenses').where({ id })).toEqual([
      expect.objectContaining({ group_id: winner }),
    ]);
  });
});
