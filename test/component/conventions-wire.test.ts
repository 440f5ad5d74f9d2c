/** API conventions (API.md §1) on the wire: problem details, request ids, HEAD. */
import { newKey, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem, expectValidationFailed, postSettlement } from './component-helpers';
import { startConventionsServer } from './conventions-setup';

describe('API conventions (API.md §1): problems, request ids, HEAD', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let groupId: string;

  beforeAll(async () => {
    ({ t, ada, bob, groupId } = await startConventionsServer());
  });
  afterAll(async () => {
    await t.stop();
  });

  describe('problem details', () => {
    it('answers an unknown authenticated /v1 route with a 404 not_found problem', async () => {
      const res = await t.request.get('/v1/no-such-thing').set(ada.auth);
      expectProblem(res, 404, 'not_found');
      expect(Object.keys(res.body).sort()).toEqual([
        'code',
        'detail',
        'requestId',
        'status',
        'title',
        'type',
      ]);
      expect(res.body.type).toBe('/problems/not-found');
    });

    it('answers an unknown route outside /v1 with a 404 not_found problem', async () => {
      const res = await t.request.post('/nothing/here').send({});
      expectProblem(res, 404, 'not_found');
    });

    it('answers an unknown method on a known /v1 path with a 404 not_found problem', async () => {
      const res = await t.request.put(`/v1/groups/${groupId}`).set(ada.auth).send({ name: 'x' });
      expectProblem(res, 404, 'not_found');
    });

    it('rejects a body over 64 KiB with 413 payload_too_large', async () => {
      const res = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .send({ name: 'Big', description: 'x'.repeat(65 * 1024) });
      expectProblem(res, 413, 'payload_too_large');
    });

    it('accepts a body just under 64 KiB as far as the schema allows (413 is about size only)', async () => {
      // 60 KiB of description is far over the schema's 1000 characters: the answer is 422, not 413.
      const res = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .send({ name: 'Big', description: 'x'.repeat(60 * 1024) });
      expectValidationFailed(res, 'description');
    });

    it('rejects malformed JSON with 400 malformed_json', async () => {
      const res = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .set('Content-Type', 'application/json')
        .send('{"name": "Trip",');
      expectProblem(res, 400, 'malformed_json');
    });

    it('rejects malformed JSON on a money write with 400 malformed_json', async () => {
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .set('Content-Type', 'application/json')
        .send('{not json}');
      expectProblem(res, 400, 'malformed_json');
    });

    it.each([
      ['text/plain', '{"name":"Trip"}'],
      ['application/x-www-form-urlencoded', 'name=Trip'],
      ['application/xml', '<name>Trip</name>'],
    ])('rejects a write with Content-Type %s as 415 unsupported_media_type', async (type, body) => {
      const res = await t.request.post('/v1/groups').set(ada.auth).set('Content-Type', type).send(body);
      expectProblem(res, 415, 'unsupported_media_type');
    });

    it('rejects a text/plain money write as 415 unsupported_media_type', async () => {
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 100 }));
      expectProblem(res, 415, 'unsupported_media_type');
    });

    it('accepts application/json with a charset parameter', async () => {
      const res = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ name: 'Charset' }));
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('Charset');
      expect(res.headers['content-type']).toMatch(/^application\/json; charset=utf-8/i);
    });

    it('reports every schema failure as 422 validation_failed with errors[{path, message}]', async () => {
      const res = await t.request.post('/v1/groups').set(ada.auth).send({ name: '', currency: 'euro' });
      expectValidationFailed(res, 'name', 'currency');
      expect(res.body.type).toBe('/problems/validation-failed');
    });

    it('rejects unknown body fields with 422 instead of dropping them', async () => {
      const res = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Colourful', colour: 'red' });
      expectValidationFailed(res, 'colour');
      const mine = await t.request.get('/v1/groups?limit=100').set(ada.auth);
      expect(mine.status).toBe(200);
      expect(mine.body.data.map((g: { name: string }) => g.name)).not.toContain('Colourful');
    });

    it('rejects unknown body fields on a money write with 422', async () => {
      const res = await postSettlement(t, ada, groupId, bob, ada, 100, { tip: 5 });
      expectValidationFailed(res, 'tip');
    });

    it('rejects a JSON body that is not an object with 422 validation_failed', async () => {
      const res = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .set('Content-Type', 'application/json')
        .send('42');
      expectValidationFailed(res);
    });

    it('rejects a write without a body with 422 validation_failed', async () => {
      const res = await t.request.post('/v1/groups').set(ada.auth);
      expectValidationFailed(res);
    });

    it('rejects unknown query parameters with 422 validation_failed', async () => {
      const res = await t.request.get('/v1/groups?sort=name').set(ada.auth);
      expectValidationFailed(res, 'sort');
    });

    describe('5xx bodies never leak internals', () => {
      const SECRET = 'tally_secret_internal_detail';
      afterEach(async () => {
        await t.db!.knex.raw('drop trigger if exists tally_test_fail on groups');
        await t.db!.knex.raw('drop function if exists tally_test_fail()');
      });

      async function failGroupInserts(errcode: string) {
        await t.db!.knex.raw(
          `create or replace function tally_test_fail() returns trigger language plpgsql as $$
           begin raise exception using errcode = '${errcode}', message = '${SECRET}: insert into groups'; end $$`,
        );
        await t.db!.knex.raw(
          'create trigger tally_test_fail before insert on groups for each row execute procedure tally_test_fail()',
        );
      }

      it('answers an unexpected database error with a bare 500 problem (no stack, no SQL)', async () => {
        await failGroupInserts('P0001');
        const res = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Doomed' });
        expectProblem(res, 500, 'internal_error');
        expect(Object.keys(res.body).sort()).toEqual([
          'code',
          'detail',
          'requestId',
          'status',
          'title',
          'type',
        ]);
        const raw = JSON.stringify(res.body);
        expect(raw).not.toContain(SECRET);
        expect(raw).not.toMatch(/insert|select|groups|\.ts:|\bat\b.*\(/i);
        expect(res.body).not.toHaveProperty('stack');
      });

      // 57P01/57P02: the server shuts down or crashed; 25006: it is read-only (a demoted primary, a
      // standby reached by mistake): each is a database away for now, which a retry gets past.
      it.each(['57P01', '57P02', '25006'])(
        'answers a dependency failure (%s) with 503 unavailable, Retry-After and no internals',
        async (errcode) => {
          await failGroupInserts(errcode);
          const res = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Doomed' });
          expectProblem(res, 503, 'unavailable');
          expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
          expect(JSON.stringify(res.body)).not.toContain(SECRET);
          expect(res.body).not.toHaveProperty('stack');
        },
      );

      it('serves again normally once the failure is gone', async () => {
        const res = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Recovered' });
        expect(res.status).toBe(201);
        expect(res.body.name).toBe('Recovered');
      });
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a client request id of printable ASCII', async () => {
      const id = 'req-123 abc/XYZ:~!';
      const res = await t.request.get('/v1/me').set(ada.auth).set('X-Request-Id', id);
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe(id);
    });

    it('echoes a 1-character and a 128-character request id', async () => {
      const one = await t.request.get('/healthz').set('X-Request-Id', 'a');
      expect(one.headers['x-request-id']).toBe('a');
      const long = 'r'.repeat(128);
      const res = await t.request.get('/healthz').set('X-Request-Id', long);
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe(long);
    });

    it.each([
      ['129 characters', 'r'.repeat(129)],
      ['a tab inside', 'abc\tdef'],
      ['a non-ASCII character', 'caf\u00e9'],
    ])('replaces a client request id with %s by a generated one', async (_what, offered) => {
      const res = await t.request.get('/v1/me').set(ada.auth).set('X-Request-Id', offered);
      expect(res.status).toBe(200);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^[\x21-\x7e]{1,128}$/);
      expect(id).not.toBe(offered);
    });

    it('generates a distinct request id when none is sent', async () => {
      const a = await t.request.get('/healthz');
      const b = await t.request.get('/healthz');
      expect(a.headers['x-request-id']).toMatch(/^[\x21-\x7e]{1,128}$/);
      expect(b.headers['x-request-id']).toMatch(/^[\x21-\x7e]{1,128}$/);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });

    it('carries the request id on errors, in the header and in the problem body', async () => {
      const unauth = await t.request.get('/v1/me').set('X-Request-Id', 'err-401');
      expectProblem(unauth, 401, 'unauthenticated');
      expect(unauth.body.requestId).toBe('err-401');

      const missing = await t.request.get('/v1/nope').set(ada.auth).set('X-Request-Id', 'err-404');
      expectProblem(missing, 404, 'not_found');
      expect(missing.body.requestId).toBe('err-404');

      const tooBig = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .set('X-Request-Id', 'err-413')
        .send({ name: 'x'.repeat(70 * 1024) });
      expectProblem(tooBig, 413, 'payload_too_large');
      expect(tooBig.body.requestId).toBe('err-413');

      const generated = await t.request.get('/v1/me');
      expect(generated.body.requestId).toBe(generated.headers['x-request-id']);
    });

    it('carries the request id on 201, 204 and 304 responses', async () => {
      const created = await t.request.post('/v1/groups').set(ada.auth).set('X-Request-Id', 'ok-201').send({
        name: 'Ids',
      });
      expect(created.status).toBe(201);
      expect(created.headers['x-request-id']).toBe('ok-201');

      const gid = created.body.id as string;
      await t.request.post(`/v1/groups/${gid}/members`).set(ada.auth).send({ userId: bob.id });
      const removed = await t.request
        .delete(`/v1/groups/${gid}/members/${bob.id}`)
        .set(ada.auth)
        .set('X-Request-Id', 'ok-204');
      expect(removed.status).toBe(204);
      expect(removed.headers['x-request-id']).toBe('ok-204');

      const first = await t.request.get(`/v1/groups/${gid}`).set(ada.auth);
      const notModified = await t.request
        .get(`/v1/groups/${gid}`)
        .set(ada.auth)
        .set('If-None-Match', first.headers['etag'] as string)
        .set('X-Request-Id', 'ok-304');
      expect(notModified.status).toBe(304);
      expect(notModified.headers['x-request-id']).toBe('ok-304');
    });
  });

  describe('HEAD', () => {
    const comparable = (headers: Record<string, string>) => ({
      'content-type': headers['content-type'],
      'content-length': headers['content-length'],
      etag: headers['etag'],
      'cache-control': headers['cache-control'],
    });

    it.each([
      ['a group', () => `/v1/groups/${groupId}`],
      ['the group list', () => '/v1/groups'],
      ['the caller', () => '/v1/me'],
      ['balances', () => `/v1/groups/${groupId}/balances`],
      ['events', () => `/v1/groups/${groupId}/events`],
      ['settlements', () => `/v1/groups/${groupId}/settlements`],
    ])('answers HEAD on %s like GET, without a body', async (_what, path) => {
      const get = await t.request.get(path()).set(ada.auth);
      const head = await t.request.head(path()).set(ada.auth);
      expect(get.status).toBe(200);
      expect(head.status).toBe(200);
      expect(comparable(head.headers)).toEqual(comparable(get.headers));
      expect(head.headers['x-request-id']).toEqual(expect.any(String));
      expect(head.text ?? '').toBe('');
      expect(head.body).toEqual({});
    });

    it('answers HEAD on /healthz with 200 and no body', async () => {
      const head = await t.request.head('/healthz');
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toMatch(/^application\/json/);
      expect(head.text ?? '').toBe('');
    });

    it('answers HEAD with the same error status as GET (404 for a non-member, 401 without a token)', async () => {
      const outsider = await t.register('Outsider');
      const get = await t.request.get(`/v1/groups/${groupId}`).set(outsider.auth);
      const head = await t.request.head(`/v1/groups/${groupId}`).set(outsider.auth);
      expect(get.status).toBe(404);
      expect(head.status).toBe(404);
      expect(head.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(head.text ?? '').toBe('');

      const anonymous = await t.request.head('/v1/me');
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    });
  });
});
