/**
 * The published OpenAPI document against the code: the routes really registered (walking the express
 * router), the joi schemas the routes validate with (converted afresh, and probed through the running
 * server), and the shapes the server really answers with (validated against the response schemas).
 */
import { createHash } from 'node:crypto';
import vm from 'node:vm';
import { createAccessTokens } from '@tally/http-kit';
import type { Express } from 'express';
import type Joi from 'joi';
import type { Knex } from 'knex';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createApp } from '../../apps/api/src/create-app';
import { docsPage, escapeHtml } from '../../apps/api/src/openapi/docs-page';
import {
  type JsonSchema,
  joiQueryParameters,
  joiToJsonSchema,
} from '../../apps/api/src/openapi/joi-to-json-schema';
import { openApiDocument } from '../../apps/api/src/openapi/openapi';
import {
  addMemberBody,
  clientId,
  createExpenseBody,
  createGroupBody,
  createSettlementBody,
  eventsQuery,
  listQuery,
  loginBody,
  patchExpenseBody,
  patchGroupBody,
  refreshBody,
  registerBody,
  split,
} from '../../apps/api/src/schemas';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; parameters: Record<string, JsonSchema> };
};
const doc = openApiDocument() as unknown as Doc;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every documented operation as `METHOD /path` with its operation object. */
const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({
    key: `${m.toUpperCase()} ${path}`,
    path,
    method: m,
    op: item[m]!,
  })),
);

const resolve = (schema: JsonSchema): JsonSchema => {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = doc.components.schemas[name];
  if (!target) throw new Error(`dangling $ref ${ref}`);
  return target;
};

// ---- a minimal JSON Schema 2020-12 checker for the keywords this document uses ----------------------
const ANNOTATIONS = new Set(['description', 'examples', 'default', 'title']);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

/** The failures of `value` against `schema` (empty when it is valid). */
function check(schema: JsonSchema, value: unknown, at = '$'): string[] {
  const fail = (why: string) => [`${at}: ${why}`];
  const errors: string[] = [];
  for (const [keyword, arg] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    const obj = value as Record<string, unknown>;
    const isObject = typeMatches('object', value);
    switch (keyword) {
      case '$ref':
        errors.push(...check(resolve({ $ref: arg }), value, at));
        break;
      case 'type': {
        const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
        if (!types.some((t) => typeMatches(t, value))) errors.push(...fail(`not ${types.join('|')}`));
        break;
      }
      case 'enum':
        if (!(arg as unknown[]).some((v) => v === value))
          errors.push(...fail(`not in ${JSON.stringify(arg)}`));
        break;
      case 'const':
        if (arg !== value) errors.push(...fail(`not ${JSON.stringify(arg)}`));
        break;
      case 'properties':
        if (isObject) {
          for (const [k, sub] of Object.entries(arg as Record<string, JsonSchema>)) {
            if (k in obj) errors.push(...check(sub, obj[k], `${at}.${k}`));
          }
        }
        break;
      case 'required':
        if (isObject) for (const k of arg as string[]) if (!(k in obj)) errors.push(...fail(`missing ${k}`));
        break;
      case 'additionalProperties':
        if (arg !== false) throw new Error('checker: only additionalProperties: false is supported');
        if (isObject) {
          const known = Object.keys((schema['properties'] ?? {}) as object);
          for (const k of Object.keys(obj)) if (!known.includes(k)) errors.push(...fail(`unexpected ${k}`));
        }
        break;
      case 'minProperties':
        if (isObject && Object.keys(obj).length < (arg as number)) errors.push(...fail('too few properties'));
        break;
      case 'items':
        if (Array.isArray(value))
          for (const [i, v] of value.entries()) errors.push(...check(arg as JsonSchema, v, `${at}[${i}]`));
        break;
      case 'minItems':
        if (Array.isArray(value) && value.length < (arg as number)) errors.push(...fail('too few items'));
        break;
      case 'maxItems':
        if (Array.isArray(value) && value.length > (arg as number)) errors.push(...fail('too many items'));
        break;
      case 'minLength':
        if (typeof value === 'string' && [...value].length < (arg as number))
          errors.push(...fail('too short'));
        break;
      case 'maxLength':
        if (typeof value === 'string' && [...value].length > (arg as number))
          errors.push(...fail('too long'));
        break;
      case 'pattern':
        if (typeof value === 'string' && !new RegExp(arg as string, 'u').test(value)) {
          errors.push(...fail(`does not match ${arg}`));
        }
        break;
      case 'format':
        if (typeof value === 'string') {
          if (arg === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) errors.push(...fail('not an email'));
          if (arg === 'date-time' && !RFC3339.test(value)) errors.push(...fail('not a date-time'));
        }
        break;
      case 'minimum':
        if (typeof value === 'number' && value < (arg as number)) errors.push(...fail('below minimum'));
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (arg as number)) errors.push(...fail('above maximum'));
        break;
      case 'multipleOf':
        if (typeof value === 'number') {
          const q = value / (arg as number);
          if (Math.abs(q - Math.round(q)) > 1e-9) errors.push(...fail(`not a multiple of ${arg}`));
        }
        break;
      case 'oneOf': {
        const passing = (arg as JsonSchema[]).filter((s) => check(s, value, at).length === 0).length;
        if (passing !== 1) errors.push(...fail(`matches ${passing} of oneOf`));
        break;
      }
      case 'anyOf':
        if (!(arg as JsonSchema[]).some((s) => check(s, value, at).length === 0))
          errors.push(...fail('no anyOf'));
        break;
      case 'allOf':
        for (const s of arg as JsonSchema[]) errors.push(...check(s, value, at));
        break;
      case 'not':
        if (check(arg as JsonSchema, value, at).length === 0) errors.push(...fail('matches not'));
        break;
      default:
        throw new Error(`checker: unsupported keyword ${keyword}`);
    }
  }
  return errors;
}

