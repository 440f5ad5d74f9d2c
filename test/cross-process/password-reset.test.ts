import { freePort, type ServerProcess, spawnServer } from '../support/server-process';
import {
  RESET_SUBJECT,
  resetLinkOf,
  resetTokenOf,
  startSmtpServer,
  type TestSmtpServer,
} from '../support/smtp-server';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { uniqueEmail } from '../support/test-server';
import { until } from '../support/until';

const PASSWORD = 'correct horse battery';

/**
 * API.md §2.4 end to end through the configuration: real server processes read `SMTP_URL`,
 * `MAIL_FROM` and `APP_URL` from their environment. One mails through a real SMTP server; the other's
 * SMTP server is not there, and its reset requests are answered all the same (the failure is counted).
 * The link mailed by one process works on the other (the token lives in PostgreSQL).
 */
describe('password reset across server processes, mailed over SMTP', () => {
  let smtp: TestSmtpServer;
  let db: TestDatabase;
  let mailing: ServerProcess;
  let broken: ServerProcess;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    db = await createTestDatabase();
    const env = {
      ROLE: 'api',
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      APP_URL: 'https://tally.example.com',
    };
    [mailing, broken] = await Promise.all([
      spawnServer({ ...env, SMTP_URL: smtp.url, MAIL_FROM: 'Tally <accounts@tally.example.com>' }),
      spawnServer({ ...env, SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([mailing?.kill('SIGTERM'), broken?.kill('SIGTERM')]);
    await smtp?.stop();
    await db?.drop();
  });

  const post = async (base: string, path: string, body: object) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  it('mails the link from one process, and the other sets the password with it and ends the sessions', async () => {
    const email = uniqueEmail('Ada');
    const registered = await post(mailing.url, '/v1/auth/register', {
      email,
      name: 'Ada',
      password: PASSWORD,
    });
    expect(registered.status).toBe(201);

    const asked = await post(mailing.url, '/v1/auth/password-reset', { email });
    expect(asked.status).toBe(202);
    const mail = await smtp.waitForMail(email, { subject: RESET_SUBJECT });
    expect(mail.parsed.from?.value).toEqual([{ address: 'accounts@tally.example.com', name: 'Tally' }]);
    expect(resetLinkOf(mail)).toMatch(/^https:\/\/tally\.example\.com\/#reset=[A-Za-z0-9_-]{43}$/);

    const token = resetTokenOf(mail);
    expect(
      (await post(broken.url, '/v1/auth/password-reset/confirm', { token, password: 'new horse battery' }))
        .status,
    ).toBe(204);
    expect((await post(mailing.url, '/v1/auth/login', { email, password: 'new horse battery' })).status).toBe(
      200,
    );
    expect((await post(broken.url, '/v1/auth/login', { email, password: PASSWORD })).status).toBe(401);
    const refreshed = await post(mailing.url, '/v1/auth/refresh', {
      refreshToken: registered.body.refreshToken,
    });
    expect({ status: refreshed.status, code: refreshed.body.code }).toEqual({
      status: 401,
      code: 'unauthenticated',
    });
    const again = await post(mailing.url, '/v1/auth/password-reset/confirm', {
      token,
      password: 'third horse battery',
    });
    expect({ status: again.status, code: again.body.code }).toEqual({
      status: 400,
      code: 'invalid_reset_token',
    });
  });

  it('answers alike when the SMTP server cannot be reached, and counts the failed mail', async () => {
    const email = uniqueEmail('Bob');
    // Registered through the other process: its verification mail (API.md §2.5) is not this one's to fail.
    expect(
      (await post(mailing.url, '/v1/auth/register', { email, name: 'Bob', password: PASSWORD })).status,
    ).toBe(201);
    const known = await post(broken.url, '/v1/auth/password-reset', { email });
    const unknown = await post(broken.url, '/v1/auth/password-reset', { email: uniqueEmail('Nobody') });
    expect(known).toEqual(unknown);
    expect(known.status).toBe(202);
    await until(
      async () => {
        const metrics = await (await fetch(`${broken.url}/metrics`)).text();
        return (
          /mails_total\{outcome="failed"\} 1\b/.test(metrics) &&
          /ignored_errors_total\{reason="password_reset_request"\} 1\b/.test(metrics)
        );
      },
      { what: 'the failed mail counted' },
    );
    expect(smtp.mailsTo(email, RESET_SUBJECT)).toEqual([]);
  });
});
