/**
 * Named bad inputs against the write endpoints, each with the exact answer the contract gives
 * (API.md §1): money fields beyond what is exact, and the framing of a body (malformed JSON, not
 * JSON, over 64 KiB, unknown fields, odd headers). The generated ones: fuzz.test.ts.
 */
import net from 'node:net';
import { newKey } from '../support/test-server';
import { UNTIL_TIMEOUT_MS } from '../support/until';
import {
  ada,
  bob,
  expenseBody,
  expenseId,
  groupId,
  MAX_BODY_BYTES,
  type Method,
  state,
  t,
  useFuzzServer,
} from './fuzz-support';

describe('fuzzing the write endpoints with bad input', () => {
  useFuzzServer();

  describe('money fields', () => {
    const amounts: [string, string][] = [
      ['1e308', '1e308'],
      ['2**53+1', '9007199254740993'],
      ['1e400 (Infinity once parsed)', '1e400'],
      ['a float', '100.5'],
      ['a negative', '-500'],
      ['zero', '0'],
      ['a string', '"1000"'],
      ['over 1e12', '1000000000001'],
      ['null', 'null'],
      ['an object', '{"value":1000}'],
    ];
    const bodies: [string, string, () => Record<string, unknown>][] = [
      [
        'POST /v1/expenses',
        '/v1/expenses',
        () => ({ ...expenseBody(), paidBy: ada.id, split: { type: 'equal', between: [ada.id, bob.id] } }),
      ],
      ['POST /v1/settlements', '/v1/settlements', () => ({ groupId, fromUserId: bob.id, toUserId: ada.id })],
    ];
    // An expense may be negative (income, a reimbursement: API.md §4), down to -1e12; a settlement may not.
    const expenseAmounts: [string, string][] = [
      ...amounts.filter(([name]) => name !== 'a negative'),
      ['under -1e12', '-1000000000001'],
      ['-2**53-1', '-9007199254740993'],
    ];
    const cases = bodies.flatMap(([endpoint, path, body]) =>
      (endpoint === 'POST /v1/expenses' ? expenseAmounts : amounts).map(
        ([name, token]) => [endpoint, name, path, body, token] as const,
      ),
    );

    it.each(cases)(
      '%s rejects an amount that is %s with 422 validation_failed on amount',
      async (_e, _n, path, body, token) => {
        const before = await state();
        const text = JSON.stringify({ ...body(), amount: '__AMOUNT__' }).replace('"__AMOUNT__"', token);
        const res = await t.request
          .post(path)
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .set('Content-Type', 'application/json')
          .send(text);
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('validation_failed');
        expect(res.body.errors).toEqual(
          expect.arrayContaining([expect.objectContaining({ path: 'amount' })]),
        );
        expect(await state()).toEqual(before);
      },
    );
  });

  describe('framing', () => {
    const writes: [string, Method, () => string][] = [
      ['POST /v1/groups', 'post', () => '/v1/groups'],
      ['POST /v1/expenses', 'post', () => '/v1/expenses'],
      ['PATCH /v1/expenses/{id}', 'patch', () => `/v1/expenses/${expenseId}`],
      ['POST /v1/settlements', 'post', () => '/v1/settlements'],
      ['POST /v1/auth/register', 'post', () => '/v1/auth/register'],
    ];
    const request = (method: Method, path: string) =>
      t.request[method](path).set(ada.auth).set('Idempotency-Key', newKey());

    it.each(writes)('%s: malformed JSON is 400 malformed_json', async (_n, method, path) => {
      const before = await state();
      for (const text of ['{"name":', "{'a':1}", '[1,2', '{"a":1}}']) {
        const res = await request(method, path()).set('Content-Type', 'application/json').send(text);
        expect({ text, status: res.status, code: res.body.code }).toEqual({
          text,
          status: 400,
          code: 'malformed_json',
        });
      }
      expect(await state()).toEqual(before);
    });

    it.each(writes)('%s: a body that is not JSON is 415 unsupported_media_type', async (_n, method, path) => {
      const before = await state();
      for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
        const res = await request(method, path()).set('Content-Type', type).send('name=x');
        expect({ type, status: res.status, code: res.body.code }).toEqual({
          type,
          status: 415,
          code: 'unsupported_media_type',
        });
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      }
      expect(await state()).toEqual(before);
    });

    it.each(writes)('%s: a body over 64 KiB is 413 payload_too_large', async (_n, method, path) => {
      const before = await state();
      const res = await request(method, path()).send({ name: 'x'.repeat(MAX_BODY_BYTES + 1) });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('payload_too_large');
      expect(await state()).toEqual(before);
    });

    it.each(writes)('%s: unknown fields are 422 validation_failed', async (_n, method, path) => {
      const before = await state();
      const res = await request(method, path()).send({ surprise: true, nested: { deeper: [1] } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(await state()).toEqual(before);
    });

    it.each([
      ['', 'idempotency_key_invalid'],
      ['x'.repeat(256), 'idempotency_key_invalid'],
      ['""', 'idempotency_key_invalid'],
      ['clé', 'idempotency_key_invalid'],
    ])('POST /v1/expenses with Idempotency-Key %j is 400 %s', async (key, code) => {
      const before = await state();
      const res = await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send(expenseBody());
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      expect(await state()).toEqual(before);
    });

    /** Raw HTTP/1.1: a client may declare a length it never sends. */
    const rawRequest = (path: string, contentLength: string, token: string) =>
      new Promise<string>((resolve) => {
        const body = '{"name":"x"}';
        const socket = net.connect(t.server.port, '127.0.0.1', () => {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
              `Idempotency-Key: ${newKey()}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n${body}`,
          );
        });
        let received = '';
        // A deadline for a server that waits for the body (its own timeouts are minutes), not a measure.
        const timer = setTimeout(() => socket.destroy(), UNTIL_TIMEOUT_MS);
        socket.on('data', (chunk) => {
          received += chunk.toString('latin1');
          if (received.includes('\r\n\r\n') && /"code"/.test(received)) socket.destroy();
        });
        socket.on('error', () => {});
        socket.on('close', () => {
          clearTimeout(timer);
          resolve(received);
        });
      });

    it('answers a declared Content-Length over 64 KiB with 413 problem+json without waiting for the body', async () => {
      const before = await state();
      const cases = ['/v1/groups', '/v1/expenses', '/v1/auth/register'].flatMap((path) =>
        [String(MAX_BODY_BYTES + 1), '99999999999'].map((length) => [path, length] as const),
      );
      const answers = Object.fromEntries(
        await Promise.all(
          cases.map(async ([path, length]) => {
            const head = (await rawRequest(path, length, ada.accessToken)).split('\r\n\r\n')[0] ?? '';
            const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 'no answer';
            const problem = /content-type: application\/problem\+json/i.test(head) ? ' problem+json' : '';
            return [`${path} Content-Length: ${length}`, `${status}${problem}`] as const;
          }),
        ),
      );
      expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((k) => [k, '413 problem+json'])));
      expect(await state()).toEqual(before);
    });
  });
});
