import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import {
  balancesOf,
  expectProblem,
  expectValidationFailed,
  idPattern,
  netsIn,
  postExpense,
  postSettlement,
  RFC3339_UTC,
} from './component-helpers';

describe('settlements (API.md §5)', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    cy = await t.register('Cy');
    outsider = await t.register('Outsider');
  });
  afterAll(async () => {
    await t.stop();
  });

  const deleteSettlement = (user: TestUser, id: string) =>
    t.request.delete(`/v1/settlements/${id}`).set(user.auth).set('Idempotency-Key', newKey());
  const listSettlements = (user: TestUser, groupId: string, query = '') =>
    t.request.get(`/v1/groups/${groupId}/settlements${query}`).set(user.auth);

  describe('POST /v1/settlements', () => {
    it('creates a settlement: 201 with exactly the documented fields', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const res = await postSettlement(t, ada, groupId, bob, ada, 2500, { note: 'cash', currency: 'INR' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(idPattern('stl')),
        groupId,
        fromUserId: bob.id,
        toUserId: ada.id,
        amount: 2500,
        currency: 'INR',
        note: 'cash',
        createdBy: ada.id,
        createdAt: expect.stringMatching(RFC3339_UTC),
      });
      const listed = await listSettlements(bob, groupId);
      expect(listed.body.data).toEqual([res.body]);
    });

    it("defaults the currency to the group's and the note to an empty string", async () => {
      const groupId = await t.createGroup(ada, [bob], { currency: 'JPY' });
      const res = await postSettlement(t, bob, groupId, bob, ada, 700);
      expect(res.status).toBe(201);
      expect(res.body.currency).toBe('JPY');
      expect(res.body.note).toBe('');
      expect(res.body.createdBy).toBe(bob.id);
    });

    it('lets a member record a settlement between two other members', async () => {
      const groupId = await t.createGroup(ada, [bob, cy]);
      const res = await postSettlement(t, cy, groupId, bob, ada, 100);
      expect(res.status).toBe(201);
      expect(res.body.createdBy).toBe(cy.id);
    });

    it('accepts the largest amount, 1e12', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const res = await postSettlement(t, ada, groupId, bob, ada, 1e12);
      expect(res.status).toBe(201);
      expect(res.body.amount).toBe(1e12);
      expect(netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: -1e12,
        [bob.id]: 1e12,
      });
    });

    it('rejects fromUserId equal to toUserId with 422 and records nothing', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const res = await postSettlement(t, ada, groupId, ada, ada, 100);
      expect(res.status).toBe(422);
      expectProblem(res, 422, res.body.code);
      expect(['validation_failed', 'not_a_member']).toContain(res.body.code);
      expect((await listSettlements(ada, groupId)).body.data).toEqual([]);
    });

    it('rejects a party that is not a member with 422 not_a_member, on either side', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const from = await postSettlement(t, ada, groupId, outsider, ada, 100);
      expectProblem(from, 422, 'not_a_member');
      expect(from.body.errors).toEqual([
        { path: 'fromUserId', message: `${outsider.id} is not a member of this group` },
      ]);
      const to = await postSettlement(t, ada, groupId, ada, outsider, 100);
      expectProblem(to, 422, 'not_a_member');
      expect(to.body.errors).toEqual([
        { path: 'toUserId', message: `${outsider.id} is not a member of this group` },
      ]);
      const unknown = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ groupId, fromUserId: 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC', toUserId: ada.id, amount: 100 });
      expectProblem(unknown, 422, 'not_a_member');
      expect((await listSettlements(ada, groupId)).body.data).toEqual([]);
    });

    it('rejects a former member as a party with 422 not_a_member', async () => {
      const groupId = await t.createGroup(ada, [bob, cy]);
      expect((await t.request.delete(`/v1/groups/${groupId}/members/${cy.id}`).set(ada.auth)).status).toBe(
        204,
      );
      expectProblem(await postSettlement(t, ada, groupId, cy, ada, 100), 422, 'not_a_member');
    });

    it.each([
      ['zero', 0],
      ['negative', -100],
      ['a float', 100.5],
      ['a numeric string', '100'],
      ['over 1e12', 1e12 + 1],
      ['null', null],
    ])('rejects an amount that is %s with 422 validation_failed', async (_what, amount) => {
      const groupId = await t.createGroup(ada, [bob]);
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount });
      expectValidationFailed(res, 'amount');
      expect((await listSettlements(ada, groupId)).body.data).toEqual([]);
    });

    it('rejects missing fields, an invalid currency and unknown fields with 422 validation_failed', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const missing = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ groupId });
      expectValidationFailed(missing, 'fromUserId', 'toUserId', 'amount');
      expectValidationFailed(
        await postSettlement(t, ada, groupId, bob, ada, 100, { currency: 'ABC' }),
        'currency',
      );
      expectValidationFailed(
        await postSettlement(t, ada, groupId, bob, ada, 100, { method: 'upi' }),
        'method',
      );
    });

    it('answers 404 not_found when the caller is not a member of the group', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      expectProblem(await postSettlement(t, outsider, groupId, bob, ada, 100), 404, 'not_found');
      expect((await listSettlements(ada, groupId)).body.data).toEqual([]);
    });
  });

  describe('GET /v1/groups/{id}/settlements', () => {
    it('pages through every settlement exactly once, ending with nextCursor null', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const created: string[] = [];
      for (let i = 1; i <= 5; i++) {
        const res = await postSettlement(t, ada, groupId, bob, ada, i * 100);
        expect(res.status).toBe(201);
        created.push(res.body.id);
      }
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await listSettlements(ada, groupId, query);
        expect(res.status).toBe(200);
        sizes.push(res.body.data.length);
        seen.push(...res.body.data.map((s: { id: string }) => s.id));
        cursor = res.body.nextCursor;
      } while (cursor !== null && sizes.length < 10);
      expect(sizes).toEqual([2, 2, 1]);
      expect(seen).toHaveLength(5);
      expect(new Set(seen)).toEqual(new Set(created));

      const all = await listSettlements(ada, groupId);
      expect(all.body.data).toHaveLength(5);
      expect(all.body.nextCursor).toBeNull();
    });

    it('rejects a bad limit or cursor with 422 validation_failed', async () => {
      const groupId = await t.createGroup(ada);
      expectValidationFailed(await listSettlements(ada, groupId, '?limit=0'), 'limit');
      expectValidationFailed(await listSettlements(ada, groupId, '?limit=101'), 'limit');
      expectValidationFailed(await listSettlements(ada, groupId, '?cursor=nope'), 'cursor');
      const forged = Buffer.from(JSON.stringify(['yesterday', 'stl_x'])).toString('base64url');
      expectValidationFailed(await listSettlements(ada, groupId, `?cursor=${forged}`), 'cursor');
    });
  });

  describe('DELETE /v1/settlements/{id}', () => {
    it('undoes a settlement (204), again is 204, and it leaves the list', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const created = await postSettlement(t, bob, groupId, bob, ada, 900);
      const id = created.body.id as string;

      const first = await deleteSettlement(bob, id);
      expect(first.status).toBe(204);
      expect(first.text ?? '').toBe('');
      const again = await deleteSettlement(ada, id);
      expect(again.status).toBe(204);
      expect((await listSettlements(ada, groupId)).body.data).toEqual([]);
    });

    it('answers a non-member exactly like an unknown settlement: 404 not_found', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const created = await postSettlement(t, bob, groupId, bob, ada, 900);
      const unknown = await deleteSettlement(outsider, 'stl_01JD3Q8Z4T6Y5W2N8K1M0PX7RC');
      expectProblem(unknown, 404, 'not_found');
      const hidden = await deleteSettlement(outsider, created.body.id);
      expectProblem(hidden, 404, 'not_found');
      // The same answer either way, so a non-member cannot tell that the id exists.
      expect({ ...hidden.body, requestId: '' }).toEqual({ ...unknown.body, requestId: '' });
      expect((await listSettlements(ada, groupId)).body.data.map((s: { id: string }) => s.id)).toEqual([
        created.body.id,
      ]);
    });
  });

  describe('balances', () => {
    it('reflect a settlement when created and no longer once undone', async () => {
      const groupId = await t.createGroup(ada, [bob, cy]);
      expect((await postExpense(t, ada, groupId, ada, 3000, [ada, bob, cy])).status).toBe(201);
      expect(netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: 2000,
        [bob.id]: -1000,
        [cy.id]: -1000,
      });

      const paid = await postSettlement(t, bob, groupId, bob, ada, 1000);
      expect(paid.status).toBe(201);
      const afterPay = await balancesOf(t, cy, groupId);
      expect(netsIn(afterPay.currencies, 'INR')).toEqual({ [ada.id]: 1000, [bob.id]: 0, [cy.id]: -1000 });
      expect(afterPay.currencies[0]?.simplified).toEqual([{ from: cy.id, to: ada.id, amount: 1000 }]);

      expect((await deleteSettlement(ada, paid.body.id)).status).toBe(204);
      expect(netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: 2000,
        [bob.id]: -1000,
        [cy.id]: -1000,
      });
      expect((await deleteSettlement(ada, paid.body.id)).status).toBe(204);
      expect(netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR')[bob.id]).toBe(-1000);
    });

    it('list a settlement in its own currency only, and drop that currency once it is undone', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const paid = await postSettlement(t, bob, groupId, bob, ada, 50, { currency: 'EUR' });
      expect(paid.status).toBe(201);
      const balances = await balancesOf(t, ada, groupId);
      expect(balances.currencies.map((c) => c.currency)).toEqual(['EUR']);
      expect(netsIn(balances.currencies, 'EUR')).toEqual({ [ada.id]: -50, [bob.id]: 50 });

      expect((await deleteSettlement(bob, paid.body.id)).status).toBe(204);
      expect((await balancesOf(t, ada, groupId)).currencies).toEqual([]);
    });
  });
});
