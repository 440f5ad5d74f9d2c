/**
 * What the fuzz tests share: the generators of bad input (random JSON values, malformed JSON,
 * mutated valid bodies, odd headers and query strings; seeded by `TEST_SEED`), one real server per
 * test file (`useFuzzServer()`) with a group and an expense, the write endpoints, and the check every
 * answer gets: never a 5xx, problem+json with a consistent `code`, and a failure that changed nothing.
 * The bindings are ES module live bindings: set in `beforeAll`, read by the tests after it.
 */
import fc from 'fast-check';
import type { Response, Test } from 'supertest';
import { testSeed } from '../support/random';
import { newKey, startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';

export type Method = 'post' | 'put' | 'patch';
export type Endpoint = {
  name: string;
  method: Method;
  path: () => fc.Arbitrary<string>;
  /** Needs a bearer token (everything but /v1/auth/*). */
  auth: boolean;
  /** A body the endpoint accepts; mutations of it reach deep validation. */
  valid: () => Record<string, unknown>;
  /** Extra paths inside the body worth mutating (beyond its top-level keys). */
  deepPaths?: string[];
};
export type BodyCase = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string } | { kind: 'none' };
export type Case = {
  body: BodyCase;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  authorization: 'valid' | 'none' | string;
  query: string;
};

export const MAX_BODY_BYTES = 64 * 1024;
/** The seed of every property below (TEST_SEED replays a run; a failure names it). */
export const SEED = testSeed();

// ---- generic building blocks ---------------------------------------------------------------------
export const badValues: unknown[] = [
  1e308,
  -1e308,
  2 ** 53 + 1,
  2 ** 53,
  1e12 + 1,
  100.5,
  0.1,
  1e-7,
  Number.MIN_VALUE,
  -1,
  -100000,
  0,
  '100',
  '1e3',
  '100.5',
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000',
  '😀'.repeat(300),
  null,
  true,
  false,
  [],
  {},
  [1, 2, 3],
  { a: { b: { c: [null, { d: [] }] } } },
  'usr_00000000000000000000000000',
  'grp_not-a-group',
  'inr',
  'XXX',
  '2026-13-45T99:99:99Z',
];
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...badValues) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) },
  { weight: 1, arbitrary: fc.oneof(fc.double(), fc.integer({ min: -(2 ** 31), max: -1 })) },
);

export const malformedJson: string[] = [
  '{',
  '}',
  '{"name":',
  '{"name":"x"',
  "{'name':'x'}",
  '{name:"x"}',
  '{"name":"x",}',
  '[1,2',
  'undefined',
  'NaN',
  'Infinity',
  '{"a":1}}',
  '{"a":01}',
  '{"a":0x10}',
  '{"a":.5}',
  '"unterminated',
  '\u0000',
  '{"a":"\u0001"}',
  '\uFEFF{"a":1}',
];
export const notJson = fc.string({ minLength: 1, maxLength: 200 }).filter((s) => {
  try {
    JSON.parse(s);
    return false;
  } catch {
    return true;
  }
});

export const contentTypes = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/jsonp',
  'application/merge-patch+json',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/json; charset="utf-8"',
  '*/*',
];
export const contentTypeArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 3, arbitrary: fc.constantFrom(...contentTypes) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

// Header values Node lets a client send: no control characters (tab aside), nothing above \xff.
export const oddKeys = [
  '',
  ' ',
  '"',
  '""',
  '"abc',
  'abc"',
  '"a b"',
  'x'.repeat(256),
  'x'.repeat(255),
  '\t',
  'clé-ünïcode',
  '  padded  ',
];
export const idempotencyKeyArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('fresh') },
  { weight: 2, arbitrary: fc.constantFrom(...oddKeys) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }).filter((s) => !/[^\t\x20-\x7e]/.test(s)) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

export const authorizationArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('valid') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'none',
      'Bearer',
      'Bearer garbage',
      'Basic dXNlcjpwYXNz',
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c3JfMDEifQ.',
      `Bearer ${'a'.repeat(5000)}`,
    ),
  },
);

