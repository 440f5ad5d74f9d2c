import {
  RESET_SUBJECT,
  startSmtpServer,
  type TestSmtpServer,
  VERIFY_SUBJECT,
  verifyTokenOf,
} from '../support/smtp-server';
import { startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import { expectProblem, expectValidationFailed } from './component-helpers';

const PASSWORD = 'correct horse battery';

/**
 * API.md §2.5: registration mails a link that verifies the address; the link works once; it can be
 * mailed again, at most 3 times an hour; an email change takes effect only when the new address
 * opens its link. A real SMTP server receives the mails; the token is read out of the parsed mail.
 */
describe('email verification and change by a mailed link (API.md §2.5)', () => {
  let smtp: TestSmtpServer;
  let t: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestServer({ env: { SMTP_URL: smtp.url, APP_URL: 'https://app.tally.test/' } });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  const me = async (user: TestUser) => (await t.request.get('/v1/me').set(user.auth)).body;
  const verify = (token: string) => t.request.post('/v1/auth/verify-email').send({ token });
  const resend = (user: TestUser) => t.request.post('/v1/me/email/verification').set(user.auth);
  const changeEmail = (user: TestUser, email: string, password = PASSWORD) =>
    t.request.post('/v1/me/email').set(user.auth).send({ email, password });
  const login = (email: string) => t.request.post('/v1/auth/login').send({ email, password: PASSWORD });
  const rowsOf = (userId: string) => t.server.knex('email_verifications').where({ user_id: userId });

  it('mails a single-use link at registration; opening it verifies the address', async () => {
    const ada = await t.register('Ada');
    expect(ada).toMatchObject({ emailVerified: false });
    expect(await me(ada)).toMatchObject({ email: ada.email, emailVerified: false });

    const mail = await smtp.waitForMail(ada.email, { subject: VERIFY_SUBJECT });
    expect(mail.text).toMatch(/https:\/\/app\.tally\.test\/#verify-email=[A-Za-z0-9_-]{43}\n/);
    const token = verifyTokenOf(mail);
    // Only the token's hash is stored.
    const stored = await rowsOf(ada.id);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);

    expect((await verify(token)).status).toBe(204);
    expect(await me(ada)).toMatchObject({ email: ada.email, emailVerified: true });
    const session = await login(ada.email);
    expect(session.body.user).toMatchObject({ id: ada.id, emailVerified: true });
    // Single use; a dead or unknown link is 404, a malformed one 422.
    expectProblem(await verify(token), 404, 'not_found');
    expectProblem(await verify('A'.repeat(43)), 404, 'not_found');
    expectValidationFailed(await verify('not a token!'), 'token');
    expectValidationFailed(await t.request.post('/v1/auth/verify-email').send({ token, x: 1 }), 'x');
    // Nothing waits to be confirmed: nothing is mailed.
    expect((await resend(ada)).status).toBe(204);
  });

  it('mails the link again on request, the newest alone working, at most 3 an hour with the first', async () => {
    const bob = await t.register('Bob');
    const first = verifyTokenOf(await smtp.waitForMail(bob.email, { subject: VERIFY_SUBJECT }));
    const again = await resend(bob);
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ email: bob.email });
    const second = verifyTokenOf(await smtp.waitForMail(bob.email, { subject: VERIFY_SUBJECT }));
    expect((await resend(bob)).status).toBe(202);
    const third = verifyTokenOf(await smtp.waitForMail(bob.email, { subject: VERIFY_SUBJECT }));
    expect(new Set([first, second, third]).size).toBe(3);

    const over = await resend(bob);
    expectProblem(over, 429, 'rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3000);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expectValidationFailed(
      await t.request.post('/v1/me/email/verification').set(bob.auth).send({ x: 1 }),
      'x',
    );
    // The refused one mailed nothing, and a newer link replaced the older ones.
    expect(smtp.mailsTo(bob.email, VERIFY_SUBJECT)).toHaveLength(3);
    expectProblem(await verify(first), 404, 'not_found');
    expectProblem(await verify(second), 404, 'not_found');
    expect((await verify(third)).status).toBe(204);
    expect(await me(bob)).toMatchObject({ emailVerified: true });
    // One hour's links and nothing else are kept for the account.
    expect((await rowsOf(bob.id)).length).toBeLessThanOrEqual(3);
  });

  it('keeps an older row no longer than an hour: the table does not grow with an account', async () => {
    const cy = await t.register('Cy');
    await smtp.waitForMail(cy.email, { subject: VERIFY_SUBJECT });
    // Rows from two hours ago, used or expired: the next link deletes them.
    await t.server
      .knex('email_verifications')
      .where({ user_id: cy.id })
      .update({ created_at: new Date(Date.now() - 2 * 3600_000) });
    expect((await resend(cy)).status).toBe(202);
    await smtp.waitForMail(cy.email, { subject: VERIFY_SUBJECT });
    const rows = await rowsOf(cy.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ used_at: null });
  });

  it('changes the login email only once the new address opens its link', async () => {
    const dee = await t.register('Dee');
    verifyTokenOf(await smtp.waitForMail(dee.email, { subject: VERIFY_SUBJECT }));
    const taken = await t.register('Taken');
    const next = uniqueEmail('Dee.New');

    expectProblem(await changeEmail(dee, next, 'not my password'), 403, 'wrong_password');
    expectProblem(await changeEmail(dee, taken.email.toUpperCase()), 409, 'email_taken');
    expectValidationFailed(await changeEmail(dee, 'not an email'), 'email');
    expectValidationFailed(
      await t.request.post('/v1/me/email').set(dee.auth).send({ email: next, password: PASSWORD, x: 1 }),
      'x',
    );

    const asked = await changeEmail(dee, ` ${next.toUpperCase()} `);
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ email: next });
    const mail = await smtp.waitForMail(next, { subject: VERIFY_SUBJECT });
    expect(mail.text).toContain('keep signing in with your current address');
    // Until then the old address is the login email, as it was (unverified here).
    expect(await me(dee)).toMatchObject({ email: dee.email, emailVerified: false });
    expect((await login(dee.email)).status).toBe(200);
    expectProblem(await login(next), 401, 'invalid_credentials');
    const token = verifyTokenOf(mail);
    expect((await verify(token)).status).toBe(204);
    expect(await me(dee)).toMatchObject({ email: next, emailVerified: true });
    expect((await login(next)).status).toBe(200);
    expectProblem(await login(dee.email), 401, 'invalid_credentials');
    // The old address is free again; a reset mail now goes to the new one.
    expect((await t.request.post('/v1/auth/password-reset').send({ email: next })).status).toBe(202);
    await smtp.waitForMail(next, { subject: RESET_SUBJECT });
  });

  it('refuses a change whose address was registered meanwhile (409), and cancels a change by the own address', async () => {
    const eve = await t.register('Eve');
    await smtp.waitForMail(eve.email, { subject: VERIFY_SUBJECT });
    const wanted = uniqueEmail('Wanted');
    expect((await changeEmail(eve, wanted)).status).toBe(202);
    const token = verifyTokenOf(await smtp.waitForMail(wanted, { subject: VERIFY_SUBJECT }));
    const first = await t.request
      .post('/v1/auth/register')
      .send({ email: wanted, name: 'First', password: PASSWORD });
    expect(first.status).toBe(201);
    expectProblem(await verify(token), 409, 'email_taken');
    expect(await me(eve)).toMatchObject({ email: eve.email });

    // Asking for another address, then for the own one again: the pending change's link dies.
    const gil = await t.register('Gil');
    await smtp.waitForMail(gil.email, { subject: VERIFY_SUBJECT });
    const other = uniqueEmail('Other');
    expect((await changeEmail(gil, other)).status).toBe(202);
    const otherToken = verifyTokenOf(await smtp.waitForMail(other, { subject: VERIFY_SUBJECT }));
    const back = await changeEmail(gil, gil.email);
    // Gil's own address is not verified yet: a link for it goes out instead.
    expect(back.status).toBe(202);
    expect(back.body).toEqual({ email: gil.email });
    const own = verifyTokenOf(await smtp.waitForMail(gil.email, { subject: VERIFY_SUBJECT }));
    expectProblem(await verify(otherToken), 404, 'not_found');
    expect((await verify(own)).status).toBe(204);
    expect(await me(gil)).toMatchObject({ email: gil.email, emailVerified: true });
    // Verified: asking for the own address again mails nothing.
    expect((await changeEmail(gil, gil.email)).status).toBe(204);
  });

  it('forgets the links of a deleted account', async () => {
    const fay = await t.register('Fay');
    await smtp.waitForMail(fay.email, { subject: VERIFY_SUBJECT });
    expect(await rowsOf(fay.id)).toHaveLength(1);
    expect((await t.request.delete('/v1/me').set(fay.auth)).status).toBe(204);
    expect(await rowsOf(fay.id)).toEqual([]);
  });
});
