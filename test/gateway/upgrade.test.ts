import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccessTokens, type VerifiedToken } from '@tally/http-kit';
import { Registry } from 'prom-client';
import { WebSocketServer } from 'ws';
import { createGatewayMetrics } from '../../apps/gateway/src/gateway-metrics';
import { createUpgradeHandler } from '../../apps/gateway/src/upgrade';
import { startTestServer, TEST_JWT_SECRET, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { TestSocket, upgradeResponse } from './ws-client';

describe('the WebSocket upgrade', () => {
  let t: TestServer;
  let ada: TestUser;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await startTestServer({ env: { WS_MAX_CONNECTIONS_PER_USER: '2' } });
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t.stop();
  });

  it('refuses a path other than /v1/ws with 404 and a bad token with 401, as problem+json', async () => {
    const wrongPath = await upgradeResponse(t.url, '/v1/other', {
      Authorization: `Bearer ${ada.accessToken}`,
    });
    expect(wrongPath.status).toBe(404);
    expect(JSON.parse(wrongPath.body)).toMatchObject({ code: 'not_found', status: 404 });
    const badToken = await upgradeResponse(t.url, '/v1/ws', { Authorization: 'Bearer garbage' });
    expect(badToken.status).toBe(401);
    expect(badToken.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(badToken.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(badToken.body)).toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  it('refuses a user’s connection beyond WS_MAX_CONNECTIONS_PER_USER with 429 rate_limited, until one closes', async () => {
    const bob = await t.register('Bob');
    const first = await TestSocket.open(t.url, ada.accessToken);
    const second = await TestSocket.open(t.url, ada.accessToken);
    sockets.push(first, second);
    const refused = await upgradeResponse(t.url, '/v1/ws', { Authorization: `Bearer ${ada.accessToken}` });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['ratelimit-limit']).toBe('2');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(JSON.parse(refused.body)).toMatchObject({
      type: '/problems/rate-limited',
      code: 'rate_limited',
      status: 429,
    });
    // Another user is not affected.
    expect(
      (await upgradeResponse(t.url, '/v1/ws', { Authorization: `Bearer ${bob.accessToken}` })).status,
    ).toBe(101);
    // A closed connection frees its slot.
    first.close();
    await first.closed;
    await until(
      async () =>
        (await upgradeResponse(t.url, '/v1/ws', { Authorization: `Bearer ${ada.accessToken}` })).status ===
        101,
    );
  });
});

describe('createUpgradeHandler, on its own', () => {
  const tokens = createAccessTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 60 });
  let server: http.Server;
  let url: string;
  let draining = false;
  let open = 0;
  const accepted: (VerifiedToken | undefined)[] = [];
  const wss = new WebSocketServer({ noServer: true });

  beforeAll(async () => {
    const handleUpgrade = createUpgradeHandler({
      tokens,
      metrics: createGatewayMetrics(new Registry()),
      isDraining: () => draining,
      maxConnectionsPerUser: 1,
      connectionsOf: () => open,
      allowQueryToken: true,
      accept: (req, socket, head, identity) => {
        accepted.push(identity);
        wss.handleUpgrade(req, socket, head, (ws) => ws.close());
      },
    });
    server = http.createServer();
    server.on('upgrade', (req, socket, head) => void handleUpgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('hands over the user and the expiry of the token, from the header before the query', async () => {
    const token = await tokens.sign('usr_header');
    const other = await tokens.sign('usr_query');
    const res = await upgradeResponse(url, `/v1/ws?access_token=${other}`, {
      Authorization: `Bearer ${token}`,
    });
    expect(res.status).toBe(101);
    const exp = (
      JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }
    ).exp;
    expect(accepted.at(-1)).toEqual({ userId: 'usr_header', expiresAt: new Date(exp * 1000) });
    expect((await upgradeResponse(url, `/v1/ws?access_token=${other}`)).status).toBe(101);
    expect(accepted.at(-1)?.userId).toBe('usr_query');
  });

  it('refuses while draining with 503 and Retry-After 1, and a user at the limit with 429', async () => {
    const token = await tokens.sign('usr_1');
    draining = true;
    const refused = await upgradeResponse(url, '/v1/ws', { Authorization: `Bearer ${token}` });
    draining = false;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'unavailable' });
    open = 1;
    const limited = await upgradeResponse(url, '/v1/ws', { Authorization: `Bearer ${token}` });
    open = 0;
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('5');
    expect(JSON.parse(limited.body)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect((await upgradeResponse(url, '/v1/ws', { Authorization: `Bearer ${token}` })).status).toBe(101);
  });
});