export const queryArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '?limit=-1',
      '?a[b]=c',
      '?__proto__[x]=1',
      '?constructor[prototype][polluted]=1',
      '?%zz',
      '?&&&=&',
      `?q=${'x'.repeat(4000)}`,
      '?amount=1e308&groupId=',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 50 })), { maxLength: 4 })
      .map(
        (pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`,
      ),
  },
);

export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Sets (or with `remove`, deletes) the value at a dotted path, creating containers as needed. */
export function setAt(target: Record<string, unknown>, path: string, value: unknown, remove = false) {
  const keys = path.split('.');
  let node: Record<string, unknown> = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1]!;
  if (remove) delete node[last];
  else node[last] = value;
}

/** Bad bodies for one endpoint: every generator the file's header lists. */
export function bodyArb(endpoint: Endpoint): fc.Arbitrary<BodyCase> {
  const paths = [...Object.keys(endpoint.valid()), ...(endpoint.deepPaths ?? [])];
  const mutated = fc
    .record({
      changes: fc.array(
        fc.record({
          path: fc.constantFrom(...paths),
          value: badValue,
          remove: fc.boolean().map((b) => b && paths.length > 1),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    })
    .map(({ changes }) => {
      const body = clone(endpoint.valid());
      // A copy of each value: the constants of `badValues` are shared, and a later change's deeper
      // path would write into one (a body that contains itself, and every later run's constant).
      for (const { path, value, remove } of changes) setAt(body, path, structuredClone(value), remove);
      return { kind: 'json', value: body } as BodyCase;
    });
  const unknownField = fc
    .tuple(
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.constantFrom('__proto__', 'constructor', 'id', 'version', 'isAdmin'),
      ),
      fc.jsonValue({ maxDepth: 2 }),
    )
    .filter(([key]) => !paths.includes(key))
    .map(
      ([key, value]) =>
        ({
          kind: 'raw',
          text: JSON.stringify(endpoint.valid()).replace(
            /^\{/,
            `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'},`,
          ),
        }) as BodyCase,
    );
  // Number literals JSON.stringify cannot produce, spliced in where money goes.
  const literal = fc
    .record({
      path: fc.constantFrom(...Object.keys(endpoint.valid())),
      token: fc.constantFrom(
        '1e400',
        '-1e400',
        '9007199254740993',
        '1e308',
        '-0',
        '100.5',
        '1.5e3',
        '0.0000001',
      ),
    })
    .map(({ path, token }) => {
      const body = clone(endpoint.valid());
      body[path] = '__TOKEN__';
      return { kind: 'raw', text: JSON.stringify(body).replace('"__TOKEN__"', token) } as BodyCase;
    });
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'json', value }) as BodyCase),
    },
    { weight: 6, arbitrary: mutated },
    { weight: 2, arbitrary: unknownField },
    { weight: 2, arbitrary: literal },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...malformedJson).map((text) => ({ kind: 'raw', text }) as BodyCase),
    },
    { weight: 1, arbitrary: notJson.map((text) => ({ kind: 'raw', text }) as BodyCase) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: MAX_BODY_BYTES - 100, max: MAX_BODY_BYTES + 5000 })
        .map(
          (n) => ({ kind: 'json', value: { ...endpoint.valid(), description: 'd'.repeat(n) } }) as BodyCase,
        ),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' } as BodyCase) },
  );
}

export let t: TestServer;
export let ada: TestUser;
export let bob: TestUser;
export let groupId: string;
export let expenseId: string;

export const expenseBody = () => ({
  groupId,
  description: 'Dinner',
  category: 'food',
  amount: 1000,
  currency: 'INR',
  paidBy: [
    { userId: ada.id, amount: 600 },
    { userId: bob.id, amount: 400 },
  ],
  occurredAt: '2026-11-25T19:30:00.000Z',
  split: {
    type: 'exact',
    between: [
      { userId: ada.id, amount: 500 },
      { userId: bob.id, amount: 500 },
    ],
  },
});
export const expenseDeepPaths = [
  'paidBy.0.amount',
  'paidBy.0.userId',
  'paidBy.1',
  'split.type',
  'split.between',
  'split.between.0',
  'split.between.0.amount',
  'split.between.1.userId',
  'split.extra',
];

