/**
 * The published OpenAPI document against the code: the routes really registered (walking the express
 * router), what the running routes accept and reject (probed through the server, and compared with
 * joi on sample bodies), and what the server really answers: every response below, HTTP and
 * WebSocket, is validated with ajv against the document's own schemas (test/support/openapi-validator).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createAccessTokens } from '@tally/http-kit';
import { parseIdempotencyKey } from '@tally/idempotency';
import type { Express } from 'express';
import fc from 'fast-check';
import Joi from 'joi';
import type { Knex } from 'knex';
import pino from 'pino';
import { Registry } from 'prom-client';
import request, { type Response } from 'supertest';
import { createApp } from '../../apps/api/src/create-app';
import { createProbesApp } from '../../apps/api/src/http/probe-routes';
import {
  DOCS_ASSETS,
  DOCS_CSP,
  DOCS_SCRIPT_PATH,
  docsPage,
  escapeHtml,
  SWAGGER_UI_FILES,
  SWAGGER_UI_VERSION,
} from '../../apps/api/src/openapi/docs-page';
import {
  CURRENCY_CODES,
  joiToJsonSchema,
  trimmedLengthPattern,
} from '../../apps/api/src/openapi/joi-to-json-schema';
import { openApiDocument } from '../../apps/api/src/openapi/openapi';
import { type DocumentedErrorCode, ERROR_CODES, ERROR_STATUS } from '../../apps/api/src/openapi/responses';
import {
  acceptInviteBody,
  activityReadBody,
  addMemberBody,
  changeEmailBody,
  changePasswordBody,
  commentBody,
  createExpenseBody,
  createGroupBody,
  createImportBody,
  createInviteBody,
  createRecurringBody,
  createSettlementBody,
  currency,
  loginBody,
  noBody,
  passwordResetBody,
  passwordResetConfirmBody,
  patchExpenseBody,
  patchGroupBody,
  patchRecurringBody,
  putRatesBody,
  refreshBody,
  registerBody,
  verifyEmailBody,
} from '../../apps/api/src/schemas';
import { type Message, TestSocket } from '../gateway/ws-client';
import {
  ajv,
  checkedResponses,
  componentErrors,
  describeErrors,
  expectDocumented,
  openApi,
  responseErrors,
  validatorAt,
} from '../support/openapi-validator';
import { newKey, startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';

type JsonSchema = Record<string, unknown>;
const doc = openApi;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every documented operation as `METHOD /path` with its operation object. */
const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({
    key: `${m.toUpperCase()} ${path}`,
    path,
    method: m,
    op: item[m] as JsonSchema,
  })),
);
const operation = (key: string) => {
  const found = documented.find((d) => d.key === key);
  if (!found) throw new Error(`${key} is not documented`);
  return found;
};

const resolve = (schema: JsonSchema): JsonSchema => {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const target = doc.components.schemas[ref.replace('#/components/schemas/', '')];
  if (!target) throw new Error(`dangling $ref ${ref}`);
  return target;
};

/** The `required` list of an object schema. */
const requiredOf = (schema: JsonSchema): string[] => [
  ...((schema['required'] as string[] | undefined) ?? []),
];

/** ajv on the request body schema the document gives an operation. */
const bodyValidator = (key: string) => {
  const { path, method } = operation(key);
  return validatorAt('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
};

/** Every JSON pointer of the document where a schema sits. */
function schemaLocations(): string[][] {
  const locations: string[][] = Object.keys(doc.components.schemas).map((name) => [
    'components',
    'schemas',
    name,
  ]);
  for (const name of Object.keys(doc.components.parameters))
    locations.push(['components', 'parameters', name, 'schema']);
  for (const { path, method, op } of documented) {
    for (const [i, parameter] of ((op['parameters'] as JsonSchema[]) ?? []).entries()) {
      if (parameter['schema']) locations.push(['paths', path, method, 'parameters', String(i), 'schema']);
    }
    const body = op['requestBody'] as { content: Record<string, unknown> } | undefined;
    for (const mediaType of Object.keys(body?.content ?? {})) {
      locations.push(['paths', path, method, 'requestBody', 'content', mediaType, 'schema']);
    }
    for (const [status, response] of Object.entries(op['responses'] as Record<string, JsonSchema>)) {
      for (const mediaType of Object.keys((response['content'] as object | undefined) ?? {})) {
        locations.push(['paths', path, method, 'responses', status, 'content', mediaType, 'schema']);
      }
    }
  }
  return locations;
}

const at = (pointer: string[]): unknown =>
  pointer.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc);

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
    announcer: { publications: () => [], announce: () => {} },
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
  'POST /v1/expenses/{expenseId}/comments': commentBody,
  'POST /v1/settlements/{settlementId}/comments': commentBody,
  'POST /v1/groups/{groupId}/invites': createInviteBody,
  'POST /v1/invites/{code}/accept': acceptInviteBody,
  'POST /v1/groups/{groupId}/recurring': createRecurringBody,
  'PATCH /v1/recurring/{recurringId}': patchRecurringBody,
  'PUT /v1/groups/{groupId}/rates': putRatesBody,
  'POST /v1/me/activity/read': activityReadBody,
  'POST /v1/groups/{groupId}/imports': createImportBody,
  'POST /v1/auth/password-reset': passwordResetBody,
  'POST /v1/auth/password-reset/confirm': passwordResetConfirmBody,
  'POST /v1/me/password': changePasswordBody,
  'POST /v1/auth/verify-email': verifyEmailBody,
  'POST /v1/me/email': changeEmailBody,
  'POST /v1/me/email/verification': noBody,
  'POST /v1/groups/{groupId}/members/{memberId}/claim': noBody,
};
const USR_A = 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC';
const USR_B = 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RD';

/** Bodies joi accepts, per operation (several shapes where the schema has alternatives). */
const VALID: Record<string, unknown[]> = {
  'POST /v1/auth/password-reset': [{ email: 'Ada@Example.com' }],
  'POST /v1/auth/password-reset/confirm': [{ token: 'AbCd_-0123456789xyzXYZ', password: 'correct horse' }],
  'POST /v1/me/password': [{ current: 'x', new: 'correct horse' }],
  'POST /v1/auth/verify-email': [{ token: 'AbCd_-0123456789xyzXYZ' }],
  'POST /v1/me/email': [{ email: 'New@Example.com', password: 'x' }],
  'POST /v1/me/email/verification': [{}],
  'POST /v1/groups/{groupId}/members/{memberId}/claim': [{}],
  'POST /v1/me/activity/read': [{ upTo: 'evt_1' }],
  'POST /v1/expenses/{expenseId}/comments': [{ text: 'x' }, { text: ' <b>as sent</b> ' }, { text: 'a\n\tb' }],
  'POST /v1/settlements/{settlementId}/comments': [{ text: 'Thanks 👍' }],
  'POST /v1/auth/register': [{ email: 'Ada@Example.com', name: 'Ada', password: 'correct horse' }],
  'POST /v1/auth/login': [{ email: 'ada@example.com', password: 'x' }],
  'POST /v1/auth/refresh': [{ refreshToken: 'rt_abc' }],
  'POST /v1/groups': [
    { name: 'Trip' },
    { name: 'Trip', currency: 'EUR', description: '' },
    // names and free text (API.md §1): code points, line feeds and tabs in free text only
    { name: ` ${'😀'.repeat(100)} `, description: 'Goa\n\tand Kerala' },
    { name: 'Zoë e\u0301 שלום 👩‍💻' },
  ],
  'PATCH /v1/groups/{groupId}': [{}, { name: 'Renamed', description: 'Goa, 2026' }],
  'POST /v1/groups/{groupId}/members': [
    { userId: USR_A },
    { email: 'bob@example.com' },
    { name: 'Pat' },
    { name: 'Pat', email: 'pat@example.com' },
  ],
  'POST /v1/groups/{groupId}/invites': [{}, { expiresInDays: 1 }, { expiresInDays: 30 }],
  'POST /v1/invites/{code}/accept': [{}, { asMember: USR_A }],
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
  'PUT /v1/groups/{groupId}/rates': [
    { base: 'EUR', rates: { USD: '1.1414', JPY: '126.98' }, asOf: '2018-12-21' },
    { base: 'INR', rates: {}, asOf: '2026-11-25' },
  ],
};
VALID['POST /v1/groups/{groupId}/imports'] = [
  { format: 'splitwise-csv', csv: 'Date,Description,Category,Cost,Currency,A\n', members: { A: USR_A } },
  { format: 'splitwise-csv', csv: 'x', members: {} },
];
VALID['PUT /v1/expenses/{expenseId}'] = VALID['POST /v1/expenses']!;
VALID['POST /v1/groups/{groupId}/recurring'] = [
  {
    expense: {
      description: 'Rent',
      amount: 90000,
      paidBy: USR_A,
      split: { type: 'equal', between: [USR_A, USR_B] },
    },
    schedule: { every: 'month', startsOn: '2027-01-31', timeZone: 'Europe/Berlin' },
  },
  {
    expense: {
      description: 'Gym',
      category: null,
      amount: 900,
      currency: 'USD',
      paidBy: [{ userId: USR_A, amount: 900 }],
      split: { type: 'shares', between: [{ userId: USR_A, shares: 2 }] },
    },
    schedule: { every: '2 weeks', startsOn: '2027-03-07', until: null, timeZone: 'America/New_York' },
  },
];
VALID['PATCH /v1/recurring/{recurringId}'] = [
  { expense: { amount: 5 } },
  { schedule: { every: 'year', until: '2030-12-31' } },
];

