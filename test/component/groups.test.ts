import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import {
  balancesOf,
  expectProblem,
  expectValidationFailed,
  idPattern,
  postExpense,
  postSettlement,
  RFC3339_UTC,
} from './component-helpers';

describe('groups and members (API.md §3)', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    cy = await t.register('Cy');
  });
  afterAll(async () => {
    await t.stop();
  });

  const getGroup = (user: TestUser, groupId: string) => t.request.get(`/v1/groups/${groupId}`).set(user.auth);
  const addMember = (user: TestUser, groupId: string, body: Record<string, unknown>) =>
    t.request.post(`/v1/groups/${groupId}/members`).set(user.auth).send(body);
  const removeMember = (user: TestUser, groupId: string, memberId: string) =>
    t.request.delete(`/v1/groups/${groupId}/members/${memberId}`).set(user.auth);

  describe('POST /v1/groups', () => {
    it('creates a group (201) in INR by default, with the creator as first member, Location and ETag', async () => {
      const res = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .send({ name: 'Goa trip', description: 'Beach week' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(idPattern('grp')),
        name: 'Goa trip',
        description: 'Beach week',
        currency: 'INR',
        members: [
          { userId: ada.id, name: 'Ada', joinedAt: expect.stringMatching(RFC3339_UTC), status: 'active' },
        ],
        createdAt: expect.stringMatching(RFC3339_UTC),
        updatedAt: expect.stringMatching(RFC3339_UTC),
        version: expect.any(Number),
        archivedAt: null,
        simplifyDebts: true,
      });
      expect(res.headers['location']).toBe(`/v1/groups/${res.body.id}`);
      expect(res.headers['etag']).toEqual(expect.any(String));
      const fetched = await getGroup(ada, res.body.id);
      expect(fetched.body).toEqual(res.body);
      expect(fetched.headers['etag']).toBe(res.headers['etag']);
    });

    it('keeps an explicit currency and defaults the description to an empty string', async () => {
      const res = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'NYC', currency: 'USD' });
      expect(res.status).toBe(201);
      expect(res.body.currency).toBe('USD');
      expect(res.body.description).toBe('');
    });

    it.each(['XYZ', 'usd', 'EURO', 'US', 42])(
      'rejects currency %p with 422 validation_failed',
      async (currency) => {
        const res = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Bad', currency });
        expectValidationFailed(res, 'currency');
      },
    );

    it('rejects a missing or blank name with 422 validation_failed', async () => {
      expectValidationFailed(await t.request.post('/v1/groups').set(ada.auth).send({}), 'name');
      expectValidationFailed(await t.request.post('/v1/groups').set(ada.auth).send({ name: '   ' }), 'name');
    });
  });

  describe('GET /v1/groups and /v1/groups/{id}', () => {
    it('returns the group with exactly the documented fields, members in join order', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const res = await getGroup(bob, groupId);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(
        [
          'archivedAt',
          'createdAt',
          'currency',
          'description',
          'id',
          'members',
          'name',
          'simplifyDebts',
          'updatedAt',
          'version',
        ].sort(),
      );
      expect(res.body.members).toEqual([
        { userId: ada.id, name: 'Ada', joinedAt: expect.stringMatching(RFC3339_UTC), status: 'active' },
        { userId: bob.id, name: 'Bob', joinedAt: expect.stringMatching(RFC3339_UTC), status: 'active' },
      ]);
    });

    it("lists only the caller's groups", async () => {
      const dee = await t.register('Dee');
      const eve = await t.register('Eve');
      const deesOwn = await t.createGroup(dee);
      const shared = await t.createGroup(eve, [dee]);
      const evesOnly = await t.createGroup(eve);

      const res = await t.request.get('/v1/groups').set(dee.auth);
      expect(res.status).toBe(200);
      expect(res.body.nextCursor).toBeNull();
      const ids = res.body.data.map((g: { id: string }) => g.id).sort();
      expect(ids).toEqual([deesOwn, shared].sort());
      expect(ids).not.toContain(evesOnly);
      for (const group of res.body.data) {
        expect(group.members.map((m: { userId: string }) => m.userId)).toContain(dee.id);
      }
    });

    it('lists a group after being added and no longer after being removed', async () => {
      const fay = await t.register('Fay');
      const groupId = await t.createGroup(ada, [fay]);
      const listed = await t.request.get('/v1/groups').set(fay.auth);
      expect(listed.body.data.map((g: { id: string }) => g.id)).toEqual([groupId]);
      expect((await removeMember(ada, groupId, fay.id)).status).toBe(204);
      const after = await t.request.get('/v1/groups').set(fay.auth);
      expect(after.status).toBe(200);
      expect(after.body).toEqual({ data: [], nextCursor: null });
    });
  });

  describe('PATCH /v1/groups/{id}', () => {
    it('updates name and description, bumps version and updatedAt, and answers 200 with the group', async () => {
      const created = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Before' });
      const groupId = created.body.id as string;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await t.request
        .patch(`/v1/groups/${groupId}`)
        .set(ada.auth)
        .send({ name: 'After', description: 'Now described' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...created.body,
        name: 'After',
        description: 'Now described',
        version: created.body.version + 1,
        updatedAt: expect.stringMatching(RFC3339_UTC),
      });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(created.body.updatedAt));
      expect((await getGroup(ada, groupId)).body).toEqual(res.body);
    });

    it('lets any member patch, and rejects unknown fields and a currency that is not ISO 4217 with 422', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const byBob = await t.request.patch(`/v1/groups/${groupId}`).set(bob.auth).send({ description: 'bob' });
      expect(byBob.status).toBe(200);
      expect(byBob.body.description).toBe('bob');
      expectValidationFailed(
        await t.request.patch(`/v1/groups/${groupId}`).set(ada.auth).send({ currency: 'XYZ' }),
        'currency',
      );
      expectValidationFailed(
        await t.request.patch(`/v1/groups/${groupId}`).set(ada.auth).send({ archivedAt: null }),
        'archivedAt',
      );
      expectValidationFailed(
        await t.request.patch(`/v1/groups/${groupId}`).set(ada.auth).send({ name: '' }),
        'name',
      );
    });
  });

  describe('POST /v1/groups/{id}/members', () => {
    it('adds a registered user by userId: 201 with the member', async () => {
      const groupId = await t.createGroup(ada);
      const res = await addMember(ada, groupId, { userId: bob.id });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        userId: bob.id,
        name: 'Bob',
        joinedAt: expect.stringMatching(RFC3339_UTC),
        status: 'active',
      });
      const group = await getGroup(bob, groupId);
      expect(group.status).toBe(200);
      expect(group.body.members.map((m: { userId: string }) => m.userId)).toEqual([ada.id, bob.id]);
    });

    it('adds a registered user by email, ignoring case: 201 with the member', async () => {
      const groupId = await t.createGroup(ada);
      const res = await addMember(ada, groupId, { email: cy.email.toUpperCase() });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        userId: cy.id,
        name: 'Cy',
        joinedAt: expect.stringMatching(RFC3339_UTC),
        status: 'active',
      });
    });

    it('answers 200 with the existing member when the user is already a member', async () => {
      const groupId = await t.createGroup(ada);
      const first = await addMember(ada, groupId, { userId: bob.id });
      const again = await addMember(ada, groupId, { email: bob.email });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      const self = await addMember(ada, groupId, { userId: ada.id });
      expect(self.status).toBe(200);
      expect(self.body.userId).toBe(ada.id);
      const group = await getGroup(ada, groupId);
      expect(group.body.members).toHaveLength(2);
    });

    it('answers 404 not_found for a user that is not registered', async () => {
      const groupId = await t.createGroup(ada);
      expectProblem(
        await addMember(ada, groupId, { userId: 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC' }),
        404,
        'not_found',
      );
      expectProblem(await addMember(ada, groupId, { email: 'nobody.here@example.com' }), 404, 'not_found');
      expect((await getGroup(ada, groupId)).body.members).toHaveLength(1);
    });

    it('rejects userId with email or name, none of them, or an unknown field, with 422 validation_failed', async () => {
      const groupId = await t.createGroup(ada);
      expectValidationFailed(await addMember(ada, groupId, { userId: bob.id, email: bob.email }));
      expectValidationFailed(await addMember(ada, groupId, {}));
      expectValidationFailed(await addMember(ada, groupId, { userId: bob.id, name: 'Bob' }));
      expectValidationFailed(await addMember(ada, groupId, { name: 'Bob', nickname: 'B' }), 'nickname');
    });
  });

  describe('DELETE /v1/groups/{id}/members/{userId}', () => {
    it('removes another member (204) and the removed member can no longer see the group', async () => {
      const groupId = await t.createGroup(ada, [bob, cy]);
      const res = await removeMember(bob, groupId, cy.id);
      expect(res.status).toBe(204);
      expect(res.text ?? '').toBe('');
      const group = await getGroup(ada, groupId);
      expect(group.body.members.map((m: { userId: string }) => m.userId)).toEqual([ada.id, bob.id]);
      expectProblem(await getGroup(cy, groupId), 404, 'not_found');
    });

    it('lets a member remove themselves (204)', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      expect((await removeMember(bob, groupId, bob.id)).status).toBe(204);
      expectProblem(await getGroup(bob, groupId), 404, 'not_found');
      expect((await getGroup(ada, groupId)).body.members.map((m: { userId: string }) => m.userId)).toEqual([
        ada.id,
      ]);
    });

    it('answers 404 not_found when the user is not a member', async () => {
      const groupId = await t.createGroup(ada);
      expectProblem(await removeMember(ada, groupId, cy.id), 404, 'not_found');
    });

    it('refuses to remove a member whose balance is not zero (409 member_has_balance), on either side', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const expense = await postExpense(t, ada, groupId, ada, 1000, [ada, bob]);
      expect(expense.status).toBe(201);

      expectProblem(await removeMember(ada, groupId, bob.id), 409, 'member_has_balance');
      expectProblem(await removeMember(bob, groupId, bob.id), 409, 'member_has_balance');
      expectProblem(await removeMember(bob, groupId, ada.id), 409, 'member_has_balance');
      const group = await getGroup(ada, groupId);
      expect(group.body.members.map((m: { userId: string }) => m.userId)).toEqual([ada.id, bob.id]);
    });

    it('removes the member (204) once they have settled up', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      expect((await postExpense(t, ada, groupId, ada, 1000, [ada, bob])).status).toBe(201);
      expectProblem(await removeMember(ada, groupId, bob.id), 409, 'member_has_balance');

      const settled = await postSettlement(t, bob, groupId, bob, ada, 500);
      expect(settled.status).toBe(201);
      const balances = await balancesOf(t, ada, groupId);
      expect(balances.currencies[0]?.members.every((m) => m.net === 0)).toBe(true);

      expect((await removeMember(ada, groupId, bob.id)).status).toBe(204);
      expectProblem(await getGroup(bob, groupId), 404, 'not_found');
    });

    it('refuses when the net is zero in the group currency but not in another (409 member_has_balance)', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      expect((await postExpense(t, ada, groupId, ada, 1000, [ada, bob], { currency: 'USD' })).status).toBe(
        201,
      );
      expectProblem(await removeMember(ada, groupId, bob.id), 409, 'member_has_balance');
      expect((await postSettlement(t, bob, groupId, bob, ada, 500, { currency: 'USD' })).status).toBe(201);
      expect((await removeMember(ada, groupId, bob.id)).status).toBe(204);
    });
  });

  describe('visibility: non-members get 404, never 403', () => {
    let groupId: string;
    let outsider: TestUser;
    const missingGroup = 'grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC';

    beforeAll(async () => {
      groupId = await t.createGroup(ada, [bob]);
      outsider = await t.register('Outsider');
      expect((await postExpense(t, ada, groupId, ada, 300, [ada, bob])).status).toBe(201);
    });

    const routes: [string, (gid: string, user: TestUser) => Promise<Parameters<typeof expectProblem>[0]>][] =
      [
        ['GET group', (gid, user) => t.request.get(`/v1/groups/${gid}`).set(user.auth)],
        [
          'PATCH group',
          (gid, user) => t.request.patch(`/v1/groups/${gid}`).set(user.auth).send({ name: 'Mine' }),
        ],
        [
          'add member',
          (gid, user) => t.request.post(`/v1/groups/${gid}/members`).set(user.auth).send({ userId: user.id }),
        ],
        [
          'remove member',
          (gid, user) => t.request.delete(`/v1/groups/${gid}/members/${bob.id}`).set(user.auth),
        ],
        ['GET balances', (gid, user) => t.request.get(`/v1/groups/${gid}/balances`).set(user.auth)],
        ['GET expenses', (gid, user) => t.request.get(`/v1/groups/${gid}/expenses`).set(user.auth)],
        ['GET settlements', (gid, user) => t.request.get(`/v1/groups/${gid}/settlements`).set(user.auth)],
        ['GET events', (gid, user) => t.request.get(`/v1/groups/${gid}/events`).set(user.auth)],
        [
          'POST expense',
          (gid, user) =>
            t.request
              .post('/v1/expenses')
              .set(user.auth)
              .set('Idempotency-Key', newKey())
              .send({
                groupId: gid,
                description: 'x',
                amount: 100,
                paidBy: user.id,
                split: { type: 'equal', between: [user.id] },
              }),
        ],
        [
          'POST settlement',
          (gid, user) =>
            t.request
              .post('/v1/settlements')
              .set(user.auth)
              .set('Idempotency-Key', newKey())
              .send({ groupId: gid, fromUserId: bob.id, toUserId: ada.id, amount: 100 }),
        ],
      ];

    it.each(routes)(
      '%s by a non-member is 404 not_found, like a group that does not exist',
      async (_name, call) => {
        const hidden = await call(groupId, outsider);
        expectProblem(hidden, 404, 'not_found');
        const missing = await call(missingGroup, outsider);
        expectProblem(missing, 404, 'not_found');
        expect(hidden.body.detail).toBe(missing.body.detail);
      },
    );

    it('left the group untouched after all those attempts', async () => {
      const group = await getGroup(ada, groupId);
      expect(group.body.name).toBe('Trip');
      expect(group.body.members.map((m: { userId: string }) => m.userId)).toEqual([ada.id, bob.id]);
      const balances = await balancesOf(t, ada, groupId);
      expect(balances.currencies).toHaveLength(1);
      expect(balances.currencies[0]?.members).toEqual([
        { userId: ada.id, net: 150 },
        { userId: bob.id, net: -150 },
      ]);
    });
  });
});