export const endpoints: Endpoint[] = [
  {
    name: 'POST /v1/groups',
    method: 'post',
    path: () => fc.constant('/v1/groups'),
    auth: true,
    valid: () => ({ name: 'Trip', currency: 'INR', description: 'Goa' }),
  },
  {
    name: 'PATCH /v1/groups/{id}',
    method: 'patch',
    path: () => fc.constant(`/v1/groups/${groupId}`),
    auth: true,
    valid: () => ({ name: 'Renamed', description: 'Still Goa' }),
  },
  {
    name: 'POST /v1/groups/{id}/members',
    method: 'post',
    path: () => fc.constant(`/v1/groups/${groupId}/members`),
    auth: true,
    valid: () => ({ userId: bob.id }),
  },
  {
    name: 'POST /v1/expenses',
    method: 'post',
    path: () => fc.constant('/v1/expenses'),
    auth: true,
    valid: expenseBody,
    deepPaths: expenseDeepPaths,
  },
  {
    name: 'PUT /v1/expenses/{id}',
    method: 'put',
    path: () =>
      fc.oneof(
        fc.constant(`/v1/expenses/${expenseId}`),
        fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/).map((id) => `/v1/expenses/${id}`),
        fc.string({ maxLength: 80 }).map((id) => `/v1/expenses/${encodeURIComponent(id) || 'x'}`),
        fc.constantFrom(
          '/v1/expenses/%00%00%00%00%00%00%00%00',
          '/v1/expenses/..%2F..%2Fgroups',
          '/v1/expenses/%E0%A4%A',
        ),
      ),
    auth: true,
    valid: expenseBody,
    deepPaths: expenseDeepPaths,
  },
  {
    name: 'PATCH /v1/expenses/{id}',
    method: 'patch',
    path: () => fc.constant(`/v1/expenses/${expenseId}`),
    auth: true,
    valid: () => ({ description: 'Lunch', amount: 1000, category: 'food' }),
    deepPaths: ['split.type', 'split.between', 'paidBy'],
  },
  {
    name: 'POST /v1/settlements',
    method: 'post',
    path: () => fc.constant('/v1/settlements'),
    auth: true,
    valid: () => ({
      groupId,
      fromUserId: bob.id,
      toUserId: ada.id,
      amount: 300,
      currency: 'INR',
      note: 'cash',
    }),
  },
  {
    name: 'POST /v1/auth/register',
    method: 'post',
    path: () => fc.constant('/v1/auth/register'),
    auth: false,
    valid: () => ({ email: uniqueEmail('fuzz'), name: 'Fuzz', password: 'correct horse battery' }),
  },
  {
    name: 'POST /v1/auth/login',
    method: 'post',
    path: () => fc.constant('/v1/auth/login'),
    auth: false,
    valid: () => ({ email: ada.email, password: 'correct horse battery' }),
  },
  {
    name: 'POST /v1/auth/refresh',
    method: 'post',
    path: () => fc.constant('/v1/auth/refresh'),
    auth: false,
    valid: () => ({ refreshToken: 'not-a-real-refresh-token' }),
  },
];

/** Everything a failed request must leave as it was. */
export const state = async () => {
  const { rows } = await t.db!.knex.raw(`
    select (select count(*) from users)::int as users,
           (select count(*) from groups)::int as groups,
           (select count(*) from group_members)::int as group_members,
           (select count(*) from expenses)::int as expenses,
           (select count(*) from settlements)::int as settlements,
           (select count(*) from events)::int as events,
           (select coalesce(sum(version), 0) from groups)::int as group_versions,
           (select coalesce(sum(version), 0) from expenses)::int as expense_versions`);
  return rows[0] as Record<string, number>;
};

export function send(endpoint: Endpoint, path: string, c: Case): Test {
  let req = t.request[endpoint.method](`${path}${c.query}`);
  if (c.authorization === 'valid') req = req.set(ada.auth);
  else if (c.authorization !== 'none') req = req.set('Authorization', c.authorization);
  if (c.idempotencyKey !== undefined)
    req = req.set('Idempotency-Key', c.idempotencyKey === 'fresh' ? newKey() : c.idempotencyKey);
  if (c.body.kind === 'none') return c.contentType ? req.set('Content-Type', c.contentType) : req;
  const text = c.body.kind === 'raw' ? c.body.text : (JSON.stringify(c.body.value) ?? 'null');
  if (c.contentType) req = req.set('Content-Type', c.contentType);
  return req.send(text);
}

/** The properties every answer must have; returns the baseline for the next request. */
export async function checkAnswer(res: Response, before: Record<string, number>, what: () => string) {
  if (res.status >= 500) throw new Error(`${res.status} for ${what()}: ${res.text.slice(0, 500)}`);
  if (res.status < 400) return state();
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toEqual(
    expect.objectContaining({
      code: expect.stringMatching(/^[a-z_]+$/),
      status: res.status,
      title: expect.any(String),
      requestId: expect.any(String),
    }),
  );
  expect(res.body.type).toBe(`/problems/${String(res.body.code).replace(/_/g, '-')}`);
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(ts|js):\d+|select |insert into /i);
  const after = await state();
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    throw new Error(
      `${res.status} ${res.body.code} changed data for ${what()}: ${JSON.stringify({ before, after })}`,
    );
  }
  return after;
}

/** Registers the server's start and stop for the calling file (each file has its own). */
export function useFuzzServer(): void {
  beforeAll(async () => {
    t = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    groupId = await t.createGroup(ada, [bob]);
    const created = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send(expenseBody());
    expect(created.status).toBe(201);
    expenseId = created.body.id;
  });
  afterAll(async () => {
    await t.stop();
  });
}
