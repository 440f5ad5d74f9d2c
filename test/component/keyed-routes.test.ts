/**
 * Exactly-once by construction: every write route the API document declares (but auth's) is a
 * write route (http/write-route.ts), as the app registered it, with the key required on money
 * writes; a keyed request to each leaves its durable idempotency record in PostgreSQL under the
 * canonical route path and replays from it. A request invalid on its own records nothing; an
 * outcome of the group's state is recorded and replayed.
 */
import { createAccessTokens } from '@tally/http-kit';
import type { Knex } from 'knex';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createApp } from '../../apps/api/src/create-app';
import type { WriteRouteInfo } from '../../apps/api/src/http/write-route';
import { openApiDocument } from '../../apps/api/src/openapi/openapi';
import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

// ---- the write routes really registered ----------------------------------------------------------
type WriteRoute = WriteRouteInfo & { name: string };

/** The API app built with inert dependencies: building it connects to nothing. */
const inertApp = () =>
  createApp({
    knex: {} as Knex,
    tokens: createAccessTokens({ secret: 'keyed-routes-test-secret-keyed-routes', ttlSeconds: 60 }),
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    announcer: { publications: () => [], announce: () => {} },
    isReady: async () => true,
  });

const WRITE_ROUTES: WriteRoute[] = (inertApp().locals['writeRoutes'] as WriteRouteInfo[]).map((r) => ({
  ...r,
  name: `${r.method} ${r.path}`,
}));

