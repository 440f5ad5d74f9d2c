/**
 * API.md §3.1–§3.2: pending members (people not on Tally yet, added by name) and invite links,
 * against real PostgreSQL and Redis. Claims of a pending member: pending-members-claims.test.ts.
 */
import { balancesOf, expectProblem, idPattern, netsIn, RFC3339_UTC } from './component-helpers';
import {
  accept,
  ada,
  addPending,
  bob,
  eventsOf,
  expense,
  invite,
  settle,
  t,
  usePendingMembersServer,
} from './pending-members-fixture';

describe('people who are not on Tally yet', () => {
  usePendingMembersServer();

  describe('pending members', () => {
    it('adds someone by name (201), listed as pending, with a member.added event that says so', async () => {
      const groupId = await t.createGroup(ada);
      const res = await t.request
        .post(`/v1/groups/${groupId}/members`)
        .set(ada.auth)
        .send({ name: '  Carol  ', email: 'Carol@Example.com' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        userId: expect.stringMatching(idPattern('usr')),
        name: 'Carol',
        joinedAt: expect.stringMatching(RFC3339_UTC),
        status: 'pending',
      });
      const group = await t.request.get(`/v1/groups/${groupId}`).set(ada.auth);
      expect(group.body.members.map((m: { userId: string; status: string }) => [m.userId, m.status])).toEqual(
        [
          [ada.id, 'active'],
          [res.body.userId, 'pending'],
        ],
      );
      const events = await eventsOf(ada, groupId);
      expect(events[events.length - 1]).toMatchObject({
        type: 'member.added',
        data: { member: { userId: res.body.userId, status: 'pending' } },
      });
    });

    it('refuses a bad body: both name and userId, an empty name, a name over 100 characters', async () => {
      const groupId = await t.createGroup(ada);
      for (const body of [
        { name: 'X', userId: bob.id },
        { name: '  ' },
        { name: 'x'.repeat(101) },
        { email: 'a@b.c', name: 'A', userId: bob.id },
      ]) {
        const res = await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send(body);
        expectProblem(res, 422, 'validation_failed');
      }
    });

    it('lets a pending member pay, owe and settle; removing them waits for a zero balance', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const carol = await addPending(ada, groupId, { name: 'Carol' });
      expect((await expense(ada, groupId, carol, 3000, [ada.id, bob.id, carol])).status).toBe(201);
      expect((await expense(bob, groupId, ada.id, 900, [carol])).status).toBe(201);
      let nets = netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR');
      expect(nets).toEqual({ [ada.id]: -100, [bob.id]: -1000, [carol]: 1100 });

      expectProblem(
        await t.request.delete(`/v1/groups/${groupId}/members/${carol}`).set(ada.auth),
        409,
        'member_has_balance',
      );
      expect((await settle(ada, groupId, ada.id, carol, 100)).status).toBe(201);
      expect((await settle(bob, groupId, bob.id, carol, 1000)).status).toBe(201);
      nets = netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR');
      expect(nets).toEqual({ [ada.id]: 0, [bob.id]: 0, [carol]: 0 });
      expect((await t.request.delete(`/v1/groups/${groupId}/members/${carol}`).set(ada.auth)).status).toBe(
        204,
      );
    });

    it('never adds a pending member of one group to another by id, and a pending user cannot sign in', async () => {
      const one = await t.createGroup(ada);
      const other = await t.createGroup(ada);
      const carol = await addPending(ada, one, { name: 'Carol', email: 'carol.pending@example.com' });
      expectProblem(
        await t.request.post(`/v1/groups/${other}/members`).set(ada.auth).send({ userId: carol }),
        404,
        'not_found',
      );
      expectProblem(
        await t.request
          .post(`/v1/groups/${other}/members`)
          .set(ada.auth)
          .send({ email: 'carol.pending@example.com' }),
        404,
        'not_found',
      );
      const login = await t.request
        .post('/v1/auth/login')
        .send({ email: 'carol.pending@example.com', password: 'whatever-password' });
      expectProblem(login, 401, 'invalid_credentials');
    });
  });

  describe('invite links', () => {
    it('is a 43-character code, previewed and accepted by two people (201), then a 200 no-op', async () => {
      const groupId = await t.createGroup(ada);
      const carol = await addPending(ada, groupId, { name: 'Carol' });
      const res = await t.request
        .post(`/v1/groups/${groupId}/invites`)
        .set(ada.auth)
        .send({ expiresInDays: 2 });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(idPattern('inv')),
        code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        groupId,
        createdBy: ada.id,
        createdAt: expect.stringMatching(RFC3339_UTC),
        expiresAt: expect.stringMatching(RFC3339_UTC),
      });
      const lifetime = Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt);
      expect(lifetime).toBe(2 * 86_400_000);
      const { code } = res.body;

      const dan = await t.register('Dan');
      const eve = await t.register('Eve');
      const preview = await t.request.get(`/v1/invites/${code}`).set(dan.auth);
      expect(preview.status).toBe(200);
      expect(preview.body).toEqual({
        groupId,
        groupName: 'Trip',
        memberCount: 2,
        pendingMembers: [{ userId: carol, name: 'Carol' }],
        expiresAt: res.body.expiresAt,
        isMember: false,
      });

      const first = await accept(dan, code);
      expect(first.status).toBe(201);
      expect(first.headers['location']).toBe(`/v1/groups/${groupId}`);
      expect(first.body.members.map((m: { userId: string }) => m.userId)).toEqual([ada.id, carol, dan.id]);
      const second = await accept(eve, code, {});
      expect(second.status).toBe(201);
      const again = await accept(dan, code);
      expect(again.status).toBe(200);
      expect(again.body).toEqual((await t.request.get(`/v1/groups/${groupId}`).set(dan.auth)).body);
      expect(again.body.members.map((m: { userId: string }) => m.userId)).toEqual([
        ada.id,
        carol,
        dan.id,
        eve.id,
      ]);
      const types = (await eventsOf(eve, groupId)).map((e) => e.type);
      expect(types.slice(-3)).toEqual(['invite.created', 'member.added', 'member.added']);
    });

    it('lists live invites without codes and refuses revoked, expired and unknown codes with 404', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const kept = await invite(ada, groupId);
      const revoked = await invite(bob, groupId);
      const listed = await t.request.get(`/v1/groups/${groupId}/invites`).set(ada.auth);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((i: { id: string }) => i.id).sort()).toEqual([kept.id, revoked.id].sort());
      expect(JSON.stringify(listed.body)).not.toContain(kept.code);

      expect(
        (await t.request.delete(`/v1/groups/${groupId}/invites/${revoked.id}`).set(ada.auth)).status,
      ).toBe(204);
      expect(
        (await t.request.delete(`/v1/groups/${groupId}/invites/${revoked.id}`).set(ada.auth)).status,
      ).toBe(204);
      expectProblem(
        await t.request.delete(`/v1/groups/${groupId}/invites/inv_nope`).set(ada.auth),
        404,
        'not_found',
      );
      const listedAfter = await t.request.get(`/v1/groups/${groupId}/invites`).set(ada.auth);
      expect(listedAfter.body.data.map((i: { id: string }) => i.id)).toEqual([kept.id]);

      const expired = await invite(ada, groupId);
      await t.db?.knex.raw(`update invites set expires_at = now() - interval '1 second' where id = ?`, [
        expired.id,
      ]);

      const dan = await t.register('Dan');
      const unknown = 'A'.repeat(43);
      for (const code of [revoked.code, expired.code, unknown, 'short']) {
        expectProblem(await accept(dan, code), 404, 'not_found');
        expectProblem(await t.request.get(`/v1/invites/${code}`).set(dan.auth), 404, 'not_found');
      }
      expectProblem(await t.request.get(`/v1/groups/${groupId}`).set(dan.auth), 404, 'not_found');
      // Non-members see neither the group's invites nor may they make or revoke one.
      expectProblem(await t.request.get(`/v1/groups/${groupId}/invites`).set(dan.auth), 404, 'not_found');
      expectProblem(await t.request.post(`/v1/groups/${groupId}/invites`).set(dan.auth), 404, 'not_found');
      expectProblem(
        await t.request.delete(`/v1/groups/${groupId}/invites/${kept.id}`).set(dan.auth),
        404,
        'not_found',
      );
      expect((await accept(dan, kept.code)).status).toBe(201);
    });

    it('refuses expiresInDays outside 1–30 and asMember that is not a user id (422)', async () => {
      const groupId = await t.createGroup(ada);
      for (const expiresInDays of [0, 31, 1.5, '3']) {
        const res = await t.request
          .post(`/v1/groups/${groupId}/invites`)
          .set(ada.auth)
          .send({ expiresInDays });
        expectProblem(res, 422, 'validation_failed');
      }
      const { code } = await invite(ada, groupId);
      expectProblem(await accept(bob, code, { asMember: 'carol' }), 422, 'validation_failed');
    });
  });
});
