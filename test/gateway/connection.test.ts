import { createSecretKey } from 'node:crypto';
import { createAccessTokens } from '@tally/http-kit';
import { SignJWT } from 'jose';
import { Registry } from 'prom-client';
import { Connection, MAX_BUFFERED_BYTES, PACE_BYTES } from '../../apps/gateway/src/connection';
import { createGatewayMetrics } from '../../apps/gateway/src/gateway-metrics';
import { startTestServer, TEST_JWT_SECRET, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { socketPair, TestSocket } from './ws-client';

/** Signs access tokens for the test server's secret with a lifetime of our choosing. */
const tokensFor = (ttlSeconds: number) => createAccessTokens({ secret: TEST_JWT_SECRET, ttlSeconds });
const expiryOf = (token: string): number =>
  (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }).exp * 1000;
/** A token of the test server's secret and issuer that expired a minute ago. */
const signExpired = (userId: string) => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer('tally')
    .setAudience('tally')
    .setIssuedAt(now - 3600)
    .setExpirationTime(now - 60)
    .sign(createSecretKey(Buffer.from(TEST_JWT_SECRET, 'utf8')));
};
/** Resolves once the wall clock is past `epochMs`. */
const clockPast = (epochMs: number) =>
  until(() => Date.now() > epochMs, { what: `the clock to pass ${new Date(epochMs).toISOString()}` });

describe('a connection', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  const sockets: TestSocket[] = [];
  const open = async (token: string) => {
    const socket = await TestSocket.open(t.url, token);
    sockets.push(socket);
    await socket.next((m) => m.type === 'welcome');
    return socket;
  };

  beforeAll(async () => {
    t = await startTestServer({ env: { WS_MAX_MESSAGES_PER_SECOND: '20' } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t.stop();
  });

  describe('for the life of its access token', () => {
    it('is closed with 4401 when the token it was opened with expires', async () => {
      // Two seconds at least (exp is in whole seconds) to open the socket and be answered.
      const token = await tokensFor(3).sign(ada.id);
      const socket = await open(token);
      socket.send({ type: 'ping', id: 'p' });
      await socket.next((m) => m.type === 'pong');
      expect(await socket.closeCode()).toBe(4401);
      expect(socket.closedAt).toBeGreaterThanOrEqual(expiryOf(token));
    });

    it('moves the deadline to a fresh token of the same user sent in an auth message', async () => {
      const first = await tokensFor(3).sign(ada.id);
      const socket = await open(first);
      const fresh = await tokensFor(5).sign(ada.id);
      socket.send({ type: 'auth', id: 'a1', accessToken: fresh });
      expect(await socket.next((m) => m.type === 'authenticated')).toEqual({
        type: 'authenticated',
        id: 'a1',
        expiresAt: new Date(expiryOf(fresh)).toISOString(),
      });
      // The fresh token's expiry ends it, not the first's (two seconds earlier at least): a lower
      // bound on when it closed, which no slow machine can break.
      expect(expiryOf(fresh)).toBeGreaterThan(expiryOf(first));
      expect(await socket.closeCode()).toBe(4401);
      expect(socket.closedAt).toBeGreaterThanOrEqual(expiryOf(fresh));
    });

    it('answers an invalid or another user’s token with unauthenticated, and keeps the old deadline', async () => {
      const first = await tokensFor(4).sign(ada.id);
      const socket = await open(first);
      socket.send({ type: 'auth', id: 'other', accessToken: await tokensFor(60).sign(bob.id) });
      expect(await socket.next((m) => m.type === 'error')).toEqual({
        type: 'error',
        id: 'other',
        code: 'unauthenticated',
      });
      socket.send({ type: 'auth', id: 'garbage', accessToken: 'not-a-jwt' });
      expect(await socket.next((m) => m.type === 'error')).toEqual({
        type: 'error',
        id: 'garbage',
        code: 'unauthenticated',
      });
      // Expired a minute ago: nothing to wait for while the first token's life runs out.
      const expired = await signExpired(ada.id);
      socket.send({ type: 'auth', id: 'expired', accessToken: expired });
      expect(await socket.next((m) => m.type === 'error')).toEqual({
        type: 'error',
        id: 'expired',
        code: 'unauthenticated',
      });
      expect(await socket.closeCode()).toBe(4401);
      expect(socket.closedAt).toBeGreaterThanOrEqual(expiryOf(first));
    });

    it('answers an auth message without a token string with bad_message', async () => {
      const socket = await open(ada.accessToken);
      for (const bad of [
        { type: 'auth', id: 'x' },
        { type: 'auth', accessToken: 42 },
      ]) {
        socket.send(bad);
        expect(await socket.next((m) => m.type === 'error')).toEqual({ type: 'error', code: 'bad_message' });
      }
    });
  });

  describe('sending too fast', () => {
    it('is closed with 1008 beyond WS_MAX_MESSAGES_PER_SECOND', async () => {
      const socket = await open(ada.accessToken);
      for (let i = 0; i < 60; i++) socket.send({ type: 'ping', id: `p${i}` });
      expect(await socket.closeCode()).toBe(1008);
      // Every message within the budget was answered first.
      expect(socket.all('pong').length).toBeGreaterThanOrEqual(20);
      expect(socket.all('pong').length).toBeLessThan(60);
    });

    it('is left open at a steady rate under the limit', async () => {
      const socket = await open(ada.accessToken);
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 10; j++) socket.send({ type: 'ping', id: `s${i}-${j}` });
        await socket.next((m) => m.type === 'pong' && m['id'] === `s${i}-9`);
        // the next batch goes out in the next one-second window
        await clockPast(Date.now() + 1000);
      }
      expect(socket.closedWith).toBeUndefined();
      expect(socket.all('pong')).toHaveLength(30);
    });
  });
});

