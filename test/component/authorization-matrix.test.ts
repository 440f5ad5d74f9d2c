/**
 * API.md §1: "non-members get 404, never 403, so ids do not leak". For every route that takes a
 * group, expense or settlement id, an authenticated non-member gets exactly the answer a
 * non-existent id of the same kind gets (404 not_found, same body apart from requestId), and the
 * request changes nothing in the group.
 */
import type { Response, Test } from 'supertest';
import { createIdMaker } from '../../apps/api/src/ids';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

type Ids = {
  groupId: string;
  expenseId: string;
  deletedExpenseId: string;
  settlementId: string;
  memberId: string;
  /** A pending member (API.md §3.1) added without an email, and an invite of the group (§3.2). */
  pendingId: string;
  inviteId: string;
  recurringId: string;
};
/** A category of the victim's group (made in `beforeAll`): its id is what the category routes name. */
let CATEGORY = 'cat_00000000000000000000000000';
type Route = {
  name: string;
  /** Which id the route takes, so the unknown id is of the same kind. */
  kind: 'group' | 'expense' | 'settlement' | 'recurring';
  send: (ids: Ids, user: TestUser) => Test;
};

describe('authorization matrix: a non-member gets the same 404 as for an unknown id', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser; // authenticated, a member of her own group only
  let real: Ids;
  let eveGroupId: string;

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    eve = await t.register('Eve');
    const groupId = await t.createGroup(ada, [bob]);
    eveGroupId = await t.createGroup(eve);

    const expense = (description: string) =>
      t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({
          groupId,
          description,
          amount: 1000,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id, bob.id] },
        });
    const live = await expense('Dinner');
    const deleted = await expense('Taxi');
    const settlement = await t.request
      .post('/v1/settlements')
      .set(bob.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 200 });
    const removed = await t.request
      .delete(`/v1/expenses/${deleted.body.id}`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey());
    expect([live.status, deleted.status, settlement.status, removed.status]).toEqual([201, 201, 201, 204]);
    const pending = await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ name: 'Pat' });
    const invite = await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({});
    expect([pending.status, invite.status]).toEqual([201, 201]);
    const recurring = await t.request
      .post(`/v1/groups/${groupId}/recurring`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        expense: {
          description: 'Rent',
          amount: 1000,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        },
        schedule: { every: 'month', startsOn: '2031-01-31', timeZone: 'UTC' },
      });
    expect([live.status, deleted.status, settlement.status, removed.status, recurring.status]).toEqual([
      201, 201, 201, 204, 201,
    ]);
    const category = await t.request
      .post(`/v1/groups/${groupId}/categories`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ name: 'Victim’s' });
    expect(category.status).toBe(201);
    CATEGORY = category.body.id;
    real = {
      pendingId: pending.body.userId,
      inviteId: invite.body.id,
      groupId,
      expenseId: live.body.id,
      deletedExpenseId: deleted.body.id,
      settlementId: settlement.body.id,
      memberId: bob.id,
      recurringId: recurring.body.id,
    };
  });
  afterAll(async () => {
    await t.stop();
  });

  /** Ids of the right shape that exist nowhere. */
  const newId = createIdMaker();
  const unknownIds = (): Ids => ({
    groupId: newId('grp'),
    expenseId: newId('exp'),
    deletedExpenseId: newId('exp'),
    settlementId: newId('stl'),
    memberId: real.memberId,
    pendingId: real.pendingId,
    inviteId: newId('inv'),
    recurringId: newId('rec'),
  });

  const keyed = (test: Test) => test.set('Idempotency-Key', newKey());
  const expenseBody = (ids: Ids) => ({
    groupId: ids.groupId,
    description: 'Mine now',
    amount: 5,
    paidBy: eve.id,
    split: { type: 'equal', between: [eve.id] },
  });

  const routes: Route[] = [
    {
      name: 'GET /v1/groups/{id}',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}`).set(u.auth),
    },
    {
      name: 'PATCH /v1/groups/{id}',
      kind: 'group',
      send: (i, u) => keyed(t.request.patch(`/v1/groups/${i.groupId}`).set(u.auth)).send({ name: 'Hacked' }),
    },
    {
      name: 'POST /v1/groups/{id}/members',
      kind: 'group',
      send: (i, u) =>
        keyed(t.request.post(`/v1/groups/${i.groupId}/members`).set(u.auth)).send({ userId: u.id }),
    },
    {
      name: 'DELETE /v1/groups/{id}/members/{userId}',
      kind: 'group',
      send: (i, u) => keyed(t.request.delete(`/v1/groups/${i.groupId}/members/${i.memberId}`).set(u.auth)),
    },
    {
      name: 'POST /v1/groups/{id}/members/{pendingId}/claim',
      kind: 'group',
      send: (i, u) =>
        keyed(t.request.post(`/v1/groups/${i.groupId}/members/${i.pendingId}/claim`).set(u.auth)),
    },
    {
      name: 'POST /v1/groups/{id}/invites',
      kind: 'group',
      send: (i, u) => keyed(t.request.post(`/v1/groups/${i.groupId}/invites`).set(u.auth)).send({}),
    },
    {
      name: 'GET /v1/groups/{id}/invites',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/invites`).set(u.auth),
    },
    {
      name: 'DELETE /v1/groups/{id}/invites/{inviteId}',
      kind: 'group',
      send: (i, u) => keyed(t.request.delete(`/v1/groups/${i.groupId}/invites/${i.inviteId}`).set(u.auth)),
    },
    {
      name: 'GET /v1/groups/{id}/balances',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/balances`).set(u.auth),
    },
    {
      name: 'GET /v1/groups/{id}/balances?in=EUR',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/balances?in=EUR`).set(u.auth),
    },
    {
      name: 'GET /v1/groups/{id}/rates',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/rates`).set(u.auth),
    },
    {
      name: 'PUT /v1/groups/{id}/rates',
      kind: 'group',
      send: (i, u) =>
        keyed(t.request.put(`/v1/groups/${i.groupId}/rates`).set(u.auth)).send({
          base: 'EUR',
          rates: { INR: '1' },
          asOf: '2026-11-25',
        }),
    },
    {
      name: 'GET /v1/groups/{id}/export.csv',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/export.csv`).set(u.auth),
    },
    {
      name: 'POST /v1/groups/{id}/imports',
      kind: 'group',
      send: (i, u) =>
        keyed(t.request.post(`/v1/groups/${i.groupId}/imports`).set(u.auth)).send({
          format: 'splitwise-csv',
          csv: 'Date,Description,Category,Cost,Currency,Me,Them\n2024-01-05,Mine,General,5.00,INR,5.00,-5.00\n',
          members: { Me: u.id, Them: i.memberId },
        }),
    },
    {
      name: 'GET /v1/groups/{id}/imports/{importId}',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/imports/imp_${'0'.repeat(64)}`).set(u.auth),
    },
    {
      name: 'GET /v1/groups/{id}/expenses',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/expenses`).set(u.auth),
    },
    {
      name: 'GET /v1/groups/{id}/settlements',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/settlements`).set(u.auth),
    },
    {
      name: 'GET /v1/groups/{id}/events',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/events?afterSeq=0`).set(u.auth),
    },
    {
      name: 'GET /v1/expenses/{id}',
      kind: 'expense',
      send: (i, u) => t.request.get(`/v1/expenses/${i.expenseId}`).set(u.auth),
    },
    {
      // The body names the victim's group: for an unknown id, PUT would try to create the expense there.
      name: 'PUT /v1/expenses/{id}',
      kind: 'expense',
      send: (i, u) => keyed(t.request.put(`/v1/expenses/${i.expenseId}`).set(u.auth)).send(expenseBody(real)),
    },
    {
      name: 'PATCH /v1/expenses/{id}',
      kind: 'expense',
      send: (i, u) =>
        keyed(t.request.patch(`/v1/expenses/${i.expenseId}`).set(u.auth)).send({ description: 'Mine' }),
    },
    {
      name: 'DELETE /v1/expenses/{id}',
      kind: 'expense',
      send: (i, u) => keyed(t.request.delete(`/v1/expenses/${i.expenseId}`).set(u.auth)),
    },
    {
      name: 'DELETE /v1/expenses/{id} (already deleted)',
      kind: 'expense',
      send: (i, u) => keyed(t.request.delete(`/v1/expenses/${i.deletedExpenseId}`).set(u.auth)),
    },
    {
      name: 'POST /v1/expenses/{id}/restore (deleted)',
      kind: 'expense',
      send: (i, u) => keyed(t.request.post(`/v1/expenses/${i.deletedExpenseId}/restore`).set(u.auth)),
    },
    {
      name: 'POST /v1/expenses/{id}/restore (live)',
      kind: 'expense',
      send: (i, u) => keyed(t.request.post(`/v1/expenses/${i.expenseId}/restore`).set(u.auth)),
    },
    {
      name: 'GET /v1/settlements/{id}',
      kind: 'settlement',
      send: (i, u) => t.request.get(`/v1/settlements/${i.settlementId}`).set(u.auth),
    },
    {
      name: 'DELETE /v1/settlements/{id}',
      kind: 'settlement',
      send: (i, u) => keyed(t.request.delete(`/v1/settlements/${i.settlementId}`).set(u.auth)),
    },
    {
      name: 'GET /v1/groups/{id}/recurring',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/recurring`).set(u.auth),
    },
    {
      name: 'POST /v1/groups/{id}/recurring',
      kind: 'group',
      send: (i, u) =>
        keyed(t.request.post(`/v1/groups/${i.groupId}/recurring`).set(u.auth)).send({
          expense: {
            description: 'Mine now',
            amount: 5,
            paidBy: u.id,
            split: { type: 'equal', between: [u.id] },
          },
          schedule: { every: 'week', startsOn: '2031-01-01', timeZone: 'UTC' },
        }),
    },
    {
      name: 'GET /v1/recurring/{id}',
      kind: 'recurring',
      send: (i, u) => t.request.get(`/v1/recurring/${i.recurringId}`).set(u.auth),
    },
    {
      name: 'PATCH /v1/recurring/{id}',
      kind: 'recurring',
      send: (i, u) =>
        keyed(t.request.patch(`/v1/recurring/${i.recurringId}`).set(u.auth)).send({ expense: { amount: 1 } }),
    },
    {
      name: 'DELETE /v1/recurring/{id}',
      kind: 'recurring',
      send: (i, u) => keyed(t.request.delete(`/v1/recurring/${i.recurringId}`).set(u.auth)),
    },
    // The history of a record (API.md §15), of a deleted expense too.
    {
      name: 'GET /v1/expenses/{id}/history',
      kind: 'expense',
      send: (i, u) => t.request.get(`/v1/expenses/${i.expenseId}/history`).set(u.auth),
    },
    {
      name: 'GET /v1/expenses/{id}/history (deleted)',
      kind: 'expense',
      send: (i, u) => t.request.get(`/v1/expenses/${i.deletedExpenseId}/history`).set(u.auth),
    },
    {
      name: 'GET /v1/settlements/{id}/history',
      kind: 'settlement',
      send: (i, u) => t.request.get(`/v1/settlements/${i.settlementId}/history`).set(u.auth),
    },
    {
      name: 'GET /v1/groups/{id}/categories',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/categories`).set(u.auth),
    },
    {
      name: 'POST /v1/groups/{id}/categories',
      kind: 'group',
      send: (i, u) =>
        keyed(t.request.post(`/v1/groups/${i.groupId}/categories`).set(u.auth)).send({ name: 'Hacked' }),
    },
    {
      name: 'PATCH /v1/groups/{id}/categories/{categoryId}',
      kind: 'group',
      send: (i, u) =>
        keyed(t.request.patch(`/v1/groups/${i.groupId}/categories/${CATEGORY}`).set(u.auth)).send({
          name: 'Hacked',
        }),
    },
    {
      name: 'DELETE /v1/groups/{id}/categories/{categoryId}',
      kind: 'group',
      send: (i, u) => keyed(t.request.delete(`/v1/groups/${i.groupId}/categories/${CATEGORY}`).set(u.auth)),
    },
    {
      name: 'POST /v1/groups/{id}/categories/{categoryId}/merge',
      kind: 'group',
      send: (i, u) =>
        keyed(t.request.post(`/v1/groups/${i.groupId}/categories/${CATEGORY}/merge`).set(u.auth)).send({
          into: 'food',
        }),
    },
    {
      name: 'GET /v1/groups/{id}/stats',
      kind: 'group',
      send: (i, u) => t.request.get(`/v1/groups/${i.groupId}/stats?by=member`).set(u.auth),
    },
  ];

  /** Every row that belongs to the victim's group, in a stable order. */
  const snapshot = async (groupId: string) => {
    const k = t.db!.knex;
    return {
      groups: await k('groups').where({ id: groupId }).select(),
      members: await k('group_members').where({ group_id: groupId }).orderBy('user_id').select(),
      expenses: await k('expenses').where({ group_id: groupId }).orderBy('id').select(),
      settlements: await k('settlements').where({ group_id: groupId }).orderBy('id').select(),
      recurring: await k('recurring_expenses').where({ group_id: groupId }).orderBy('id').select(),
      categories: await k('categories').where({ group_id: groupId }).orderBy('id').select(),
      balances: await k('balances').where({ group_id: groupId }).orderBy(['currency', 'user_id']).select(),
      invites: await k('invites').where({ group_id: groupId }).orderBy('id').select(),
      currencies: await k('group_currencies').where({ group_id: groupId }).orderBy('currency').select(),
      rates: await k('group_rates').where({ group_id: groupId }).select(),
      // Not `published_at`: the outbox relay marks delivery in the background, whatever the request.
      events: await k('events')
        .where({ group_id: groupId })
        .orderBy('seq')
        .select('id', 'seq', 'type', 'actor_id', 'occurred_at', 'data'),
      eveGroups: await k('group_members').where({ user_id: eve.id }).select('group_id'),
      eveExpenses: await k('expenses').where({ group_id: eveGroupId }).count({ n: '*' }),
    };
  };

  const withoutRequestId = (res: Response) => {
    const { requestId, ...rest } = res.body as Record<string, unknown>;
    expect(requestId).toEqual(expect.any(String));
    return rest;
  };

  it.each(routes.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
    const before = await snapshot(real.groupId);

    const hidden = await route.send(real, eve);
    const unknown = await route.send(unknownIds(), eve);

    expect({ status: hidden.status, code: hidden.body.code }).toEqual({ status: 404, code: 'not_found' });
    expect(hidden.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(unknown.status).toBe(404);
    expect(withoutRequestId(hidden)).toEqual(withoutRequestId(unknown));
    expect(hidden.headers['content-type']).toBe(unknown.headers['content-type']);

    expect(await snapshot(real.groupId)).toEqual(before);
  });

  it.each(
    routes.filter((r) => r.name.startsWith('GET')).map((r) => [r.name.replace('GET', 'HEAD'), r] as const),
  )('%s is 404 too', async (_name, route) => {
    const path = new URL(route.send(real, eve).url).pathname;
    const hidden = await t.request.head(path).set(eve.auth);
    expect(hidden.status).toBe(404);
  });

  it('a member of the group gets the real resources on the same routes (the fixture is sound)', async () => {
    const [group, expense, settlement] = await Promise.all([
      t.request.get(`/v1/groups/${real.groupId}`).set(bob.auth),
      t.request.get(`/v1/expenses/${real.expenseId}`).set(bob.auth),
      t.request.get(`/v1/settlements/${real.settlementId}`).set(bob.auth),
    ]);
    expect([group.status, expense.status, settlement.status]).toEqual([200, 200, 200]);
    expect(group.body.members.map((m: { userId: string }) => m.userId).sort()).toEqual(
      [ada.id, bob.id, real.pendingId].sort(),
    );
    const invites = await t.request.get(`/v1/groups/${real.groupId}/invites`).set(bob.auth);
    expect(invites.body.data.map((i: { id: string }) => i.id)).toEqual([real.inviteId]);
  });
});
