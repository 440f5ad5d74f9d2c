/**
 * Exactly-once by construction: every write route the app registers (but auth) is a keyed route,
 * walking the real express router, and a keyed request to each of them leaves its durable
 * idempotency record in PostgreSQL under the canonical route path. A route that answers without
 * writing that record fails loudly (500, counted as `unprotected`) instead of succeeding unprotected.
 */
import { createAccessTokens } from '@tally/http-kit';
import {
  createDurableRecords,
  createIdempotencyLayer,
  createMemoryIdempotencyStore,
} from '@tally/idempotency';
import express, { type Express } from 'express';
import type { Knex } from 'knex';
import pino from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { authenticate } from '../../apps/api/src/auth/authenticate';
import { createApp } from '../../apps/api/src/create-app';
import { errorHandler } from '../../apps/api/src/http/error-handler';
import { idempotencyKey, keyRequirementOf } from '../../apps/api/src/http/idempotency-key';
import { jsonBody } from '../../apps/api/src/http/json-body';
import { isKeyedWrite, keyedWrites } from '../../apps/api/src/http/keyed-writes';
import { created } from '../../apps/api/src/http/reply';
import { requestId } from '../../apps/api/src/http/request-id';
import { createWriteRunner } from '../../apps/api/src/ledger/write-runner';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

// ---- the write routes really registered ----------------------------------------------------------
type Layer = {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle?: { stack?: Layer[] };
};
type WriteRoute = { name: string; method: string; template: string; keyed: boolean; key: string | undefined };

function writeRoutes(app: Express): WriteRoute[] {
  const routes: WriteRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route && typeof layer.route.path === 'string') {
        const template = `${prefix}${layer.route.path}`;
        const handlers = layer.route.stack.map((l) => l.handle);
        for (const method of Object.keys(layer.route.methods)) {
          if (method === 'get' || method === 'head') continue;
          routes.push({
            name: `${method.toUpperCase()} ${template}`,
            method,
            template,
            keyed: handlers.some(isKeyedWrite),
            key: handlers.map(keyRequirementOf).find((k) => k !== undefined),
          });
        }
      } else if (layer.handle?.stack && typeof layer.rawPath === 'string') {
        walk(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : layer.rawPath));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return routes;
}

/** The API app built with inert dependencies: building it connects to nothing. */
const inertApp = () =>
  createApp({
    knex: {} as Knex,
    tokens: createAccessTokens({ secret: 'keyed-routes-test-secret-keyed-routes', ttlSeconds: 60 }),
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    notify: () => {},
    isReady: async () => true,
  });

const WRITE_ROUTES = writeRoutes(inertApp());
const KEYED_ROUTES = WRITE_ROUTES.filter((r) => r.keyed);

// ---- one successful keyed request per route ------------------------------------------------------
type Scenario = { path: string; body?: object; status: number };

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

  /** What each keyed route is asked, with what it needs set up first. A new keyed route needs one. */
  const scenarios: Record<string, () => Promise<Scenario>> = {
    'POST /v1/groups': async () => ({ path: '/v1/groups', body: { name: 'Keyed' }, status: 201 }),
    'PATCH /v1/groups/:groupId': async () => ({
      path: `/v1/groups/${await t.createGroup(ada)}`,
      body: { name: 'Renamed' },
      status: 200,
    }),
    'POST /v1/groups/:groupId/members': async () => ({
      path: `/v1/groups/${await t.createGroup(ada)}/members`,
      body: { userId: bob.id },
      status: 201,
    }),
    'DELETE /v1/groups/:groupId/members/:userId': async () => ({
      path: `/v1/groups/${await t.createGroup(ada, [bob])}/members/${bob.id}`,
      status: 204,
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
    'POST /v1/settlements': async () => ({
      path: '/v1/settlements',
      body: { groupId: await t.createGroup(ada, [bob]), fromUserId: bob.id, toUserId: ada.id, amount: 500 },
      status: 201,
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
  };

  it('covers every write route but auth, with the key required on money writes and optional elsewhere', () => {
    expect(KEYED_ROUTES.length).toBeGreaterThanOrEqual(11);
    const unkeyed = WRITE_ROUTES.filter((r) => !r.keyed).map((r) => r.name);
    expect(unkeyed.filter((name) => !name.includes(' /v1/auth/'))).toEqual([]);
    for (const route of KEYED_ROUTES) {
      const money = /^\/v1\/(expenses|settlements)/.test(route.template);
      expect({ route: route.name, key: route.key }).toEqual({
        route: route.name,
        key: money ? 'required' : 'optional',
      });
    }
    expect(Object.keys(scenarios).sort()).toEqual(KEYED_ROUTES.map((r) => r.name).sort());
  });

  it.each(KEYED_ROUTES.map((r) => [r.name, r] as const))(
    '%s leaves its durable record in PostgreSQL and replays from it',
    async (name, route) => {
      const scenario = await scenarios[name]!();
      const key = newKey();
      const send = () => {
        const req = t.request[route.method as 'post'](scenario.path)
          .set(ada.auth)
          .set('Idempotency-Key', key);
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

// ---- a route that answers without its durable record ---------------------------------------------
describe('a keyed route that answers without its durable record', () => {
  let db: TestDatabase;
  let app: Express;
  let registry: Registry;
  let authorization: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.knex.schema.createTable('sneaky_writes', (table) => table.text('note'));
    registry = new Registry();
    const layer = createIdempotencyLayer({
      store: createMemoryIdempotencyStore(),
      durable: createDurableRecords({ knex: db.knex }),
      ttlSeconds: 60,
      processId: 'keyed-routes-test',
      registry,
    });
    const keyed = keyedWrites({ layer, runWrite: createWriteRunner({ knex: db.knex, notify: () => {} }) });
    const tokens = createAccessTokens({ secret: 'keyed-routes-test-secret-keyed-routes', ttlSeconds: 60 });
    authorization = `Bearer ${await tokens.sign('usr_keyed_routes_test')}`;
    const moneyKey = idempotencyKey({ required: true });

    app = express();
    app.use(requestId, authenticate(tokens));
    // Forgets to run its write and answers as if it had.
    app.post(
      '/forgetful',
      jsonBody,
      moneyKey,
      keyed(async () => created({ id: 'never-written' })),
    );
    // Writes behind the layer's back, outside the write it was given.
    app.post(
      '/sneaky',
      jsonBody,
      moneyKey,
      keyed(async () => {
        await db.knex('sneaky_writes').insert({ note: 'unprotected' });
        return created({ id: 'sneaky' });
      }),
    );
    app.use(errorHandler(pino({ level: 'silent' })));
  });
  afterAll(async () => {
    await db?.drop();
  });

  const unprotectedCount = async () => {
    const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'idempotency_outcomes_total');
    const values = (metric?.values ?? []) as { labels: { outcome?: string }; value: number }[];
    return values.find((v) => v.labels.outcome === 'unprotected')?.value ?? 0;
  };

  it.each(['/forgetful', '/sneaky'])('%s fails with a 500, is counted, and records nothing', async (path) => {
    const before = await unprotectedCount();
    const key = newKey();
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await request(app)
        .post(path)
        .set('Authorization', authorization)
        .set('Idempotency-Key', key)
        .send({ amount: 1 });
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('internal_error');
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await unprotectedCount()).toBe(before + 2);
    expect(await db.knex('idempotency_records').where({ key })).toEqual([]);
  });
});
