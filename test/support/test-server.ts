/**
 * Starts the real Tally server in-process on port 0 against a fresh, migrated test database, and
 * gives tests a small request helper plus shortcuts for the common setup (users, groups).
 *
 *   const server = await startTestServer();
 *   const ada = await server.register('Ada');
 *   const res = await server.request.post('/v1/groups').set(ada.auth).send({ name: 'Trip' });
 *   ...
 *   await server.stop();   // in afterAll: stops the server and drops its database
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type RunningServer, start } from '@tally/server';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from './test-database';

export type TestUser = {
  id: string;
  email: string;
  name: string;
  accessToken: string;
  refreshToken: string;
  /** `{ Authorization: 'Bearer …' }`, for `.set(user.auth)`. */
  auth: Record<string, string>;
};

export type TestServer = {
  url: string;
  server: RunningServer;
  db: TestDatabase | undefined;
  request: ReturnType<typeof request.agent>;
  register(name?: string): Promise<TestUser>;
  createGroup(owner: TestUser, members?: TestUser[], body?: Record<string, unknown>): Promise<string>;
  /**
   * A keyed `POST /v1/expenses` by `payer` in `groupId`, split with nobody else (the request; not
   * awaited, so headers can be added). `fields` replace the defaults (description, amount).
   */
  postOwnExpense(
    payer: TestUser,
    groupId: string,
    key: string,
    fields?: { description?: string; amount?: number },
  ): request.Test;
  stop(): Promise<void>;
};

let counter = 0;
export const uniqueEmail = (name: string) =>
  `${name.toLowerCase().replace(/[^a-z0-9]/g, '')}.${process.pid}.${Date.now()}.${++counter}@example.com`;

export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** `embedded: true` runs on PGlite in a temporary DATA_DIR instead of the test PostgreSQL server. */
export async function startTestServer(
  options: { embedded?: boolean; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const db = options.embedded ? undefined : await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-test-data-'));
  const config = loadConfig({
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    // Tests drive one user hard; the limiter has its own tests with a small budget.
    RATE_LIMIT_PER_MINUTE: '1000000',
    // So do the budget of /v1/auth/* and the login throttle (their tests set them low): the shared
    // Redis keeps the throttle's counters of every file's logins from 127.0.0.1.
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_THROTTLE_ACCOUNT_FREE_FAILURES: '1000000',
    LOGIN_THROTTLE_IP_FREE_FAILURES: '1000000',
    // A loaded test machine (or a test's own synchronous work on this event loop) is not an
    // overloaded instance: shedding by event-loop delay answered 503s that no test expected.
    MAX_EVENT_LOOP_DELAY_MS: '600000',
    ...(db ? { DATABASE_URL: db.url } : {}),
    ...options.env,
  });
  const server = await start(config);
  const agent = request.agent(server.url);

  const register = async (name = 'User'): Promise<TestUser> => {
    const email = uniqueEmail(name);
    const res = await agent
      .post('/v1/auth/register')
      .send({ email, name, password: 'correct horse battery' });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    const { user, accessToken, refreshToken } = res.body;
    return { ...user, accessToken, refreshToken, auth: { Authorization: `Bearer ${accessToken}` } };
  };

  const createGroup = async (
    owner: TestUser,
    members: TestUser[] = [],
    body: Record<string, unknown> = {},
  ) => {
    const res = await agent
      .post('/v1/groups')
      .set(owner.auth)
      .send({ name: 'Trip', ...body });
    if (res.status !== 201) throw new Error(`create group failed: ${res.status} ${JSON.stringify(res.body)}`);
    const groupId: string = res.body.id;
    for (const member of members) {
      const added = await agent
        .post(`/v1/groups/${groupId}/members`)
        .set(owner.auth)
        .send({ userId: member.id });
      if (added.status !== 201) throw new Error(`add member failed: ${added.status}`);
    }
    return groupId;
  };

  const postOwnExpense: TestServer['postOwnExpense'] = (payer, groupId, key, fields = {}) =>
    agent
      .post('/v1/expenses')
      .set(payer.auth)
      .set('Idempotency-Key', key)
      .send({
        groupId,
        description: 'Dinner',
        amount: 1000,
        ...fields,
        paidBy: payer.id,
        split: { type: 'equal', between: [payer.id] },
      });

  return {
    url: server.url,
    server,
    db,
    request: agent,
    register,
    createGroup,
    postOwnExpense,
    async stop() {
      await server.stop();
      await db?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let keyCounter = 0;
/** A fresh Idempotency-Key for one logical operation. */
export const newKey = (): string => `key-${process.pid}-${Date.now()}-${++keyCounter}`;
