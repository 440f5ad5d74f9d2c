import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { TestSocket } from './ws-client';

/**
 * API.md §3.3 and §8: an account that takes over a pending member may subscribe to the group from
 * the moment the claim commits, like a member who was added; before it, it gets `not_found`.
 */
describe('member.claimed on the WebSocket', () => {
  let t: TestServer;
  let ada: TestUser;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t.stop();
  });

  const open = async (user: TestUser) => {
    const socket = await TestSocket.open(t.url, user.accessToken);
    sockets.push(socket);
    await socket.next((m) => m.type === 'welcome');
    return socket;
  };

  it.each([
    ['an invite with asMember', 'invite'],
    ['the claim by email', 'email'],
  ] as const)(
    'lets the account subscribe once it claimed a pending member through %s',
    async (_what, how) => {
      const groupId = await t.createGroup(ada);
      const cara = await t.register('Cara');
      const pending = await t.request
        .post(`/v1/groups/${groupId}/members`)
        .set(ada.auth)
        .send({ name: 'Cara (not on Tally yet)', email: cara.email });
      expect(pending.status).toBe(201);
      // Her address counts as verified (API.md §2.5): only then is the place added with it hers.
      await t.db?.knex('users').where({ id: cara.id }).update({ email_verified_at: new Date() });
      const watcher = await open(ada);
      watcher.send({ type: 'subscribe', id: 'w', groupId });
      await watcher.next((m) => m.type === 'subscribed');

      // Not a member yet: refused, as any non-member is.
      const socket = await open(cara);
      socket.send({ type: 'subscribe', id: 'before', groupId });
      expect(await socket.next((m) => m['id'] === 'before')).toEqual({
        type: 'error',
        id: 'before',
        code: 'not_found',
      });

      const claim =
        how === 'invite'
          ? await (async () => {
              const invite = await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({});
              return t.request
                .post(`/v1/invites/${invite.body.code}/accept`)
                .set(cara.auth)
                .send({ asMember: pending.body.userId });
            })()
          : await t.request.post(`/v1/groups/${groupId}/members/${pending.body.userId}/claim`).set(cara.auth);
      expect(claim.status).toBe(201);

      const claimed = await watcher.next(
        (m) => m.type === 'event' && (m['event'] as { type: string }).type === 'member.claimed',
      );
      expect((claimed['event'] as { data: unknown }).data).toMatchObject({
        memberId: pending.body.userId,
        userId: cara.id,
      });

      socket.send({ type: 'subscribe', id: 'after', groupId, afterSeq: 0 });
      const subscribed = await socket.next((m) => m['id'] === 'after');
      expect(subscribed).toMatchObject({ type: 'subscribed', groupId });
      // The catch-up included the claim, and a later write reaches the account live.
      expect(socket.seqs(groupId)).toContain(claimed['seq']);
      await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({
          groupId,
          description: 'Tea',
          amount: 200,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id, pending.body.userId] },
        })
        .expect(201);
      const live = await socket.next(
        (m) => m.type === 'event' && (m['event'] as { type: string }).type === 'expense.created',
      );
      expect(live['groupId']).toBe(groupId);
    },
  );
});
