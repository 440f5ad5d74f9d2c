import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { TestSocket, upgradeResponse } from './ws-client';

/**
 * API.md §8 credentials: the token in the `Authorization` header at the upgrade, or in the first
 * `auth` message of a connection opened without one (within WS_AUTH_TIMEOUT_MS); `?access_token=`
 * only with WS_ALLOW_QUERY_TOKEN=true (by default only on the single embedded node).
 */
describe('WebSocket credentials', () => {
  let t: TestServer;
  let ada: TestUser;
  const sockets: TestSocket[] = [];
  const track = (s: TestSocket) => {
    sockets.push(s);
    return s;
  };

  beforeAll(async () => {
    // A server with a database (not the embedded default): the URL token is off.
    t = await startTestServer({ env: { WS_AUTH_TIMEOUT_MS: '400', WS_MAX_CONNECTIONS_PER_USER: '2' } });
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t.stop();
  });

  it('refuses ?access_token= by default with 401, saying why', async () => {
    const res = await upgradeResponse(t.url, `/v1/ws?access_token=${ada.accessToken}`);
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(res.body) as { code: string; detail: string };
    expect(problem.code).toBe('unauthenticated');
    expect(problem.detail).toMatch(/WS_ALLOW_QUERY_TOKEN/);
    // Even beside a good header: the token has been in a URL.
    const both = await upgradeResponse(t.url, `/v1/ws?access_token=${ada.accessToken}`, {
      Authorization: `Bearer ${ada.accessToken}`,
    });
    expect(both.status).toBe(401);
  });

  it('accepts the token in the Authorization header: welcome at once', async () => {
    const socket = track(await TestSocket.open(t.url, ada.accessToken));
    expect(await socket.next()).toMatchObject({ type: 'welcome', userId: ada.id });
  });

  it('accepts the token in the first auth message: authenticated, welcome, then subscriptions and events', async () => {
    const groupId = await t.createGroup(ada);
    const socket = track(await TestSocket.open(t.url, undefined));
    socket.send({ type: 'auth', id: 'a1', accessToken: ada.accessToken });
    const authenticated = await socket.next();
    expect(authenticated).toMatchObject({ type: 'authenticated', id: 'a1' });
    expect(Date.parse(authenticated['expiresAt'] as string)).toBeGreaterThan(Date.now());
    expect(await socket.next()).toMatchObject({ type: 'welcome', userId: ada.id });
    socket.send({ type: 'subscribe', id: 's1', groupId });
    const subscribed = await socket.next((m) => m.type === 'subscribed');
    expect(subscribed).toMatchObject({ groupId });
    await t.postOwnExpense(ada, groupId, randomUUID()).expect(201);
    const event = await socket.next((m) => m.type === 'event');
    expect(event).toMatchObject({ groupId, seq: (subscribed['seq'] as number) + 1 });
    // Past the auth deadline it stays open: the deadline is now the token's expiry.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(socket.closedWith).toBeUndefined();
  });

  it('lets messages sent right behind the auth wait for it (pipelined)', async () => {
    const cy = await t.register('Cy');
    const socket = track(await TestSocket.open(t.url, undefined));
    socket.send({ type: 'auth', id: 'a', accessToken: cy.accessToken });
    socket.send({ type: 'ping', id: 'p' });
    expect((await socket.next((m) => m.type === 'pong'))['id']).toBe('p');
    expect(socket.all('welcome')).toHaveLength(1);
  });

  it('closes a connection that does not authenticate within WS_AUTH_TIMEOUT_MS with 4401', async () => {
    const socket = track(await TestSocket.open(t.url, undefined));
    const opened = Date.now();
    expect(await socket.closeCode()).toBe(4401);
    expect(socket.closedWith?.reason).toBe('authentication timeout');
    expect((socket.closedAt ?? 0) - opened).toBeGreaterThanOrEqual(300);
    expect(socket.messages).toEqual([]);
  });

  it('closes with 4401 on any other message before auth, and on a bad token in auth', async () => {
    const early = track(await TestSocket.open(t.url, undefined));
    early.send({ type: 'ping', id: 'p' });
    expect(await early.closeCode()).toBe(4401);
    expect(early.closedWith?.reason).toBe('authentication required');
    expect(early.messages).toEqual([]);

    const garbage = track(await TestSocket.open(t.url, undefined));
    garbage.send('not json');
    expect(await garbage.closeCode()).toBe(4401);

    const badToken = track(await TestSocket.open(t.url, undefined));
    badToken.send({ type: 'auth', id: 'a', accessToken: 'not-a-jwt' });
    expect(await badToken.closeCode()).toBe(4401);
    expect(badToken.closedWith?.reason).toBe('invalid token');
  });

  it('applies the per-user connection limit when the connection authenticates: 1008', async () => {
    const bob = await t.register('Bob');
    const first = track(await TestSocket.open(t.url, bob.accessToken));
    const second = track(await TestSocket.open(t.url, undefined));
    second.send({ type: 'auth', accessToken: bob.accessToken });
    await second.next((m) => m.type === 'welcome');
    // Unauthenticated connections count for nobody: this one opens although Bob is at his limit.
    const third = track(await TestSocket.open(t.url, undefined));
    third.send({ type: 'auth', accessToken: bob.accessToken });
    expect(await third.closeCode()).toBe(1008);
    expect(third.closedWith?.reason).toBe('too many connections');
    const metrics = await t.request.get('/metrics');
    expect(metrics.text).toMatch(/ws_limit_hits_total\{limit="connections"\} [1-9]/);
    first.close();
  });
});

describe('WebSocket credentials with WS_ALLOW_QUERY_TOKEN=true', () => {
  let t: TestServer;
  let ada: TestUser;

  beforeAll(async () => {
    t = await startTestServer({ env: { WS_ALLOW_QUERY_TOKEN: 'true' } });
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('accepts ?access_token=', async () => {
    const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/v1/ws?access_token=${ada.accessToken}`);
    const socket = new TestSocket(ws);
    expect(await socket.next()).toMatchObject({ type: 'welcome', userId: ada.id });
    socket.close();
    expect((await upgradeResponse(t.url, '/v1/ws?access_token=garbage')).status).toBe(401);
  });
});
