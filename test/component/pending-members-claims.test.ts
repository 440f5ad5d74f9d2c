/**
 * API.md §3.3: claims, an account taking over a pending member's place (through an invite, or by its
 * verified email), against real PostgreSQL and Redis; two claims at once through two API servers.
 */
import { loadConfig, type RunningServer, start } from '@tally/server';
import request from 'supertest';
import { redisUrl } from '../support/test-database';
import { newKey, TEST_JWT_SECRET } from '../support/test-server';
import { balancesOf, expectProblem, netsIn, RFC3339_UTC } from './component-helpers';
import {
  accept,
  ada,
  addPending,
  bob,
  eventsOf,
  expense,
  invite,
  markVerified,
  settle,
  t,
  usePendingMembersServer,
} from './pending-members-fixture';

describe('people who are not on Tally yet', () => {
  usePendingMembersServer();

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
