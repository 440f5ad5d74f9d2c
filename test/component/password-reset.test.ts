import { Writable } from 'node:stream';
import { createAccessTokens } from '@tally/http-kit';
import { loadConfig, start } from '@tally/server';
import pino from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { createApp } from '../../apps/api/src/create-app';
import { createBackgroundTasks } from '../../apps/api/src/mail/background';
import type { Mail } from '../../apps/api/src/mail/mailer';
import {
  RESET_SUBJECT,
  resetLinkOf,
  resetTokenOf,
  startSmtpServer,
  type TestSmtpServer,
} from '../support/smtp-server';
import { createTestDatabase } from '../support/test-database';
import {
  startTestServer,
  TEST_JWT_SECRET,
  type TestServer,
  type TestUser,
  uniqueEmail,
} from '../support/test-server';
import { until } from '../support/until';
import { expectProblem, expectValidationFailed } from './component-helpers';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase 42';

/**
 * API.md §2: password change, and reset by a mailed link, with a real SMTP server receiving the
 * mails (smtp-server) and the link read out of the parsed mail (mailparser).
 */
describe('password reset by mail and password change (API.md §2)', () => {
  let smtp: TestSmtpServer;
  let t: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestServer({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Tally Test <reset@tally.test>',
        APP_URL: 'https://app.tally.test/',
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  const login = (email: string, password: string) =>
    t.request.post('/v1/auth/login').send({ email, password });
  const refresh = (refreshToken: string) => t.request.post('/v1/auth/refresh').send({ refreshToken });
  const askReset = (email: string) => t.request.post('/v1/auth/password-reset').send({ email });
  const confirm = (token: string, password: string) =>
    t.request.post('/v1/auth/password-reset/confirm').send({ token, password });

  it('mails a single-use link that sets the password and ends every session', async () => {
    const ada = await t.register('Ada');
    const other = await login(ada.email, PASSWORD); // a second session, on another device
    expect(other.status).toBe(200);

    const asked = await askReset(ada.email.toUpperCase());
    expect(asked.status).toBe(202);
    const mail = await smtp.waitForMail(ada.email, { subject: RESET_SUBJECT });
    expect(mail.parsed.from?.value).toEqual([{ address: 'reset@tally.test', name: 'Tally Test' }]);
    expect(mail.subject).toBe('Reset your Tally password');
    const link = resetLinkOf(mail);
    expect(link).toMatch(/^https:\/\/app\.tally\.test\/#reset=[A-Za-z0-9_-]{43}$/);
    const token = resetTokenOf(mail);
    // Only the token's hash is stored.
    const stored = await t.server.knex('password_resets').where({ user_id: ada.id });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);

    const weak = await confirm(token, 'short');
    expectValidationFailed(weak, 'password');

    const done = await confirm(token, NEW_PASSWORD);
    expect(done.status).toBe(204);
    expect((await login(ada.email, NEW_PASSWORD)).status).toBe(200);
    expectProblem(await login(ada.email, PASSWORD), 401, 'invalid_credentials');
    // Every session that existed has ended.
    expectProblem(await refresh(ada.refreshToken), 401, 'unauthenticated');
    expectProblem(await refresh(other.body.refreshToken), 401, 'unauthenticated');

    // Single use: the same link a second time fails, and leaves the password alone.
    expectProblem(await confirm(token, 'yet another passphrase'), 400, 'invalid_reset_token');
    expect((await login(ada.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('answers an unknown email exactly like a known one, and mails nothing', async () => {
    const bob = await t.register('Bob');
    const nobody = uniqueEmail('Nobody');
    const unknown = await askReset(nobody);
    const known = await askReset(bob.email);
    expect({ status: unknown.status, body: unknown.body, type: unknown.headers['content-type'] }).toEqual({
      status: known.status,
      body: known.body,
      type: known.headers['content-type'],
    });
    expect(unknown.status).toBe(202);
    // The unknown request went first: once the known one's mail is in, the other would have been too.
    await smtp.waitForMail(bob.email, { subject: RESET_SUBJECT });
    expect(smtp.mailsTo(nobody)).toEqual([]);
  });

  it('refuses unknown, malformed and superseded tokens', async () => {
    expectProblem(await confirm('A'.repeat(43), NEW_PASSWORD), 400, 'invalid_reset_token');
    expectValidationFailed(await confirm('not a token!', NEW_PASSWORD), 'token');
    expectValidationFailed(await t.request.post('/v1/auth/password-reset').send({ email: 'nope' }), 'email');

    // Two links, one used: the other stops working too.
    const cy = await t.register('Cy');
    await askReset(cy.email);
    const first = resetTokenOf(await smtp.waitForMail(cy.email, { subject: RESET_SUBJECT }));
    await askReset(cy.email);
    const second = resetTokenOf(await smtp.waitForMail(cy.email, { subject: RESET_SUBJECT }));
    expect(second).not.toBe(first);
    expect((await confirm(second, NEW_PASSWORD)).status).toBe(204);
    expectProblem(await confirm(first, 'another good passphrase'), 400, 'invalid_reset_token');
  });

  it('mails one account at most PASSWORD_RESET_MAX_PER_HOUR (3) times an hour', async () => {
    const dee = await t.register('Dee');
    for (let i = 0; i < 5; i++) expect((await askReset(dee.email)).status).toBe(202);
    for (let i = 0; i < 3; i++) await smtp.waitForMail(dee.email, { subject: RESET_SUBJECT });
    // The two over the limit were answered alike and sent nothing: their work is done by now.
    await until(
      async () => (await t.server.knex('password_resets').where({ user_id: dee.id })).length === 3,
      {
        what: 'three reset tokens',
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mailsTo(dee.email, RESET_SUBJECT)).toHaveLength(3);
  });

  describe('POST /v1/me/password', () => {
    let eve: TestUser;
    beforeAll(async () => {
      eve = await t.register('Eve');
    });
    const change = (user: { accessToken: string }, body: Record<string, unknown>) =>
      t.request.post('/v1/me/password').set('Authorization', `Bearer ${user.accessToken}`).send(body);

    it('refuses a wrong current password with 403 wrong_password (not 401), changing nothing', async () => {
      expectProblem(
        await change(eve, { current: 'not my password', new: NEW_PASSWORD }),
        403,
        'wrong_password',
      );
      expect((await login(eve.email, PASSWORD)).status).toBe(200);
      expectValidationFailed(await change(eve, { current: PASSWORD, new: 'short' }), 'new');
      expectValidationFailed(await change(eve, { current: PASSWORD }), 'new');
      expectProblem(
        await t.request.post('/v1/me/password').send({ current: PASSWORD, new: NEW_PASSWORD }),
        401,
        'unauthenticated',
      );
    });

    it('changes it and ends every other session; the caller stays signed in', async () => {
      const phone = (await login(eve.email, PASSWORD)).body as { accessToken: string; refreshToken: string };
      const laptop = (await login(eve.email, PASSWORD)).body as { accessToken: string; refreshToken: string };
      const res = await change(laptop, { current: PASSWORD, new: NEW_PASSWORD });
      expect(res.status).toBe(204);

      expectProblem(await refresh(phone.refreshToken), 401, 'unauthenticated');
      expectProblem(await refresh(eve.refreshToken), 401, 'unauthenticated');
      const renewed = await refresh(laptop.refreshToken);
      expect(renewed.status).toBe(200);
      expect((await refresh(renewed.body.refreshToken)).status).toBe(200);

      expect((await login(eve.email, NEW_PASSWORD)).status).toBe(200);
      expectProblem(await login(eve.email, PASSWORD), 401, 'invalid_credentials');
    });

    it('makes outstanding reset links stop working', async () => {
      const fay = await t.register('Fay');
      await askReset(fay.email);
      const token = resetTokenOf(await smtp.waitForMail(fay.email, { subject: RESET_SUBJECT }));
      expect((await change(fay, { current: PASSWORD, new: NEW_PASSWORD })).status).toBe(204);
      expectProblem(await confirm(token, 'one more passphrase'), 400, 'invalid_reset_token');
    });
  });
});

describe('password reset links expire (PASSWORD_RESET_TTL_SECONDS)', () => {
  let smtp: TestSmtpServer;
  let t: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestServer({ env: { SMTP_URL: smtp.url, PASSWORD_RESET_TTL_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  it('refuses an expired link with 400 invalid_reset_token and keeps the password', async () => {
    const ada = await t.register('Ada');
    expect((await t.request.post('/v1/auth/password-reset').send({ email: ada.email })).status).toBe(202);
    const mail = await smtp.waitForMail(ada.email, { subject: RESET_SUBJECT });
    // Without APP_URL the link points at this process's own web client.
    expect(resetLinkOf(mail)).toMatch(new RegExp(`^http://localhost:${t.server.port}/#reset=`));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const res = await t.request
      .post('/v1/auth/password-reset/confirm')
      .send({ token: resetTokenOf(mail), password: NEW_PASSWORD });
    expectProblem(res, 400, 'invalid_reset_token');
    expect(
      (await t.request.post('/v1/auth/login').send({ email: ada.email, password: PASSWORD })).status,
    ).toBe(200);
    expect((await t.request.post('/v1/auth/refresh').send({ refreshToken: ada.refreshToken })).status).toBe(
      200,
    );
  });
});

describe('without SMTP_URL: the log mailer', () => {
  it('writes the mail, link included, to the log at info (and warns at start-up in production)', async () => {
    const db = await createTestDatabase();
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        callback();
      },
    });
    const server = await start(
      loadConfig({
        PORT: '0',
        JWT_SECRET: TEST_JWT_SECRET,
        DATABASE_URL: db.url,
        RATE_LIMIT_PER_MINUTE: '1000000',
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
      }),
      { logger: pino({ level: 'info' }, destination) },
    );
    try {
      // In production, a missing SMTP_URL is worth a warning at start-up.
      expect(lines).toContainEqual(
        expect.objectContaining({ level: 40, msg: expect.stringContaining('SMTP_URL is not set') }),
      );
      const email = uniqueEmail('Logged');
      const agent = request(server.url);
      expect(
        (await agent.post('/v1/auth/register').send({ email, name: 'Lo', password: PASSWORD })).status,
      ).toBe(201);
      expect((await agent.post('/v1/auth/password-reset').send({ email })).status).toBe(202);
      // The reset's mail (the registration's verification link is logged too, API.md §2.5).
      const isReset = (line: Record<string, unknown>) =>
        (line['mail'] as { subject?: string } | undefined)?.subject === 'Reset your Tally password';
      await until(() => lines.some(isReset), { what: 'the mail in the log' });
      await until(() => lines.some((line) => line['mail'] !== undefined && !isReset(line)), {
        what: 'the verification mail in the log',
      });
      const mailLine = lines.find(isReset) as Record<string, unknown>;
      expect(mailLine['level']).toBe(30); // info
      const mail = mailLine['mail'] as { to: string; subject: string; text: string };
      expect(mail.to).toBe(email);
      expect(mail.subject).toBe('Reset your Tally password');
      const token = /#reset=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] as string;
      expect(mail.text).toContain(`http://localhost:${server.port}/#reset=${token}`);
      // The token appears in no other log line.
      expect(lines.filter((line) => JSON.stringify(line).includes(token))).toHaveLength(1);
      expect(
        (await agent.post('/v1/auth/password-reset/confirm').send({ token, password: NEW_PASSWORD })).status,
      ).toBe(204);
      const metrics = await agent.get('/metrics');
      expect(metrics.text).toMatch(/mails_total\{outcome="sent"\} 2/);
    } finally {
      await server.stop();
      await db.drop();
    }
  });
});

describe('createApp: the mailer and the sessions-revoked announcement it is given', () => {
  it('mails through the Mailer given and announces ended sessions after the commit', async () => {
    const db = await createTestDatabase();
    const mails: Mail[] = [];
    const announced: { userId: string; sessionIds: readonly string[] }[] = [];
    const background = createBackgroundTasks();
    const tokens = createAccessTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 60 });
    const app = createApp({
      knex: db.knex,
      tokens,
      logger: pino({ level: 'silent' }),
      registry: new Registry(),
      announcer: { publications: () => [], announce: () => {} },
      isReady: async () => true,
      mailer: {
        send: async (mail) => {
          mails.push(mail);
        },
        close: async () => {},
      },
      background,
      appUrl: () => 'https://example.test/app',
      announceSessionsRevoked: (userId, sessionIds) => announced.push({ userId, sessionIds }),
    });
    try {
      const email = uniqueEmail('Gus');
      const registered = await request(app)
        .post('/v1/auth/register')
        .send({ email, name: 'Gus', password: PASSWORD });
      expect(registered.status).toBe(201);
      await background.idle(); // the verification mail of the registration has gone
      const userId: string = registered.body.user.id;
      const sessionId = (await tokens.verifyDetailed(registered.body.accessToken))?.sessionId;
      expect(sessionId).toEqual(expect.any(String));
      // A second device: the change ends it, and only it.
      const other = await request(app).post('/v1/auth/login').send({ email, password: PASSWORD });
      expect(other.status).toBe(200);
      const otherId = (await tokens.verifyDetailed(other.body.accessToken))?.sessionId;
      expect(otherId).toEqual(expect.any(String));
      expect(otherId).not.toBe(sessionId);

      const changed = await request(app)
        .post('/v1/me/password')
        .set('Authorization', `Bearer ${registered.body.accessToken}`)
        .send({ current: PASSWORD, new: NEW_PASSWORD });
      expect(changed.status).toBe(204);
      expect(announced).toEqual([{ userId, sessionIds: [otherId] }]);

      expect((await request(app).post('/v1/auth/password-reset').send({ email })).status).toBe(202);
      await background.idle();
      // The verification link mailed at registration (API.md §2.5), then the reset link.
      expect(mails).toEqual([
        {
          to: email,
          subject: 'Confirm your email address for Tally',
          text: expect.stringContaining('https://example.test/app/#verify-email='),
        },
        {
          to: email,
          subject: 'Reset your Tally password',
          text: expect.stringContaining('https://example.test/app/#reset='),
        },
      ]);
      const token = /#reset=([A-Za-z0-9_-]+)/.exec(mails[1]?.text ?? '')?.[1];
      const confirmed = await request(app)
        .post('/v1/auth/password-reset/confirm')
        .send({ token, password: 'third horse battery' });
      expect(confirmed.status).toBe(204);
      // The reset ends every session still live: the caller's (the other one had ended).
      expect(announced).toEqual([
        { userId, sessionIds: [otherId] },
        { userId, sessionIds: [sessionId] },
      ]);
    } finally {
      await background.idle();
      await db.drop();
    }
  });
});
