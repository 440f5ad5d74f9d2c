/**
 * API keys (API.md §2.6) on one process against real PostgreSQL: the secret's format and checksum,
 * only a hash stored, scopes, what a key may never do, expiry, revocation, `lastUsedAt` written at
 * most once a minute, validation, the per-account bound, idempotency as the user, account deletion.
 */
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { SESSION_ONLY_OPERATIONS } from '../../apps/api/src/api-keys/scopes';
import { openApiDocument } from '../../apps/api/src/openapi/openapi';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem, expectValidationFailed, idPattern, RFC3339_UTC } from './component-helpers';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The checksum computed here from the format's definition, not by the server's code. */
function expectedChecksum(random: string): string {
  let n = BigInt(crc32(random));
  let text = '';
  for (let i = 0; i < 6; i++) {
    text = BASE62[Number(n % 62n)] + text;
    n /= 62n;
  }
  return text;
}

type Created = { id: string; secret: string; prefix: string; scopes: string[]; lastUsedAt: string | null };

describe('API keys (API.md §2.6)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const createKey = async (user: TestUser, body: Record<string, unknown>): Promise<Created> => {
    const res = await t.request.post('/v1/me/api-keys').set(user.auth).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const withKey = (secret: string) => ({ Authorization: `Bearer ${secret}` });

  it('answers the secret once, in a format scanners recognise, and stores only its SHA-256', async () => {
    const ada = await t.register('Ada');
    const res = await t.request
      .post('/v1/me/api-keys')
      .set(ada.auth)
      .send({ name: 'Backup script', scopes: ['read'] });
    expect(res.status).toBe(201);
    const key = res.body;
    expect(key).toEqual({
      id: expect.stringMatching(idPattern('key')),
      name: 'Backup script',
      scopes: ['read'],
      prefix: key.secret.slice(0, 15),
      createdAt: expect.stringMatching(RFC3339_UTC),
      expiresAt: null,
      lastUsedAt: null,
      secret: expect.stringMatching(/^tally_sk_[0-9A-Za-z]{49}$/),
    });
    const random = key.secret.slice(9, 52);
    expect(key.secret.slice(52)).toBe(expectedChecksum(random));

    const rows = await t.db!.knex('api_keys').where({ id: key.id });
    expect(rows).toHaveLength(1);
    expect(rows[0].secret_hash).toBe(createHash('sha256').update(key.secret).digest('hex'));
    expect(JSON.stringify(rows[0])).not.toContain(key.secret.slice(15));

    const list = await t.request.get('/v1/me/api-keys').set(ada.auth);
    expect(list.status).toBe(200);
    const { secret: _secret, ...listed } = key;
    expect(list.body.data).toEqual([listed]);
    expect(JSON.stringify(list.body)).not.toContain(key.secret);
  });

  it('acts as its user within its scopes: read reads, write writes, neither does the other', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    const reader = await createKey(ada, { name: 'reader', scopes: ['read'] });
    const writer = await createKey(ada, { name: 'writer', scopes: ['write'] });
    const both = await createKey(ada, { name: 'both', scopes: ['read', 'write'] });

    const read = await t.request.get(`/v1/groups/${groupId}`).set(withKey(reader.secret));
    expect(read.status).toBe(200);
    expect((await t.request.get('/v1/me').set(withKey(reader.secret))).body.id).toBe(ada.id);
    expectProblem(
      await t.request.post('/v1/groups').set(withKey(reader.secret)).send({ name: 'Nope' }),
      403,
      'insufficient_scope',
    );
    expectProblem(
      await t.request.get(`/v1/groups/${groupId}`).set(withKey(writer.secret)),
      403,
      'insufficient_scope',
    );
    const made = await t.request.post('/v1/groups').set(withKey(writer.secret)).send({ name: 'By script' });
    expect(made.status).toBe(201);
    expect(made.body.members.map((m: { userId: string }) => m.userId)).toEqual([ada.id]);
    expect((await t.request.get(`/v1/groups/${made.body.id}`).set(withKey(both.secret))).status).toBe(200);
  });

  it('can never manage keys or sessions, change the password or email, or delete the account', async () => {
    const ada = await t.register('Ada');
    const key = await createKey(ada, { name: 'all', scopes: ['read', 'write'] });
    const auth = withKey(key.secret);
    const refused = [
      t.request.get('/v1/me/api-keys').set(auth),
      t.request
        .post('/v1/me/api-keys')
        .set(auth)
        .send({ name: 'more', scopes: ['read'] }),
      t.request.delete(`/v1/me/api-keys/${key.id}`).set(auth),
      t.request.get('/v1/me/sessions').set(auth),
      t.request.post('/v1/auth/logout').set(auth),
      t.request.post('/v1/auth/logout-all').set(auth),
      t.request
        .post('/v1/me/password')
        .set(auth)
        .send({ current: 'correct horse battery', new: 'another long secret' }),
      t.request
        .post('/v1/me/email')
        .set(auth)
        .send({ email: 'x@example.com', password: 'correct horse battery' }),
      t.request.post('/v1/me/email/verification').set(auth),
      t.request.delete('/v1/me').set(auth),
    ];
    for (const res of await Promise.all(refused)) expectProblem(res, 403, 'insufficient_scope');
    // Nothing happened: the key, the sessions and the account are as they were.
    expect((await t.request.get('/v1/me/api-keys').set(ada.auth)).body.data).toHaveLength(1);
    expect((await t.request.get('/v1/me/sessions').set(ada.auth)).body.data).toHaveLength(1);
    expect((await t.request.get('/v1/me').set(auth)).status).toBe(200);
  });

  it('keyed money writes are exactly-once as the user: a key and a token share the scope', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    const key = await createKey(ada, { name: 'writer', scopes: ['write'] });
    const first = await t.postOwnExpense(ada, groupId, 'script-key-1').set(withKey(key.secret));
    expect(first.status).toBe(201);
    const again = await t.postOwnExpense(ada, groupId, 'script-key-1').set(withKey(key.secret));
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    // The same Idempotency-Key by the user's access token: the same scope, so the same answer.
    const byToken = await t.postOwnExpense(ada, groupId, 'script-key-1');
    expect(byToken.headers['idempotent-replayed']).toBe('true');
    expect(byToken.body.id).toBe(first.body.id);
    expect(await t.db!.knex('expenses').where({ group_id: groupId }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  it('stops working at expiresAt, and refuses an expiry that is not in the future', async () => {
    const ada = await t.register('Ada');
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const key = await createKey(ada, { name: 'temp', scopes: ['read'], expiresAt });
    expect(key).toEqual(expect.objectContaining({ expiresAt }));
    expect((await t.request.get('/v1/me').set(withKey(key.secret))).status).toBe(200);
    await t
      .db!.knex('api_keys')
      .where({ id: key.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expectProblem(await t.request.get('/v1/me').set(withKey(key.secret)), 401, 'unauthenticated');
    // Still listed (and counted) until revoked.
    expect((await t.request.get('/v1/me/api-keys').set(ada.auth)).body.data).toHaveLength(1);

    const past = await t.request
      .post('/v1/me/api-keys')
      .set(ada.auth)
      .send({ name: 'late', scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' });
    expectValidationFailed(past, 'expiresAt');
  });

  it('revoking stops the key at once; revoking again, or another user’s key, is 404', async () => {
    const ada = await t.register('Ada');
    const eve = await t.register('Eve');
    const key = await createKey(ada, { name: 'cron', scopes: ['read'] });
    expect((await t.request.get('/v1/me').set(withKey(key.secret))).status).toBe(200);
    expectProblem(await t.request.delete(`/v1/me/api-keys/${key.id}`).set(eve.auth), 404, 'not_found');
    expect((await t.request.get('/v1/me').set(withKey(key.secret))).status).toBe(200);
    expect((await t.request.delete(`/v1/me/api-keys/${key.id}`).set(ada.auth)).status).toBe(204);
    const refused = await t.request.get('/v1/me').set(withKey(key.secret));
    expectProblem(refused, 401, 'unauthenticated');
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer /);
    expectProblem(await t.request.delete(`/v1/me/api-keys/${key.id}`).set(ada.auth), 404, 'not_found');
    expect((await t.request.get('/v1/me/api-keys').set(ada.auth)).body.data).toEqual([]);
  });

  it('records lastUsedAt at the first use, then at most once a minute', async () => {
    const ada = await t.register('Ada');
    const key = await createKey(ada, { name: 'poller', scopes: ['read'] });
    const lastUsed = async () =>
      (await t.db!.knex('api_keys').where({ id: key.id }).first('last_used_at')).last_used_at;
    expect(await lastUsed()).toBeNull();
    await t.request.get('/v1/me').set(withKey(key.secret));
    const first = (await lastUsed()) as Date;
    expect(first).toBeInstanceOf(Date);
    for (let i = 0; i < 3; i++)
      expect((await t.request.get('/v1/me').set(withKey(key.secret))).status).toBe(200);
    expect(await lastUsed()).toEqual(first);
    // Older than a minute: the next use writes it again.
    const old = new Date(Date.now() - 120_000);
    await t.db!.knex('api_keys').where({ id: key.id }).update({ last_used_at: old });
    await t.request.get('/v1/me').set(withKey(key.secret));
    expect(((await lastUsed()) as Date).getTime()).toBeGreaterThan(old.getTime() + 60_000);
    const listed = (await t.request.get('/v1/me/api-keys').set(ada.auth)).body.data[0];
    expect(listed.lastUsedAt).toMatch(RFC3339_UTC);
  });

  it('validates the request: name, scopes and expiry, as problem+json', async () => {
    const ada = await t.register('Ada');
    const post = (body: unknown) =>
      t.request
        .post('/v1/me/api-keys')
        .set(ada.auth)
        .send(body as object);
    expectValidationFailed(await post({ scopes: ['read'] }), 'name');
    expectValidationFailed(await post({ name: '', scopes: ['read'] }), 'name');
    expectValidationFailed(await post({ name: 'x'.repeat(101), scopes: ['read'] }), 'name');
    expectValidationFailed(await post({ name: 'a' }), 'scopes');
    expectValidationFailed(await post({ name: 'a', scopes: [] }), 'scopes');
    expectValidationFailed(await post({ name: 'a', scopes: ['admin'] }), 'scopes.0');
    expectValidationFailed(await post({ name: 'a', scopes: ['read', 'read'] }), 'scopes.1');
    expectValidationFailed(await post({ name: 'a', scopes: ['read'], expiresAt: 'tomorrow' }), 'expiresAt');
    expectValidationFailed(await post({ name: 'a', scopes: ['read'], secret: 'mine' }), 'secret');
    expect(await t.db!.knex('api_keys').where({ user_id: ada.id })).toEqual([]);
  });

  it(`refuses a key past the bound of keys per account with 422 limit_exceeded`, async () => {
    const ada = await t.register('Ada');
    for (let i = 0; i < 23; i++) await createKey(ada, { name: `k${i}`, scopes: ['read'] });
    // Two places left, six creations at once: the account's row is locked while keys are counted,
    // so exactly two get in.
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.request
          .post('/v1/me/api-keys')
          .set(ada.auth)
          .send({ name: `race ${i}`, scopes: ['read'] }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 422, 422, 422, 422]);
    const over = await t.request
      .post('/v1/me/api-keys')
      .set(ada.auth)
      .send({ name: 'one more', scopes: ['read'] });
    expectProblem(over, 422, 'limit_exceeded');
    expect(over.body.limit).toEqual({ name: 'apiKeysPerUser', max: 25 });
    expect((await t.request.get('/v1/me/api-keys').set(ada.auth)).body.data).toHaveLength(25);
  });

  it('refuses a key whose checksum does not match, and a look-alike, with 401', async () => {
    const ada = await t.register('Ada');
    const key = await createKey(ada, { name: 'k', scopes: ['read'] });
    const last = key.secret.at(-1) === 'A' ? 'B' : 'A';
    const tampered = key.secret.slice(0, -1) + last;
    expectProblem(await t.request.get('/v1/me').set(withKey(tampered)), 401, 'unauthenticated');
    expectProblem(await t.request.get('/v1/me').set(withKey('tally_sk_short')), 401, 'unauthenticated');
  });

  it('deleting the account deletes its keys', async () => {
    const ada = await t.register('Ada');
    const key = await createKey(ada, { name: 'k', scopes: ['read'] });
    expect((await t.request.delete('/v1/me').set(ada.auth)).status).toBe(204);
    expectProblem(await t.request.get('/v1/me').set(withKey(key.secret)), 401, 'unauthenticated');
    expect(await t.db!.knex('api_keys').where({ user_id: ada.id })).toEqual([]);
  });

  it('the OpenAPI document says which operations take a key: all but the WebSocket and the session-only ones', () => {
    const doc = openApiDocument() as {
      security: unknown;
      paths: Record<string, Record<string, { operationId: string; security?: unknown }>>;
    };
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    const tokenOnly = Object.values(doc.paths)
      .flatMap((ops) => Object.values(ops))
      .filter((op) => JSON.stringify(op.security) === JSON.stringify([{ bearerAuth: [] }]))
      .map((op) => op.operationId)
      .sort();
    expect(tokenOnly).toEqual([...SESSION_ONLY_OPERATIONS, 'openWebSocket'].sort());
  });
});
