/**
 * One request pipeline (apps/api/src/http/pipeline.ts, steps.ts): the fast dispatch and express
 * answer alike. Two apps are built on the test server's database with the same dependencies, one
 * with the fast dispatch and one without (`fastDispatch: false`): every case is sent to both in the
 * same spelling, and status, headers and body must be the same, for successes, replays and every
 * refusal (404, 304, 429, 503 shed and drain, CORS, a revoked session, a 5xx), and so must the
 * metric labels. An injected step records which way each request went, and shows that a step
 * added to the list runs on every route, the fast ones included. The clock-derived headers (Date,
 * the seconds left of the rate-limit window) are bounded, not compared (test/support/clock-headers.ts).
 */

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createAnnouncer, createApp, createLoadShedder, createRateLimits } from '@tally/api';
import { createKnex } from '@tally/db';
import { createInProcessBus, publicationOf } from '@tally/events';
import { createAccessTokens } from '@tally/http-kit';
import {
  createDurableRecords,
  createIdempotencyLayer,
  createMemoryIdempotencyStore,
  createMemoryLiveness,
} from '@tally/idempotency';
import { loadConfig } from '@tally/server';
import express from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import request, { type Response } from 'supertest';
import type { Step } from '../../apps/api/src/http/pipeline';
import type { Route } from '../../apps/api/src/http/route';
import { withoutClock } from '../support/clock-headers';
import {
  newKey,
  startTestServer,
  TEST_JWT_SECRET,
  type TestServer,
  type TestUser,
} from '../support/test-server';

const APP_ORIGIN = 'https://app.example.com';

let t: TestServer;
let alice: TestUser;
let bob: TestUser;
let groupId: string;
let expenseId: string;

/** What the injected step saw: which way each request came (express sets `originalUrl`, the fast dispatch does not). */
const ways: string[] = [];
const switches = { shedding: false, draining: false };

type Pair = { fast: Server; routed: Server; fastRegistry: Registry; routedRegistry: Registry };
const servers: Server[] = [];
const stops: (() => void)[] = [];

/**
 * Two apps on the test server's database and one idempotency layer, alike but for the fast
 * dispatch. Each has its own connection pool: a process's write runner names its prepared
 * statements on its own connections.
 */
function pair(pointsPerMinute = 1_000_000): Pair {
  const knexOf = () => {
    const knex = createKnex({ databaseUrl: t.db?.url, dataDir: '/tmp', poolMax: 4 });
    stops.push(() => void knex.destroy());
    return knex;
  };
  const knex = knexOf();
  const config = loadConfig({ JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: '/tmp' });
  const tokens = createAccessTokens({
    secret: TEST_JWT_SECRET,
    ttlSeconds: 900,
    audience: config.jwtAudience,
  });
  const liveness = createMemoryLiveness();
  const member = liveness.process();
  void member.start();
  const idempotency = createIdempotencyLayer({
    store: createMemoryIdempotencyStore({ isAlive: liveness.isAlive }),
    durable: createDurableRecords({ knex }),
    ttlSeconds: 3600,
    processId: member.processId,
  });
  const announcer = createAnnouncer({
    bus: createInProcessBus(),
    publicationOf,
    markPublished: () => {},
    onPublishFailed: () => {},
  });
  // The real shedder, at capacity from the first request, while `switches.shedding`.
  const full = createLoadShedder({ maxInFlight: 0, maxEventLoopDelayMs: 1e9 });
  stops.push(() => full.stop());
  // The injected step: records the way, and sets a header every answer must carry.
  const stamp: Step = {
    name: 'stamp',
    run: (s) => {
      ways.push('originalUrl' in s.req ? 'express' : 'fast');
      s.res.setHeader('X-Stamp', 'stamped');
      return undefined;
    },
  };
  // A handler that throws (a 5xx) when asked to, on the fast routes and one other.
  const failing = (routes: readonly Route[]) =>
    routes.map((route): Route => {
      if (!['getExpense', 'getBalances', 'createExpense', 'getGroup'].includes(route.operationId))
        return route;
      return {
        ...route,
        handler: (input) => {
          if (input.headers['x-fail'] !== undefined) throw new Error('a handler failed');
          return route.handler(input);
        },
      };
    });
  const build = (fastDispatch: boolean, registry: Registry) => {
    const rateLimits = createRateLimits({ pointsPerMinute });
    const app = createApp({
      knex: knexOf(),
      tokens,
      logger: pino({ level: process.env['PIPELINE_TEST_LOG'] ?? 'silent' }),
      registry,
      announcer,
      isReady: async () => true,
      idempotency,
      rateLimits,
      revokedUsersTtlMs: 0,
      corsOrigins: [APP_ORIGIN],
      loadShedder: (req, res) => {
        if (switches.shedding) full.middleware(req, res);
      },
      isDraining: () => switches.draining,
      extraSteps: [stamp],
      adjustRoutes: failing,
      fastDispatch,
    });
    const server = createServer(app);
    servers.push(server);
    return server;
  };
  const fastRegistry = new Registry();
  const routedRegistry = new Registry();
  return {
    fast: build(true, fastRegistry),
    routed: build(false, routedRegistry),
    fastRegistry,
    routedRegistry,
  };
}

