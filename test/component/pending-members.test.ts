import { loadConfig, type RunningServer, start } from '@tally/server';
import request from 'supertest';
import { redisUrl } from '../support/test-database';
import {
  newKey,
  startTestServer,
  TEST_JWT_SECRET,
  type TestServer,
  type TestUser,
} from '../support/test-server';
import { balancesOf, expectProblem, idPattern, netsIn, RFC3339_UTC } from './component-helpers';

/** API.md §3.1–§3.3: pending members, invite links and claims, against real PostgreSQL and Redis. */
describe('people who are not on Tally yet', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    await t.stop();
  });

  const addPending = async (actor: TestUser, groupId: string, body: Record<string, unknown>) => {
    const res = await t.request.post(`/v1/groups/${groupId}/members`).set(actor.auth).send(body);
    expect(res.status).toBe(201);
    return res.body.userId as string;
  };
  const expense = (actor: TestUser, groupId: string, paidBy: string, amount: number, between: string[]) =>
    t.request
      .post('/v1/expenses')
      .set(actor.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, description: 'Dinner', amount, paidBy, split: { type: 'equal', between } });
  const settle = (actor: TestUser, groupId: string, fromUserId: string, toUserId: string, amount: number) =>
    t.request
      .post('/v1/settlements')
      .set(actor.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, fromUserId, toUserId, amount });
  const invite = async (actor: TestUser, groupId: string, body: Record<string, unknown> = {}) => {
    const res = await t.request.post(`/v1/groups/${groupId}/invites`).set(actor.auth).send(body);
    expect(res.status).toBe(201);
    return res.body as { id: string; code: string; expiresAt: string };
  };
  const accept = (user: TestUser, code: string, body?: Record<string, unknown>) => {
    const req = t.request.post(`/v1/invites/${code}/accept`).set(user.auth);
    return body ? req.send(body) : req;
  };
  /** The account's login email counts as verified (API.md §2.5; the mailed link is tested in email-verification.test.ts). */
  const markVerified = async (userId: string) => {
    await t.db?.knex('users').where({ id: userId }).update({ email_verified_at: new Date() });
  };
  const eventsOf = async (user: TestUser, groupId: string) => {
    const res = await t.request.get(`/v1/groups/${groupId}/events`).set(user.auth).query({ limit: 100 });
    expect(res.status).toBe(200);
    return res.body.data as { type: string; actorId: string; data: Record<string, unknown> }[];
  };

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

  describe('claims', () => {
    it('takes over a pending member through an invite: place, balances and history, nothing rewritten', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const carol = await addPending(ada, groupId, { name: 'Carol' });
      const dinner = await expense(ada, groupId, carol, 3000, [ada.id, bob.id, carol]);
      expect(dinner.status).toBe(201);
      expect((await settle(ada, groupId, ada.id, carol, 400)).status).toBe(201);
      const { code } = await invite(bob, groupId);
      const cara = await t.register('Cara');

      const res = await accept(cara, code, { asMember: carol });
      expect(res.status).toBe(201);
      expect(res.body.members).toEqual([
        expect.objectContaining({ userId: ada.id, status: 'active' }),
        expect.objectContaining({ userId: bob.id, status: 'active' }),
        {
          userId: cara.id,
          name: 'Cara',
          joinedAt: expect.stringMatching(RFC3339_UTC),
          status: 'active',
          claimed: [carol],
        },
      ]);
      expect(res.body).toEqual((await t.request.get(`/v1/groups/${groupId}`).set(cara.auth)).body);

      const nets = netsIn((await balancesOf(t, cara, groupId)).currencies, 'INR');
      expect(nets).toEqual({ [ada.id]: -600, [bob.id]: -1000, [cara.id]: 1600 });

      // History still names the pending member.
      const old = await t.request.get(`/v1/expenses/${dinner.body.id}`).set(cara.auth);
      expect(old.body.paidBy).toEqual([{ userId: carol, amount: 3000 }]);
      const events = await eventsOf(cara, groupId);
      const claimed = events[events.length - 1];
      expect(claimed).toMatchObject({
        type: 'member.claimed',
        actorId: cara.id,
        data: { memberId: carol, userId: cara.id, member: { userId: cara.id, claimed: [carol] } },
      });
      expect(netsIn(claimed?.data['balances'] as never, 'INR')).toEqual(nets);

      // An old expense naming the pending member moves the account's balance when deleted and restored.
      const deleted = await t.request
        .delete(`/v1/expenses/${dinner.body.id}`)
        .set(cara.auth)
        .set('Idempotency-Key', newKey());
      expect(deleted.status).toBe(204);
      expect(netsIn((await balancesOf(t, cara, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: 400,
        [bob.id]: 0,
        [cara.id]: -400,
      });
      const restored = await t.request
        .post(`/v1/expenses/${dinner.body.id}/restore`)
        .set(cara.auth)
        .set('Idempotency-Key', newKey());
      expect(restored.status).toBe(200);
      expect(netsIn((await balancesOf(t, cara, groupId)).currencies, 'INR')).toEqual(nets);

      // A new expense naming the pending member counts for the account; the pending id cannot be removed.
      expect((await expense(bob, groupId, carol, 300, [bob.id, carol])).status).toBe(201);
      expect(netsIn((await balancesOf(t, cara, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: -600,
        [bob.id]: -1150,
        [cara.id]: 1750,
      });
      expectProblem(
        await t.request.delete(`/v1/groups/${groupId}/members/${carol}`).set(ada.auth),
        404,
        'not_found',
      );
      // Claiming again by the same account changes nothing.
      const again = await accept(cara, code, { asMember: carol });
      expect(again.status).toBe(200);
    });

    it('never merges a place kept by name into a member (403), only the one added with their verified email (200)', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const byName = await addPending(ada, groupId, { name: 'Bobby by name' });
      const bobby = await addPending(ada, groupId, { name: 'Bobby', email: bob.email.toUpperCase() });
      expect((await expense(ada, groupId, ada.id, 1000, [bob.id, bobby])).status).toBe(201);
      const { code } = await invite(ada, groupId);
      // A member never takes over a place kept by name: that would merge two people's balances.
      expectProblem(await accept(bob, code, { asMember: byName }), 403, 'forbidden');
      // The place added with Bob's address is his, once the address is proven his.
      expectProblem(await accept(bob, code, { asMember: bobby }), 403, 'forbidden');
      const preview = await t.request.get(`/v1/invites/${code}`).set(bob.auth);
      expect(preview.body.pendingMembers).toEqual([]);
      await markVerified(bob.id);
      expect((await t.request.get(`/v1/invites/${code}`).set(bob.auth)).body.pendingMembers).toEqual([
        { userId: bobby, name: 'Bobby' },
      ]);
      const res = await accept(bob, code, { asMember: bobby });
      expect(res.status).toBe(200);
      expect(res.body.members.map((m: { userId: string }) => m.userId)).toEqual([ada.id, bob.id, byName]);
      expect(res.body.members[1].claimed).toEqual([bobby]);
      // The two ids are one member now: no settling with oneself.
      expectProblem(await settle(bob, groupId, bob.id, bobby, 100), 422, 'validation_failed');
      const again = await t.request
        .post(`/v1/groups/${groupId}/members`)
        .set(ada.auth)
        .send({ userId: bob.id });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body.members[1]);
      expect(netsIn((await balancesOf(t, bob, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: 1000,
        [bob.id]: -1000,
        [byName]: 0,
      });
    });

    it('keeps the alias when the account leaves and comes back: old records count for it again', async () => {
      const groupId = await t.createGroup(ada);
      const pat = await addPending(ada, groupId, { name: 'Pat' });
      const dinner = await expense(ada, groupId, ada.id, 1000, [ada.id, pat]);
      expect(dinner.status).toBe(201);
      const { code } = await invite(ada, groupId);
      const paul = await t.register('Paul');
      expect((await accept(paul, code, { asMember: pat })).status).toBe(201);
      expect((await settle(paul, groupId, paul.id, ada.id, 500)).status).toBe(201);
      expect((await t.request.delete(`/v1/groups/${groupId}/members/${paul.id}`).set(ada.auth)).status).toBe(
        204,
      );

      // Gone: the old expense names a former member (through the alias), as for anyone who left.
      const del = () =>
        t.request.delete(`/v1/expenses/${dinner.body.id}`).set(ada.auth).set('Idempotency-Key', newKey());
      expectProblem(await del(), 422, 'not_a_member');

      const back = await t.request
        .post(`/v1/groups/${groupId}/members`)
        .set(ada.auth)
        .send({ userId: paul.id });
      expect(back.status).toBe(201);
      expect(back.body).toMatchObject({ userId: paul.id, status: 'active', claimed: [pat] });
      const events = await eventsOf(ada, groupId);
      expect(events[events.length - 1]?.data['member']).toEqual(back.body);
      expect((await del()).status).toBe(204);
      expect(netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: -500,
        [paul.id]: 500,
      });
    });

    it('refuses asMember that is not a pending member of that group (404)', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const other = await t.createGroup(ada);
      const elsewhere = await addPending(ada, other, { name: 'Elsewhere' });
      const { code } = await invite(ada, groupId);
      const dan = await t.register('Dan');
      for (const asMember of [elsewhere, bob.id, ada.id, 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC']) {
        expectProblem(await accept(dan, code, { asMember }), 404, 'not_found');
      }
      expectProblem(await t.request.get(`/v1/groups/${groupId}`).set(dan.auth), 404, 'not_found');
    });

    it('lets an account registered with the pending member’s email claim it without an invite', async () => {
      const groupId = await t.createGroup(ada);
      const friendEmail = `friend.${process.pid}.${Date.now()}@example.com`;
      const friend = await addPending(ada, groupId, { name: 'Friend', email: friendEmail.toUpperCase() });
      const stranger = await addPending(ada, groupId, { name: 'No email' });
      expect((await expense(ada, groupId, ada.id, 500, [friend])).status).toBe(201);
      const registered = await t.request
        .post('/v1/auth/register')
        .send({ email: ` ${friendEmail} `, name: 'Fred', password: 'correct horse battery' });
      expect(registered.status).toBe(201);
      const fred = {
        id: registered.body.user.id,
        auth: { Authorization: `Bearer ${registered.body.accessToken}` },
      };
      const claim = (user: { auth: Record<string, string> }, memberId: string) =>
        t.request.post(`/v1/groups/${groupId}/members/${memberId}/claim`).set(user.auth);

      // Until Fred proves the address is his, it claims nothing.
      expect((await t.request.get('/v1/me/claimable-members').set(fred.auth)).body).toEqual({ data: [] });
      expectProblem(await claim(fred, friend), 403, 'forbidden');
      await markVerified(fred.id);

      // What Fred may claim, found by his verified login email; nothing for Bob.
      const claimable = await t.request.get('/v1/me/claimable-members').set(fred.auth);
      expect(claimable.status).toBe(200);
      expect(claimable.body).toEqual({
        data: [{ groupId, groupName: 'Trip', memberId: friend, name: 'Friend' }],
      });
      expect((await t.request.get('/v1/me/claimable-members').set(bob.auth)).body).toEqual({ data: [] });
      expectProblem(await claim(bob, friend), 404, 'not_found');
      expectProblem(await claim(fred, stranger), 404, 'not_found');
      expectProblem(await claim(fred, ada.id), 404, 'not_found');
      const res = await claim(fred, friend);
      expect(res.status).toBe(201);
      expect(res.body.members.find((m: { userId: string }) => m.userId === fred.id).claimed).toEqual([
        friend,
      ]);
      expect(netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: 500,
        [fred.id]: -500,
        [stranger]: 0,
      });
      expect((await claim(fred, friend)).status).toBe(200);
      expect((await t.request.get('/v1/me/claimable-members').set(fred.auth)).body).toEqual({ data: [] });
    });

    it('gives one of two accounts claiming one member at once, through two API servers on one database, the member; the other 409', async () => {
      // A second API server (its own write runner, group gate and state cache) on the same database: the two claims race in PostgreSQL, not in one runner's queue.
      const other: RunningServer = await start(
        loadConfig({
          PORT: '0',
          LOG_LEVEL: 'silent',
          JWT_SECRET: TEST_JWT_SECRET,
          RATE_LIMIT_PER_MINUTE: '1000000',
          DATABASE_URL: t.db?.url ?? '',
          REDIS_URL: redisUrl(),
        }),
      );
      try {
        const otherRequest = request.agent(other.url);
        const groupId = await t.createGroup(ada);
        for (let round = 0; round < 5; round++) {
          const pending = await addPending(ada, groupId, { name: `Pending ${round}` });
          expect((await expense(ada, groupId, ada.id, 1000, [pending])).status).toBe(201);
          const { code } = await invite(ada, groupId);
          const one = await t.register('One');
          const two = await t.register('Two');
          const answers = await Promise.all([
            t.request
              .post(`/v1/invites/${code}/accept`)
              .set(one.auth)
              .set('Idempotency-Key', newKey())
              .send({ asMember: pending }),
            otherRequest
              .post(`/v1/invites/${code}/accept`)
              .set(two.auth)
              .set('Idempotency-Key', newKey())
              .send({ asMember: pending }),
          ]);
          const statuses = answers.map((a) => a.status).sort();
          expect(statuses).toEqual([201, 409]);
          const loser = answers.find((a) => a.status === 409);
          expect(loser?.body.code).toBe('member_claimed');
          const winner = answers[0]?.status === 201 ? one : two;
          const nets = netsIn((await balancesOf(t, ada, groupId)).currencies, 'INR');
          expect(nets[winner.id]).toBe(-1000);
          expect(Object.values(nets).reduce((a, b) => a + b, 0)).toBe(0);
          const loserUser = winner === one ? two : one;
          expectProblem(await t.request.get(`/v1/groups/${groupId}`).set(loserUser.auth), 404, 'not_found');
        }
        const claims = (await eventsOf(ada, groupId)).filter((e) => e.type === 'member.claimed');
        expect(claims).toHaveLength(5);
      } finally {
        await other.stop();
      }
    });
  });
});