/** The writes the API document declares, in the app's spelling (`/v1/expenses/:expenseId`). */
const DOCUMENTED_WRITES = Object.entries(openApiDocument().paths as Record<string, Record<string, unknown>>)
  .flatMap(([path, operations]) =>
    Object.keys(operations)
      .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`),
  )
  .filter((name) => !name.includes(' /v1/auth/'))
  // Account deletion is no group write: no key is recorded (API.md §11.3), like auth's.
  .filter((name) => name !== 'DELETE /v1/me')
  // Signing a device out is idempotent by itself and no group write: no key (API.md §2.3).
  .filter((name) => name !== 'DELETE /v1/me/sessions/:sessionId')
  // A password change is no group write either: no key is recorded (API.md §2.4), like auth's.
  .filter((name) => name !== 'POST /v1/me/password')
  // Nor are an email change and a new verification link (API.md §2.5).
  .filter((name) => name !== 'POST /v1/me/email' && name !== 'POST /v1/me/email/verification')
  // API keys are no group write, and a created key's secret must never be recorded for a replay (API.md §2.6).
  .filter((name) => name !== 'POST /v1/me/api-keys' && name !== 'DELETE /v1/me/api-keys/:keyId')
  // A group's webhook endpoints are its configuration, not a write to its log: no key (API.md §12).
  .filter((name) => !name.includes(' /v1/groups/:groupId/webhooks'))
  // Nor are notification settings and push subscriptions: a PUT that merges, a POST that is one row
  // per browser endpoint, a DELETE; each idempotent by itself (API.md §13).
  .filter(
    (name) =>
      ![
        'PUT /v1/me/notification-settings',
        'POST /v1/me/push-subscriptions',
        'DELETE /v1/me/push-subscriptions/:subscriptionId',
      ].includes(name),
  );

// ---- one successful keyed request per route ------------------------------------------------------
/** `raw`: a body that is a file, not JSON (a receipt, API.md §16). */
type Scenario = { path: string; body?: object; raw?: { type: string; bytes: Buffer }; status: number };

/** The smallest PNG a receipt upload takes (1×1, 67 bytes). */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('every keyed route', () => {
  let t: TestServer;
  let knex: Knex;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    knex = t.db!.knex;
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    // Ada's address counts as verified (API.md §2.5): the claim by email needs it.
    await knex('users').where({ id: ada.id }).update({ email_verified_at: new Date() });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const expenseBody = (groupId: string) => ({
    groupId,
    description: 'Keyed',
    amount: 1200,
    paidBy: ada.id,
    split: { type: 'equal', between: [ada.id, bob.id] },
  });
  const newExpense = async (groupId: string): Promise<string> => {
    const res = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send(expenseBody(groupId));
    return res.body.id;
  };

  const recurringBody = () => ({
    expense: {
      description: 'Keyed',
      amount: 1200,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    },
    schedule: { every: 'month', startsOn: '2030-01-31', timeZone: 'UTC' },
  });
  const newRecurring = async (): Promise<string> => {
    const res = await t.request
      .post(`/v1/groups/${await t.createGroup(ada, [bob])}/recurring`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send(recurringBody());
    return res.body.id;
  };

  const newCategory = async (): Promise<{ groupId: string; categoryId: string }> => {
    const groupId = await t.createGroup(ada);
    const res = await t.request
      .post(`/v1/groups/${groupId}/categories`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ name: 'Keyed' });
    return { groupId, categoryId: res.body.id };
  };

  /** What each keyed route is asked, with what it needs set up first. A new keyed route needs one. */
  const scenarios: Record<string, () => Promise<Scenario>> = {
    'POST /v1/groups': async () => ({ path: '/v1/groups', body: { name: 'Keyed' }, status: 201 }),
    'PATCH /v1/groups/:groupId': async () => ({
      path: `/v1/groups/${await t.createGroup(ada)}`,
      body: { name: 'Renamed' },
      status: 200,
    }),
    'POST /v1/groups/:groupId/reminders': async () => {
      // Bob owes Ada half of an expense: Ada may remind him.
      const groupId = await t.createGroup(ada, [bob]);
      await newExpense(groupId);
      return { path: `/v1/groups/${groupId}/reminders`, body: { toUserId: bob.id }, status: 201 };
    },
    'POST /v1/groups/:groupId/categories': async () => ({
      path: `/v1/groups/${await t.createGroup(ada)}/categories`,
      body: { name: 'Keyed' },
      status: 201,
    }),
    'PATCH /v1/groups/:groupId/categories/:categoryId': async () => {
      const { groupId, categoryId } = await newCategory();
      return {
        path: `/v1/groups/${groupId}/categories/${categoryId}`,
        body: { name: 'Renamed' },
        status: 200,
      };
    },
    'DELETE /v1/groups/:groupId/categories/:categoryId': async () => {
      const { groupId, categoryId } = await newCategory();
      return { path: `/v1/groups/${groupId}/categories/${categoryId}`, status: 204 };
    },
    'POST /v1/groups/:groupId/categories/:categoryId/merge': async () => {
      const { groupId, categoryId } = await newCategory();
      return {
        path: `/v1/groups/${groupId}/categories/${categoryId}/merge`,
        body: { into: 'food' },
        status: 200,
      };
    },
    'POST /v1/groups/:groupId/members': async () => ({
      path: `/v1/groups/${await t.createGroup(ada)}/members`,
      body: { userId: bob.id },
      status: 201,
    }),
    'DELETE /v1/groups/:groupId/members/:userId': async () => ({
      path: `/v1/groups/${await t.createGroup(ada, [bob])}/members/${bob.id}`,
      status: 204,
    }),
    'POST /v1/groups/:groupId/imports': async () => ({
      path: `/v1/groups/${await t.createGroup(ada, [bob])}/imports`,
      body: {
        format: 'splitwise-csv',
        csv: 'Date,Description,Category,Cost,Currency,Ada,Bob\r\n2024-01-05,Lunch,General,20.00,INR,10.00,-10.00\r\n',
        members: { Ada: ada.id, Bob: bob.id },
      },
      status: 201,
    }),
    'POST /v1/expenses': async () => ({
      path: '/v1/expenses',
      body: expenseBody(await t.createGroup(ada, [bob])),
      status: 201,
    }),
    'PUT /v1/expenses/:expenseId': async () => ({
      path: `/v1/expenses/keyed-${Date.now().toString(36)}`,
      body: expenseBody(await t.createGroup(ada, [bob])),
      status: 201,
    }),
    'PATCH /v1/expenses/:expenseId': async () => ({
      path: `/v1/expenses/${await newExpense(await t.createGroup(ada, [bob]))}`,
      body: { amount: 999 },
      status: 200,
    }),
    'DELETE /v1/expenses/:expenseId': async () => ({
      path: `/v1/expenses/${await newExpense(await t.createGroup(ada, [bob]))}`,
      status: 204,
    }),
    'POST /v1/expenses/:expenseId/restore': async () => {
      const id = await newExpense(await t.createGroup(ada, [bob]));
      await t.request.delete(`/v1/expenses/${id}`).set(ada.auth).set('Idempotency-Key', newKey());
      return { path: `/v1/expenses/${id}/restore`, status: 200 };
    },
    'POST /v1/expenses/:expenseId/duplicate': async () => ({
      path: `/v1/expenses/${await newExpense(await t.createGroup(ada, [bob]))}/duplicate`,
      body: { occurredAt: '2026-11-20T10:00:00.000Z' },
      status: 201,
    }),
    'POST /v1/groups/:groupId/archive': async () => ({
      path: `/v1/groups/${await t.createGroup(ada)}/archive`,
      status: 200,
    }),
    'POST /v1/groups/:groupId/unarchive': async () => {
      const groupId = await t.createGroup(ada);
      await t.request.post(`/v1/groups/${groupId}/archive`).set(ada.auth);
      return { path: `/v1/groups/${groupId}/unarchive`, status: 200 };
    },
    'POST /v1/settlements': async () => ({
      path: '/v1/settlements',
      body: { groupId: await t.createGroup(ada, [bob]), fromUserId: bob.id, toUserId: ada.id, amount: 500 },
      status: 201,
    }),
    'PUT /v1/groups/:groupId/rates': async () => ({
      path: `/v1/groups/${await t.createGroup(ada)}/rates`,
      body: { base: 'EUR', rates: { USD: '1.1414' }, asOf: '2018-12-21' },
      status: 200,
    }),
    'DELETE /v1/settlements/:settlementId': async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 500 });
      return { path: `/v1/settlements/${res.body.id}`, status: 204 };
    },
    'POST /v1/groups/:groupId/invites': async () => ({
      path: `/v1/groups/${await t.createGroup(ada)}/invites`,
      body: { expiresInDays: 2 },
      status: 201,
    }),
    'DELETE /v1/groups/:groupId/invites/:inviteId': async () => {
      const groupId = await t.createGroup(ada);
      const res = await t.request.post(`/v1/groups/${groupId}/invites`).set(ada.auth).send({});
      return { path: `/v1/groups/${groupId}/invites/${res.body.id}`, status: 204 };
    },
    'POST /v1/invites/:code/accept': async () => {
      const groupId = await t.createGroup(bob);
      const res = await t.request.post(`/v1/groups/${groupId}/invites`).set(bob.auth).send({});
      return { path: `/v1/invites/${res.body.code}/accept`, body: {}, status: 201 };
    },
    'POST /v1/groups/:groupId/members/:memberId/claim': async () => {
      const groupId = await t.createGroup(bob);
      const res = await t.request
        .post(`/v1/groups/${groupId}/members`)
        .set(bob.auth)
        .send({ name: 'Ada before she joined', email: ada.email });
      return { path: `/v1/groups/${groupId}/members/${res.body.userId}/claim`, status: 201 };
    },
    'POST /v1/groups/:groupId/recurring': async () => ({
      path: `/v1/groups/${await t.createGroup(ada, [bob])}/recurring`,
      body: recurringBody(),
      status: 201,
    }),
    'PATCH /v1/recurring/:recurringId': async () => ({
      path: `/v1/recurring/${await newRecurring()}`,
      body: { expense: { amount: 999 } },
      status: 200,
    }),
    'DELETE /v1/recurring/:recurringId': async () => ({
      path: `/v1/recurring/${await newRecurring()}`,
      status: 204,
    }),
    'POST /v1/me/activity/read': async () => {
      await t.createGroup(ada);
      const feed = await t.request.get('/v1/me/activity').query({ limit: 1 }).set(ada.auth);
      return { path: '/v1/me/activity/read', body: { upTo: feed.body.data[0].id }, status: 200 };
    },
    'POST /v1/expenses/:expenseId/comments': async () => ({
      path: `/v1/expenses/${await newExpense(await t.createGroup(ada, [bob]))}/comments`,
      body: { text: 'Keyed' },
      status: 201,
    }),
    'POST /v1/settlements/:settlementId/comments': async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 500 });
      return { path: `/v1/settlements/${res.body.id}/comments`, body: { text: 'Keyed' }, status: 201 };
    },
    'DELETE /v1/comments/:commentId': async () => {
      const expenseId = await newExpense(await t.createGroup(ada, [bob]));
      const res = await t.request
        .post(`/v1/expenses/${expenseId}/comments`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ text: 'To delete' });
      return { path: `/v1/comments/${res.body.id}`, status: 204 };
    },
    'PUT /v1/expenses/:expenseId/receipt': async () => ({
      path: `/v1/expenses/${await newExpense(await t.createGroup(ada, [bob]))}/receipt`,
      raw: { type: 'image/png', bytes: ONE_PIXEL_PNG },
      status: 200,
    }),
    'DELETE /v1/expenses/:expenseId/receipt': async () => {
      const expenseId = await newExpense(await t.createGroup(ada, [bob]));
      await t.request
        .put(`/v1/expenses/${expenseId}/receipt`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .set('Content-Type', 'image/png')
        .send(ONE_PIXEL_PNG);
      return { path: `/v1/expenses/${expenseId}/receipt`, status: 204 };
    },
  };

  it('covers every write the API document declares but auth, with the key required on money writes and optional elsewhere', () => {
    expect(WRITE_ROUTES.length).toBeGreaterThanOrEqual(11);
    expect(WRITE_ROUTES.map((r) => r.name).sort()).toEqual([...DOCUMENTED_WRITES].sort());
    for (const route of WRITE_ROUTES) {
      // Recurring expenses create money writes: their routes are money writes too (API.md §6a).
      // Comments (a retried comment must appear once, API.md §5.2) and imports (they create expenses
      // and settlements, §6b) too.
      const money = /^\/v1\/(expenses|settlements|recurring|comments)|\/(recurring|imports)$/.test(
        route.path,
      );
      expect({ route: route.name, key: route.key }).toEqual({
        route: route.name,
        key: money ? 'required' : 'optional',
      });
    }
    expect(Object.keys(scenarios).sort()).toEqual(WRITE_ROUTES.map((r) => r.name).sort());
  });

  it.each(WRITE_ROUTES.map((r) => [r.name, r] as const))(
    '%s leaves its durable record in PostgreSQL and replays from it',
    async (name, route) => {
      const scenario = await scenarios[name]!();
      const key = newKey();
      const send = () => {
        const req = t.request[route.method.toLowerCase() as 'post'](scenario.path)
          .set(ada.auth)
          .set('Idempotency-Key', key);
        if (scenario.raw) return req.set('Content-Type', scenario.raw.type).send(scenario.raw.bytes);
        return scenario.body ? req.send(scenario.body) : req;
      };
      const res = await send();
      expect({ name, status: res.status }).toEqual({ name, status: scenario.status });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      const records = await knex('idempotency_records')
        .where({ user_id: ada.id, key })
        .select('path', 'status');
      expect(records).toEqual([{ path: scenario.path, status: scenario.status }]);
      const again = await send();
      expect([again.status, again.headers['idempotent-replayed']]).toEqual([scenario.status, 'true']);
    },
  );
});

// ---- what is recorded against a key, and what is not -------------------------------------------
describe('a keyed write that fails', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    await t?.stop();
  });

  const records = (key: string) => t.db!.knex('idempotency_records').where({ key }).select('status');

  it.each([
    ['fails the schema', { description: 'Dinner', amount: 'lots' }],
    ['has shares that do not add up', { description: 'Dinner', amount: 1000, exact: true }],
  ])('records nothing when its body %s, and a corrected retry with the same key runs', async (_what, bad) => {
    const groupId = await t.createGroup(ada, [bob]);
    const key = newKey();
    const body = (fields: object) => {
      const { exact, ...rest } = fields as { exact?: boolean };
      return {
        groupId,
        paidBy: ada.id,
        split: exact
          ? {
              type: 'exact',
              between: [
                { userId: ada.id, amount: 300 },
                { userId: bob.id, amount: 300 },
              ],
            }
          : { type: 'equal', between: [ada.id, bob.id] },
        ...rest,
      };
    };
    const first = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send(body(bad));
    expect(first.status).toBe(422);
    expect(await records(key)).toEqual([]);
    const fixed = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send(body({ description: 'Dinner', amount: 1000 }));
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await records(key)).toEqual([{ status: 201 }]);
  });

  it('records an outcome of the group’s state (a payer who is not a member) and replays it', async () => {
    const groupId = await t.createGroup(ada);
    const key = newKey();
    const send = () =>
      t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send({
          groupId,
          description: 'Taxi',
          amount: 900,
          paidBy: bob.id,
          split: { type: 'equal', between: [ada.id] },
        });
    const first = await send();
    expect([first.status, first.body.code]).toEqual([422, 'not_a_member']);
    expect(await records(key)).toEqual([{ status: 422 }]);
    const again = await send();
    expect([again.status, again.body.code, again.headers['idempotent-replayed']]).toEqual([
      422,
      'not_a_member',
      'true',
    ]);
  });
});