/** Bodies joi rejects for reasons JSON Schema can express, so the generated schema must reject them too. */
const expense = VALID['POST /v1/expenses']![0] as Record<string, unknown>;
const INVALID: Record<string, unknown[]> = {
  'POST /v1/auth/password-reset': [{}, { email: 'not-an-email' }, { email: 'ada@example.com', extra: 1 }],
  'POST /v1/auth/password-reset/confirm': [
    { token: 'AbCd_-0123456789xyzXYZ' },
    { token: 'not a token!', password: 'correct horse' },
    { token: 'AbCd_-0123456789xyzXYZ', password: 'short' },
  ],
  'POST /v1/auth/verify-email': [{}, { token: 'not a token!' }, { token: 'AbCd_-0123456789xyzXYZ', x: 1 }],
  'POST /v1/me/email': [{ email: 'new@example.com' }, { email: 'nope', password: 'x' }, { password: 'x' }],
  'POST /v1/me/email/verification': [{ x: 1 }],
  'POST /v1/groups/{groupId}/members/{memberId}/claim': [{ x: 1 }, { asMember: 'usr_1' }],
  'POST /v1/me/password': [
    { current: 'x' },
    { current: '', new: 'correct horse' },
    { current: 'x', new: 'short' },
  ],
  'POST /v1/me/activity/read': [{}, { upTo: 1 }, { upTo: 'evt_1', more: true }],
  'POST /v1/expenses/{expenseId}/comments': [
    {},
    { text: '' },
    { text: 5 },
    { text: 'x', extra: 1 },
    { text: ' \n\t ' },
    { text: 'a\u001bb' },
  ],
  'POST /v1/settlements/{settlementId}/comments': [{ text: null }],
  'POST /v1/auth/register': [
    { email: 'ada@example.com', name: 'Ada', password: 'short' },
    { email: 'not-an-email', name: 'Ada', password: 'long enough' },
    { email: 'ada@example.com', name: 'Ada', password: 'long enough', admin: true },
  ],
  'POST /v1/groups': [
    {},
    { name: 'Trip', currency: 'eur' },
    { name: '' },
    { name: `${'😀'.repeat(101)}` },
    { name: 'Zed\u202eEvil' },
    { name: 'a\u0007b' },
    { name: 'a\nb' },
    { name: 'Trip', description: 'a\rb' },
  ],
  // `userId` beside `email` or `name` is refused after the schema (groups/pending-members.ts).
  'POST /v1/groups/{groupId}/members': [
    {},
    { userId: 'usr_1' },
    { name: '' },
    { name: 'x'.repeat(101) },
    { name: 'Pat', nick: 'P' },
  ],
  'POST /v1/groups/{groupId}/invites': [
    { expiresInDays: 0 },
    { expiresInDays: 31 },
    { expiresInDays: 1.5 },
    { expiresInDays: '2' },
    { code: 'x' },
  ],
  'POST /v1/invites/{code}/accept': [{ asMember: 'usr_1' }, { asMember: USR_A, extra: true }],
  'POST /v1/expenses': [
    { ...expense, amount: '100' },
    { ...expense, amount: 1.5 },
    { ...expense, amount: 0 },
    { ...expense, amount: 1e12 + 1 },
    { ...expense, category: '' },
    { ...expense, extra: 1 },
    { ...expense, occurredAt: 'yesterday' },
    { ...expense, occurredAt: '2026-11-25' },
    { ...expense, category: 'Food\u2066' },
    { ...expense, category: 'x'.repeat(65) },
    { ...expense, description: '   ' },
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
  'POST /v1/groups/{groupId}/recurring': [
    {},
    { expense, schedule: { every: 'month', startsOn: '2027-01-31', timeZone: 'UTC' } },
    {
      expense: { ...expense, groupId: undefined, occurredAt: '2026-11-25T19:30:00.000Z' },
      schedule: { every: 'month', startsOn: '2027-01-31', timeZone: 'UTC' },
    },
    {
      expense: { description: 'x', amount: 1, paidBy: USR_A, split: { type: 'equal', between: [USR_A] } },
      schedule: { every: 'fortnight', startsOn: '2027-01-31', timeZone: 'UTC' },
    },
    {
      expense: { description: 'x', amount: 1, paidBy: USR_A, split: { type: 'equal', between: [USR_A] } },
      schedule: { every: 'week', startsOn: '31/01/2027', timeZone: 'UTC' },
    },
  ],
  'PATCH /v1/recurring/{recurringId}': [{}, { expense: {} }, { schedule: { every: 'day' } }],
  'POST /v1/groups/{groupId}/imports': [
    {},
    { format: 'splitwise-csv', csv: '', members: {} },
    { format: 'csv', csv: 'x', members: {} },
    { format: 'splitwise-csv', csv: 'x' },
    { format: 'splitwise-csv', csv: 'x', members: [] },
    { format: 'splitwise-csv', csv: 'x', members: {}, extra: 1 },
  ],
  'PUT /v1/groups/{groupId}/rates': [
    { rates: {}, asOf: '2026-11-25' },
    { base: 'eur', rates: {}, asOf: '2026-11-25' },
    { base: 'EUR', rates: {}, asOf: '25.11.2026' },
    { base: 'EUR', rates: [], asOf: '2026-11-25' },
    { base: 'EUR', rates: {}, asOf: '2026-11-25', extra: 1 },
  ],
};

const joiAccepts = (schema: Joi.Schema, body: unknown) =>
  schema.validate(body, { abortEarly: false, convert: true }).error === undefined;

describe('OpenAPI document', () => {
  let t: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    // ajv compiles hundreds of the document's schemas in this process, blocking the event loop for
    // a while: the in-process server's load shedder must not take that for overload.
    t = await startTestServer({ env: { MAX_EVENT_LOOP_DELAY_MS: '600000' } });
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
    const keys = documented.map((d) => d.key);
    // every registered route and method is documented …
    expect([...registered].filter((r) => !keys.includes(r))).toEqual([]);
    // … and every documented operation exists (the WebSocket's plain GET is the route answering 426)
    expect(keys.filter((d) => !registered.has(d))).toEqual([]);
    // the one operation that is an upgrade, served by the gateway below express
    expect(documented.filter((d) => d.op['x-websocket'] === true).map((d) => d.key)).toEqual(['GET /v1/ws']);
    // a gateway process (ROLE=gateway) answers the plain GET too
    const gateway = createProbesApp({
      registry: new Registry(),
      logger: pino({ level: 'silent' }),
      isReady: async () => true,
    });
    expect([...registeredRoutes(gateway)].filter((r) => r.startsWith('GET /v1/'))).toEqual(['GET /v1/ws']);
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

  it('is valid JSON Schema 2020-12 wherever it holds a schema (ajv meta-schema, strict mode)', () => {
    const locations = schemaLocations();
    expect(locations.length).toBeGreaterThan(200);
    for (const pointer of locations) {
      const where = `/${pointer.join('/')}`;
      const valid = ajv.validateSchema(at(pointer) as JsonSchema) as boolean; // no async schemas here
      expect({ where, errors: valid ? [] : describeErrors(ajv.errors) }).toEqual({ where, errors: [] });
      expect(() => validatorAt(...pointer)).not.toThrow();
    }
  });

  it('agrees with joi on sample bodies: what one accepts the other accepts, what one rejects the other rejects', () => {
    // every documented request body is sampled (and only those)
    const withBody = documented.filter((d) => d.op['requestBody']).map((d) => d.key);
    expect(withBody.sort()).toEqual(Object.keys(BODIES).sort());
    for (const [key, joi] of Object.entries(BODIES)) {
      const validate = bodyValidator(key);
      const schema = resolve(
        (operation(key).op['requestBody'] as { content: Record<string, { schema: JsonSchema }> }).content[
          'application/json'
        ]!.schema,
      );
      expect({ key, additionalProperties: schema['additionalProperties'] }).toEqual({
        key,
        additionalProperties: false,
      });
      for (const body of VALID[key] ?? []) {
        const documentErrors = validate(body) ? [] : describeErrors(validate.errors);
        expect({ key, body, joi: joiAccepts(joi, body), documentErrors }).toEqual({
          key,
          body,
          joi: true,
          documentErrors: [],
        });
        for (const name of requiredOf(schema)) {
          expect({ key, has: name in (body as object) }).toEqual({ key, has: true });
        }
      }
      for (const body of INVALID[key] ?? []) {
        expect({ key, body, joi: joiAccepts(joi, body), document: validate(body) }).toEqual({
          key,
          body,
          joi: false,
          document: false,
        });
      }
    }
  });

  it('refuses joi features the converter cannot express, instead of publishing a laxer schema', () => {
    const refused: [string, Joi.Schema][] = [
      ['alphanum', Joi.string().alphanum()],
      ['inverted pattern', Joi.string().pattern(/x/, { invert: true })],
      ['allow() extras', Joi.number().allow('none')],
      [
        'object size in alternatives',
        Joi.alternatives().try(Joi.object({ a: Joi.string() }).min(1), Joi.string()),
      ],
      [
        'reachable otherwise',
        Joi.alternatives().conditional('.type', {
          is: 'a',
          then: Joi.object({ type: Joi.string().valid('a').required() }),
          otherwise: Joi.object({ type: Joi.string() }),
        }),
      ],
      ['date', Joi.date()],
    ];
    for (const [what, schema] of refused) {
      expect({
        what,
        thrown: (() => {
          try {
            joiToJsonSchema(schema);
            return false;
          } catch (error) {
            return /unsupported/.test(String(error));
          }
        })(),
      }).toEqual({ what, thrown: true });
    }
  });

  it('rejects in the running routes what the document rejects in query and path parameters', async () => {
    const bea = await t.register('Bea');
    const group = await t.createGroup(ada, [bea]);
    // Comments are listed on an expense or a settlement of the group (API.md §5.2).
    const onExpense = await t.postOwnExpense(ada, group, newKey());
    const onSettlement = await t.request
      .post('/v1/settlements')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId: group, fromUserId: bea.id, toUserId: ada.id, amount: 1 });
    // Refused rows are listed on an import of the group (API.md §6b).
    const onImport = await t.request
      .post(`/v1/groups/${group}/imports`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        format: 'splitwise-csv',
        csv: 'Date,Description,Category,Cost,Currency,Ada,Bea\r\n2024-01-05,Lunch,General,20.00,EUR,10.00,-9.00\r\n',
        members: { Ada: ada.id, Bea: bea.id },
      });
    expect(onImport.status).toBe(201);
    const concrete = (template: string) =>
      template
        .replace('{groupId}', group)
        .replace('{expenseId}', onExpense.body.id)
        .replace('{settlementId}', onSettlement.body.id)
        .replace('{importId}', onImport.body.id);
    const lists = documented.filter(
      (d) =>
        d.op['x-websocket'] !== true &&
        (d.op['parameters'] as JsonSchema[]).some((p) => p['in'] === 'query' && !p['$ref']),
    );
    expect(lists.map((d) => d.key).sort()).toEqual([
      'GET /v1/expenses/{expenseId}/comments',
      'GET /v1/groups',
      'GET /v1/groups/{groupId}/balances',
      'GET /v1/groups/{groupId}/events',
      'GET /v1/groups/{groupId}/expenses',
      'GET /v1/groups/{groupId}/imports/{importId}/refusals',
      'GET /v1/groups/{groupId}/recurring',
      'GET /v1/groups/{groupId}/settlements',
      'GET /v1/me/activity',
      'GET /v1/settlements/{settlementId}/comments',
    ]);
    for (const { key, path, method, op } of lists) {
      const get = (query: string) => t.request.get(`${concrete(path)}?${query}`).set(ada.auth);
      const parameters = (op['parameters'] as JsonSchema[])
        .map((p, i) => ({ p, i }))
        .filter(({ p }) => p['in'] === 'query');
      for (const { p, i } of parameters) {
        const name = String(p['name']);
        const schema = p['schema'] as JsonSchema;
        const validate = validatorAt('paths', path, method, 'parameters', String(i), 'schema');
        // values the document accepts (integers as numbers: the query string is parsed before validation)
        const good =
          schema['type'] === 'integer'
            ? [schema['minimum'], schema['maximum']]
            : schema['type'] === 'boolean'
              ? [true, false]
              : Array.isArray(schema['examples'])
                ? [schema['examples'][0]]
                : Array.isArray(schema['enum'])
                  ? [schema['enum'][0]]
                  : ['x'];
        // values the document rejects, from its own bounds
        const bad =
          schema['type'] === 'integer'
            ? [(schema['minimum'] as number) - 1, (schema['maximum'] as number) + 1, 1.5]
            : [''];
        for (const value of good) {
          expect({ key, name, value, document: validate(value) }).toEqual({
            key,
            name,
            value,
            document: true,
          });
          if (name === 'cursor') continue; // a cursor the API did not issue is refused by the route itself
          const res = expectDocumented(await get(`${name}=${value}`));
          expect({ key, name, value, status: res.status }).toEqual({ key, name, value, status: 200 });
        }
        for (const value of bad) {
          expect({ key, name, value, document: validate(value) }).toEqual({
            key,
            name,
            value,
            document: false,
          });
          const res = expectDocumented(await get(`${name}=${value}`));
          expect({ key, name, value, status: res.status }).toEqual({ key, name, value, status: 422 });
        }
      }
      const unknown = expectDocumented(await get('sort=name'));
      expect({ key, status: unknown.status }).toEqual({ key, status: 422 });
    }
    // PUT's client-chosen expense id: the documented pattern is what the route enforces
    const put = operation('PUT /v1/expenses/{expenseId}');
    const index = (put.op['parameters'] as JsonSchema[]).findIndex((p) => p['name'] === 'expenseId');
    const validateId = validatorAt('paths', put.path, 'put', 'parameters', String(index), 'schema');
    const body = {
      ...(VALID['PUT /v1/expenses/{expenseId}']![0] as object),
      groupId: group,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    };
    for (const [id, status] of [
      ['short', 422],
      ['has.dot.in.it', 422],
      [`client-${Date.now()}`, 201],
    ] as const) {
      expect({ id, document: validateId(id) }).toEqual({ id, document: status === 201 });
      const res = expectDocumented(
        await t.request.put(`/v1/expenses/${id}`).set(ada.auth).set('Idempotency-Key', newKey()).send(body),
      );
      expect({ id, status: res.status }).toEqual({ id, status });
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
      const op = operation(key).op;
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
      const empty = expectDocumented(await send({}));
      if (requiredOf(schema).length > 0 || schema['minProperties'] || schema['oneOf']) {
        expect({ key, status: empty.status }).toEqual({ key, status: 422 });
        const missing = (empty.body.errors as { path: string; message: string }[])
          .filter((e) => /is required$/.test(e.message))
          .map((e) => e.path);
        expect({ key, missing: missing.sort() }).toEqual({ key, missing: requiredOf(schema).sort() });
      }
      // a documented-valid body plus one undocumented field: that field is the only complaint
      const sample = VALID[key]![VALID[key]!.length - 1] as object;
      const res = expectDocumented(await send({ ...sample, undocumentedField: 1 }));
      expect({ key, status: res.status, errors: res.body.errors }).toEqual({
        key,
        status: 422,
        errors: [{ path: 'undocumentedField', message: expect.stringMatching(/not allowed/) }],
      });
    }
    const unknownQuery = await t.request.get('/v1/groups?sort=name').set(ada.auth);
    expect(unknownQuery.status).toBe(422);
  });

  it('answers every documented operation as documented (status and body against the response schemas)', async () => {
    type Options = {
      user?: TestUser;
      key?: string | true;
      body?: unknown;
      raw?: { type: string; text: string };
      headers?: Record<string, string>;
    };
    const call = async (
      method: 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete',
      url: string,
      o: Options = {},
    ) => {
      let req = t.request[method](url);
      if (o.user) req = req.set(o.user.auth);
      if (o.key) req = req.set('Idempotency-Key', o.key === true ? newKey() : o.key);
      for (const [name, value] of Object.entries(o.headers ?? {})) req = req.set(name, value);
      let res: Response;
      if (o.raw) res = await req.set('Content-Type', o.raw.type).send(o.raw.text);
      else if (o.body !== undefined) res = await req.send(o.body as object);
      else res = await req;
      return expectDocumented(res);
    };
    const expectStatus = (res: Response, status: number): void => {
      const url = (res as unknown as { req: { path: string } }).req.path;
      const body = res.status === status ? undefined : res.body;
      expect({ url, status: res.status, body }).toEqual({ url, status, body: undefined });
    };

    // auth
    const email = uniqueEmail('Cy');
    const credentials = { email, name: 'Cy', password: 'correct horse battery' };
    const registered = await call('post', '/v1/auth/register', { body: credentials });
    expectStatus(registered, 201);
    const cy: TestUser = {
      ...registered.body.user,
      accessToken: registered.body.accessToken,
      refreshToken: registered.body.refreshToken,
      auth: { Authorization: `Bearer ${registered.body.accessToken}` },
    };
    expectStatus(await call('post', '/v1/auth/register', { body: credentials }), 409);
    expectStatus(await call('post', '/v1/auth/register', { body: { email } }), 422);
    expectStatus(
      await call('post', '/v1/auth/login', { body: { email, password: credentials.password } }),
      200,
    );
    expectStatus(await call('post', '/v1/auth/login', { body: { email, password: 'wrong password' } }), 401);
    expectStatus(await call('post', '/v1/auth/refresh', { body: { refreshToken: cy.refreshToken } }), 200);
    expectStatus(await call('post', '/v1/auth/refresh', { body: { refreshToken: 'rt_garbage' } }), 401);
    const me = await call('get', '/v1/me', { user: cy });
    expectStatus(me, 200);
    expectStatus(
      await call('get', '/v1/me', { user: cy, headers: { 'If-None-Match': String(me.headers['etag']) } }),
      304,
    );
    expectStatus(await call('get', '/v1/me'), 401);

    // password reset and change
    const zed = await t.register('Zed');
    expectStatus(await call('post', '/v1/auth/password-reset', { body: { email: zed.email } }), 202);
    expectStatus(await call('post', '/v1/auth/password-reset', { body: { email: 'x' } }), 422);
    const resetToken = randomBytes(32).toString('base64url');
    await t.server.knex('password_resets').insert({
      token_hash: createHash('sha256').update(resetToken).digest('hex'),
      user_id: zed.id,
      created_at: new Date(),
      expires_at: new Date(Date.now() + 60_000),
    });
    const confirmBody = { token: resetToken, password: 'a new horse battery' };
    expectStatus(await call('post', '/v1/auth/password-reset/confirm', { body: confirmBody }), 204);
    expectStatus(await call('post', '/v1/auth/password-reset/confirm', { body: confirmBody }), 400);
    // The reset ended every session of Zed's, the one of his access token too: he signs in again.
    const signedIn = await call('post', '/v1/auth/login', {
      body: { email: zed.email, password: 'a new horse battery' },
    });
    expectStatus(signedIn, 200);
    const zedAgain: TestUser = {
      ...zed,
      accessToken: signedIn.body.accessToken,
      refreshToken: signedIn.body.refreshToken,
      auth: { Authorization: `Bearer ${signedIn.body.accessToken}` },
    };
    const changeBody = { current: 'a new horse battery', new: 'correct horse battery' };
    expectStatus(await call('post', '/v1/me/password', { user: zedAgain, body: changeBody }), 204);
    expectStatus(await call('post', '/v1/me/password', { user: zedAgain, body: changeBody }), 403);

    // email verification and change (API.md §2.5)
    const verifyToken = randomBytes(32).toString('base64url');
    await t.server.knex('email_verifications').insert({
      token_hash: createHash('sha256').update(verifyToken).digest('hex'),
      user_id: zed.id,
      email: zed.email,
      email_normalized: zed.email,
      // Older than the hour the mails are counted in: it does not use up one of Zed's 3.
      created_at: new Date(Date.now() - 2 * 3600_000),
      expires_at: new Date(Date.now() + 60_000),
    });
    expectStatus(await call('post', '/v1/auth/verify-email', { body: { token: verifyToken } }), 204);
    expectStatus(await call('post', '/v1/auth/verify-email', { body: { token: verifyToken } }), 404);
    const newAddress = { email: uniqueEmail('Zed.New'), password: 'correct horse battery' };
    expectStatus(await call('post', '/v1/me/email', { user: zedAgain, body: newAddress }), 202);
    expectStatus(
      await call('post', '/v1/me/email', { user: zedAgain, body: { ...newAddress, password: 'wrong' } }),
      403,
    );
    expectStatus(
      await call('post', '/v1/me/email', { user: zedAgain, body: { ...newAddress, email: email } }),
      409,
    );
    expectStatus(await call('post', '/v1/me/email/verification', { user: zedAgain }), 202);
    expectStatus(
      await call('post', '/v1/me/email', {
        user: zedAgain,
        body: { email: zed.email, password: 'correct horse battery' },
      }),
      204,
    );
    expectStatus(await call('post', '/v1/me/email/verification', { user: zedAgain }), 204);

    // groups and members
    const bob = await t.register('Bob');
    const dee = await t.register('Dee');
    const created = await call('post', '/v1/groups', {
      user: cy,
      key: true,
      body: { name: 'Trip', currency: 'EUR' },
    });
    expectStatus(created, 201);
    const groupId = created.body.id as string;
    expectStatus(await call('post', '/v1/groups', { user: cy, body: {} }), 422);
    expectStatus(await call('get', '/v1/groups', { user: cy }), 200);
    const group = await call('get', `/v1/groups/${groupId}`, { user: cy });
    expectStatus(group, 200);
    expectStatus(await call('head', `/v1/groups/${groupId}`, { user: cy }), 200);
    expectStatus(
      await call('get', `/v1/groups/${groupId}`, {
        user: cy,
        headers: { 'If-None-Match': String(group.headers['etag']) },
      }),
      304,
    );
    expectStatus(await call('get', '/v1/groups/grp_unknown', { user: cy }), 404);
    expectStatus(await call('get', `/v1/groups/${groupId}`, { user: bob }), 404);
    expectStatus(
      await call('patch', `/v1/groups/${groupId}`, {
        user: cy,
        headers: { 'If-Match': '"v99"' },
        body: { name: 'X' },
      }),
      412,
    );
    expectStatus(
      await call('patch', `/v1/groups/${groupId}`, { user: cy, body: { description: 'Goa' } }),
      200,
    );
    for (const user of [bob, dee]) {
      expectStatus(
        await call('post', `/v1/groups/${groupId}/members`, { user: cy, body: { userId: user.id } }),
        201,
      );
    }
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members`, { user: cy, body: { userId: bob.id } }),
      200,
    );
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members`, {
        user: cy,
        body: { email: uniqueEmail('nobody') },
      }),
      404,
    );
    expectStatus(await call('delete', `/v1/groups/${groupId}/members/${dee.id}`, { user: cy }), 204);

    // expenses
    const dinner = {
      groupId,
      description: 'Dinner',
      amount: 1000,
      paidBy: cy.id,
      split: { type: 'equal', between: [cy.id, bob.id] },
    };
    const key = newKey();
    const expense = await call('post', '/v1/expenses', { user: cy, key, body: dinner });
    expectStatus(expense, 201);
    const expenseId = expense.body.id as string;
    const replay = await call('post', '/v1/expenses', { user: cy, key, body: dinner });
    expectStatus(replay, 201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expectStatus(
      await call('post', '/v1/expenses', { user: cy, key, body: { ...dinner, amount: 1001 } }),
      409,
    );
    expectStatus(await call('post', '/v1/expenses', { user: cy, body: dinner }), 400);
    expectStatus(
      await call('post', '/v1/expenses', { user: cy, key: true, body: { ...dinner, paidBy: dee.id } }),
      422,
    );
    expectStatus(
      await call('post', '/v1/expenses', {
        user: cy,
        key: true,
        body: { ...dinner, split: { type: 'exact', between: [{ userId: cy.id, amount: 1 }] } },
      }),
      422,
    );
    expectStatus(
      await call('post', '/v1/expenses', { user: cy, key: true, raw: { type: 'text/plain', text: 'hi' } }),
      415,
    );
    expectStatus(
      await call('post', '/v1/expenses', {
        user: cy,
        key: true,
        raw: { type: 'application/json', text: '{"groupId":' },
      }),
      400,
    );
    expectStatus(
      await call('post', '/v1/expenses', {
        user: cy,
        key: true,
        body: { ...dinner, description: 'x'.repeat(70_000) },
      }),
      413,
    );
    expectStatus(
      await call('post', '/v1/expenses', { user: bob, key: true, body: { ...dinner, groupId: 'grp_none' } }),
      404,
    );
    const fetched = await call('get', `/v1/expenses/${expenseId}`, { user: cy });
    expectStatus(fetched, 200);
    expectStatus(
      await call('get', `/v1/expenses/${expenseId}`, {
        user: cy,
        headers: { 'If-None-Match': String(fetched.headers['etag']) },
      }),
      304,
    );
    const clientId = `taxi-${Date.now()}`;
    const taxi = { ...dinner, description: 'Taxi', amount: 300, paidBy: bob.id };
    expectStatus(await call('put', `/v1/expenses/${clientId}`, { user: bob, key: true, body: taxi }), 201);
    expectStatus(
      await call('put', `/v1/expenses/${clientId}`, { user: bob, key: true, body: { ...taxi, amount: 400 } }),
      200,
    );
    expectStatus(
      await call('patch', `/v1/expenses/${clientId}`, {
        user: bob,
        key: true,
        headers: { 'If-Match': '"v99"' },
        body: { amount: 5 },
      }),
      412,
    );
    expectStatus(
      await call('patch', `/v1/expenses/${clientId}`, {
        user: bob,
        key: true,
        body: { category: 'transport' },
      }),
      200,
    );
    expectStatus(await call('delete', `/v1/expenses/${clientId}`, { user: bob, key: true }), 204);
    expectStatus(await call('get', `/v1/expenses/${clientId}`, { user: bob }), 404);
    expectStatus(await call('put', `/v1/expenses/${clientId}`, { user: bob, key: true, body: taxi }), 404);
    expectStatus(await call('post', `/v1/expenses/${clientId}/restore`, { user: bob, key: true }), 200);

    // settlements, balances and the lists
    const paidBack = { groupId, fromUserId: bob.id, toUserId: cy.id, amount: 100 };
    const settlement = await call('post', '/v1/settlements', { user: bob, key: true, body: paidBack });
    expectStatus(settlement, 201);
    expectStatus(
      await call('post', '/v1/settlements', {
        user: bob,
        key: true,
        body: { ...paidBack, toUserId: dee.id },
      }),
      422,
    );
    expectStatus(await call('get', `/v1/settlements/${settlement.body.id}`, { user: cy }), 200);
    expectStatus(await call('delete', `/v1/settlements/${settlement.body.id}`, { user: cy, key: true }), 204);
    expectStatus(await call('get', `/v1/settlements/${settlement.body.id}`, { user: cy }), 404);
    expectStatus(await call('post', '/v1/settlements', { user: bob, key: true, body: paidBack }), 201);
    expectStatus(await call('delete', `/v1/groups/${groupId}/members/${bob.id}`, { user: cy }), 409);
    expectStatus(await call('get', `/v1/groups/${groupId}/balances`, { user: cy }), 200);
    const rates = { base: 'EUR', rates: { INR: '80.0400', USD: '1.1414' }, asOf: '2018-12-21' };
    expectStatus(await call('put', `/v1/groups/${groupId}/rates`, { user: cy, body: rates }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/rates`, { user: cy }), 200);
    const splitwise = {
      format: 'splitwise-csv',
      csv: 'Date,Description,Category,Cost,Currency,Cy,Bob\r\n2024-01-05,Lunch,General,20.00,INR,10.00,-10.00\r\n',
      members: { Cy: cy.id, Bob: bob.id },
    };
    const imported = await call('post', `/v1/groups/${groupId}/imports`, {
      user: cy,
      key: true,
      body: splitwise,
    });
    expectStatus(imported, 201);
    expectStatus(await call('get', `/v1/groups/${groupId}/imports/${imported.body.id}`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/imports/imp_unknown`, { user: cy }), 404);
    const refusals = `/v1/groups/${groupId}/imports/${imported.body.id}/refusals`;
    expectStatus(await call('get', `${refusals}?limit=1`, { user: cy }), 200);
    expectStatus(await call('get', `${refusals}?cursor=not-ours`, { user: cy }), 422);
    expectStatus(await call('get', `/v1/groups/${groupId}/imports/imp_unknown/refusals`, { user: cy }), 404);
    expectStatus(await call('get', `/v1/groups/${groupId}/balances?in=EUR`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/balances?in=JPY`, { user: cy }), 422);
    expectStatus(await call('get', `/v1/groups/${groupId}/expenses?limit=1`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/settlements`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/groups/${groupId}/expenses?cursor=not-ours`, { user: cy }), 422);
    // search and comments (API.md §5.1, §5.2)
    expectStatus(
      await call('get', `/v1/groups/${groupId}/expenses?q=taxi&involves=${bob.id}&includeDeleted=true`, {
        user: cy,
      }),
      200,
    );
    expectStatus(
      await call('get', `/v1/groups/${groupId}/expenses?from=2026-02-30T00:00:00Z`, { user: cy }),
      422,
    );
    const comment = await call('post', `/v1/expenses/${clientId}/comments`, {
      user: bob,
      key: true,
      body: { text: '<b>Paid</b> in cash' },
    });
    expectStatus(comment, 201);
    expectStatus(
      await call('post', `/v1/expenses/${clientId}/comments`, { user: dee, key: true, body: { text: 'x' } }),
      404,
    );
    const kept = await call('post', '/v1/settlements', { user: bob, key: true, body: paidBack });
    expectStatus(kept, 201);
    expectStatus(
      await call('post', `/v1/settlements/${kept.body.id}/comments`, {
        user: cy,
        key: true,
        body: { text: 'Thanks' },
      }),
      201,
    );
    expectStatus(await call('get', `/v1/expenses/${clientId}/comments`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/settlements/${kept.body.id}/comments?limit=1`, { user: bob }), 200);
    expectStatus(await call('delete', `/v1/comments/${comment.body.id}`, { user: cy, key: true }), 403);
    expectStatus(await call('delete', `/v1/comments/${comment.body.id}`, { user: bob, key: true }), 204);
    // recurring expenses (API.md §6a)
    const rent = {
      expense: {
        description: 'Rent',
        amount: 900,
        paidBy: cy.id,
        split: { type: 'equal', between: [cy.id, bob.id] },
      },
      schedule: { every: 'month', startsOn: '2030-01-31', timeZone: 'Europe/Berlin' },
    };
    const recurring = await call('post', `/v1/groups/${groupId}/recurring`, {
      user: cy,
      key: true,
      body: rent,
    });
    expectStatus(recurring, 201);
    expectStatus(await call('post', `/v1/groups/${groupId}/recurring`, { user: cy, body: rent }), 400);
    expectStatus(
      await call('post', `/v1/groups/${groupId}/recurring`, {
        user: cy,
        key: true,
        body: { ...rent, schedule: { ...rent.schedule, timeZone: 'Nowhere/Else' } },
      }),
      422,
    );
    expectStatus(await call('get', `/v1/groups/${groupId}/recurring`, { user: cy }), 200);
    expectStatus(await call('get', `/v1/recurring/${recurring.body.id}`, { user: bob }), 200);
    expectStatus(await call('get', `/v1/recurring/${recurring.body.id}`, { user: dee }), 404);
    expectStatus(
      await call('patch', `/v1/recurring/${recurring.body.id}`, {
        user: bob,
        key: true,
        headers: { 'If-Match': '"v99"' },
        body: { expense: { amount: 5 } },
      }),
      412,
    );
    expectStatus(
      await call('patch', `/v1/recurring/${recurring.body.id}`, {
        user: bob,
        key: true,
        body: { schedule: { every: 'year' } },
      }),
      200,
    );
    expectStatus(await call('delete', `/v1/recurring/${recurring.body.id}`, { user: cy, key: true }), 204);
    expectStatus(await call('get', `/v1/recurring/${recurring.body.id}`, { user: cy }), 404);

    const events = await call('get', `/v1/groups/${groupId}/events?limit=100`, { user: cy });
    expectStatus(events, 200);
    // every event type was validated against its own schema
    const types = new Set((events.body.data as { type: string }[]).map((e) => e.type));
    expect([...types].sort()).toEqual([
      'comment.created',
      'comment.deleted',
      'expense.created',
      'expense.deleted',
      'expense.updated',
      'group.updated',
      'import.completed',
      'import.started',
      'member.added',
      'member.removed',
      'rates.updated',
      'recurring.created',
      'recurring.deleted',
      'recurring.updated',
      'settlement.created',
      'settlement.deleted',
    ]);
    const restored = (events.body.data as { type: string; data: { restored?: boolean } }[]).filter(
      (e) => e.type === 'expense.created' && e.data.restored,
    );
    expect(restored).toHaveLength(1);

    // pending members, invites and claims (API.md §3.1–§3.3)
    const patEmail = uniqueEmail('Pat');
    const pat = await call('post', `/v1/groups/${groupId}/members`, {
      user: cy,
      body: { name: 'Pat', email: patEmail },
    });
    expectStatus(pat, 201);
    const pam = await call('post', `/v1/groups/${groupId}/members`, { user: cy, body: { name: 'Pam' } });
    expectStatus(pam, 201);
    const invite = await call('post', `/v1/groups/${groupId}/invites`, {
      user: cy,
      body: { expiresInDays: 3 },
    });
    expectStatus(invite, 201);
    expectStatus(await call('get', `/v1/groups/${groupId}/invites`, { user: cy }), 200);
    const eve = await t.register('Eve');
    expectStatus(await call('get', `/v1/invites/${invite.body.code}`, { user: eve }), 200);
    expectStatus(
      await call('post', `/v1/invites/${invite.body.code}/accept`, {
        user: eve,
        body: { asMember: pam.body.userId },
      }),
      201,
    );
    expectStatus(await call('post', `/v1/invites/${invite.body.code}/accept`, { user: eve }), 200);
    const fay = await t.register('Fay');
    expectStatus(
      await call('post', `/v1/invites/${invite.body.code}/accept`, {
        user: fay,
        body: { asMember: pam.body.userId },
      }),
      409,
    );
    const patRegistered = await call('post', '/v1/auth/register', {
      body: { email: patEmail, name: 'Pat', password: 'correct horse battery' },
    });
    expectStatus(patRegistered, 201);
    const patAccount: TestUser = {
      ...patRegistered.body.user,
      accessToken: patRegistered.body.accessToken,
      refreshToken: patRegistered.body.refreshToken,
      auth: { Authorization: `Bearer ${patRegistered.body.accessToken}` },
    };
    expectStatus(await call('get', '/v1/me/claimable-members', { user: patAccount }), 200);
    const activity = await call('get', '/v1/me/activity?limit=2', { user: cy });
    expectStatus(activity, 200);
    expectStatus(
      await call('post', '/v1/me/activity/read', { user: cy, body: { upTo: activity.body.data[0].id } }),
      200,
    );
    expectStatus(
      await call('post', '/v1/me/activity/read', { user: cy, body: { upTo: 'evt_unknown' } }),
      404,
    );
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members/${pam.body.userId}/claim`, { user: patAccount }),
      404,
    );
    // Not before Pat's address is verified (API.md §2.5).
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members/${pat.body.userId}/claim`, { user: patAccount }),
      403,
    );
    await t.server.knex('users').where({ id: patAccount.id }).update({ email_verified_at: new Date() });
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members/${pat.body.userId}/claim`, { user: patAccount }),
      201,
    );
    expectStatus(
      await call('post', `/v1/groups/${groupId}/members/${pat.body.userId}/claim`, { user: patAccount }),
      200,
    );
    expectStatus(await call('delete', `/v1/groups/${groupId}/invites/${invite.body.id}`, { user: cy }), 204);
    expectStatus(await call('get', `/v1/invites/${invite.body.code}`, { user: fay }), 404);
    expectStatus(await call('post', `/v1/invites/${invite.body.code}/accept`, { user: fay }), 404);
    expectStatus(await call('get', `/v1/groups/${groupId}`, { user: cy }), 200);
    const memberEvents = await call(
      'get',
      `/v1/groups/${groupId}/events?afterSeq=${events.body.data.at(-1).seq}`,
      {
        user: cy,
      },
    );
    expectStatus(memberEvents, 200);
    expect([...new Set((memberEvents.body.data as { type: string }[]).map((e) => e.type))].sort()).toEqual([
      'invite.created',
      'invite.revoked',
      'member.added',
      'member.claimed',
    ]);

    // exports and account deletion (API.md §11)
    expectStatus(await call('get', `/v1/groups/${groupId}/export.csv`, { user: cy }), 200);
    expectStatus(await call('get', '/v1/me/export', { user: cy }), 200);
    expectStatus(await call('delete', '/v1/me', { user: await t.register('Leaver') }), 204);

    // sessions and signing out (API.md §2)
    const traveller = await t.register('Traveller');
    const sessions = await call('get', '/v1/me/sessions', { user: traveller });
    expectStatus(sessions, 200);
    expectStatus(
      await call('delete', `/v1/me/sessions/${sessions.body.data[0].id}`, { user: traveller }),
      204,
    );
    expectStatus(await call('post', '/v1/auth/logout', { user: await t.register('Out') }), 204);
    expectStatus(await call('post', '/v1/auth/logout-all', { user: await t.register('AllOut') }), 204);

    // operations
    expectStatus(await call('get', '/healthz'), 200);
    expectStatus(await call('get', '/readyz'), 200);
    expectStatus(await call('get', '/metrics'), 200);
    expectStatus(await call('get', '/v1/openapi.json'), 200);
    expectStatus(await call('get', '/docs'), 200);

    // the check is not vacuous: the same answers, altered, are refused
    const { version: _version, ...unversioned } = group.body as Record<string, unknown>;
    const altered = [
      { ...group, body: unversioned },
      { ...group, body: { ...group.body, members: [{ userId: cy.id }] } },
      { ...group, status: 201 },
      { ...group, headers: { ...group.headers, 'content-type': 'text/html' } },
    ];
    for (const res of altered) {
      expect(responseErrors('GET', `/v1/groups/${groupId}`, res)).not.toEqual([]);
    }
    const problem = await t.request.get('/v1/groups/grp_unknown').set(cy.auth);
    expect(
      responseErrors('GET', '/v1/groups/{groupId}', {
        ...problem,
        body: { ...problem.body, code: 'email_taken' },
      }),
    ).not.toEqual([]);

    // every HTTP operation of the document answered with a success that was validated
    const succeeded = documented
      .filter((d) => d.op['x-websocket'] !== true)
      .filter((d) => ![...checkedResponses].some((c) => c.startsWith(`${d.key} 2`)))
      .map((d) => d.key);
    expect(succeeded).toEqual([]);
  });

  it('speaks the WebSocket protocol as documented (ServerMessage and ClientMessage schemas)', async () => {
    const bob = await t.register('Bob');
    const groupId = await t.createGroup(ada, [bob]);
    const socket = await TestSocket.open(t.url, bob.accessToken);
    const sent: unknown[] = [];
    const send = (message: unknown) => {
      sent.push(message);
      socket.send(message);
    };
    try {
      await socket.next((m) => m.type === 'welcome');
      send({ type: 'subscribe', id: 's1', groupId, afterSeq: 0 });
      await socket.next((m) => m.type === 'subscribed');
      await socket.next((m) => m.type === 'presence');
      const write = (method: 'post' | 'patch', url: string, body: object) =>
        t.request[method](url).set(ada.auth).set('Idempotency-Key', newKey()).send(body);
      const expense = await write('post', '/v1/expenses', {
        groupId,
        description: 'Tea',
        amount: 90,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id, bob.id] },
      });
      expect(expense.status).toBe(201);
      await socket.next((m) => m.type === 'event');
      send({ type: 'ping', id: 'p1' });
      await socket.next((m) => m.type === 'pong');
      const login = await t.request
        .post('/v1/auth/login')
        .send({ email: bob.email, password: 'correct horse battery' });
      send({ type: 'auth', id: 'a1', accessToken: login.body.accessToken });
      await socket.next((m) => m.type === 'authenticated');
      send({ type: 'subscribe', id: 's2', groupId: 'grp_unknown' });
      await socket.next((m) => m.type === 'error' && m['code'] === 'not_found');
      socket.send('not json');
      await socket.next((m) => m.type === 'error' && m['code'] === 'bad_message');
      send({ type: 'unsubscribe', id: 'u1', groupId });
      await socket.next((m) => m.type === 'unsubscribed');
    } finally {
      socket.close();
    }
    const invalid = (schema: string, messages: unknown[]) =>
      messages
        .map((message) => ({ message, errors: componentErrors(schema, message) }))
        .filter(({ errors }) => errors.length > 0);
    expect(invalid('ServerMessage', socket.messages)).toEqual([]);
    expect(invalid('ClientMessage', sent)).toEqual([]);
    expect(new Set(socket.messages.map((m: Message) => m.type))).toEqual(
      new Set([
        'welcome',
        'subscribed',
        'presence',
        'event',
        'pong',
        'authenticated',
        'error',
        'unsubscribed',
      ]),
    );
    // the schemas are not vacuous
    expect(componentErrors('ServerMessage', { type: 'welcome' })).not.toEqual([]);
    expect(componentErrors('ServerMessage', { type: 'error', code: 'teapot' })).not.toEqual([]);
    expect(componentErrors('ClientMessage', { type: 'subscribe' })).not.toEqual([]);
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
      const isMoneyWrite =
        method !== 'get' &&
        /^\/v1\/(expenses|settlements|recurring|comments)|\/(recurring|imports)$/.test(path);
      const isGroupWrite =
        method !== 'get' &&
        (path.startsWith('/v1/groups') ||
          path.startsWith('/v1/invites') ||
          path === '/v1/me/activity/read') &&
        !isMoneyWrite;
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
        (method === 'patch' && path === '/v1/groups/{groupId}') ||
        (['patch', 'delete'].includes(method) && path === '/v1/recurring/{recurringId}');
      expect({ key, ifMatch: params.includes('IfMatch') }).toEqual({ key, ifMatch });
      // Signing out needs the access token of the session it ends (API.md §2).
      const isPublic =
        !/^\/v1\/auth\/logout/.test(path) &&
        /^\/v1\/auth\/|^\/healthz$|^\/readyz$|^\/metrics$|^\/docs$|^\/v1\/openapi\.json$/.test(path);
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

  describe('is exactly as strict as the API where clients most often meet it', () => {
    const keySchema = () => validatorAt('components', 'parameters', 'IdempotencyKeyRequired', 'schema');
    const documentAcceptsKey = (value: string) => keySchema()(value) as boolean;
    const apiAcceptsKey = (value: string) => parseIdempotencyKey(value).ok;

    it('Idempotency-Key: the document permits exactly the keys parseIdempotencyKey accepts (property)', () => {
      const parameters = doc.components.parameters;
      expect(parameters['IdempotencyKeyOptional']!['schema']).toEqual(
        parameters['IdempotencyKeyRequired']!['schema'],
      );
      const unit = fc.constantFrom(' ', '"', 'a', 'Z', '0', '~', '!', '\t', '\u007f', 'é', '\u{1f4b8}');
      // [quote] + n × one character + [quote], n around every bound, and free-form strings
      const shaped = fc
        .tuple(
          fc.constantFrom('', '"'),
          fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 252, max: 260 })),
          unit,
          fc.constantFrom('', '"'),
        )
        .map(([open, n, char, close]) => `${open}${char.repeat(n)}${close}`);
      const free = fc.string({ unit, maxLength: 300 });
      fc.assert(
        fc.property(fc.oneof(shaped, free), (value) => {
          expect({ value, document: documentAcceptsKey(value) }).toEqual({
            value,
            document: apiAcceptsKey(value),
          });
        }),
        { numRuns: 3000 },
      );
      // the bounds themselves
      const x = (n: number) => 'x'.repeat(n);
      const table = [
        ['', false],
        ['k', true],
        [x(255), true],
        [x(256), false],
        [`"${x(255)}"`, true],
        [`"${x(256)}"`, false],
        ['""', false],
        ['" "', false],
        ['"', true],
        ['"a', true],
        ['"""', true],
        ['   ', false],
      ] as const;
      for (const [value, accepted] of table) {
        expect({ value, api: apiAcceptsKey(value), document: documentAcceptsKey(value) }).toEqual({
          value,
          api: accepted,
          document: accepted,
        });
      }
    });

    it('Idempotency-Key: the running API answers 400 exactly for the keys the document refuses', async () => {
      const x = (n: number) => 'x'.repeat(n);
      const unique = () => newKey().replace(/-/g, '');
      const keys = [
        unique(),
        `${unique()}${x(255 - 32)}`,
        `${unique()}${x(256 - 32)}`,
        `"${unique()}${x(255 - 32)}"`,
        `"${unique()}${x(256 - 32)}"`,
        '""',
        '" "',
        `"${unique()}`,
        `a"${unique()}"b`,
        `tab\t${unique()}`,
        `caf\u00e9-${unique()}`,
      ];
      for (const key of keys) {
        const res = expectDocumented(
          await t.request
            .post('/v1/groups')
            .set(ada.auth)
            .set('Idempotency-Key', key)
            .send({ name: 'Keyed' }),
        );
        const expected = documentAcceptsKey(key) ? 201 : 400;
        expect({ key, status: res.status, code: res.body.code }).toEqual({
          key,
          status: expected,
          code: expected === 400 ? 'idempotency_key_invalid' : undefined,
        });
      }
    });

    it('currency: the document enumerates exactly the codes joi accepts, everywhere a currency appears', () => {
      const validate = validatorAt('components', 'schemas', 'Currency');
      expect(doc.components.schemas['Currency']!['enum']).toEqual([...CURRENCY_CODES]);
      expect(CURRENCY_CODES.length).toBeGreaterThan(100);
      // every three capitals, and a few shapes besides
      const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
      const candidates = ['', 'eur', 'Eur', 'EU', 'EURO', ' EUR', 'EUR ', '€'];
      for (const a of letters) for (const b of letters) for (const c of letters) candidates.push(a + b + c);
      const disagreements = candidates.filter(
        (code) => (currency.validate(code).error === undefined) !== validate(code),
      );
      expect(disagreements).toEqual([]);
      // every `currency` of a request or a response is that component
      const text = JSON.stringify(doc);
      const currencies = [...text.matchAll(/"currency":(\{[^{}]*\})/g)].map((m) => JSON.parse(m[1]!));
      expect(currencies.length).toBeGreaterThan(8);
      for (const schema of currencies)
        expect(schema).toMatchObject({ $ref: '#/components/schemas/Currency' });
      expect(text).not.toContain('^[A-Z]{3}$');
    });

    it('currency: the running API refuses the three capitals the document refuses', async () => {
      const notIso = ['QQQ', 'ABC', 'XYZ'].filter((code) => !CURRENCY_CODES.includes(code));
      expect(notIso.length).toBeGreaterThan(0);
      const validate = validatorAt('components', 'schemas', 'Currency');
      const codes = [...notIso, CURRENCY_CODES[0]!, CURRENCY_CODES.at(-1)!, 'INR'];
      for (const code of codes) {
        const res = expectDocumented(
          await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Money', currency: code }),
        );
        expect({ code, status: res.status }).toEqual({ code, status: validate(code) ? 201 : 422 });
      }
    });

    it('trimmed strings: the pattern stands for "1 to n characters once trimmed", as joi checks it', () => {
      const name = Joi.string().trim().min(1).max(5);
      const pattern = new RegExp(trimmedLengthPattern(1, 5), 'u');
      const shaped = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u00a0', 'a', 'é'), maxLength: 9 });
      fc.assert(
        fc.property(shaped, (value) => {
          expect({ value, document: pattern.test(value) }).toEqual({
            value,
            document: name.validate(value).error === undefined,
          });
        }),
        { numRuns: 3000 },
      );
      const group = bodyValidator('POST /v1/groups');
      const padded = `  ${'n'.repeat(100)}  `;
      expect([group({ name: '   ' }), group({ name: padded })]).toEqual([false, true]);
      expect([
        joiAccepts(createGroupBody, { name: '   ' }),
        joiAccepts(createGroupBody, { name: padded }),
      ]).toEqual([false, true]);
    });

    it('U+0000: refused in every string by the running API, and by the document', async () => {
      const cases: [string, string, object][] = [
        ['POST /v1/groups', '/v1/groups', { name: 'a\u0000b' }],
        ['POST /v1/groups', '/v1/groups', { name: 'Trip', description: '\u0000' }],
        [
          'POST /v1/auth/register',
          '/v1/auth/register',
          { email: uniqueEmail('nul'), name: 'N', password: 'pass\u0000word' },
        ],
        ['POST /v1/auth/refresh', '/v1/auth/refresh', { refreshToken: 'rt_\u0000' }],
      ];
      for (const [key, url, body] of cases) {
        const validate = bodyValidator(key);
        const res = expectDocumented(await t.request.post(url).set(ada.auth).send(body));
        expect({ key, body, document: validate(body), status: res.status }).toEqual({
          key,
          body,
          document: false,
          status: 422,
        });
        // the same body without the NUL is fine by the document
        const clean = JSON.parse(JSON.stringify(body).replace(/\\u0000/g, 'x')) as object;
        expect({ key, clean, document: validate(clean) }).toEqual({ key, clean, document: true });
      }
    });

    it('GET /v1/ws without an upgrade: 426 upgrade_required, problem+json with Upgrade: websocket, documented', async () => {
      const plain = [
        await t.request.get('/v1/ws'),
        await t.request.get('/v1/ws').set(ada.auth),
        await t.request.get('/v1/ws?access_token=x'),
        await t.request.get('/v1/ws').set('Upgrade', 'h2c'),
      ];
      for (const res of plain) {
        expectDocumented(res);
        expect({
          status: res.status,
          type: res.headers['content-type'],
          upgrade: res.headers['upgrade'],
          connection: res.headers['connection'],
          code: res.body.code,
          problem: res.body.type,
        }).toEqual({
          status: 426,
          type: 'application/problem+json; charset=utf-8',
          upgrade: 'websocket',
          connection: expect.stringMatching(/upgrade/i),
          code: 'upgrade_required',
          problem: '/problems/upgrade-required',
        });
      }
      expect((await t.request.head('/v1/ws')).status).toBe(426);
      // a gateway process answers it the same way
      const gateway = createProbesApp({
        registry: new Registry(),
        logger: pino({ level: 'silent' }),
        isReady: async () => true,
      });
      const fromGateway = expectDocumented(await request(gateway).get('/v1/ws'));
      expect([fromGateway.status, fromGateway.headers['upgrade'], fromGateway.body.code]).toEqual([
        426,
        'websocket',
        'upgrade_required',
      ]);
      // the upgrade itself is still the gateway's: refused with a bad token, as documented (without
      // one it opens, and must send `auth` first: test/gateway/ws-auth.test.ts)
      const refused = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
        (resolve, reject) => {
          const req = http.get(`${t.url}/v1/ws`, {
            headers: {
              Connection: 'Upgrade',
              Upgrade: 'websocket',
              'Sec-WebSocket-Version': '13',
              'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
              Authorization: 'Bearer not-a-token',
            },
          });
          req.on('upgrade', () => reject(new Error('upgraded with a bad token')));
          req.on('response', (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
          });
          req.on('error', reject);
        },
      );
      expect(
        responseErrors('GET', '/v1/ws', { ...refused, body: JSON.parse(refused.text) as unknown }),
      ).toEqual([]);
      expect(refused.status).toBe(401);
    });

    it('docs/API.md lists every problem code the document declares (and no other)', () => {
      const api = readFileSync(path.resolve(__dirname, '../../docs/API.md'), 'utf8');
      const listed = [...api.matchAll(/^\| (\d{3})\s+\| `([a-z_]+)`/gm)].map(([, status, code]) => ({
        code: code as string,
        status: Number(status),
      }));
      const declared = ERROR_CODES.filter((code) => code !== 'internal_error');
      expect(listed.map((l) => l.code).sort()).toEqual([...declared].sort());
      for (const { code, status } of listed) {
        expect({ code, status }).toEqual({ code, status: ERROR_STATUS[code as DocumentedErrorCode] });
      }
      const ws = operation('GET /v1/ws').op['responses'] as Record<string, JsonSchema>;
      expect(Object.keys(ws).sort()).toEqual(['101', '401', '426', '429', '503']);
    });
  });

  it('serves /docs: Swagger UI from the pinned swagger-ui-dist package, nothing from elsewhere', async () => {
    const res = expectDocumented(await t.request.get('/docs'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(DOCS_CSP).toMatch(/default-src 'none'/);
    expect(DOCS_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(res.text).not.toMatch(/https?:\/\//); // no CDN: it works offline
    expect(res.text).not.toMatch(/<script>|<style>|\son\w+=/); // nothing inline for the policy to allow
    expect(res.text).toContain('data-spec-url="/v1/openapi.json"');
    expect(res.text).toContain(`src="${DOCS_ASSETS}/swagger-ui-bundle.js"`);
    expect(res.text).toContain(`src="${DOCS_SCRIPT_PATH}"`);

    // pinned: the API's package.json names the exact version that is installed and served
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../apps/api/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies['swagger-ui-dist']).toBe(SWAGGER_UI_VERSION);
    expect(DOCS_ASSETS).toBe(`/docs/assets/swagger-ui-dist@${SWAGGER_UI_VERSION}`);

    // the files are the package's own, byte for byte, cacheable for good (the version is in the path)
    for (const file of SWAGGER_UI_FILES) {
      const asset = await t.request
        .get(`${DOCS_ASSETS}/${file}`)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (chunk: Buffer) => chunks.push(chunk));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect({ file, status: asset.status }).toEqual({ file, status: 200 });
      expect((asset.body as Buffer).equals(readFileSync(require.resolve(`swagger-ui-dist/${file}`)))).toBe(
        true,
      );
      expect(asset.headers['cache-control']).toMatch(/immutable/);
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
    }
    const script = await t.request.get(DOCS_SCRIPT_PATH);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain('validatorUrl: null');
    // only those files: the rest of the package (and anything else) is not served
    for (const other of ['package.json', 'index.html', 'swagger-initializer.js', '../package.json']) {
      expect((await t.request.get(`${DOCS_ASSETS}/${other}`)).status).toBe(404);
    }
  });

  it('escapes what it inserts into the docs page', () => {
    const page = docsPage('/x"><script>alert(1)</script>');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain(escapeHtml('/x"><script>alert(1)</script>'));
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
