/**
 * The smaller habits (API.md §3, §4, §6; issue 34 item 6): archiving a group, the original and the
 * simplified debts with the group's `simplifyDebts`, duplicating an expense, a group's default
 * currency, and negative expenses (income, reimbursements).
 */
import { expectDocumented } from '../support/openapi-validator';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem, expectValidationFailed, postExpense, postSettlement } from './component-helpers';

describe('smaller habits', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;

  beforeAll(async () => {
    t = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    cy = await t.register('Cy');
  });
  afterAll(async () => {
    await t.stop();
  });

  const keyed = (user: TestUser) => ({ ...user.auth, 'Idempotency-Key': newKey() });
  /** A keyed POST by Ada. */
  const postKeyed = (path: string, body: object) => t.request.post(path).set(keyed(ada)).send(body);
  const lastSeq = async (groupId: string) =>
    Number((await t.db!.knex('groups').where({ id: groupId }).first('last_seq')).last_seq);
  const balances = async (user: TestUser, groupId: string) => {
    const res = await t.request.get(`/v1/groups/${groupId}/balances`).set(user.auth);
    expect(res.status).toBe(200);
    expectDocumented(res);
    return res.body as {
      simplifyDebts: boolean;
      currencies: {
        currency: string;
        members: { userId: string; net: number }[];
        simplified: { from: string; to: string; amount: number }[];
        original: { from: string; to: string; amount: number }[];
      }[];
    };
  };

  describe('archiving a group', () => {
    it('refuses every write with 409 group_archived, writing nothing, stays readable, and unarchive restores', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const expense = await postExpense(t, ada, groupId, ada, 900, [ada, bob]);
      const gone = await postExpense(t, ada, groupId, ada, 300, [ada, bob]);
      expect((await t.request.delete(`/v1/expenses/${gone.body.id}`).set(keyed(ada))).status).toBe(204);
      const settlement = await postSettlement(t, bob, groupId, bob, ada, 100);
      const comment = await t.request
        .post(`/v1/expenses/${expense.body.id}/comments`)
        .set(keyed(bob))
        .send({ text: 'ok' });
      const invite = await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({});
      expect([expense.status, settlement.status, comment.status, invite.status]).toEqual([
        201, 201, 201, 201,
      ]);

      const archived = await t.request.post(`/v1/groups/${groupId}/archive`).set(bob.auth);
      expect(archived.status).toBe(200);
      expectDocumented(archived);
      expect(archived.body.archivedAt).toEqual(expect.any(String));
      const archivedAt = archived.body.archivedAt as string;
      // Archiving again changes nothing.
      const again = await t.request.post(`/v1/groups/${groupId}/archive`).set(ada.auth);
      expect([again.status, again.body.archivedAt, again.body.version]).toEqual([
        200,
        archivedAt,
        archived.body.version,
      ]);
      const seq = await lastSeq(groupId);

      const refusals: [string, () => Promise<import('supertest').Response>][] = [
        ['create an expense', () => postExpense(t, ada, groupId, ada, 100, [ada, bob])],
        [
          'PUT-create an expense',
          () =>
            t.request
              .put(`/v1/expenses/put-${newKey().replace(/[^A-Za-z0-9_-]/g, '')}`)
              .set(keyed(ada))
              .send({
                groupId,
                description: 'x',
                amount: 100,
                paidBy: ada.id,
                split: { type: 'equal', between: [ada.id] },
              }),
        ],
        [
          'patch an expense',
          () => t.request.patch(`/v1/expenses/${expense.body.id}`).set(keyed(ada)).send({ amount: 1000 }),
        ],
        ['delete an expense', () => t.request.delete(`/v1/expenses/${expense.body.id}`).set(keyed(ada))],
        ['restore an expense', () => t.request.post(`/v1/expenses/${gone.body.id}/restore`).set(keyed(ada))],
        [
          'duplicate an expense',
          () => t.request.post(`/v1/expenses/${expense.body.id}/duplicate`).set(keyed(ada)).send({}),
        ],
        ['settle', () => postSettlement(t, bob, groupId, bob, ada, 100)],
        [
          'undo a settlement',
          () => t.request.delete(`/v1/settlements/${settlement.body.id}`).set(keyed(bob)),
        ],
        [
          'comment',
          () =>
            t.request.post(`/v1/expenses/${expense.body.id}/comments`).set(keyed(bob)).send({ text: 'hi' }),
        ],
        ['delete a comment', () => t.request.delete(`/v1/comments/${comment.body.id}`).set(keyed(bob))],
        [
          'add a member',
          () => t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: cy.id }),
        ],
        [
          'add a pending member',
          () => t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ name: 'Dee' }),
        ],
        ['remove a member', () => t.request.delete(`/v1/groups/${groupId}/members/${ada.id}`).set(ada.auth)],
        ['make an invite', () => t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({})],
        [
          'revoke an invite',
          () => t.request.delete(`/v1/groups/${groupId}/invites/${invite.body.id}`).set(ada.auth),
        ],
        [
          'join by an invite',
          () => t.request.post(`/v1/invites/${invite.body.code}/accept`).set(cy.auth).send({}),
        ],
        [
          'set rates',
          () =>
            t.request
              .put(`/v1/groups/${groupId}/rates`)
              .set(ada.auth)
              .send({ base: 'INR', rates: { USD: '0.012' }, asOf: '2026-11-25' }),
        ],
        [
          'make a recurring expense',
          () =>
            postKeyed(`/v1/groups/${groupId}/recurring`, {
              expense: {
                description: 'Rent',
                amount: 100,
                paidBy: ada.id,
                split: { type: 'equal', between: [ada.id] },
              },
              schedule: { every: 'week', startsOn: '2030-01-01', timeZone: 'UTC' },
            }),
        ],
        [
          'import',
          () =>
            postKeyed(`/v1/groups/${groupId}/imports`, {
              format: 'splitwise-csv',
              csv: 'Date,Description,Category,Cost,Currency,Ada,Bob\n2024-01-05,Tea,General,4.00,EUR,2.00,-2.00\n',
              members: { Ada: ada.id, Bob: bob.id },
            }),
        ],
        [
          'rename the group',
          () => t.request.patch(`/v1/groups/${groupId}`).set(ada.auth).send({ name: 'New' }),
        ],
        [
          'change the default currency',
          () => t.request.patch(`/v1/groups/${groupId}`).set(ada.auth).send({ currency: 'EUR' }),
        ],
      ];
      for (const [what, send] of refusals) {
        const res = await send();
        try {
          expectProblem(res, 409, 'group_archived');
        } catch (error) {
          throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}\n${String(error)}`);
        }
      }
      // Nothing was written: no event, the group as it was.
      expect(await lastSeq(groupId)).toBe(seq);
      expect(await t.db!.knex('expenses').where({ group_id: groupId }).count()).toEqual([{ count: '2' }]);

      // Readable: the group, its expenses, balances, events.
      const group = await t.request.get(`/v1/groups/${groupId}`).set(bob.auth);
      expect([group.status, group.body.archivedAt]).toEqual([200, archivedAt]);
      expect((await t.request.get(`/v1/groups/${groupId}/expenses`).set(bob.auth)).body.data).toHaveLength(1);
      expect((await balances(bob, groupId)).currencies).toHaveLength(1);
      expect((await t.request.get(`/v1/groups/${groupId}/events`).set(bob.auth)).status).toBe(200);
      // The groups list shows it archived.
      const listed = await t.request.get('/v1/groups?limit=100').set(bob.auth);
      expect(listed.body.data.find((g: { id: string }) => g.id === groupId).archivedAt).toBe(archivedAt);

      const unarchived = await t.request.post(`/v1/groups/${groupId}/unarchive`).set(bob.auth);
      expect([unarchived.status, unarchived.body.archivedAt]).toEqual([200, null]);
      expectDocumented(unarchived);
      expect((await postExpense(t, ada, groupId, ada, 100, [ada, bob])).status).toBe(201);
      const events = (await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(ada.auth)).body
        .data as {
        type: string;
        data: { group?: { archivedAt: string | null } };
      }[];
      expect(
        events.filter((e) => e.type === 'group.updated').map((e) => e.data.group?.archivedAt ?? null),
      ).toEqual([archivedAt, null]);
    });

    it('replays a refused keyed write’s 409, and takes a new key once unarchived', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      expect((await t.request.post(`/v1/groups/${groupId}/archive`).set(ada.auth)).status).toBe(200);
      const key = newKey();
      const body = {
        groupId,
        description: 'Tea',
        amount: 100,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      };
      const first = await t.request.post('/v1/expenses').set(ada.auth).set('Idempotency-Key', key).send(body);
      expectProblem(first, 409, 'group_archived');
      expect((await t.request.post(`/v1/groups/${groupId}/unarchive`).set(ada.auth)).status).toBe(200);
      const retried = await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send(body);
      // The recorded answer, as it was (its requestId is the first request's).
      expect([retried.status, retried.body, retried.headers['idempotent-replayed']]).toEqual([
        409,
        first.body,
        'true',
      ]);
      expect((await t.request.post('/v1/expenses').set(keyed(ada)).send(body)).status).toBe(201);
    });

    it('leaves the activity feed while archived', async () => {
      const groupId = await t.createGroup(cy, [bob]);
      await postExpense(t, cy, groupId, cy, 500, [cy, bob]);
      const feedGroups = async () =>
        new Set(
          (
            (await t.request.get('/v1/me/activity?limit=100').set(cy.auth)).body.data as { groupId: string }[]
          ).map((e) => e.groupId),
        );
      expect(await feedGroups()).toContain(groupId);
      expect((await t.request.post(`/v1/groups/${groupId}/archive`).set(cy.auth)).status).toBe(200);
      expect(await feedGroups()).not.toContain(groupId);
      expect((await t.request.post(`/v1/groups/${groupId}/unarchive`).set(cy.auth)).status).toBe(200);
      expect(await feedGroups()).toContain(groupId);
    });

    it('honours If-Match, and a non-member gets 404', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      expectProblem(
        await t.request.post(`/v1/groups/${groupId}/archive`).set(ada.auth).set('If-Match', '"999"'),
        412,
        'precondition_failed',
      );
      expectProblem(await t.request.post(`/v1/groups/${groupId}/archive`).set(cy.auth), 404, 'not_found');
    });
  });

  describe('original and simplified debts', () => {
    it('lists both, pairwise and unsimplified as recorded, with the group’s simplifyDebts', async () => {
      const groupId = await t.createGroup(ada, [bob, cy]);
      // Bob owes Ada 300; Cy owes Bob 300: simplified, Cy pays Ada once.
      await postExpense(t, ada, groupId, ada, 600, [ada, bob]);
      await postExpense(t, bob, groupId, bob, 600, [bob, cy]);
      const before = await balances(ada, groupId);
      expect(before.simplifyDebts).toBe(true);
      const [inr] = before.currencies;
      expect(inr!.simplified).toEqual([{ from: cy.id, to: ada.id, amount: 300 }]);
      const byPair = (a: { from: string; to: string }, b: { from: string; to: string }) =>
        a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : 1;
      expect(inr!.original).toEqual(
        [
          { from: bob.id, to: ada.id, amount: 300 },
          { from: cy.id, to: bob.id, amount: 300 },
        ].sort(byPair),
      );
      // A settlement lowers the pair's debt; a deleted expense leaves it.
      await postSettlement(t, bob, groupId, bob, ada, 100);
      const patched = await t.request
        .patch(`/v1/groups/${groupId}`)
        .set(ada.auth)
        .send({ simplifyDebts: false });
      expect([patched.status, patched.body.simplifyDebts]).toEqual([200, false]);
      const after = await balances(bob, groupId);
      expect(after.simplifyDebts).toBe(false);
      expect(after.currencies[0]!.original).toEqual(
        [
          { from: bob.id, to: ada.id, amount: 200 },
          { from: cy.id, to: bob.id, amount: 300 },
        ].sort(byPair),
      );
      const created = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .send({ name: 'Flat', simplifyDebts: false });
      expect([created.status, created.body.simplifyDebts]).toEqual([201, false]);
    });

    it('splits a debt of several payers by laying payers and shares end to end', async () => {
      const groupId = await t.createGroup(ada, [bob, cy]);
      const res = await t.request
        .post('/v1/expenses')
        .set(keyed(ada))
        .send({
          groupId,
          description: 'Hotel',
          amount: 900,
          paidBy: [
            { userId: ada.id, amount: 600 },
            { userId: bob.id, amount: 300 },
          ],
          split: { type: 'equal', between: [ada.id, bob.id, cy.id] },
        });
      expect(res.status).toBe(201);
      // [0,600) Ada, [600,900) Bob; shares [0,300) Ada, [300,600) Bob, [600,900) Cy.
      const [inr] = (await balances(ada, groupId)).currencies;
      expect(inr!.original).toEqual(
        [
          { from: bob.id, to: ada.id, amount: 300 },
          { from: cy.id, to: bob.id, amount: 300 },
        ].sort((a, b) => (a.from < b.from ? -1 : 1)),
      );
    });
  });

  describe('duplicating an expense', () => {
    it('copies it once however often the keyed request is retried, with the date given', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const source = await postExpense(t, ada, groupId, ada, 1001, [ada, bob], {
        category: 'Food',
        categoryId: 'food',
      });
      expect(source.body.categoryId).toBe('food');
      const key = newKey();
      const send = (body: object, k = key) =>
        t.request
          .post(`/v1/expenses/${source.body.id}/duplicate`)
          .set(bob.auth)
          .set('Idempotency-Key', k)
          .send(body);
      const body = { occurredAt: '2026-11-20T10:00:00.000Z' };
      const first = await send(body);
      expect(first.status).toBe(201);
      expectDocumented(first);
      expect(first.body).toEqual({
        ...source.body,
        id: expect.stringMatching(/^exp_/),
        occurredAt: '2026-11-20T10:00:00.000Z',
        createdBy: bob.id,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(first.body.id).not.toBe(source.body.id);
      expect(first.headers.location).toBe(`/v1/expenses/${first.body.id}`);
      const [retried, concurrent] = await Promise.all([send(body), send(body)]);
      for (const r of [retried, concurrent]) {
        if (r.status === 409) expect(r.body.code).toBe('idempotency_key_in_progress');
        else expect([r.status, r.body]).toEqual([201, first.body]);
      }
      expect(await t.db!.knex('expenses').where({ group_id: groupId }).count()).toEqual([{ count: '2' }]);
      expectProblem(await send({ occurredAt: '2026-11-21T10:00:00.000Z' }), 409, 'idempotency_key_reused');
      // Now (no date), and the balances count it twice.
      const now = await send({}, newKey());
      expect(now.status).toBe(201);
      expect(Date.now() - Date.parse(now.body.occurredAt)).toBeLessThan(60_000);
      const [inr] = (await balances(ada, groupId)).currencies;
      expect(inr!.members.find((m) => m.userId === ada.id)!.net).toBe(3 * 500);
      expectValidationFailed(await send({ amount: 5 }, newKey()), 'amount');
    });

    it('answers 404 for a deleted expense and for a non-member, and needs a key', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const source = await postExpense(t, ada, groupId, ada, 100, [ada, bob]);
      const path = `/v1/expenses/${source.body.id}/duplicate`;
      expectProblem(await t.request.post(path).set(keyed(cy)).send({}), 404, 'not_found');
      expectProblem(await t.request.post(path).set(ada.auth).send({}), 400, 'idempotency_key_missing');
      expect((await t.request.delete(`/v1/expenses/${source.body.id}`).set(keyed(ada))).status).toBe(204);
      expectProblem(await t.request.post(path).set(keyed(ada)).send({}), 404, 'not_found');
    });
  });

  describe('a group’s default currency', () => {
    it('is set on create and edit, and new expenses and settlements without one take it', async () => {
      const created = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .send({ name: 'Trip', currency: 'EUR' });
      expect(created.body.currency).toBe('EUR');
      const groupId = created.body.id as string;
      await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: bob.id });
      const first = await postExpense(t, ada, groupId, ada, 100, [ada, bob]);
      expect(first.body.currency).toBe('EUR');
      const patched = await t.request.patch(`/v1/groups/${groupId}`).set(bob.auth).send({ currency: 'JPY' });
      expect([patched.status, patched.body.currency]).toEqual([200, 'JPY']);
      const second = await postExpense(t, ada, groupId, ada, 100, [ada, bob]);
      expect(second.body.currency).toBe('JPY');
      expect((await postSettlement(t, bob, groupId, bob, ada, 50)).body.currency).toBe('JPY');
      // The first keeps its own.
      expect((await t.request.get(`/v1/expenses/${first.body.id}`).set(ada.auth)).body.currency).toBe('EUR');
      expectValidationFailed(
        await t.request.patch(`/v1/groups/${groupId}`).set(ada.auth).send({ currency: 'eur' }),
        'currency',
      );
    });
  });

  describe('negative amounts (income, reimbursements)', () => {
    it('are split, balanced, edited and exported as negative', async () => {
      const groupId = await t.createGroup(ada, [bob, cy]);
      // Ada received a refund of 100.00 that belongs to all three.
      const res = await postExpense(t, ada, groupId, ada, -10000, [ada, bob, cy], { description: 'Refund' });
      expect(res.status).toBe(201);
      expectDocumented(res);
      expect(res.body.paidBy).toEqual([{ userId: ada.id, amount: -10000 }]);
      expect(res.body.shares).toEqual([
        { userId: ada.id, owed: -3334 },
        { userId: bob.id, owed: -3333 },
        { userId: cy.id, owed: -3333 },
      ]);
      let [inr] = (await balances(bob, groupId)).currencies;
      expect(inr!.members).toEqual(
        expect.arrayContaining([
          { userId: ada.id, net: -6666 },
          { userId: bob.id, net: 3333 },
          { userId: cy.id, net: 3333 },
        ]),
      );
      expect(inr!.original).toEqual(
        [
          { from: ada.id, to: bob.id, amount: 3333 },
          { from: ada.id, to: cy.id, amount: 3333 },
        ].sort((a, b) => (a.to < b.to ? -1 : 1)),
      );
      // Edit: an exact negative split.
      const patched = await t.request
        .patch(`/v1/expenses/${res.body.id}`)
        .set(keyed(ada))
        .send({
          amount: -900,
          split: {
            type: 'exact',
            between: [
              { userId: bob.id, amount: -600 },
              { userId: cy.id, amount: -300 },
            ],
          },
        });
      expect(patched.status).toBe(200);
      [inr] = (await balances(bob, groupId)).currencies;
      expect(inr!.members).toEqual(
        expect.arrayContaining([
          { userId: ada.id, net: -900 },
          { userId: bob.id, net: 600 },
          { userId: cy.id, net: 300 },
        ]),
      );
      // Mixed with an ordinary expense, the nets still add up to 0.
      await postExpense(t, bob, groupId, bob, 1000, [ada, bob, cy]);
      [inr] = (await balances(bob, groupId)).currencies;
      expect(inr!.members.reduce((sum, m) => sum + m.net, 0)).toBe(0);
      // CSV: the amount and the members' effects negative.
      const csv = await t.request.get(`/v1/groups/${groupId}/export.csv`).set(ada.auth);
      expect(csv.status).toBe(200);
      const row = csv.text.split('\r\n').find((line) => line.includes('Refund'));
      // Amount −9.00; Ada received it for Bob (6.00) and Cy (3.00).
      expect(row).toMatch(/,INR,-9\.00,Ada,exp_\w+,-9\.00,6\.00,3\.00$/);
    });

    it('refuses parts of the wrong sign, an itemized negative split, and 0', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const base = { groupId, description: 'Refund', amount: -1000 };
      const post = (body: object) => t.request.post('/v1/expenses').set(keyed(ada)).send(body);
      expectValidationFailed(
        await post({
          ...base,
          paidBy: [
            { userId: ada.id, amount: 500 },
            { userId: bob.id, amount: -1500 },
          ],
          split: { type: 'equal', between: [ada.id] },
        }),
        'paidBy[0].amount',
      );
      expectValidationFailed(
        await post({
          ...base,
          paidBy: ada.id,
          split: {
            type: 'exact',
            between: [
              { userId: ada.id, amount: 500 },
              { userId: bob.id, amount: -1500 },
            ],
          },
        }),
        'split.between[0].amount',
      );
      expectProblem(
        await post({
          ...base,
          paidBy: ada.id,
          split: {
            type: 'exact',
            between: [
              { userId: ada.id, amount: -500 },
              { userId: bob.id, amount: -400 },
            ],
          },
        }),
        422,
        'split_mismatch',
      );
      expectValidationFailed(
        await post({
          ...base,
          paidBy: ada.id,
          split: { type: 'items', items: [{ amount: 1000, between: [ada.id] }] },
        }),
        'split.type',
      );
      expectValidationFailed(
        await post({ ...base, amount: 0, paidBy: ada.id, split: { type: 'equal', between: [ada.id] } }),
        'amount',
      );
      expect(await t.db!.knex('expenses').where({ group_id: groupId }).count()).toEqual([{ count: '0' }]);
    });
  });
});
