import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { registerUser, upgradeStatus } from './http';

/**
 * An API key revoked on one API process stops at once on another (API.md §2.6): every keyed
 * request looks its key up in PostgreSQL, no process keeps a copy a revoke could outlive. Two real
 * server processes (the production bundle) on one PostgreSQL and one Redis, and a gateway, which
 * does not take keys.
 */
describe('an API key revoked on one process, across the fleet', () => {
  let db: TestDatabase;
  let apis: ServerProcess[] = [];
  let gateway: ServerProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: redisUrl() };
    [apis, gateway] = await Promise.all([
      Promise.all([spawnServer({ ...env, ROLE: 'api' }), spawnServer({ ...env, ROLE: 'api' })]),
      spawnServer({ ...env, ROLE: 'gateway' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([...apis, gateway].filter(Boolean).map((p) => p.kill('SIGKILL')));
    await db?.drop();
  });

  const call = (
    base: ServerProcess,
    method: string,
    path: string,
    auth: Record<string, string>,
    body?: unknown,
  ) =>
    fetch(`${base.url}${path}`, {
      method,
      headers: { ...auth, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it('works on B until A revokes it, then B refuses it at the very next request', async () => {
    const [apiA, apiB] = apis as [ServerProcess, ServerProcess];
    const ada = await registerUser(apiA.url, 'Ada');
    const made = await call(apiA, 'POST', '/v1/me/api-keys', ada.headers, { name: 'cron', scopes: ['read'] });
    expect(made.status).toBe(201);
    const key = (await made.json()) as { id: string; secret: string };
    const withKey = { Authorization: `Bearer ${key.secret}` };

    // B serves the key (several times: anything it might remember of it, it has).
    for (let i = 0; i < 3; i++) expect((await call(apiB, 'GET', '/v1/me', withKey)).status).toBe(200);

    expect((await call(apiA, 'DELETE', `/v1/me/api-keys/${key.id}`, ada.headers)).status).toBe(204);
    const refused = await call(apiB, 'GET', '/v1/me', withKey);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('unauthenticated');
    expect((await call(apiA, 'GET', '/v1/me', withKey)).status).toBe(401);
  });

  it('the gateway does not take a key: the upgrade is refused with 401, a token’s opens', async () => {
    const [apiA] = apis as [ServerProcess];
    const bob = await registerUser(apiA.url, 'Bob');
    const made = await call(apiA, 'POST', '/v1/me/api-keys', bob.headers, { name: 'ws', scopes: ['read'] });
    const key = (await made.json()) as { secret: string };
    expect(await upgradeStatus(gateway.url, '/v1/ws', { Authorization: `Bearer ${key.secret}` })).toBe(401);
    expect(await upgradeStatus(gateway.url, '/v1/ws', bob.headers)).toBe(101);
  });
});