/** The `required` list of an object schema. */
function requiredOf(schema: JsonSchema): string[] {
  return [...((schema['required'] as string[] | undefined) ?? [])];
}

// ---- the express routes that are really registered -------------------------------------------------
type Layer = {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};

function registeredRoutes(app: Express): Set<string> {
  const routes = new Set<string>();
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          if (typeof path !== 'string') throw new Error(`route with a non-string path: ${String(path)}`);
          const template = `${prefix}${path}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
          for (const method of Object.keys(layer.route.methods)) {
            if (method === '_all') throw new Error(`app.all() on ${template} cannot be documented`);
            routes.add(`${method.toUpperCase()} ${template}`);
          }
        }
      } else if (layer.handle?.stack) {
        if (typeof layer.rawPath !== 'string') throw new Error('mounted router without a string path');
        walk(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : layer.rawPath));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return routes;
}

/** The API app built with inert dependencies: building connects to nothing. */
function buildApp(): Express {
  return createApp({
    knex: {} as Knex,
    tokens: createAccessTokens({ secret: 'openapi-test-secret-openapi-test-secret', ttlSeconds: 60 }),
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    notify: () => {},
    isReady: async () => true,
  });
}

// ---- which joi schema each route validates with (mirrors the route files) --------------------------
const BODIES: Record<string, Joi.Schema> = {
  'POST /v1/auth/register': registerBody,
  'POST /v1/auth/login': loginBody,
  'POST /v1/auth/refresh': refreshBody,
  'POST /v1/groups': createGroupBody,
  'PATCH /v1/groups/{groupId}': patchGroupBody,
  'POST /v1/groups/{groupId}/members': addMemberBody,
  'POST /v1/expenses': createExpenseBody,
  'PUT /v1/expenses/{expenseId}': createExpenseBody,
  'PATCH /v1/expenses/{expenseId}': patchExpenseBody,
  'POST /v1/settlements': createSettlementBody,
};
const QUERIES: Record<string, Joi.Schema> = {
  'GET /v1/groups': listQuery,
  'GET /v1/groups/{groupId}/expenses': listQuery,
  'GET /v1/groups/{groupId}/settlements': listQuery,
  'GET /v1/groups/{groupId}/events': eventsQuery,
};

const USR_A = 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC';
const USR_B = 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RD';

/** Bodies joi accepts, per operation (several shapes where the schema has alternatives). */
const VALID: Record<string, unknown[]> = {
  'POST /v1/auth/register': [{ email: 'Ada@Example.com', name: 'Ada', password: 'correct horse' }],
  'POST /v1/auth/login': [{ email: 'ada@example.com', password: 'x' }],
  'POST /v1/auth/refresh': [{ refreshToken: 'rt_abc' }],
  'POST /v1/groups': [{ name: 'Trip' }, { name: 'Trip', currency: 'EUR', description: '' }],
  'PATCH /v1/groups/{groupId}': [{}, { name: 'Renamed', description: 'Goa, 2026' }],
  'POST /v1/groups/{groupId}/members': [{ userId: USR_A }, { email: 'bob@example.com' }],
  'POST /v1/expenses': [
    {
      groupId: 'grp_1',
      description: 'Dinner',
      amount: 100000,
      paidBy: USR_A,
      split: { type: 'equal', between: [USR_A, USR_B] },
    },
    {
      groupId: 'grp_1',
      description: 'Taxi',
      category: null,
      amount: 900,
      currency: 'USD',
      occurredAt: '2026-11-25T19:30:00.000Z',
      paidBy: [
        { userId: USR_A, amount: 400 },
        { userId: USR_B, amount: 500 },
      ],
      split: { type: 'exact', between: [{ userId: USR_A, amount: 900 }] },
    },
    {
      groupId: 'grp_1',
      description: 'Hotel',
      category: 'lodging',
      amount: 3,
      paidBy: USR_B,
      split: {
        type: 'percent',
        between: [
          { userId: USR_A, percent: 33.33 },
          { userId: USR_B, percent: 66.67 },
        ],
      },
    },
    {
      groupId: 'grp_1',
      description: 'Fuel',
      amount: 7,
      paidBy: USR_B,
      split: { type: 'shares', between: [{ userId: USR_A, shares: 2 }] },
    },
  ],
  'PATCH /v1/expenses/{expenseId}': [
    { amount: 5 },
    { category: null, split: { type: 'equal', between: [USR_A] } },
  ],
  'POST /v1/settlements': [
    { groupId: 'grp_1', fromUserId: USR_A, toUserId: USR_B, amount: 1 },
    { groupId: 'grp_1', fromUserId: USR_A, toUserId: USR_B, amount: 1, currency: 'JPY', note: '' },
  ],
};
VALID['PUT /v1/expenses/{expenseId}'] = VALID['POST /v1/expenses']!;

/** Bodies joi rejects for reasons JSON Schema can express, so the generated schema must reject them too. */
const expense = VALID['POST /v1/expenses']![0] as Record<string, unknown>;
const INVALID: Record<string, unknown[]> = {
  'POST /v1/auth/register': [
    { email: 'ada@example.com', name: 'Ada', password: 'short' },
    { email: 'not-an-email', name: 'Ada', password: 'long enough' },
    { email: 'ada@example.com', name: 'Ada', password: 'long enough', admin: true },
  ],
  'POST /v1/groups': [{}, { name: 'Trip', currency: 'eur' }, { name: '' }],
  'POST /v1/groups/{groupId}/members': [{}, { userId: USR_A, email: 'a@example.com' }, { userId: 'usr_1' }],
  'POST /v1/expenses': [
    { ...expense, amount: '100' },
    { ...expense, amount: 1.5 },
    { ...expense, amount: 0 },
    { ...expense, amount: 1e12 + 1 },
    { ...expense, category: '' },
    { ...expense, extra: 1 },
    { ...expense, occurredAt: 'yesterday' },
    { ...expense, paidBy: [] },
    { ...expense, split: { type: 'equal', between: [] } },
    { ...expense, split: { type: 'weird', between: [USR_A] } },
    { ...expense, split: { between: [USR_A] } },
    { ...expense, split: { type: 'equal', between: [{ userId: USR_A, amount: 1 }] } },
    { ...expense, split: { type: 'percent', between: [{ userId: USR_A, percent: 33.333 }] } },
    { ...expense, split: { type: 'shares', between: [{ userId: USR_A, shares: 0 }] } },
    { ...expense, split: { type: 'equal', between: [USR_A], extra: true } },
  ],
  'PATCH /v1/expenses/{expenseId}': [{}, { groupId: 'grp_2' }],
  'POST /v1/settlements': [{ groupId: 'grp_1', fromUserId: USR_A, toUserId: USR_B, amount: -1 }],
};

const joiAccepts = (schema: Joi.Schema, body: unknown) =>
  schema.validate(body, { abortEarly: false, convert: true }).error === undefined;

describe('OpenAPI document', () => {
  let t: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('is served at /v1/openapi.json as OpenAPI 3.1 JSON, without authentication', async () => {
    const res = await t.request.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(openApiDocument()).toBe(openApiDocument()); // memoised
  });

  it('documents exactly the routes the app registers (drift check on the real router)', () => {
    const registered = registeredRoutes(buildApp());
    expect(registered.size).toBeGreaterThan(20);
    const http = documented.filter((d) => d.op['x-websocket'] !== true).map((d) => d.key);
    // every registered route and method is documented …
    expect([...registered].filter((r) => !http.includes(r))).toEqual([]);
    // … and every documented operation exists
    expect(http.filter((d) => !registered.has(d))).toEqual([]);
    // the only operation that is not an express route is the WebSocket upgrade
    expect(documented.filter((d) => d.op['x-websocket'] === true).map((d) => d.key)).toEqual(['GET /v1/ws']);
  });

  it('has unique operation ids, resolvable refs and path parameters for every template variable', () => {
    const ids = documented.map((d) => d.op['operationId']);
    expect(new Set(ids).size).toBe(ids.length);
    const text = JSON.stringify(doc);
    for (const match of text.matchAll(/"\$ref":"#\/components\/([a-zA-Z]+)\/([^"]+)"/g)) {
      const components = doc.components as unknown as Record<string, Record<string, unknown>>;
      expect(components[match[1]!]?.[match[2]!]).toBeDefined();
    }
    for (const { path, op } of documented) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = (op['parameters'] as JsonSchema[])
        .filter((p) => p['in'] === 'path')
        .map((p) => p['name']);
      expect(params).toEqual(names);
    }
  });

  it('generates every request body from the joi schema the route validates with', () => {
    const withBody = documented.filter((d) => d.op['requestBody']).map((d) => d.key);
    expect(withBody.sort()).toEqual(Object.keys(BODIES).sort());
    for (const [key, joi] of Object.entries(BODIES)) {
      const op = documented.find((d) => d.key === key)!.op;
      const body = op['requestBody'] as {
        required: boolean;
        content: Record<string, { schema: JsonSchema }>;
      };
      expect(body.required).toBe(true);
      const schema = resolve(body.content['application/json']!.schema);
      expect({ key, schema }).toEqual({ key, schema: joiToJsonSchema(joi) });
      expect(schema['additionalProperties']).toBe(false);
    }
    expect(doc.components.schemas['Split']).toEqual(joiToJsonSchema(split));
  });

  it('generates query and validated path parameters from joi', () => {
    for (const [key, joi] of Object.entries(QUERIES)) {
      const op = documented.find((d) => d.key === key)!.op;
      const query = (op['parameters'] as JsonSchema[]).filter((p) => p['in'] === 'query');
      expect({ key, query }).toEqual({ key, query: joiQueryParameters(joi) });
      expect(String(op['description'])).toMatch(/Unknown query parameters are rejected with `422/);
    }
    const put = documented.find((d) => d.key === 'PUT /v1/expenses/{expenseId}')!.op;
    const expenseId = (put['parameters'] as JsonSchema[]).find((p) => p['name'] === 'expenseId')!;
    expect(expenseId['schema']).toEqual(joiToJsonSchema(clientId));
  });

  it('agrees with joi on sample bodies: accepted ones carry every required property and validate', () => {
    for (const [key, bodies] of Object.entries(VALID)) {
      const joi = BODIES[key]!;
      const schema = joiToJsonSchema(joi);
      for (const body of bodies) {
        expect({ key, body, joi: joiAccepts(joi, body) }).toEqual({ key, body, joi: true });
        for (const name of requiredOf(schema))
          expect({ key, has: name in (body as object) }).toEqual({ key, has: true });
        expect({ key, body, errors: check(schema, body) }).toEqual({ key, body, errors: [] });
      }
    }
    for (const [key, bodies] of Object.entries(INVALID)) {
      const joi = BODIES[key]!;
      const schema = joiToJsonSchema(joi);
      for (const body of bodies) {
        expect({ key, body, joi: joiAccepts(joi, body) }).toEqual({ key, body, joi: false });
        expect({ key, body, rejected: check(schema, body).length > 0 }).toEqual({
          key,
          body,
          rejected: true,
        });
      }
    }
  });

  it('matches what the running routes validate (probed through the server)', async () => {
    const concrete = (path: string) =>
      path
        .replace('{groupId}', 'grp_probe')
        .replace('{expenseId}', 'exp_probe_0001')
        .replace('{userId}', USR_A);
    for (const key of Object.keys(BODIES)) {
      const [method, path] = key.split(' ') as [string, string];
      const op = documented.find((d) => d.key === key)!.op;
      const schema = resolve(
        (op['requestBody'] as { content: Record<string, { schema: JsonSchema }> }).content[
          'application/json'
        ]!.schema,
      );
      const send = (body: unknown) =>
        t.request[method.toLowerCase() as 'post' | 'put' | 'patch'](concrete(path))
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .send(body as object);
      // `{}`: the route reports exactly the documented required properties as missing
      const empty = await send({});
      if (requiredOf(schema).length > 0 || schema['minProperties'] || schema['oneOf']) {
        expect({ key, status: empty.status }).toEqual({ key, status: 422 });
        const missing = (empty.body.errors as { path: string; message: string }[])
          .filter((e) => /is required$/.test(e.message))
          .map((e) => e.path);
        expect({ key, missing: missing.sort() }).toEqual({ key, missing: requiredOf(schema).sort() });
      }
      // a documented-valid body plus one undocumented field: that field is the only complaint
      const sample = VALID[key]![VALID[key]!.length - 1] as object;
      const res = await send({ ...sample, undocumentedField: 1 });
      expect({ key, status: res.status, errors: res.body.errors }).toEqual({
        key,
        status: 422,
        errors: [{ path: 'undocumentedField', message: expect.stringMatching(/not allowed/) }],
      });
    }
    const unknownQuery = await t.request.get('/v1/groups?sort=name').set(ada.auth);
    expect(unknownQuery.status).toBe(422);
  });

  it('describes what the server really answers (response schemas checked against live responses)', async () => {
    const bob = await t.register('Bob');
    const expectShape = (name: string, body: unknown) =>
      expect({ name, errors: check({ $ref: `#/components/schemas/${name}` }, body) }).toEqual({
        name,
        errors: [],
      });

    const session = await t.request
      .post('/v1/auth/login')
      .send({ email: ada.email, password: 'correct horse battery' });
    expectShape('Session', session.body);
    expectShape('User', (await t.request.get('/v1/me').set(ada.auth)).body);
    const group = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Trip' });
    expectShape('Group', group.body);
    const groupId = group.body.id as string;
    const member = await t.request
      .post(`/v1/groups/${groupId}/members`)
      .set(ada.auth)
      .send({ userId: bob.id });
    expect(member.status).toBe(201);
    expectShape('Member', member.body);
    const created = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Dinner',
        amount: 1000,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id, bob.id] },
      });
    expect(created.status).toBe(201);
    expect(created.headers['location']).toBe(`/v1/expenses/${created.body.id}`);
    expectShape('Expense', created.body);
    const settlement = await t.request
      .post('/v1/settlements')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 100 });
    expect(settlement.status).toBe(201);
    expectShape('Settlement', settlement.body);
    await t.request.delete(`/v1/expenses/${created.body.id}`).set(ada.auth).set('Idempotency-Key', newKey());
    await t.request
      .post(`/v1/expenses/${created.body.id}/restore`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey());

    expectShape('Balances', (await t.request.get(`/v1/groups/${groupId}/balances`).set(ada.auth)).body);
    expectShape('GroupPage', (await t.request.get('/v1/groups').set(ada.auth)).body);
    expectShape('ExpensePage', (await t.request.get(`/v1/groups/${groupId}/expenses`).set(ada.auth)).body);
    expectShape(
      'SettlementPage',
      (await t.request.get(`/v1/groups/${groupId}/settlements`).set(ada.auth)).body,
    );
    const events = await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(ada.auth);
    expectShape('EventPage', events.body);
    const restoredEvent = (events.body.data as { type: string; data: { restored?: boolean } }[]).at(-1);
    expect(restoredEvent).toMatchObject({ type: 'expense.created', data: { restored: true } });

    const notFound = await t.request.get('/v1/expenses/exp_nope').set(ada.auth);
    expect(notFound.headers['content-type']).toMatch(/^application\/problem\+json/);
    expectShape('Problem', notFound.body);
    expectShape('Problem', (await t.request.post('/v1/groups').set(ada.auth).send({})).body);
  });

  it('documents headers, security and error responses as the contract requires', () => {
    const problemCodes = (doc.components.schemas['Problem']!['properties'] as Record<string, JsonSchema>)[
      'code'
    ]!['enum'] as string[];
    // every code of API.md §1
    for (const code of [
      'malformed_json',
      'idempotency_key_missing',
      'idempotency_key_invalid',
      'unauthenticated',
      'invalid_credentials',
      'not_found',
      'idempotency_key_reused',
      'idempotency_key_in_progress',
      'email_taken',
      'member_has_balance',
      'precondition_failed',
      'payload_too_large',
      'unsupported_media_type',
      'validation_failed',
      'not_a_member',
      'split_mismatch',
      'rate_limited',
      'unavailable',
    ]) {
      expect(problemCodes).toContain(code);
    }
    const paramNames = (op: JsonSchema) =>
      (op['parameters'] as JsonSchema[]).map((p) => {
        const ref = p['$ref'];
        return typeof ref === 'string' ? ref.replace('#/components/parameters/', '') : String(p['name']);
      });
    for (const { key, path, method, op } of documented) {
      const params = paramNames(op);
      const isMoneyWrite = method !== 'get' && /^\/v1\/(expenses|settlements)/.test(path);
      const isGroupWrite = method !== 'get' && path.startsWith('/v1/groups');
      expect({ key, required: params.includes('IdempotencyKeyRequired') }).toEqual({
        key,
        required: isMoneyWrite,
      });
      expect({ key, optional: params.includes('IdempotencyKeyOptional') }).toEqual({
        key,
        optional: isGroupWrite,
      });
      const ifMatch =
        (['put', 'patch', 'delete'].includes(method) && path === '/v1/expenses/{expenseId}') ||
        (method === 'patch' && path === '/v1/groups/{groupId}');
      expect({ key, ifMatch: params.includes('IfMatch') }).toEqual({ key, ifMatch });
      const isPublic = /^\/v1\/auth\/|^\/healthz$|^\/readyz$|^\/metrics$|^\/docs$|^\/v1\/openapi\.json$/.test(
        path,
      );
      expect({
        key,
        public: Array.isArray(op['security']) && (op['security'] as unknown[]).length === 0,
      }).toEqual({
        key,
        public: isPublic,
      });
      const responses = op['responses'] as Record<string, JsonSchema>;
      if (method === 'get' && op['x-websocket'] !== true) {
        expect({ key, conditional: params.includes('IfNoneMatch') && '304' in responses }).toEqual({
          key,
          conditional: true,
        });
      }
      if (!isPublic && op['x-websocket'] !== true)
        expect({ key, has401: '401' in responses }).toEqual({ key, has401: true });
      for (const [status, response] of Object.entries(responses)) {
        const problem = (response['content'] as Record<string, JsonSchema> | undefined)?.[
          'application/problem+json'
        ];
        if (
          Number(status) >= 400 &&
          status !== '503' &&
          !key.endsWith('/readyz') &&
          op['x-websocket'] !== true
        ) {
          expect({ key, status, problem: problem !== undefined }).toEqual({ key, status, problem: true });
        }
      }
      if (responses['429']) {
        const headers = Object.keys(responses['429']['headers'] as object);
        expect(headers).toEqual(
          expect.arrayContaining([
            'Retry-After',
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
          ]),
        );
      }
    }
    const post = documented.find((d) => d.key === 'POST /v1/expenses')!.op['responses'] as Record<
      string,
      JsonSchema
    >;
    expect(Object.keys(post).sort()).toEqual([
      '201',
      '400',
      '401',
      '404',
      '409',
      '413',
      '415',
      '422',
      '429',
      '503',
    ]);
    expect(Object.keys(post['201']!['headers'] as object)).toEqual(
      expect.arrayContaining(['ETag', 'Location', 'X-Request-Id', 'Idempotent-Replayed']),
    );
    const info = (openApiDocument() as { info: { description: string } }).info.description;
    for (const decision of [
      'occurredAt',
      'join time',
      '422 validation_failed',
      'restore it first',
      'restored: true',
      'not_a_member',
      '30 days',
      'afterSeq',
    ]) {
      expect(info).toContain(decision);
    }
  });

  it('serves /docs: a self-contained HTML page that loads the spec', async () => {
    const res = await t.request.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('/v1/openapi.json');
    expect(res.text).not.toMatch(/https?:\/\//); // nothing from a CDN: it works offline
    const script = /<script>([\s\S]*)<\/script>/.exec(res.text)?.[1];
    expect(script).toBeDefined();
    expect(() => new vm.Script(script!)).not.toThrow();
    const hash = createHash('sha256').update(script!).digest('base64');
    // the Content-Security-Policy lets exactly this inline script run (its quotes are HTML-escaped)
    expect(res.text).toContain(`&#39;sha256-${hash}&#39;`);
  });

  it('escapes what it inserts into the docs page', () => {
    const page = docsPage('/x"><script>alert(1)</script>');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain(escapeHtml('/x"><script>alert(1)</script>'));
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