let apps: Pair;

beforeAll(async () => {
  t = await startTestServer();
  alice = await t.register('Alice');
  bob = await t.register('Bob');
  groupId = await t.createGroup(alice);
  expenseId = (await t.postOwnExpense(alice, groupId, newKey())).body.id;
  apps = pair();
});
afterAll(async () => {
  for (const server of servers) server.close();
  for (const stop of stops) stop();
  await t.stop();
});

/**
 * What a client can see of an answer, but the clock (Date, the window's seconds left: a second
 * boundary may fall between the two requests).
 */
function seen(res: Response) {
  const headers = withoutClock(res.headers);
  // A request id made by the server (the request named none) is a new UUID each time.
  if (/^[0-9a-f-]{36}$/.test(String(headers['x-request-id']))) headers['x-request-id'] = 'a new UUID';
  return { status: res.status, headers, text: res.text };
}

type Send = (server: Server) => request.Test;

/** `send` to the fast app and to the express one: both answers, once each is seen to have gone its way. */
async function bothWays(send: Send, fast: 'fast' | 'express' = 'fast', on: Pair = apps) {
  ways.length = 0;
  const viaFast = await send(on.fast);
  const viaExpress = await send(on.routed);
  // A request the pipeline refused before the stamp step never records its way.
  if (ways.length === 2) expect(ways).toEqual([fast, 'express']);
  return { viaFast, viaExpress };
}

/** `send` both ways: the same answer. */
async function same(send: Send, on: Pair = apps, way: 'fast' | 'express' = 'fast'): Promise<Response> {
  const { viaFast, viaExpress } = await bothWays(send, way, on);
  expect(seen(viaFast)).toEqual(seen(viaExpress));
  return viaFast;
}

const expense = (amount = 1000) => ({
  groupId,
  description: 'Dinner',
  amount,
  paidBy: alice.id,
  split: { type: 'equal', between: [alice.id] },
});

