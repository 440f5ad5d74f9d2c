import { readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
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
import { openApiDocument } from '../../apps/api/src/openapi/openapi';
import { OPERATIONS, operationById } from '../../apps/api/src/openapi/operations';
import { type Message, TestSocket } from '../gateway/ws-client';
import {
  ajv,
  componentErrors,
  describeErrors,
  expectDocumented,
  validatorAt,
} from '../support/openapi-validator';
import { newKey, type TestServer, type TestUser } from '../support/test-server';
import {
  at,
  buildApp,
  doc,
  documented,
  type JsonSchema,
  registeredRoutes,
  schemaLocations,
  startOpenApiServer,
} from './openapi-helpers';

describe('OpenAPI document', () => {
  let t: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    ({ t, ada } = await startOpenApiServer());
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

  it('finds each operation by its operationId (what the routes declare themselves from), and throws on an unknown one', () => {
    for (const { method, path, op } of documented) {
      expect(operationById(op['operationId'] as string)).toMatchObject({ method, path });
    }
    expect(operationById('createExpense')).toBe(OPERATIONS.find((o) => o.operationId === 'createExpense'));
    expect(() => operationById('noSuchOperation')).toThrow(/noSuchOperation/);
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
      // A group's webhook endpoints are its configuration, not a write to its log: no key (API.md §12).
      const isWebhookSetting = path.startsWith('/v1/groups/{groupId}/webhooks');
      const isGroupWrite =
        method !== 'get' &&
        (path.startsWith('/v1/groups') ||
          path.startsWith('/v1/invites') ||
          path === '/v1/me/activity/read') &&
        !isMoneyWrite &&
        !isWebhookSetting;
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
        (method === 'post' && /^\/v1\/groups\/\{groupId\}\/(un)?archive$/.test(path)) ||
        (['patch', 'delete'].includes(method) && path === '/v1/recurring/{recurringId}');
      expect({ key, ifMatch: params.includes('IfMatch') }).toEqual({ key, ifMatch });
      // Signing out needs the access token of the session it ends (API.md §2). A receipt file's
      // signed link is its own permission (§16).
      const isPublic =
        (!/^\/v1\/auth\/logout/.test(path) &&
          /^\/v1\/auth\/|^\/healthz$|^\/readyz$|^\/metrics$|^\/docs$|^\/v1\/openapi\.json$/.test(path)) ||
        path === '/v1/receipt-files/{token}';
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
      // insufficient_scope: an API key without the write scope (API.md §2.6)
      '403',
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
});
