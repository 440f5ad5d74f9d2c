import type { EventLog } from '@tally/events';
import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { type GatewayHarness, startGateway } from './harness';
import { TestSocket } from './ws-client';

/**
 * The subscribe flow on a gateway built beside a test server, with the event log wrapped so that a
 * test can act at an exact point: while a subscribe awaits the database.
 */
describe('subscribe', () => {
  let t: TestServer;
  let ada: TestUser;
  let carol: TestUser;
  const gateways: GatewayHarness[] = [];
  const sockets: TestSocket[] = [];
  /**
   * Runs `hook` once, the first time `method` is called for the group: after the real call answered
   * for `isMember` (the answer is then stale), before it for `lastSeq` (the answer sees the hook's work).
   */
  const pauseOnce = (
    method: 'isMember' | 'lastSeq',
    match: (groupId: string, userId?: string) => boolean,
    hook: () => Promise<void>,
  ) => {
    let done = false;
    const once = async (g: string, userId?: string) => {
      if (done || !match(g, userId)) return;
      done = true;
      await hook();
    };
    return (log: EventLog): EventLog =>
      method === 'isMember'
        ? {
            ...log,
            isMember: async (g, userId) => {
              const answer = await log.isMember(g, userId);
              await once(g, userId);
              return answer;
            },
          }
        : {
            ...log,
            lastSeq: async (g) => {
              await once(g);
              return log.lastSeq(g);
            },
          };
  };
  const gatewayWith = async (options: Parameters<typeof startGateway>[1]) => {
    const g = await startGateway(t, options);
    gateways.push(g);
    return g;
  };
  const open = async (g: GatewayHarness, user: TestUser) => {
    const socket = await TestSocket.open(g.url, user.accessToken);
    sockets.push(socket);
    await socket.next((m) => m.type === 'welcome');
    return socket;
  };
  const addExpense = (groupId: string, amount = 100) =>
    t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Tea',
        amount,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      })
      .expect(201);
  const removeCarol = (groupId: string) =>
    t.request.delete(`/v1/groups/${groupId}/members/${carol.id}`).set(ada.auth).expect(204);
  const lastSeq = async (groupId: string) =>
    Number((await t.db!.knex('groups').where({ id: groupId }).first('last_seq')).last_seq);

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    carol = await t.register('Carol');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const g of gateways) await g.close();
    await t.stop();
  });

  describe('when the member is removed while it awaits the database', () => {
    it.each([
      ['the membership check', 'isMember', false],
      ['the group’s position, on a new feed', 'lastSeq', false],
      ['the membership check, with the group’s feed already live', 'isMember', true],
    ] as const)(
      'gets nothing of the group after the removal (removed during %s)',
      async (_what, method, warm) => {
        let groupId = '';
        let watcher: TestSocket | undefined;
        let removed = false;
        const removedAt = 3; // 1 created, 2 carol added, 3 carol removed
        const g = await gatewayWith({
          eventLog: pauseOnce(
            method,
            (g, userId) => g === groupId && (userId === undefined || userId === carol.id),
            async () => {
              await removeCarol(groupId);
              // A live feed learns of the removal before the subscription starts.
              if (warm) await watcher?.next((m) => m.type === 'event' && m['seq'] === removedAt);
              removed = true;
            },
          ),
        });
        groupId = await t.createGroup(ada, [carol]);
        watcher = await open(g, ada);
        if (warm) {
          watcher.send({ type: 'subscribe', id: 'w', groupId });
          await watcher.next((m) => m.type === 'subscribed');
        }
        const socket = await open(g, carol);
        socket.send({ type: 'subscribe', id: 'c', groupId });
        await socket.next((m) => m['id'] === 'c' || m.type === 'unsubscribed');
        expect(removed).toBe(true);
        expect(await lastSeq(groupId)).toBe(removedAt);
        // Later writes reach a member on the same gateway, and never the removed one.
        if (!warm) {
          watcher.send({ type: 'subscribe', id: 'w', groupId });
          await watcher.next((m) => m.type === 'subscribed');
        }
        await addExpense(groupId);
        await watcher.next((m) => m.type === 'event' && m['seq'] === removedAt + 1);
        socket.send({ type: 'ping', id: 'sync' });
        await socket.next((m) => m.type === 'pong');
        expect(socket.seqs(groupId).every((seq) => seq <= removedAt)).toBe(true);
        const answer = socket.messages.find((m) => m['id'] === 'c');
        if (answer?.type === 'error') expect(answer).toEqual({ type: 'error', id: 'c', code: 'not_found' });
        else
          expect(socket.all('unsubscribed', groupId)).toEqual([
            { type: 'unsubscribed', groupId, reason: 'removed' },
          ]);
      },
    );
  });

  it('answers afterSeq beyond the group’s current seq with bad_message', async () => {
    const g = await gatewayWith({});
    const groupId = await t.createGroup(ada);
    const socket = await open(g, ada);
    socket.send({ type: 'subscribe', id: 'far', groupId, afterSeq: 99 });
    expect(await socket.next((m) => m['id'] === 'far')).toEqual({
      type: 'error',
      id: 'far',
      code: 'bad_message',
    });
    // At the head exactly is fine: nothing to catch up on.
    socket.send({ type: 'subscribe', id: 'head', groupId, afterSeq: 1 });
    expect(await socket.next((m) => m['id'] === 'head')).toEqual({
      type: 'subscribed',
      id: 'head',
      groupId,
      seq: 1,
    });
    expect(await g.metric('ws_subscriptions')).toBe(1);
  });

  it('leaves no subscription, presence entry or feed behind when the socket closes while it awaits the database', async () => {
    for (const method of ['isMember', 'lastSeq'] as const) {
      let groupId = '';
      let socket: TestSocket | undefined;
      let g: GatewayHarness | undefined;
      let resumed = false;
      g = await gatewayWith({
        eventLog: pauseOnce(
          method,
          (g) => g === groupId,
          async () => {
            socket?.ws.terminate();
            // The gateway has seen the close (only the watcher is left) before the subscribe goes on.
            await until(() => g?.gateway.connectionCount() === 1);
            resumed = true;
          },
        ),
      });
      groupId = await t.createGroup(ada);
      const watcher = await open(g, ada);
      socket = await open(g, ada);
      socket.send({ type: 'subscribe', id: 's', groupId });
      await socket.closed;
      await until(() => resumed);
      // Several heartbeats later (each would refresh a leftover presence entry), nothing is left.
      await watcher.heartbeats(4);
      expect(await g.metric('ws_subscriptions')).toBe(0);
      expect(await g.metric('ws_feeds')).toBe(0);
      expect(await g.presenceKeys()).toEqual([]);
      expect(await g.metric('ws_connections')).toBe(1);
    }
  });

  it('answers a subscription beyond WS_MAX_SUBSCRIPTIONS_PER_CONNECTION with limit_exceeded', async () => {
    const g = await gatewayWith({ limits: { maxSubscriptionsPerConnection: 2 } });
    const groups = [await t.createGroup(ada), await t.createGroup(ada), await t.createGroup(ada)];
    const [one, two, three] = groups as [string, string, string];
    const socket = await open(g, ada);
    socket.send({ type: 'subscribe', id: '1', groupId: one });
    socket.send({ type: 'subscribe', id: '2', groupId: two });
    socket.send({ type: 'subscribe', id: '3', groupId: three });
    expect(await socket.next((m) => m['id'] === '3')).toEqual({
      type: 'error',
      id: '3',
      code: 'limit_exceeded',
    });
    await socket.next((m) => m.type === 'subscribed' && m['id'] === '2');
    // Subscribing again to a subscribed group replaces it and is not one more.
    socket.send({ type: 'subscribe', id: '1b', groupId: one });
    await socket.next((m) => m.type === 'subscribed' && m['id'] === '1b');
    socket.send({ type: 'unsubscribe', id: 'u', groupId: two });
    await socket.next((m) => m.type === 'unsubscribed');
    socket.send({ type: 'subscribe', id: '3b', groupId: three });
    expect(await socket.next((m) => m['id'] === '3b')).toMatchObject({ type: 'subscribed', groupId: three });
    expect(await g.metric('ws_subscriptions')).toBe(2);
  });
});
