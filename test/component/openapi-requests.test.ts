import Joi from 'joi';
import { joiToJsonSchema } from '../../apps/api/src/openapi/joi-to-json-schema';
import { describeErrors, expectDocumented, validatorAt } from '../support/openapi-validator';
import { newKey, type TestServer, type TestUser } from '../support/test-server';
import {
  bodyValidator,
  documented,
  type JsonSchema,
  operation,
  requiredOf,
  resolve,
  startOpenApiServer,
} from './openapi-helpers';
import { BODIES, INVALID, joiAccepts, USR_A, VALID } from './openapi-samples';

describe('OpenAPI document: requests', () => {
  let t: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    ({ t, ada } = await startOpenApiServer());
  });
  afterAll(async () => {
    await t.stop();
  });

  it('agrees with joi on sample bodies: what one accepts the other accepts, what one rejects the other rejects', () => {
    // every documented request body is sampled (and only those)
    // (a receipt's raw file, API.md §16, is binary: no JSON body to sample)
    const isJson = (d: (typeof documented)[number]) =>
      Boolean(
        (d.op['requestBody'] as { content?: Record<string, unknown> } | undefined)?.content?.[
          'application/json'
        ],
      );
    const withBody = documented.filter(isJson).map((d) => d.key);
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
    // A delivery log is listed on an endpoint of the group (API.md §12); `.invalid` never resolves.
    const onWebhook = await t.request
      .post(`/v1/groups/${group}/webhooks`)
      .set(ada.auth)
      .send({ url: 'https://webhooks.invalid/x' });
    expect(onWebhook.status).toBe(201);
    const concrete = (template: string) =>
      template
        .replace('{webhookId}', onWebhook.body.id)
        .replace('{groupId}', group)
        .replace('{expenseId}', onExpense.body.id)
        .replace('{settlementId}', onSettlement.body.id)
        .replace('{importId}', onImport.body.id);
    const lists = documented.filter(
      (d) =>
        d.op['x-websocket'] !== true &&
        d.method === 'get' &&
        (d.op['parameters'] as JsonSchema[]).some((p) => p['in'] === 'query' && !p['$ref']),
    );
    // The one query parameter outside the lists: the unsubscribe link's token (API.md §13.3).
    const unsubscribe = operation('POST /v1/auth/unsubscribe');
    const tokenAt = (unsubscribe.op['parameters'] as JsonSchema[]).findIndex((p) => p['name'] === 'token');
    const validToken = validatorAt(
      'paths',
      unsubscribe.path,
      'post',
      'parameters',
      String(tokenAt),
      'schema',
    );
    expect(['a.b', '', 'x'.repeat(513)].map((token) => validToken(token))).toEqual([true, false, false]);
    for (const query of ['', 'token=', `token=${'x'.repeat(513)}`, 'token=a.b&sort=name']) {
      const res = expectDocumented(await t.request.post(`/v1/auth/unsubscribe?${query}`));
      expect({ query, status: res.status }).toEqual({ query, status: 422 });
    }
    expect(lists.map((d) => d.key).sort()).toEqual([
      'GET /v1/expenses/{expenseId}/comments',
      'GET /v1/expenses/{expenseId}/history',
      'GET /v1/groups',
      'GET /v1/groups/{groupId}/balances',
      'GET /v1/groups/{groupId}/events',
      'GET /v1/groups/{groupId}/expenses',
      'GET /v1/groups/{groupId}/imports/{importId}/refusals',
      'GET /v1/groups/{groupId}/recurring',
      'GET /v1/groups/{groupId}/settlements',
      'GET /v1/groups/{groupId}/stats',
      'GET /v1/groups/{groupId}/webhooks/{webhookId}/deliveries',
      'GET /v1/me/activity',
      'GET /v1/me/stats',
      'GET /v1/settlements/{settlementId}/comments',
      'GET /v1/settlements/{settlementId}/history',
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
});
