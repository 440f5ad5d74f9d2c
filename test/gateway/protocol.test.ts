import { redisClusterNodes, redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { type Message, TestSocket, upgradeStatus } from './ws-client';

/** Every row of API.md §8's protocol, against every bus: Redis, a Redis Cluster (sharded pub/sub) and in-process (ROLE=all). */
describe.each([
  { bus: 'Redis', env: (): Record<string, string> => ({ REDIS_URL: redisUrl(), WS_HEARTBEAT_MS: '300' }) },
  {
    bus: 'Redis Cluster',
    env: (): Record<string, string> => ({ REDIS_CLUSTER_NODES: redisClusterNodes(), WS_HEARTBEAT_MS: '300' }),
  },
  { bus: 'in-process', env: (): Record<string, string> => ({ WS_HEARTBEAT_MS: '300' }) },
])('WebSocket protocol with the $bus bus', ({ env }) => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let groupId: string;
  const sockets: TestSocket[] = [];
  const open = async (user: TestUser | undefined) => {
    const socket = await TestSocket.open(t.url, user?.accessToken);
    sockets.push(socket);
    return socket;
  };
  const addExpense = (amount: number, user: TestUser = ada) =>
    t.request
      .post('/v1/expenses')
      .set(user.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Snacks',
        amount,
        paidBy: user.id,
        split: { type: 'equal', between: [ada.id, bob.id] },
      })
      .expect(201);
  /** A new member of the group, online: added by Ada, subscribed on a socket of its own. */
  const newcomer = async (name: string) => {
    const user = await t.register(name);
    await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: user.id }).expect(201);
    const socket = await open(user);
    socket.send({ type: 'subscribe', id: 'n', groupId });
    await socket.next((m) => m.type === 'subscribed');
    return { user, socket };
  };
  const presenceWith = (userId: string) => (m: Message) =>
    m.type === 'presence' && (m['online'] as string[]).includes(userId);

  beforeAll(async () => {
    t = await startTestServer({ env: env() });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    groupId = await t.createGroup(ada, [bob]);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t.stop();
  });

  it('refuses an upgrade with a bad token, or any token in the URL (WS_ALLOW_QUERY_TOKEN off), with HTTP 401', async () => {
    expect(await upgradeStatus(t.url, '/v1/ws', { Authorization: 'Bearer not-a-jwt' })).toBe(401);
    expect(await upgradeStatus(t.url, '/v1/ws', { Authorization: 'Basic eDp5' })).toBe(401);
    expect(await upgradeStatus(t.url, '/v1/ws?access_token=garbage')).toBe(401);
    expect(await upgradeStatus(t.url, `/v1/ws?access_token=${ada.accessToken}`)).toBe(401);
    expect(await upgradeStatus(t.url, '/v1/ws', { Authorization: `Bearer ${ada.accessToken}` })).toBe(101);
    // No token at all: the upgrade succeeds, and the first message must be `auth` (ws-auth.test.ts).
    expect(await upgradeStatus(t.url, '/v1/ws')).toBe(101);
  });

  it('greets with welcome: connectionId, userId and heartbeatMs', async () => {
    const socket = await open(ada);
    const welcome = await socket.next();
    expect(welcome).toEqual({
      type: 'welcome',
      connectionId: expect.any(String),
      userId: ada.id,
      heartbeatMs: 300,
    });
  });

  it('replays the missed events after afterSeq in order, then confirms with subscribed', async () => {
    await addExpense(1000);
    await addExpense(2000);
    const events = await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(ada.auth);
    const last = events.body.data.at(-1).seq as number;
    const socket = await open(ada);
    socket.send({ type: 'subscribe', id: 'c1', groupId, afterSeq: 1 });
    const subscribed = await socket.next((m) => m.type === 'subscribed');
    expect(subscribed).toEqual({ type: 'subscribed', id: 'c1', groupId, seq: last });
    expect(socket.seqs(groupId)).toEqual(Array.from({ length: last - 1 }, (_, i) => i + 2));
    const replayed = socket.all('event', groupId);
    expect(replayed.at(-1)?.['event']).toEqual(events.body.data.at(-1));
  });

  it('delivers live events with balances, in seq order, after subscribing without afterSeq', async () => {
    const socket = await open(bob);
    socket.send({ type: 'subscribe', id: 's', groupId });
    const subscribed = await socket.next((m) => m.type === 'subscribed');
    const from = subscribed['seq'] as number;
    await addExpense(3000);
    await addExpense(4000, bob);
    await until(() => socket.seqs(groupId).length === 2);
    expect(socket.seqs(groupId)).toEqual([from + 1, from + 2]);
    const event = socket.all('event', groupId)[0]?.['event'] as {
      type: string;
      data: { balances: unknown[] };
    };
    expect(event.type).toBe('expense.created');
    expect(event.data.balances).toHaveLength(1);
  });

  it('answers a non-member subscribe with error not_found', async () => {
    const carol = await t.register('Carol');
    const socket = await open(carol);
    socket.send({ type: 'subscribe', id: 'x1', groupId });
    expect(await socket.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      id: 'x1',
      code: 'not_found',
    });
    socket.send({ type: 'subscribe', id: 'x2', groupId: 'grp_unknown' });
    expect(await socket.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      id: 'x2',
      code: 'not_found',
    });
  });

  it('unsubscribes, answers ping with pong, and stops sending the group', async () => {
    const socket = await open(ada);
    socket.send({ type: 'subscribe', id: 'a', groupId });
    await socket.next((m) => m.type === 'subscribed');
    socket.send({ type: 'unsubscribe', id: 'u1', groupId });
    expect(await socket.next((m) => m.type === 'unsubscribed')).toEqual({
      type: 'unsubscribed',
      id: 'u1',
      groupId,
    });
    socket.send({ type: 'ping', id: 'p1' });
    expect(await socket.next((m) => m.type === 'pong')).toEqual({ type: 'pong', id: 'p1' });
    const before = socket.all('event').length;
    // A witness still subscribed on the same gateway: the gateway hands a new event to every
    // subscription of the group at once, so once the witness has it, a ping on this (ordered)
    // socket is answered after anything sent here for it.
    const witness = await open(bob);
    witness.send({ type: 'subscribe', id: 'w', groupId });
    const seq = (await witness.next((m) => m.type === 'subscribed'))['seq'] as number;
    await addExpense(5000);
    await witness.next((m) => m.type === 'event' && m['seq'] === seq + 1);
    socket.send({ type: 'ping', id: 'p2' });
    await socket.next((m) => m.type === 'pong' && m['id'] === 'p2');
    expect(socket.all('event')).toHaveLength(before);
  });

  it('answers anything else with error bad_message and keeps the connection open', async () => {
    const socket = await open(ada);
    for (const bad of [
      'not json',
      '[]',
      '{"type":"dance"}',
      '{"type":"subscribe"}',
      '{"type":"subscribe","groupId":"g","afterSeq":-1}',
      '42',
    ]) {
      socket.send(bad);
      expect(await socket.next((m) => m.type === 'error')).toEqual({ type: 'error', code: 'bad_message' });
    }
    socket.send({ type: 'ping', id: 'still-here' });
    expect(await socket.next((m) => m.type === 'pong')).toEqual({ type: 'pong', id: 'still-here' });
  });

  it('closes with 1009 on a frame over 64 KiB', async () => {
    const socket = await open(ada);
    socket.send(JSON.stringify({ type: 'ping', id: 'x'.repeat(70 * 1024) }));
    expect((await socket.closed).code).toBe(1009);
  });

  it('drops a connection that does not answer pings', async () => {
    const socket = await TestSocket.open(t.url, ada.accessToken, { autoPong: false });
    sockets.push(socket);
    const closed = await socket.closed;
    expect(closed.code).toBe(1006);
    // By the heartbeat, counted in its beats rather than in ms: a ping or two went unanswered.
    expect(socket.pings).toBeGreaterThanOrEqual(1);
    expect(socket.pings).toBeLessThanOrEqual(2);
  });

  it('tells a new subscriber who is online exactly once', async () => {
    const first = await open(bob);
    first.send({ type: 'subscribe', id: 'b1', groupId });
    await first.next((m) => m.type === 'subscribed');
    // The same user again: the online set does not change, and the newcomer still learns it, once.
    const second = await open(bob);
    second.send({ type: 'subscribe', id: 'b2', groupId });
    await second.next((m) => m.type === 'subscribed');
    const presence = await second.next((m) => m.type === 'presence');
    expect(presence['online']).toContain(bob.id);
    // Nothing more across a heartbeat (it re-reads the set) until the set changes: the change
    // comes after everything sent before it on each (ordered) socket.
    await second.heartbeats(1);
    const eve = await newcomer('Eve');
    await Promise.all([first.next(presenceWith(eve.user.id)), second.next(presenceWith(eve.user.id))]);
    expect(second.all('presence', groupId)).toHaveLength(2);
    expect(first.all('presence', groupId)).toHaveLength(2);
  });

  it('sends a subscriber whose arrival changes the online set that set once, not twice', async () => {
    const dora = await newcomer('Dora');
    await dora.socket.next(presenceWith(dora.user.id));
    // As above: across a heartbeat, nothing more until the next change of the set.
    await dora.socket.heartbeats(1);
    const erin = await newcomer('Erin');
    await dora.socket.next(presenceWith(erin.user.id));
    expect(dora.socket.all('presence', groupId)).toHaveLength(2);
  });

  it('tells subscribers who is online, and unsubscribes a removed member with reason removed', async () => {
    const carol = await t.register('Carol');
    await t.request
      .post(`/v1/groups/${groupId}/members`)
      .set(ada.auth)
      .send({ userId: carol.id })
      .expect(201);
    const adaSocket = await open(ada);
    adaSocket.send({ type: 'subscribe', id: 'a', groupId });
    await adaSocket.next((m) => m.type === 'subscribed');
    const carolSocket = await open(carol);
    carolSocket.send({ type: 'subscribe', id: 'c', groupId });
    await carolSocket.next((m) => m.type === 'subscribed');
    await adaSocket.next(
      (m) =>
        m.type === 'presence' &&
        (m['online'] as string[]).includes(carol.id) &&
        (m['online'] as string[]).includes(ada.id),
    );
    await t.request.delete(`/v1/groups/${groupId}/members/${carol.id}`).set(ada.auth).expect(204);
    // Without afterSeq, Carol's feed starts where the gateway's feed is: her own member.added may
    // still arrive (after \`subscribed\`, in order) when the bus delivers it late; the removal follows it.
    const removedEvent = await carolSocket.next(
      (m) => m.type === 'event' && (m['event'] as { type: string }).type !== 'member.added',
    );
    expect((removedEvent['event'] as { type: string }).type).toBe('member.removed');
    expect(await carolSocket.next((m) => m.type === 'unsubscribed')).toEqual({
      type: 'unsubscribed',
      groupId,
      reason: 'removed',
    });
    await adaSocket.next((m) => m.type === 'presence' && !(m['online'] as string[]).includes(carol.id));
  });
});

describe('WebSocket shutdown', () => {
  it('closes every connection with 1012 when the server stops', async () => {
    const t = await startTestServer();
    const ada = await t.register('Ada');
    const socket = await TestSocket.open(t.url, ada.accessToken);
    await socket.next((m) => m.type === 'welcome');
    await t.stop();
    expect((await socket.closed).code).toBe(1012);
  });
});
