/** API conventions (API.md §1): conditional requests, cursor pagination, idempotency keys. */
import { newKey, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem, expectValidationFailed, postSettlement } from './component-helpers';
import { startConventionsServer } from './conventions-setup';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('API conventions (API.md §1): ETags, pagination, Idempotency-Key', () => {
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

  describe('ETag and conditional requests on a group', () => {
    it('sends a strong ETag and Cache-Control: private, no-cache on GET', async () => {
      const res = await t.request.get(`/v1/groups/${groupId}`).set(ada.auth);
      expect(res.status).toBe(200);
      expect(res.headers['etag']).toMatch(/^"[^"]+"$/);
      expect(res.headers['cache-control']).toBe('private, no-cache');
    });

    it('answers If-None-Match with the current ETag with 304 and no body', async () => {
      const first = await t.request.get(`/v1/groups/${groupId}`).set(ada.auth);
      const etag = first.headers['etag'] as string;
      const res = await t.request.get(`/v1/groups/${groupId}`).set(ada.auth).set('If-None-Match', etag);
      expect(res.status).toBe(304);
      expect(res.headers['etag']).toBe(etag);
      expect(res.text ?? '').toBe('');
    });

    it("answers 304 whatever the request's Cache-Control (fetch adds no-cache to conditional requests)", async () => {
      const first = await t.request.get(`/v1/groups/${groupId}`).set(ada.auth);
      const etag = first.headers['etag'] as string;
      for (const cacheControl of ['no-cache', 'max-age=0', 'no-store']) {
        const res = await t.request
          .get(`/v1/groups/${groupId}`)
          .set(ada.auth)
          .set('Cache-Control', cacheControl)
          .set('If-None-Match', etag);
        expect({ cacheControl, status: res.status, body: res.text ?? '' }).toEqual({
          cacheControl,
          status: 304,
          body: '',
        });
      }
      // A weak validator of the same tag and a list that contains it match too (weak comparison).
      const weak = await t.request
        .get(`/v1/groups/${groupId}`)
        .set(ada.auth)
        .set('Cache-Control', 'no-cache')
        .set('If-None-Match', `"other", W/${etag}`);
      expect(weak.status).toBe(304);
    });

    it('answers 304 on lists and balances (body-hash ETag) with Cache-Control: no-cache', async () => {
      for (const path of [`/v1/groups/${groupId}/balances`, `/v1/groups/${groupId}/expenses`, '/v1/groups']) {
        const first = await t.request.get(path).set(ada.auth);
        expect(first.status).toBe(200);
        const etag = first.headers['etag'] as string;
        expect(etag).toBeTruthy();
        const res = await t.request
          .get(path)
          .set(ada.auth)
          .set('Cache-Control', 'no-cache')
          .set('If-None-Match', etag);
        expect({ path, status: res.status }).toEqual({ path, status: 304 });
      }
    });

    it('answers If-None-Match with a stale ETag with 200 and the current ETag', async () => {
      const gid = await t.createGroup(ada);
      const before = await t.request.get(`/v1/groups/${gid}`).set(ada.auth);
      const patched = await t.request.patch(`/v1/groups/${gid}`).set(ada.auth).send({ name: 'Renamed' });
      expect(patched.status).toBe(200);
      const res = await t.request
        .get(`/v1/groups/${gid}`)
        .set(ada.auth)
        .set('If-None-Match', before.headers['etag'] as string);
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('Renamed');
      expect(res.headers['etag']).toBe(patched.headers['etag']);
      expect(res.headers['etag']).not.toBe(before.headers['etag']);
    });

    it('refuses a PATCH whose If-Match does not match with 412 precondition_failed and changes nothing', async () => {
      const gid = await t.createGroup(ada, [], { name: 'Original' });
      const res = await t.request
        .patch(`/v1/groups/${gid}`)
        .set(ada.auth)
        .set('If-Match', '"not-the-etag"')
        .send({ name: 'Lost update' });
      expectProblem(res, 412, 'precondition_failed');
      const after = await t.request.get(`/v1/groups/${gid}`).set(ada.auth);
      expect(after.body.name).toBe('Original');
      expect(after.body.version).toBe(1);
    });

    it('applies a PATCH whose If-Match matches, and the old ETag no longer matches afterwards', async () => {
      const gid = await t.createGroup(ada, [], { name: 'Original' });
      const current = await t.request.get(`/v1/groups/${gid}`).set(ada.auth);
      const etag = current.headers['etag'] as string;
      const res = await t.request
        .patch(`/v1/groups/${gid}`)
        .set(ada.auth)
        .set('If-Match', etag)
        .send({ name: 'Updated' });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('Updated');
      expect(res.headers['etag']).toEqual(expect.any(String));
      expect(res.headers['etag']).not.toBe(etag);

      const stale = await t.request
        .patch(`/v1/groups/${gid}`)
        .set(ada.auth)
        .set('If-Match', etag)
        .send({ name: 'Again' });
      expectProblem(stale, 412, 'precondition_failed');
    });

    it('matches If-Match against any ETag of a list, and * against any group', async () => {
      const gid = await t.createGroup(ada);
      const current = await t.request.get(`/v1/groups/${gid}`).set(ada.auth);
      const list = await t.request
        .patch(`/v1/groups/${gid}`)
        .set(ada.auth)
        .set('If-Match', `"nope", ${current.headers['etag']}`)
        .send({ name: 'Listed' });
      expect(list.status).toBe(200);
      const star = await t.request
        .patch(`/v1/groups/${gid}`)
        .set(ada.auth)
        .set('If-Match', '*')
        .send({ name: 'Star' });
      expect(star.status).toBe(200);
      expect(star.body.name).toBe('Star');
    });
  });

  describe('cursor pagination of GET /v1/groups', () => {
    let pager: TestUser;
    const ids: string[] = [];

    beforeAll(async () => {
      pager = await t.register('Pager');
      for (let i = 0; i < 21; i++) ids.push(await t.createGroup(pager, [], { name: `G${i}` }));
    });

    it('returns 20 groups by default with a nextCursor', async () => {
      const res = await t.request.get('/v1/groups').set(pager.auth);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'nextCursor']);
      expect(res.body.data).toHaveLength(20);
      expect(res.body.nextCursor).toEqual(expect.any(String));
    });

    it('accepts limit=1 and limit=100', async () => {
      const one = await t.request.get('/v1/groups?limit=1').set(pager.auth);
      expect(one.status).toBe(200);
      expect(one.body.data).toHaveLength(1);
      expect(one.body.nextCursor).toEqual(expect.any(String));
      const hundred = await t.request.get('/v1/groups?limit=100').set(pager.auth);
      expect(hundred.status).toBe(200);
      expect(hundred.body.data).toHaveLength(21);
      expect(hundred.body.nextCursor).toBeNull();
    });

    it.each(['0', '101', 'abc', '-1', '1.5'])(
      'rejects limit=%s with 422 validation_failed',
      async (limit) => {
        const res = await t.request.get(`/v1/groups?limit=${limit}`).set(pager.auth);
        expectValidationFailed(res, 'limit');
      },
    );

    it.each([
      ['garbage', 'not a cursor!'],
      ['base64 of a non-array', base64url({ at: 1 })],
      ['base64 of a wrong-length array', base64url(['x'])],
      ['base64 of a key that is not a time', base64url(['not-a-date', 'grp_x'])],
    ])('rejects a %s cursor with 422 validation_failed', async (_what, cursor) => {
      const res = await t.request.get(`/v1/groups?cursor=${encodeURIComponent(cursor)}`).set(pager.auth);
      expectValidationFailed(res, 'cursor');
    });

    it('walks every group exactly once, and the last page has nextCursor null', async () => {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const url: string = `/v1/groups?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await t.request.get(url).set(pager.auth);
        expect(res.status).toBe(200);
        sizes.push(res.body.data.length);
        seen.push(...res.body.data.map((g: { id: string }) => g.id));
        cursor = res.body.nextCursor;
      } while (cursor !== null && sizes.length < 20);
      expect(sizes).toEqual([4, 4, 4, 4, 4, 1]);
      expect(seen).toHaveLength(ids.length);
      expect(new Set(seen)).toEqual(new Set(ids));
    });

    it('ends with nextCursor null when the last page is exactly full', async () => {
      const first = await t.request.get('/v1/groups?limit=20').set(pager.auth);
      const last = await t.request
        .get(`/v1/groups?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`)
        .set(pager.auth);
      expect(last.status).toBe(200);
      expect(last.body.data).toHaveLength(1);
      expect(last.body.nextCursor).toBeNull();
    });
  });

  describe('Idempotency-Key', () => {
    let settlementId: string;
    beforeAll(async () => {
      const res = await postSettlement(t, ada, groupId, bob, ada, 100);
      expect(res.status).toBe(201);
      settlementId = res.body.id;
    });

    it.each([
      ['POST', () => '/v1/expenses'],
      ['PUT', () => '/v1/expenses/client-chosen-id-1'],
      ['PATCH', () => '/v1/expenses/exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC'],
      ['DELETE', () => '/v1/expenses/exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC'],
      ['POST', () => '/v1/expenses/exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC/restore'],
      ['POST', () => '/v1/settlements'],
      ['DELETE', () => `/v1/settlements/${settlementId}`],
    ])('rejects %s %s without a key with 400 idempotency_key_missing', async (method, path) => {
      const body = { groupId, fromUserId: bob.id, toUserId: ada.id, amount: 100 };
      const req = t.request[method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete'](path()).set(
        ada.auth,
      );
      const res = method === 'DELETE' ? await req : await req.send(body);
      expectProblem(res, 400, 'idempotency_key_missing');
    });

    it('executes nothing when the key is missing', async () => {
      const before = await t.request.get(`/v1/groups/${groupId}/settlements?limit=100`).set(ada.auth);
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 7 });
      expectProblem(res, 400, 'idempotency_key_missing');
      const after = await t.request.get(`/v1/groups/${groupId}/settlements?limit=100`).set(ada.auth);
      expect(after.body.data).toEqual(before.body.data);
      const deleted = await t.request.delete(`/v1/settlements/${settlementId}`).set(ada.auth);
      expectProblem(deleted, 400, 'idempotency_key_missing');
      const still = await t.request.get(`/v1/groups/${groupId}/settlements?limit=100`).set(ada.auth);
      expect(still.body.data.map((s: { id: string }) => s.id)).toContain(settlementId);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['non-ASCII', 'cl\u00e9-1'],
      ['a quoted empty string', '""'],
    ])('rejects a %s key with 400 idempotency_key_invalid and executes nothing', async (_what, key) => {
      const before = await t.request.get(`/v1/groups/${groupId}/settlements?limit=100`).set(ada.auth);
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 11 });
      expectProblem(res, 400, 'idempotency_key_invalid');
      const after = await t.request.get(`/v1/groups/${groupId}/settlements?limit=100`).set(ada.auth);
      expect(after.body.data).toEqual(before.body.data);
    });

    it('accepts a 255-character key', async () => {
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', `${newKey()}-`.padEnd(255, 'k'))
        .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 12 });
      expect(res.status).toBe(201);
      expect(res.body.amount).toBe(12);
    });

    it('accepts a key in the quoted structured-header form', async () => {
      const res = await t.request
        .post('/v1/settlements')
        .set(ada.auth)
        .set('Idempotency-Key', `"abc-${newKey()}"`)
        .send({ groupId, fromUserId: bob.id, toUserId: ada.id, amount: 13 });
      expect(res.status).toBe(201);
      expect(res.body.amount).toBe(13);
    });

    it('accepts group writes without a key', async () => {
      const created = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'No key' });
      expect(created.status).toBe(201);
      const gid = created.body.id as string;
      const patched = await t.request.patch(`/v1/groups/${gid}`).set(ada.auth).send({ name: 'Still no key' });
      expect(patched.status).toBe(200);
      const added = await t.request.post(`/v1/groups/${gid}/members`).set(ada.auth).send({ userId: bob.id });
      expect(added.status).toBe(201);
      const removed = await t.request.delete(`/v1/groups/${gid}/members/${bob.id}`).set(ada.auth);
      expect(removed.status).toBe(204);
    });

    it('accepts a valid key on a group write and rejects an invalid one with 400 idempotency_key_invalid', async () => {
      const keyed = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ name: 'Keyed' });
      expect(keyed.status).toBe(201);
      const invalid = await t.request
        .post('/v1/groups')
        .set(ada.auth)
        .set('Idempotency-Key', 'k'.repeat(256))
        .send({ name: 'Bad key' });
      expectProblem(invalid, 400, 'idempotency_key_invalid');
    });
  });
});
