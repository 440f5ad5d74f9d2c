/**
 * The realtime client of `@tally/client` against a scripted socket (the test plays the server):
 * the token where it goes, subscriptions and their seq order, duplicates and gaps, reconnects and
 * their backoff, ended subscriptions, heartbeats and the token of the open connection. Against the
 * real server: realtime-server.test.ts.
 */
import { type BalancesUpdate, type ClientMessage, RealtimeClient } from '../../packages/client/src';
import { until } from '../support/until';

/** A scripted stand-in for a WebSocket: the test plays the server. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  readyState = 0;
  readonly sent: ClientMessage[] = [];
  closedWith: number | undefined;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  onopen: ((event: unknown) => void) | null = null;

  constructor(
    readonly url: string,
    _protocols?: string | string[],
    readonly options?: { headers?: Record<string, string> },
  ) {
    FakeSocket.instances.push(this);
  }
  /** The socket opened (before any message). */
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as ClientMessage);
  }
  close(code?: number): void {
    this.readyState = 3;
    this.closedWith = code;
  }
  welcome(heartbeatMs = 60_000): void {
    this.readyState = 1;
    this.receive({ type: 'welcome', connectionId: 'c', userId: 'usr_1', heartbeatMs });
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  event(groupId: string, seq: number): void {
    const event = {
      id: `evt_${seq}`,
      seq,
      type: 'expense.created',
      groupId,
      actorId: 'usr_1',
      occurredAt: '2026-11-25T10:00:00.000Z',
      data: { expense: { id: `exp_${seq}` }, balances: [{ currency: 'INR', members: [], simplified: [] }] },
    };
    this.receive({ type: 'event', groupId, seq, event });
  }
  serverClose(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

describe('realtime client, scripted socket', () => {
  /** Every client a test made, closed after it even when it failed (else it reconnects into the next test's sockets). */
  const opened: RealtimeClient[] = [];
  beforeEach(() => {
    FakeSocket.instances = [];
  });
  afterEach(() => {
    for (const rt of opened.splice(0)) rt.close();
  });
  const scripted = (options: ConstructorParameters<typeof RealtimeClient>[0]) => {
    const rt = new RealtimeClient(options);
    opened.push(rt);
    return rt;
  };

  const newClient = () =>
    scripted({
      url: 'https://api.example.com',
      getAccessToken: () => 'tok en',
      WebSocket: FakeSocket,
      tokenIn: 'query',
      random: () => 0,
    });
  const latest = () => FakeSocket.instances.at(-1) as FakeSocket;

  it('by default sends the token in the Authorization header where the WebSocket option can set one', async () => {
    const rt = scripted({
      url: 'https://api.example.com',
      getAccessToken: () => 'tok',
      WebSocket: FakeSocket,
    });
    rt.connect();
    await until(() => FakeSocket.instances.length === 1);
    expect(latest().url).toBe('wss://api.example.com/v1/ws');
    expect(latest().options?.headers).toEqual({ Authorization: 'Bearer tok' });
    rt.close();
  });

  it("with tokenIn 'message' opens without a token and sends auth first, then subscribes after the welcome", async () => {
    const rt = scripted({
      url: 'https://api.example.com',
      getAccessToken: () => 'tok',
      WebSocket: FakeSocket,
      tokenIn: 'message',
    });
    rt.subscribe('grp_1', { afterSeq: 0 });
    await until(() => FakeSocket.instances.length === 1);
    expect(latest().url).toBe('wss://api.example.com/v1/ws');
    expect(latest().options?.headers).toBeUndefined();
    latest().open();
    expect(latest().sent).toEqual([{ type: 'auth', id: expect.any(String), accessToken: 'tok' }]);
    const authId = latest().sent[0]?.id;
    latest().receive({ type: 'authenticated', id: authId, expiresAt: '2099-01-01T00:00:00.000Z' });
    expect(latest().sent).toHaveLength(1);
    latest().welcome();
    expect(latest().sent.slice(1)).toEqual([
      { type: 'subscribe', id: expect.any(String), groupId: 'grp_1', afterSeq: 0 },
    ]);
    rt.close();
  });

  it('connects to /v1/ws with the token, subscribes after the welcome, and delivers in seq order', async () => {
    const rt = newClient();
    const seen: number[] = [];
    const balances: BalancesUpdate[] = [];
    rt.subscribe('grp_1', {
      afterSeq: 0,
      onEvent: (e) => seen.push(e.seq),
      onBalances: (b) => balances.push(b),
    });
    await until(() => FakeSocket.instances.length === 1);
    expect(latest().url).toBe('wss://api.example.com/v1/ws?access_token=tok%20en');
    expect(latest().sent).toEqual([]);
    latest().welcome();
    expect(latest().sent).toEqual([
      { type: 'subscribe', id: expect.any(String), groupId: 'grp_1', afterSeq: 0 },
    ]);
    latest().event('grp_1', 1);
    latest().event('grp_1', 2);
    expect(seen).toEqual([1, 2]);
    expect(balances.map((b) => b.seq)).toEqual([1, 2]);
    expect(balances[0]?.currencies[0]?.currency).toBe('INR');
    rt.close();
  });

  it('drops duplicates by seq and, after a gap, resubscribes from the last delivered seq instead of skipping ahead', async () => {
    const rt = newClient();
    const seen: number[] = [];
    rt.on('event', (e) => seen.push(e.seq));
    rt.subscribe('grp_1', { afterSeq: 0 });
    await until(() => FakeSocket.instances.length === 1);
    const socket = latest();
    socket.welcome();
    socket.event('grp_1', 1);
    socket.event('grp_1', 2);
    socket.event('grp_1', 2);
    socket.event('grp_1', 1);
    socket.event('grp_1', 4); // 3 is missing
    socket.event('grp_1', 5);
    expect(seen).toEqual([1, 2]);
    const resubscribe = socket.sent.at(-1);
    expect(resubscribe).toMatchObject({ type: 'subscribe', groupId: 'grp_1', afterSeq: 2 });
    // The server answers the resubscription with what came after 2.
    socket.event('grp_1', 3);
    socket.event('grp_1', 4);
    socket.event('grp_1', 5);
    socket.receive({ type: 'subscribed', id: (resubscribe as { id: string }).id, groupId: 'grp_1', seq: 5 });
    socket.event('grp_1', 6);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rt.stats()).toMatchObject({ delivered: 6, duplicatesDropped: 2, gapsRepaired: 1 });
    rt.close();
  });

  it('reconnects after the server closes and resubscribes every group with afterSeq = the last seq delivered', async () => {
    const rt = newClient();
    const seen: string[] = [];
    const states: string[] = [];
    rt.on('state', (s) => states.push(s));
    rt.on('event', (e) => seen.push(`${e.groupId}:${e.seq}`));
    rt.subscribe('grp_a', { afterSeq: 0 });
    rt.subscribe('grp_b'); // live only: the server says where it starts
    await until(() => FakeSocket.instances.length === 1);
    const first = latest();
    first.welcome();
    first.event('grp_a', 1);
    first.event('grp_a', 2);
    first.receive({ type: 'subscribed', groupId: 'grp_b', seq: 40 });
    first.event('grp_b', 41);
    first.serverClose(1012);

    await until(() => FakeSocket.instances.length === 2);
    const second = latest();
    second.welcome();
    expect(second.sent).toEqual([
      { type: 'subscribe', id: expect.any(String), groupId: 'grp_a', afterSeq: 2 },
      { type: 'subscribe', id: expect.any(String), groupId: 'grp_b', afterSeq: 41 },
    ]);
    // A replay of something already delivered is dropped.
    second.event('grp_a', 2);
    second.event('grp_a', 3);
    expect(seen).toEqual(['grp_a:1', 'grp_a:2', 'grp_b:41', 'grp_a:3']);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open']);
    expect(rt.lastSeq('grp_a')).toBe(3);
    rt.close();
    expect(second.closedWith).toBe(1000);
    expect(rt.state).toBe('closed');
  });

  it('backs off in growing full-jitter windows while connections fail before the welcome, and resets after one', async () => {
    const delays: number[] = [];
    const rt = scripted({
      url: 'http://localhost:1',
      getAccessToken: () => 't',
      WebSocket: FakeSocket,
      reconnectBaseDelayMs: 1,
      maxReconnectDelayMs: 8,
      random: () => 0.999,
    });
    rt.on('reconnecting', (info) => delays.push(info.delayMs));
    rt.connect();
    for (let i = 1; i <= 5; i++) {
      await until(() => FakeSocket.instances.length === i);
      latest().serverClose(1006);
    }
    await until(() => FakeSocket.instances.length === 6);
    // Windows 1, 2, 4, 8, 8 ms (capped) scaled by the jitter draw 0.999.
    expect(delays).toEqual([0, 1, 3, 7, 7]);
    latest().welcome();
    latest().serverClose(1012);
    await until(() => FakeSocket.instances.length === 7);
    expect(delays.at(-1)).toBe(0); // a welcomed connection resets the backoff
    rt.close();
  });

  it('ends a subscription when the member is removed or the group is not visible', async () => {
    const rt = newClient();
    const ended: string[] = [];
    rt.subscribe('grp_gone', { onEnded: (reason) => ended.push(`gone:${reason}`) });
    rt.subscribe('grp_secret', { onEnded: (reason) => ended.push(`secret:${reason}`) });
    await until(() => FakeSocket.instances.length === 1);
    const socket = latest();
    socket.welcome();
    const secret = socket.sent.find((m) => m.type === 'subscribe' && m.groupId === 'grp_secret');
    socket.receive({ type: 'unsubscribed', groupId: 'grp_gone', reason: 'removed' });
    socket.receive({ type: 'error', id: secret?.id, code: 'not_found' });
    expect(ended).toEqual(['gone:removed', 'secret:not_found']);
    expect(rt.lastSeq('grp_gone')).toBeUndefined();
    socket.serverClose(1012);
    await until(() => FakeSocket.instances.length === 2);
    latest().welcome();
    expect(latest().sent).toEqual([]);
    rt.close();
  });

  it('drops a silent connection after two heartbeat intervals and reconnects', async () => {
    const rt = scripted({
      url: 'http://x',
      getAccessToken: () => 't',
      WebSocket: FakeSocket,
      random: () => 0,
      heartbeatMs: 20,
    });
    rt.subscribe('grp_1', { afterSeq: 0 });
    await until(() => FakeSocket.instances.length === 1);
    const first = latest();
    first.welcome();
    // The first socket's: on a slow poll the client may have given up on it and opened the next one.
    await until(() => first.sent.some((m) => m.type === 'ping'));
    // No pong, nothing at all: the client gives up on this socket and opens another.
    await until(() => FakeSocket.instances.length === 2);
    expect(FakeSocket.instances[0]?.closedWith).toBe(4000);
    rt.close();
  });

  describe('the access token of the open connection', () => {
    /** An unsigned JWT-shaped token expiring in `seconds` (the client reads `exp`; only the server verifies). */
    const jwt = (name: string, seconds: number) => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const exp = Math.floor(Date.now() / 1000) + seconds;
      return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'usr_1', exp, name })}.signature`;
    };
    const sentOf = (socket: FakeSocket, type: string) =>
      (socket.sent as unknown as { type: string; id: string; accessToken?: string }[]).filter(
        (m) => m.type === type,
      );

    it('sends a fresh token with auth before the current one expires, asking for a refresh when handed the same one', async () => {
      const first = jwt('first', 2);
      const fresh = jwt('fresh', 60);
      const asked: { rejectedToken?: string }[] = [];
      const rt = scripted({
        url: 'https://api.example.com',
        getAccessToken: (context) => {
          asked.push(context);
          return context.rejectedToken === first ? fresh : first;
        },
        WebSocket: FakeSocket,
        random: () => 0,
      });
      rt.subscribe('grp_1', { afterSeq: 0 });
      await until(() => FakeSocket.instances.length === 1);
      const socket = latest();
      socket.welcome();
      await until(() => sentOf(socket, 'auth').length === 1);
      const auth = sentOf(socket, 'auth')[0];
      expect(auth).toEqual({ type: 'auth', id: expect.any(String), accessToken: fresh });
      expect(asked).toEqual([{}, {}, { rejectedToken: first }]);
      socket.receive({
        type: 'authenticated',
        id: auth?.id,
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      expect(rt.stats().reauthenticated).toBe(1);
      // Still the one connection; a later reconnect would present the fresh token.
      expect(FakeSocket.instances).toHaveLength(1);
      socket.serverClose(1012);
      await until(() => FakeSocket.instances.length === 2);
      expect(asked.at(-1)).toEqual({});
      rt.close();
    });

    it('reconnects with a refreshed token when the server closes with 4401', async () => {
      const asked: { rejectedToken?: string }[] = [];
      const rt = scripted({
        url: 'https://api.example.com',
        getAccessToken: (context) => {
          asked.push(context);
          return context.rejectedToken ? 'refreshed' : 'stale';
        },
        WebSocket: FakeSocket,
        tokenIn: 'query',
        random: () => 0,
      });
      rt.subscribe('grp_1', { afterSeq: 0 });
      await until(() => FakeSocket.instances.length === 1);
      latest().welcome();
      latest().event('grp_1', 1);
      latest().serverClose(4401);
      await until(() => FakeSocket.instances.length === 2);
      expect(asked).toEqual([{}, { rejectedToken: 'stale' }]);
      expect(latest().url).toContain('access_token=refreshed');
      latest().welcome();
      expect(latest().sent).toEqual([
        { type: 'subscribe', id: expect.any(String), groupId: 'grp_1', afterSeq: 1 },
      ]);
      rt.close();
    });

    it('reports a fresh token the server refuses, and refreshes after the 4401 that follows', async () => {
      const first = jwt('first', 1);
      const other = jwt('other', 60);
      const asked: { rejectedToken?: string }[] = [];
      const errors: string[] = [];
      const rt = scripted({
        url: 'https://api.example.com',
        getAccessToken: (context) => {
          asked.push(context);
          return asked.length === 1 ? first : other;
        },
        WebSocket: FakeSocket,
        random: () => 0,
      });
      rt.on('error', (e) => errors.push(e.code));
      rt.connect();
      await until(() => FakeSocket.instances.length === 1);
      const socket = latest();
      socket.welcome();
      await until(() => sentOf(socket, 'auth').length === 1);
      socket.receive({ type: 'error', id: sentOf(socket, 'auth')[0]?.id, code: 'unauthenticated' });
      expect(errors).toEqual(['unauthenticated']);
      socket.serverClose(4401);
      await until(() => FakeSocket.instances.length === 2);
      expect(asked.at(-1)).toEqual({ rejectedToken: other });
      rt.close();
    });
  });
});