describe('the fast dispatch and express answer alike', () => {
  it('GET /v1/expenses/{id}: found, unknown, another user, no token, a bad token, 304', async () => {
    const cases: [string, Record<string, string>][] = [
      [expenseId, alice.auth],
      ['exp_01ARZ3NDEKTSV4RRFFQ69G5FAV', alice.auth],
      [expenseId, bob.auth],
      [expenseId, {}],
      [expenseId, { Authorization: 'Bearer not-a-token' }],
    ];
    for (const [id, auth] of cases) {
      await same((s) => request(s).get(`/v1/expenses/${id}`).set(auth).set('X-Request-Id', `rid-${id}`));
    }
    const found = await same((s) => request(s).get(`/v1/expenses/${expenseId}`).set(alice.auth));
    expect(found.status).toBe(200);
    expect(found.headers['etag']).toBe(`"v${found.body.version}"`);
    expect(found.headers['cache-control']).toBe('private, no-cache');
    expect(found.headers['x-stamp']).toBe('stamped');
    const notModified = await same((s) =>
      request(s)
        .get(`/v1/expenses/${expenseId}`)
        .set(alice.auth)
        .set('If-None-Match', String(found.headers['etag'])),
    );
    expect(notModified.status).toBe(304);
  });

  it('GET balances: a member, another user, an unknown group, no token, 304', async () => {
    for (const [id, auth] of [
      [groupId, alice.auth],
      [groupId, bob.auth],
      ['grp_01ARZ3NDEKTSV4RRFFQ69G5FAV', alice.auth],
      [groupId, {}],
    ] as const) {
      await same((s) => request(s).get(`/v1/groups/${id}/balances`).set(auth).set('X-Request-Id', 'rid-b'));
    }
    const found = await same((s) => request(s).get(`/v1/groups/${groupId}/balances`).set(alice.auth));
    expect(found.status).toBe(200);
    expect(found.headers['etag']).toMatch(/^W\//);
    const notModified = await same((s) =>
      request(s)
        .get(`/v1/groups/${groupId}/balances`)
        .set(alice.auth)
        .set('If-None-Match', String(found.headers['etag'])),
    );
    expect(notModified.status).toBe(304);
  });

  it('POST /v1/expenses: replays, a reused key, a bad key, no token, a bad body, bad JSON', async () => {
    const key = newKey();
    const firstRun = (s: Server, idempotencyKey: string) =>
      request(s).post('/v1/expenses').set(alice.auth).set('Idempotency-Key', idempotencyKey).send(expense());
    // Each app creates one (two expenses: their ids differ), so both spend as much budget.
    const first = await firstRun(apps.fast, key);
    expect(first.status).toBe(201);
    expect((await firstRun(apps.routed, newKey())).status).toBe(201);
    const post = (headers: Record<string, string>, body: unknown) => (s: Server) =>
      request(s)
        .post('/v1/expenses')
        .set(headers)
        .set('X-Request-Id', 'rid-post')
        .send(body as object);
    for (const [headers, body] of [
      [{ ...alice.auth, 'Idempotency-Key': key }, expense()],
      [{ ...alice.auth, 'Idempotency-Key': key }, expense(2000)],
      [{ ...alice.auth, 'Idempotency-Key': 'k'.repeat(256) }, expense()],
      [{ 'Idempotency-Key': key }, expense()],
      [
        { ...alice.auth, 'Idempotency-Key': newKey() },
        { ...expense(), amount: 0 },
      ],
    ] as const) {
      await same(post(headers, body));
    }
    const replay = await same(post({ ...alice.auth, 'Idempotency-Key': key }, expense()));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    const malformed = await same((s) =>
      request(s)
        .post('/v1/expenses')
        .set(alice.auth)
        .set('Idempotency-Key', newKey())
        .set('Content-Type', 'application/json')
        .set('X-Request-Id', 'rid-bad-json')
        .send('{"groupId":'),
    );
    expect(malformed.status).toBe(400);
  });

  it('CORS: an allowed origin gets its headers and Vary either way, another origin none', async () => {
    const allowed = await same((s) =>
      request(s).get(`/v1/expenses/${expenseId}`).set(alice.auth).set('Origin', APP_ORIGIN),
    );
    expect(allowed.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(allowed.headers['vary']).toBe('Origin');
    const other = await same((s) =>
      request(s).get(`/v1/groups/${groupId}/balances`).set(alice.auth).set('Origin', 'https://evil.example'),
    );
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await same((s) =>
      request(s)
        .options('/v1/expenses')
        .set('Origin', APP_ORIGIN)
        .set('Access-Control-Request-Method', 'POST'),
    );
    expect(preflight.status).toBe(204);
  });

  it('a plain OPTIONS: the methods of the path, after authentication, as express answered it', async () => {
    const allowed = await same(
      (s) => request(s).options('/v1/groups').set(alice.auth).set('X-Request-Id', 'o'),
      apps,
      'express',
    );
    expect(allowed.status).toBe(200);
    expect(allowed.headers['allow']).toBe('GET, HEAD, POST');
    expect(allowed.text).toBe('GET, HEAD, POST');
    expect((await same((s) => request(s).options('/v1/groups').set('X-Request-Id', 'o'))).status).toBe(401);
    // No route has the path: 404, once authenticated.
    const none = await same(
      (s) => request(s).options('/v1/nothing').set(alice.auth).set('X-Request-Id', 'o'),
      apps,
      'express',
    );
    expect(none.status).toBe(404);
  });

  it('503 while shedding and while draining, with Retry-After', async () => {
    for (const which of ['shedding', 'draining'] as const) {
      switches[which] = true;
      try {
        const refused = await same((s) =>
          request(s).get(`/v1/expenses/${expenseId}`).set(alice.auth).set('X-Request-Id', `rid-${which}`),
        );
        expect(refused.status).toBe(503);
        expect(refused.headers['retry-after']).toBe('1');
        await same((s) =>
          request(s)
            .post('/v1/expenses')
            .set(alice.auth)
            .set('Idempotency-Key', newKey())
            .set('X-Request-Id', `rid-${which}`)
            .send(expense()),
        );
      } finally {
        switches[which] = false;
      }
    }
  });

  it('401 for a revoked session, either way', async () => {
    const carol = await t.register('Carol');
    const logout = await t.request.post('/v1/auth/logout').set(carol.auth);
    expect(logout.status).toBe(204);
    const refused = await same((s) =>
      request(s).get(`/v1/groups/${groupId}/balances`).set(carol.auth).set('X-Request-Id', 'rid-revoked'),
    );
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="tally"');
  });

  it('a handler that throws: 500 problem+json, either way', async () => {
    for (const path of [`/v1/expenses/${expenseId}`, `/v1/groups/${groupId}/balances`]) {
      const failed = await same((s) =>
        request(s).get(path).set(alice.auth).set('X-Fail', '1').set('X-Request-Id', 'rid-500'),
      );
      expect(failed.status).toBe(500);
      expect(failed.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(failed.body).toMatchObject({ code: 'internal_error', requestId: 'rid-500' });
    }
  });

  it('429 once the per-user budget is spent, either way', async () => {
    const small = pair(2);
    const get = (s: Server) =>
      request(s).get(`/v1/expenses/${expenseId}`).set(alice.auth).set('X-Request-Id', 'r');
    for (let i = 0; i < 2; i++) expect((await same(get, small)).status).toBe(200);
    const refused = await same(get, small);
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
  });

  it('labels the metrics by route template, the same either way', async () => {
    const labels = async (registry: Registry) =>
      (await registry.getSingleMetricAsString('http_request_duration_seconds'))
        .split('\n')
        .filter((line) => line.startsWith('http_request_duration_seconds_count'))
        .sort();
    const fast = await labels(apps.fastRegistry);
    expect(fast).toEqual(await labels(apps.routedRegistry));
    expect(fast.join('\n')).toContain('route="/v1/expenses/:expenseId"');
    expect(fast.join('\n')).toContain('route="/v1/groups/:groupId/balances"');
    expect(fast.join('\n')).toContain('route="/v1/expenses"');
    expect(fast.join('\n')).toContain('route="unmatched"');
  });
});

describe('the one list of steps', () => {
  it('runs a step added to the list on every route, the fast ones included', async () => {
    const gets = [
      `/v1/expenses/${expenseId}`,
      `/v1/groups/${groupId}/balances`,
      `/v1/groups/${groupId}`,
      `/v1/groups/${groupId}/expenses`,
      '/v1/me',
      '/v1/no-such-route',
      '/v1/openapi.json',
    ];
    for (const path of gets) {
      ways.length = 0;
      const res = await request(apps.fast).get(path).set(alice.auth);
      expect([path, res.headers['x-stamp']]).toEqual([path, 'stamped']);
      const fastOnes = [`/v1/expenses/${expenseId}`, `/v1/groups/${groupId}/balances`];
      expect(ways).toEqual([fastOnes.includes(path) ? 'fast' : 'express']);
    }
    ways.length = 0;
    const posted = await request(apps.fast)
      .post('/v1/expenses')
      .set(alice.auth)
      .set('Idempotency-Key', newKey())
      .send(expense());
    expect(posted.status).toBe(201);
    expect(posted.headers['x-stamp']).toBe('stamped');
    expect(ways).toEqual(['fast']);
  });

  it('leans on one express internal, app.handle, of the pinned express version', () => {
    const pinned = JSON.parse(readFileSync(require.resolve('../../apps/api/package.json'), 'utf8'));
    const installed = JSON.parse(readFileSync(require.resolve('express/package.json'), 'utf8'));
    expect(pinned.dependencies.express).toBe(installed.version);
    // http/express-internals.ts replaces it: an upgrade without it must fail here, loudly.
    expect(typeof (express() as unknown as { handle?: unknown }).handle).toBe('function');
  });
});
