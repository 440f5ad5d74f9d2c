import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseIdempotencyKey } from '@tally/idempotency';
import fc from 'fast-check';
import Joi from 'joi';
import pino from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { createProbesApp } from '../../apps/api/src/http/probe-routes';
import { CURRENCY_CODES, trimmedLengthPattern } from '../../apps/api/src/openapi/joi-to-json-schema';
import { type DocumentedErrorCode, ERROR_CODES, ERROR_STATUS } from '../../apps/api/src/openapi/responses';
import { createGroupBody, currency } from '../../apps/api/src/schemas';
import { expectDocumented, responseErrors, validatorAt } from '../support/openapi-validator';
import { newKey, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import { bodyValidator, doc, type JsonSchema, operation, startOpenApiServer } from './openapi-helpers';
import { joiAccepts } from './openapi-samples';

describe('OpenAPI document: strictness', () => {
  let t: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    ({ t, ada } = await startOpenApiServer());
  });
  afterAll(async () => {
    await t.stop();
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
});