describe('Connection, on its own', () => {
  const pairs: { close(): Promise<void> }[] = [];
  const connectionOn = async () => {
    const pair = await socketPair();
    pairs.push(pair);
    const metrics = createGatewayMetrics(new Registry());
    const closes: Connection[] = [];
    const conn = new Connection(pair.server, 'usr_1', { metrics, onClose: (c) => closes.push(c) });
    return { conn, client: pair.client, metrics, closes };
  };
  const frame = (n: number) => ({ type: 'event', seq: n, padding: 'x'.repeat(60_000) });
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  afterAll(async () => {
    for (const pair of pairs) await pair.close();
  });

  it('makes senders wait for room while PACE_BYTES are buffered, and lets them go as the client reads', async () => {
    const { conn, client } = await connectionOn();
    client.raw().pause();
    let sent = 0;
    while (conn.hasRoom()) expect(conn.sendFrame(JSON.stringify(frame(sent++)), 'event')).toBe(true);
    expect(conn.ws.bufferedAmount).toBeGreaterThanOrEqual(PACE_BYTES);
    expect(conn.ws.bufferedAmount).toBeLessThan(MAX_BUFFERED_BYTES);
    let roomy: boolean | undefined;
    void conn.room().then((ok) => {
      roomy = ok;
    });
    await turns(20);
    expect(roomy).toBeUndefined();
    client.raw().resume();
    await until(() => roomy === true);
    await until(() => client.messages.length === sent);
    expect(conn.drained).toBe(true);
  });

  it('closes with 1013 when a message is due with more than 1 MiB buffered, and says so once', async () => {
    const { conn, client, metrics, closes } = await connectionOn();
    client.raw().pause();
    let n = 0;
    while (conn.sendFrame(JSON.stringify(frame(n)), 'event')) n++;
    expect(conn.closed).toBe(true);
    expect(closes).toEqual([conn]);
    expect((await metrics.slowConsumerCloses.get()).values[0]?.value).toBe(1);
    let roomy: boolean | undefined;
    void conn.room().then((ok) => {
      roomy = ok;
    });
    await until(() => roomy === false);
    client.raw().resume();
    expect(await client.closeCode()).toBe(1013);
    // An in-order prefix arrived before the close.
    expect(client.messages.map((m) => m['seq'])).toEqual(
      Array.from({ length: client.messages.length }, (_, i) => i),
    );
  });

  it('closes with 4401 at the deadline of its token, which a later one moves', async () => {
    const { conn, client } = await connectionOn();
    conn.setExpiry(new Date(Date.now() + 200));
    const moved = Date.now() + 600;
    conn.setExpiry(new Date(moved));
    expect(await client.closeCode()).toBe(4401);
    expect(Date.now()).toBeGreaterThanOrEqual(moved);
  });

  it('lets the latest subscribe or unsubscribe of a group win, and counts the groups held', async () => {
    const { conn } = await connectionOn();
    const first = conn.intend('grp_a');
    expect(conn.isCurrent('grp_a', first)).toBe(true);
    expect(conn.groupCount()).toBe(1);
    const second = conn.intend('grp_a');
    expect(conn.isCurrent('grp_a', first)).toBe(false);
    conn.settle('grp_a', first); // the older one finishing does not clear the newer one
    expect(conn.holds('grp_a')).toBe(true);
    conn.settle('grp_a', second);
    expect(conn.holds('grp_a')).toBe(false);
    expect(conn.groupCount()).toBe(0);
    const third = conn.intend('grp_b');
    conn.terminate();
    expect(conn.isCurrent('grp_b', third)).toBe(false);
  });
});
