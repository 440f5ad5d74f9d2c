import { createHash } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import {
  startTestServer,
  TEST_JWT_SECRET,
  type TestServer,
  type TestUser,
  uniqueEmail,
} from '../support/test-server';
import { expectProblem, expectValidationFailed, idPattern, RFC3339_UTC } from './component-helpers';

const PASSWORD = 'correct horse battery';
const secretKey = new TextEncoder().encode(TEST_JWT_SECRET);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A token exactly like the server's own (HS256, issuer and audience tally), with overridable claims and header. */
function signToken(
  sub: string,
  options: { alg?: string; key?: Parameters<SignJWT['sign']>[0]; exp?: number; iat?: number } = {},
) {
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuer('tally')
    .setAudience('tally')
    .setIssuedAt(options.iat ?? nowSeconds())
    .setExpirationTime(options.exp ?? nowSeconds() + 600);
  return jwt.sign(options.key ?? secretKey);
}

describe('authentication (API.md §2)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  const register = (body: Record<string, unknown>) => t.request.post('/v1/auth/register').send(body);
  const login = (email: string, password: string) =>
    t.request.post('/v1/auth/login').send({ email, password });
  const refresh = (refreshToken: string) => t.request.post('/v1/auth/refresh').send({ refreshToken });
  const me = (token: string) => t.request.get('/v1/me').set('Authorization', `Bearer ${token}`);

  function expectSession(body: Record<string, unknown>, email: string, name: string) {
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken', 'user']);
    expect(body).toEqual({
      user: {
        id: expect.stringMatching(idPattern('usr')),
        email,
        name,
        createdAt: expect.stringMatching(RFC3339_UTC),
        emailVerified: false,
      },
      accessToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refreshToken: expect.any(String),
      expiresIn: 900,
    });
    expect(body['refreshToken']).not.toBe(body['accessToken']);
  }

  describe('register', () => {
    it('creates a user and answers 201 with {user, accessToken, refreshToken, expiresIn: 900}', async () => {
      const email = uniqueEmail('Reg');
      const res = await register({ email, name: 'Reg', password: PASSWORD });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json; charset=utf-8/);
      expectSession(res.body, email, 'Reg');
      expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
      const mine = await me(res.body.accessToken);
      expect(mine.status).toBe(200);
      expect(mine.body).toEqual(res.body.user);
    });

    it('accepts a password of exactly 8 characters', async () => {
      const res = await register({ email: uniqueEmail('Eight'), name: 'Eight', password: 'tq8#Lm2v' });
      expect(res.status).toBe(201);
    });

    it('rejects a password shorter than 8 characters with 422 validation_failed', async () => {
      const email = uniqueEmail('Short');
      const res = await register({ email, name: 'Short', password: '1234567' });
      expectValidationFailed(res, 'password');
      const retry = await register({ email, name: 'Short', password: PASSWORD });
      expect(retry.status).toBe(201);
    });

    it('rejects a missing or invalid email, a missing name and unknown fields with 422', async () => {
      const res = await register({ email: 'not-an-email', password: PASSWORD, admin: true });
      expectValidationFailed(res, 'email', 'name', 'admin');
    });

    it('rejects an email already registered with 409 email_taken, ignoring case', async () => {
      const email = uniqueEmail('Dup');
      const first = await register({ email, name: 'Dup', password: PASSWORD });
      expect(first.status).toBe(201);
      const same = await register({ email, name: 'Dup again', password: PASSWORD });
      expectProblem(same, 409, 'email_taken');
      const upper = await register({ email: email.toUpperCase(), name: 'Dup upper', password: PASSWORD });
      expectProblem(upper, 409, 'email_taken');
      const stillFirst = await login(email, PASSWORD);
      expect(stillFirst.status).toBe(200);
      expect(stillFirst.body.user.id).toBe(first.body.user.id);
    });

    it('stores only a salted scrypt hash of the password', async () => {
      const a = await t.register('HashA');
      const b = await t.register('HashB');
      const rows = await t.db!.knex('users').whereIn('id', [a.id, b.id]).select('id', 'password_hash');
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.password_hash).toMatch(/^scrypt\$/);
        expect(row.password_hash).not.toContain(PASSWORD);
        expect(row.password_hash).not.toContain(Buffer.from(PASSWORD).toString('base64'));
      }
      // Same password, different salt: different hashes.
      expect(rows[0].password_hash).not.toBe(rows[1].password_hash);
    });
  });

  describe('login', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await t.register('Login');
    });

    it('answers 200 with the same session shape as register', async () => {
      const res = await login(user.email, PASSWORD);
      expect(res.status).toBe(200);
      expectSession(res.body, user.email, user.name);
      expect(res.body.user.id).toBe(user.id);
      expect((await me(res.body.accessToken)).body.id).toBe(user.id);
    });

    it('matches the email case-insensitively', async () => {
      const res = await login(user.email.toUpperCase(), PASSWORD);
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(user.id);
    });

    it('rejects a wrong password with 401 invalid_credentials', async () => {
      const res = await login(user.email, `${PASSWORD}!`);
      expectProblem(res, 401, 'invalid_credentials');
      expect(res.body).not.toHaveProperty('accessToken');
    });

    it('rejects an unknown email with the same 401 invalid_credentials', async () => {
      const unknown = await login(uniqueEmail('Nobody'), PASSWORD);
      const wrong = await login(user.email, 'wrong password');
      expectProblem(unknown, 401, 'invalid_credentials');
      expect(unknown.body.detail).toBe(wrong.body.detail);
    });

    it('rejects a body without a password with 422 validation_failed', async () => {
      const res = await t.request.post('/v1/auth/login').send({ email: user.email });
      expectValidationFailed(res, 'password');
    });
  });

  describe('refresh', () => {
    it('rotates: answers 200 with a new pair that works', async () => {
      const user = await t.register('Rotate');
      const res = await refresh(user.refreshToken);
      expect(res.status).toBe(200);
      expectSession(res.body, user.email, user.name);
      expect(res.body.refreshToken).not.toBe(user.refreshToken);
      expect(res.body.user.id).toBe(user.id);
      expect((await me(res.body.accessToken)).status).toBe(200);
      const again = await refresh(res.body.refreshToken);
      expect(again.status).toBe(200);
    });

    const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
    const sidOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sid as string;
    /** Refresh tokens of the family `refreshToken` is in. */
    const familySize = async (refreshToken: string) => {
      const family = t.server
        .knex('refresh_tokens')
        .where({ token_hash: hashOf(refreshToken) })
        .select('family_id');
      const [row] = await t.server.knex('refresh_tokens').whereIn('family_id', family).count({ n: '*' });
      return Number(row?.['n']);
    };

    /** Moves a used token's rotation back in time, past the reuse grace window (10 s by default). */
    const ageRotation = (refreshToken: string, seconds = 11) =>
      t.server
        .knex('refresh_tokens')
        .where({ token_hash: createHash('sha256').update(refreshToken).digest('hex') })
        .update({ used_at: t.server.knex.raw(`used_at - interval '${seconds} seconds'`) });

    it('treats a used refresh token as dead once the grace window has passed (401 unauthenticated)', async () => {
      const user = await t.register('Dead');
      const rotated = await refresh(user.refreshToken);
      expect(rotated.status).toBe(200);
      expect(await ageRotation(user.refreshToken)).toBe(1);
      const reused = await refresh(user.refreshToken);
      expectProblem(reused, 401, 'unauthenticated');
      expect(reused.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('revokes the whole family when a dead token is presented: the newest token then fails too', async () => {
      const user = await t.register('Family');
      const second = await refresh(user.refreshToken);
      const third = await refresh(second.body.refreshToken);
      expect(third.status).toBe(200);
      await ageRotation(user.refreshToken);

      expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
      expectProblem(await refresh(third.body.refreshToken), 401, 'unauthenticated');
    });

    it('leaves other families of the same user alone when one family is revoked', async () => {
      const user = await t.register('TwoDevices');
      const otherDevice = await login(user.email, PASSWORD);
      expect(otherDevice.status).toBe(200);
      await refresh(user.refreshToken);
      await ageRotation(user.refreshToken);
      expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
      const res = await refresh(otherDevice.body.refreshToken);
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(user.id);
    });

    it('answers a retry within the grace window (lost answer) with the same successor: one chain, no fork', async () => {
      const user = await t.register('Retry');
      const first = await refresh(user.refreshToken);
      expect(first.status).toBe(200);
      // The answer was lost: the app presents the same token again, within the grace window.
      const retried = await refresh(user.refreshToken);
      expect(retried.status).toBe(200);
      expectSession(retried.body, user.email, user.name);
      expect(retried.body.refreshToken).toBe(first.body.refreshToken);
      expect(sidOf(retried.body.accessToken)).toBe(sidOf(first.body.accessToken));
      for (const session of [first.body, retried.body]) {
        expect((await me(session.accessToken)).status).toBe(200);
      }
      // The family has two refresh tokens: the used one and its one successor.
      expect(await familySize(user.refreshToken)).toBe(2);
      // The chain goes on from the successor, and a retry of it answers its own one successor.
      const next = await refresh(first.body.refreshToken);
      expect(next.status).toBe(200);
      expect((await refresh(first.body.refreshToken)).body.refreshToken).toBe(next.body.refreshToken);
      expect(await familySize(user.refreshToken)).toBe(3);
    });

    it('gives five concurrent refreshes of one token one successor: the same refresh token in all five answers', async () => {
      const user = await t.register('Burst');
      const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(user.refreshToken)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(answers.map((a) => a.body.refreshToken)).size).toBe(1);
      expect(new Set(answers.map((a) => sidOf(a.body.accessToken))).size).toBe(1);
      expect(await familySize(user.refreshToken)).toBe(2);
      for (const a of answers) expect((await me(a.body.accessToken)).status).toBe(200);
      // That one successor refreshes, once; a used token past the window is still reuse.
      const successor = answers[0]?.body.refreshToken as string;
      expect((await refresh(successor)).status).toBe(200);
      await ageRotation(user.refreshToken);
      expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
      expectProblem(await refresh(successor), 401, 'unauthenticated');
    });

    it('refuses a retry whose successor is not there (issued by a process with other keys) without ending the session', async () => {
      const user = await t.register('Stranger');
      const first = await refresh(user.refreshToken);
      expect(first.status).toBe(200);
      // As if another key had derived it: the stored successor is not the one this process derives.
      await t.server
        .knex('refresh_tokens')
        .where({ token_hash: createHash('sha256').update(first.body.refreshToken).digest('hex') })
        .update({ token_hash: createHash('sha256').update('rt_elsewhere').digest('hex') });
      expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
      expect((await refresh('rt_elsewhere')).status).toBe(200);
    });

    it('finds the successor after a JWT_SECRET rotation: a process with the new secret answers the same token', async () => {
      const rotated = await startTestServer({
        env: {
          DATABASE_URL: t.db?.url ?? '',
          JWT_SECRET: 'a-new-secret-a-new-secret-a-new-secret-0123',
          JWT_SECRET_PREVIOUS: TEST_JWT_SECRET,
        },
      });
      try {
        const user = await t.register('Rotation');
        const first = await refresh(user.refreshToken);
        expect(first.status).toBe(200);
        const retried = await rotated.request
          .post('/v1/auth/refresh')
          .send({ refreshToken: user.refreshToken });
        expect(retried.status).toBe(200);
        expect(retried.body.refreshToken).toBe(first.body.refreshToken);
        expect(
          (await rotated.request.get('/v1/me').set('Authorization', `Bearer ${retried.body.accessToken}`))
            .status,
        ).toBe(200);
      } finally {
        await rotated.stop();
      }
    });

    it('does not revive a revoked family within the grace window', async () => {
      const user = await t.register('Revoked');
      const second = await refresh(user.refreshToken);
      await refresh(second.body.refreshToken);
      await ageRotation(user.refreshToken);
      // Reuse of the aged token revokes the family, including the second token still in its window.
      expectProblem(await refresh(user.refreshToken), 401, 'unauthenticated');
      expectProblem(await refresh(second.body.refreshToken), 401, 'unauthenticated');
    });

    it('with REFRESH_REUSE_GRACE_SECONDS=0 keeps strict rotation: an immediate retry revokes the family', async () => {
      const strict = await startTestServer({ env: { REFRESH_REUSE_GRACE_SECONDS: '0' } });
      try {
        const user = await strict.register('Strict');
        const post = (token: string) => strict.request.post('/v1/auth/refresh').send({ refreshToken: token });
        const rotated = await post(user.refreshToken);
        expect(rotated.status).toBe(200);
        expectProblem(await post(user.refreshToken), 401, 'unauthenticated');
        expectProblem(await post(rotated.body.refreshToken), 401, 'unauthenticated');
      } finally {
        await strict.stop();
      }
    });

    it('rejects an unknown refresh token with 401 and an empty one with 422', async () => {
      expectProblem(await refresh('rt_not-a-real-token'), 401, 'unauthenticated');
      expectValidationFailed(await refresh(''), 'refreshToken');
    });
  });

  describe('GET /v1/me', () => {
    it("answers the caller's user", async () => {
      const user = await t.register('Me');
      const res = await t.request.get('/v1/me').set(user.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: user.id,
        email: user.email,
        name: 'Me',
        createdAt: expect.stringMatching(RFC3339_UTC),
        emailVerified: false,
      });
    });
  });

  describe('bearer tokens', () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await t.register('Bearer');
    });

    function expectUnauthenticated(res: Parameters<typeof expectProblem>[0]) {
      expectProblem(res, 401, 'unauthenticated');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }

    it('during a rotation accepts tokens of JWT_SECRET_PREVIOUS and signs new ones with JWT_SECRET', async () => {
      const NEW_SECRET = 'the-new-secret-the-new-secret-0123456789';
      const rotated = await startTestServer({
        env: { JWT_SECRET: NEW_SECRET, JWT_SECRET_PREVIOUS: TEST_JWT_SECRET },
      });
      try {
        const groups = (server: TestServer, token: string) =>
          server.request.get('/v1/groups').set('Authorization', `Bearer ${token}`);
        // A token signed before the rotation (old secret) still verifies on the rotated server.
        expect((await groups(rotated, user.accessToken)).status).toBe(200);
        // The rotated server signs with the new secret only: an old-secret server refuses its tokens.
        const fresh = await rotated.register('Rotated');
        expect((await groups(rotated, fresh.accessToken)).status).toBe(200);
        expectUnauthenticated(await groups(t, fresh.accessToken));
        // A third secret is refused.
        const foreign = await signToken(user.id, { key: new TextEncoder().encode('x'.repeat(40)) });
        expectUnauthenticated(await groups(rotated, foreign));
      } finally {
        await rotated.stop();
      }
    });

    it('accepts a token it could have issued itself (the forging below is otherwise sound)', async () => {
      const res = await me(await signToken(user.id));
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(user.id);
    });

    it('rejects a request without a token', async () => {
      expectUnauthenticated(await t.request.get('/v1/me'));
      expectUnauthenticated(await t.request.get('/v1/groups'));
      expectUnauthenticated(await t.request.post('/v1/groups').send({ name: 'x' }));
    });

    it.each([
      ['a garbage token', 'Bearer not-a-jwt'],
      ['an empty bearer', 'Bearer '],
      ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ])('rejects %s', async (_what, header) => {
      expectUnauthenticated(await t.request.get('/v1/me').set('Authorization', header));
    });

    it('rejects a token signed with another secret', async () => {
      const token = await signToken(user.id, { key: new TextEncoder().encode(`${TEST_JWT_SECRET}-other`) });
      expectUnauthenticated(await me(token));
    });

    it('rejects a token whose signature was tampered with', async () => {
      const [header, payload] = user.accessToken.split('.');
      const forged = `${header}.${b64({ sub: user.id, iss: 'tally', exp: nowSeconds() + 600 })}.${user.accessToken.split('.')[2]}`;
      expectUnauthenticated(await me(forged));
      expectUnauthenticated(await me(`${header}.${payload}.AAAA`));
    });

    it('rejects an alg: none token', async () => {
      const claims = { sub: user.id, iss: 'tally', iat: nowSeconds(), exp: nowSeconds() + 600 };
      expectUnauthenticated(await me(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`));
      expectUnauthenticated(await me(`${b64({ alg: 'none' })}.${b64(claims)}`));
    });

    it('rejects a token signed with HS512 and the same secret', async () => {
      expectUnauthenticated(await me(await signToken(user.id, { alg: 'HS512' })));
    });

    it('rejects a token signed with RS256', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      expectUnauthenticated(await me(await signToken(user.id, { alg: 'RS256', key: privateKey })));
    });

    it('rejects an expired token', async () => {
      const token = await signToken(user.id, { iat: nowSeconds() - 3600, exp: nowSeconds() - 60 });
      expectUnauthenticated(await me(token));
    });

    it('rejects a token once it expires, though it was accepted (and remembered) before', async () => {
      // Accepted while it lives: on a machine too slow to ask within its life, a longer-lived one.
      let exp = 0;
      let token = '';
      for (let ttl = 2; ; ttl *= 2) {
        exp = nowSeconds() + ttl;
        token = await signToken(user.id, { iat: nowSeconds(), exp });
        const status = (await me(token)).status;
        if (Date.now() >= exp * 1000) continue;
        expect(status).toBe(200);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 50));
      expectUnauthenticated(await me(token));
    });

    it('rejects a token for another audience (JWT_AUDIENCE), or none', async () => {
      for (const audience of ['tally-elsewhere', undefined]) {
        let jwt = new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(user.id)
          .setIssuer('tally')
          .setExpirationTime('10m');
        if (audience) jwt = jwt.setAudience(audience);
        expectUnauthenticated(await me(await jwt.sign(secretKey)));
      }
    });

    it('rejects a token with another issuer', async () => {
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer('someone-else')
        .setAudience('tally')
        .setExpirationTime('10m')
        .sign(secretKey);
      expectUnauthenticated(await me(token));
    });
  });
});
