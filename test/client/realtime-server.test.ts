/**
 * The realtime client of `@tally/client` against the real server: the log and live events,
 * balances and presence with the ws package, a connect timeout, a global WebSocket, a refused
 * upgrade and a connection cut mid-stream. Against a scripted socket: realtime.test.ts.
 */
import net from 'node:net';
import WebSocket from 'ws';
import {
  type BalancesUpdate,
  type GroupEvent,
  MemoryTokenStore,
  type PresenceUpdate,
  RealtimeClient,
  TallyClient,
} from '../../packages/client/src';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';

describe('realtime client against the real server', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let groupId: string;
  const clients: RealtimeClient[] = [];

  const tally = (user: TestUser) =>
    new TallyClient({
      baseUrl: t.url,
      tokenStore: new MemoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken }),
    });
  const track = (rt: RealtimeClient) => {
    clients.push(rt);
    return rt;
  };
  const addExpense = (client: TallyClient, user: TestUser, amount: number) =>
    client.expenses.create({
      groupId,
      description: 'Chai',
      amount,
      paidBy: user.id,
      split: { type: 'equal', between: [ada.id, bob.id] },
    });

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    groupId = await t.createGroup(ada, [bob]);
  });
  afterAll(async () => {
    for (const rt of clients) rt.close();
    await t.stop();
  });

  it('delivers the log from afterSeq 0, then live events, balances and presence, with the ws package', async () => {
    const client = tally(ada);
    await addExpense(client, ada, 1000);
    const rt = track(client.realtime({ WebSocket }));
    const events: GroupEvent[] = [];
    const balances: BalancesUpdate[] = [];
    const presence: PresenceUpdate[] = [];
    rt.subscribe(groupId, {
      afterSeq: 0,
      onEvent: (e) => events.push(e),
      onBalances: (b) => balances.push(b),
      onPresence: (p) => presence.push(p),
    });
    await until(() => events.length === 3); // member.added ×2, expense.created
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'member.added'],
      [2, 'member.added'],
      [3, 'expense.created'],
    ]);
    await addExpense(client, ada, 2000);
    await until(() => events.length === 4);
    const last = events[3];
    expect(last?.type).toBe('expense.created');
    if (last?.type === 'expense.created') expect(last.data.expense.amount).toBe(2000);
    expect(balances.map((b) => b.seq)).toEqual([3, 4]);
    expect(balances[1]?.currencies[0]?.members).toEqual(
      expect.arrayContaining([{ userId: bob.id, net: -1500 }]),
    );
    await until(() => presence.some((p) => p.online.includes(ada.id)));

    // Bob comes online (his token in the first message, as a browser sends it): Ada sees him in
    // the group's presence.
    const bobRt = track(tally(bob).realtime({ WebSocket, tokenIn: 'message' }));
    bobRt.subscribe(groupId);
    await until(() => presence.some((p) => p.online.includes(bob.id) && p.online.includes(ada.id)));
  });

  it('abandons a connection attempt that is never welcomed (connect timeout) and tries again', async () => {
    // A TCP server that accepts and never answers the upgrade.
    const held: net.Socket[] = [];
    const blackhole = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const { port } = blackhole.address() as net.AddressInfo;
    const rt = track(
      new RealtimeClient({
        url: `http://127.0.0.1:${port}`,
        getAccessToken: () => 't',
        WebSocket,
        connectTimeoutMs: 100,
        reconnectBaseDelayMs: 10,
      }),
    );
    const reconnects: number[] = [];
    rt.on('reconnecting', (info) => reconnects.push(info.failures));
    rt.connect();
    try {
      await until(() => reconnects.length >= 2 && held.length >= 2);
      expect(reconnects.slice(0, 2)).toEqual([1, 2]);
    } finally {
      rt.close();
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => blackhole.close(() => resolve()));
    }
  });

  it('uses a global WebSocket where one exists', async () => {
    const global = globalThis as { WebSocket?: unknown };
    const previous = global.WebSocket;
    global.WebSocket = WebSocket;
    try {
      const rt = track(tally(ada).realtime());
      const subscribed: number[] = [];
      rt.on('subscribed', (s) => subscribed.push(s.seq));
      rt.subscribe(groupId);
      await until(() => subscribed.length === 1);
      expect(rt.state).toBe('open');
    } finally {
      global.WebSocket = previous;
    }
  });

  it('refreshes the token when the upgrade is refused with 401, then connects', async () => {
    const store = new MemoryTokenStore({ accessToken: 'garbage', refreshToken: ada.refreshToken });
    const client = new TallyClient({ baseUrl: t.url, tokenStore: store });
    const rt = track(client.realtime({ WebSocket, reconnectBaseDelayMs: 10 }));
    const subscribed: number[] = [];
    rt.on('subscribed', (s) => subscribed.push(s.seq));
    rt.subscribe(groupId);
    await until(() => subscribed.length === 1);
    expect(store.get()?.accessToken).not.toBe('garbage');
    expect(rt.stats().connections).toBe(1);
  });

  it('resumes without gaps or duplicates when its connection is cut mid-stream', async () => {
    const sockets: WebSocket[] = [];
    class Tracked extends WebSocket {
      constructor(url: string, protocols?: string | string[], options?: WebSocket.ClientOptions) {
        super(url, protocols, options);
        sockets.push(this);
      }
    }
    const client = tally(bob);
    const rt = track(client.realtime({ WebSocket: Tracked, reconnectBaseDelayMs: 20 }));
    const seqs: number[] = [];
    rt.subscribe(groupId, { afterSeq: 0, onEvent: (e) => seqs.push(e.seq) });
    for (let i = 0; i < 30; i++) {
      await addExpense(client, bob, 100 + i);
      if (i % 10 === 5) sockets.at(-1)?.terminate();
    }
    const last = (await client.groups.balances(groupId)).asOfSeq;
    await until(() => seqs.length === last);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seqs).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(rt.stats().connections).toBeGreaterThanOrEqual(4);
  });
});
