import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { type Message, TestSocket } from './ws-client';

/**
 * API.md §8a "Live": after `activity.subscribe` a connection hears an `activity` message for each
 * new event of any of its user's groups, without a subscription per group; nothing of other
 * groups, nothing of a group after the user's removal, and the groups joined since after the next
 * `activity.subscribe`.
 */
describe('activity on the WebSocket', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cat: TestUser;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    cat = await t.register('Cat');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });

  const open = async (user: TestUser) => {
    const socket = await TestSocket.open(t.url, user.accessToken);
    sockets.push(socket);
    await socket.next((m) => m.type === 'welcome');
    return socket;
  };
  const spend = async (user: TestUser, groupId: string) => {
    await t.postOwnExpense(user, groupId, newKey()).expect(201);
  };
  const topOfFeed = async (user: TestUser) =>
    (await t.request.get('/v1/me/activity').query({ limit: 1 }).set(user.auth)).body.data[0];
  const activity = (m: Message) => m.type === 'activity';

  it('tells a connected user about new events in any of their groups, and only theirs', async () => {
    const mine = await t.createGroup(ada, [], { name: 'Mine' });
    const shared = await t.createGroup(bob, [ada], { name: 'Shared' });
    const other = await t.createGroup(cat, [], { name: 'Not Ada’s' });
    const socket = await open(ada);
    socket.send({ type: 'activity.subscribe', id: 'a1' });
    expect(await socket.next((m) => m['id'] === 'a1')).toEqual({
      type: 'activity.subscribed',
      id: 'a1',
      groupCount: 2,
    });

    await spend(bob, shared);
    const first = await socket.next(activity);
    const top = await topOfFeed(ada);
    expect(first).toEqual({
      type: 'activity',
      groupId: shared,
      eventId: top.id,
      seq: top.seq,
      eventType: 'expense.created',
    });

    // Another group's write reaches no one here: the next message is Ada's own group's.
    await spend(cat, other);
    await spend(ada, mine);
    expect(await socket.next(activity)).toEqual(
      expect.objectContaining({ groupId: mine, eventType: 'expense.created' }),
    );
    expect(socket.all('activity').map((m) => m['groupId'])).toEqual([shared, mine]);
  });

  it('stops a group on the user’s removal and follows groups joined since on the next activity.subscribe', async () => {
    const dee = await t.register('Dee');
    const mine = await t.createGroup(dee, [], { name: 'Mine 2' });
    const shared = await t.createGroup(bob, [dee], { name: 'Shared 2' });
    const socket = await open(dee);
    socket.send({ type: 'activity.subscribe', id: 's' });
    await socket.next((m) => m['id'] === 's');

    await t.request.delete(`/v1/groups/${shared}/members/${dee.id}`).set(bob.auth).expect(204);
    await spend(bob, shared);
    await spend(dee, mine);
    expect(await socket.next(activity)).toEqual(expect.objectContaining({ groupId: mine }));
    expect(socket.all('activity').map((m) => m['groupId'])).toEqual([mine]);

    const joined = await t.createGroup(bob, [dee], { name: 'Joined later' });
    socket.send({ type: 'activity.subscribe', id: 'again' });
    expect(await socket.next((m) => m['id'] === 'again')).toEqual(
      expect.objectContaining({ type: 'activity.subscribed', groupCount: 2 }),
    );
    await spend(bob, joined);
    expect(await socket.next((m) => activity(m) && m['groupId'] === joined)).toEqual(
      expect.objectContaining({ eventType: 'expense.created' }),
    );

    // Once unsubscribed, nothing: a second connection of Dee's still following hears the next write,
    // and by the time the first answers a ping after that, the same gateway would have sent it too.
    const still = await open(dee);
    still.send({ type: 'activity.subscribe', id: 'still' });
    await still.next((m) => m['id'] === 'still');
    socket.send({ type: 'activity.unsubscribe', id: 'off' });
    expect(await socket.next((m) => m['id'] === 'off')).toEqual({ type: 'activity.unsubscribed', id: 'off' });
    await spend(dee, mine);
    await still.next((m) => activity(m) && m['groupId'] === mine);
    socket.send({ type: 'ping', id: 'p' });
    await socket.next((m) => m.type === 'pong');
    expect(socket.all('activity').filter((m) => m['groupId'] === mine)).toHaveLength(1);
  });
});
