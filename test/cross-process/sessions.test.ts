import { TestSocket } from '../gateway/ws-client';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { uniqueEmail } from '../support/test-server';
import { until } from '../support/until';

type Pair = { accessToken: string; refreshToken: string };

/**
 * Signing a device out across processes (API.md §2, §8): two API processes and a gateway on one
 * PostgreSQL and one Redis. The API that ends the session refuses its access token at once, the
 * other within ACCOUNT_STATUS_TTL_MS, and the gateway hears `session.revoked` on the Redis bus and
 * closes that session's socket with 4401 while the same user's other session stays connected.
 */
describe('a session signed out on one API process, across the fleet', () => {
  let db: TestDatabase;
  let apis: ServerProcess[] = [];
  let gateway: ServerProcess;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: redisUrl(), ACCOUNT_STATUS_TTL_MS: '1000' };
    [apis, gateway] = await Promise.all([
      Promise.all([spawnServer({ ...env, ROLE: 'api' }), spawnServer({ ...env, ROLE: 'api' })]),
      spawnServer({ ...env, ROLE: 'gateway' }),
    ]);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([...apis, gateway].filter(Boolean).map((p) => p.kill('SIGKILL')));
    await db?.drop();
  });

  const call = (base: ServerProcess, method: string, path: string, token?: string, body?: unknown) =>
    fetch(`${base.url}${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  const open = async (token: string) => {
    const socket = await TestSocket.open(gateway.url, token);
    sockets.push(socket);
    await socket.next((m) => m.type === 'welcome');
    return socket;
  };

  it('closes the signed-out session’s socket with 4401 and refuses its tokens; the other session goes on', async () => {
    const [apiA, apiB] = apis as [ServerProcess, ServerProcess];
    const email = uniqueEmail('Fleet');
    const registered = await call(apiA, 'POST', '/v1/auth/register', undefined, {
      email,
      name: 'Fleet',
      password: 'correct horse battery',
    });
    expect(registered.status).toBe(201);
    const laptop = (await registered.json()) as Pair;
    const loggedIn = await call(apiB, 'POST', '/v1/auth/login', undefined, {
      email,
      password: 'correct horse battery',
    });
    expect(loggedIn.status).toBe(200);
    const phone = (await loggedIn.json()) as Pair;

    const laptopSocket = await open(laptop.accessToken);
    const phoneSocket = await open(phone.accessToken);
    // API B has seen the phone's session live (and caches that).
    expect((await call(apiB, 'GET', '/v1/me', phone.accessToken)).status).toBe(200);

    const listed = (await (await call(apiA, 'GET', '/v1/me/sessions', laptop.accessToken)).json()) as {
      data: { id: string; current: boolean }[];
    };
    expect(listed.data).toHaveLength(2);
    const phoneSession = listed.data.find((s) => !s.current);
    expect(phoneSession).toBeDefined();

    const revoked = await call(apiA, 'DELETE', `/v1/me/sessions/${phoneSession?.id}`, laptop.accessToken);
    expect(revoked.status).toBe(204);

    // The gateway, another process, heard it through Redis.
    expect(await phoneSocket.closeCode(10_000)).toBe(4401);
    expect(phoneSocket.closedWith?.reason).toBe('session revoked');
    await expect(TestSocket.open(gateway.url, phone.accessToken)).rejects.toThrow(/401/);
    // API A at once; API B within ACCOUNT_STATUS_TTL_MS (1 s here).
    expect((await call(apiA, 'GET', '/v1/me', phone.accessToken)).status).toBe(401);
    await until(async () => (await call(apiB, 'GET', '/v1/me', phone.accessToken)).status === 401, {
      what: 'API B refuses the signed-out session’s access token',
      timeoutMs: 10_000,
    });
    expect(
      (await call(apiB, 'POST', '/v1/auth/refresh', undefined, { refreshToken: phone.refreshToken })).status,
    ).toBe(401);

    // The laptop's session is untouched everywhere.
    expect(laptopSocket.closedWith).toBeUndefined();
    laptopSocket.send({ type: 'ping', id: 'still-here' });
    expect(await laptopSocket.next((m) => m.type === 'pong')).toMatchObject({ id: 'still-here' });
    expect((await call(apiB, 'GET', '/v1/me', laptop.accessToken)).status).toBe(200);

    // Sign out everywhere: the laptop's socket closes too.
    expect((await call(apiB, 'POST', '/v1/auth/logout-all', laptop.accessToken)).status).toBe(204);
    expect(await laptopSocket.closeCode(10_000)).toBe(4401);
    expect((await call(apiB, 'GET', '/v1/me', laptop.accessToken)).status).toBe(401);
  });

  it('answers parallel refreshes of one token on both API processes with one successor: one chain per session', async () => {
    const [apiA, apiB] = apis as [ServerProcess, ServerProcess];
    const registered = await call(apiA, 'POST', '/v1/auth/register', undefined, {
      email: uniqueEmail('Chain'),
      name: 'Chain',
      password: 'correct horse battery',
    });
    expect(registered.status).toBe(201);
    const { refreshToken } = (await registered.json()) as Pair;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(i % 2 === 0 ? apiA : apiB, 'POST', '/v1/auth/refresh', undefined, { refreshToken }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const pairs = (await Promise.all(answers.map((a) => a.json()))) as Pair[];
    expect(new Set(pairs.map((p) => p.refreshToken)).size).toBe(1);
    // Each access token answered works on either process.
    for (const [i, pair] of pairs.entries()) {
      expect((await call(i % 2 === 0 ? apiB : apiA, 'GET', '/v1/me', pair.accessToken)).status).toBe(200);
    }
    // The one successor refreshes on the other process, and the chain goes on.
    const next = await call(apiB, 'POST', '/v1/auth/refresh', undefined, {
      refreshToken: pairs[0]?.refreshToken,
    });
    expect(next.status).toBe(200);
  });
});
