import {
  InvalidResetTokenError,
  UnauthenticatedError,
  ValidationFailedError,
  WrongPasswordError,
} from '../../packages/client/src';
import { RESET_SUBJECT, resetTokenOf, startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/**
 * `tally.me.changePassword`, `tally.auth.requestPasswordReset` and `confirmPasswordReset` against
 * the real server, the reset link read from a mail a real SMTP server received (API.md §2.4).
 */
describe('TallyClient: password change and reset', () => {
  let smtp: TestSmtpServer;
  let t: TestServer;

  const newClient = () => quickClient(t.url);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestServer({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  it('changes the password: typed WrongPasswordError, the other device is signed out, this one stays', async () => {
    const email = uniqueEmail('Ada');
    const laptop = newClient();
    await laptop.auth.register({ email, name: 'Ada', password: PASSWORD });
    const phone = newClient();
    await phone.auth.login({ email, password: PASSWORD });

    const wrong = await rejection(laptop.me.changePassword('not it', 'a brand new passphrase'));
    expect(wrong).toBeInstanceOf(WrongPasswordError);
    expect(wrong).toMatchObject({ code: 'wrong_password', status: 403 });
    expect(await laptop.auth.isSignedIn()).toBe(true); // a 403 is no reason to drop the session
    expect(await rejection(laptop.me.changePassword(PASSWORD, 'short'))).toBeInstanceOf(
      ValidationFailedError,
    );

    await laptop.me.changePassword(PASSWORD, 'a brand new passphrase');
    expect(await laptop.auth.refresh()).toBeDefined();
    expect((await laptop.auth.me()).email).toBe(email);
    // The phone's refresh token was revoked: its refresh fails and its tokens are cleared.
    expect(await phone.auth.refresh()).toBeUndefined();
    expect(await phone.auth.isSignedIn()).toBe(false);
    await newClient().auth.login({ email, password: 'a brand new passphrase' });
  });

  it('resets it with the token of the mailed link, once', async () => {
    const email = uniqueEmail('Bob');
    const bob = newClient();
    await bob.auth.register({ email, name: 'Bob', password: PASSWORD });

    const stranger = newClient();
    await stranger.auth.requestPasswordReset(email);
    await stranger.auth.requestPasswordReset(uniqueEmail('Nobody')); // resolves all the same
    const token = resetTokenOf(await smtp.waitForMail(email, { subject: RESET_SUBJECT }));

    expect(await rejection(stranger.auth.confirmPasswordReset(token, 'short'))).toBeInstanceOf(
      ValidationFailedError,
    );
    await stranger.auth.confirmPasswordReset(token, 'reset horse battery');
    const again = await rejection(stranger.auth.confirmPasswordReset(token, 'other horse battery'));
    expect(again).toBeInstanceOf(InvalidResetTokenError);
    expect(again).toMatchObject({ code: 'invalid_reset_token', status: 400 });

    // Bob's old session ended; the new password signs in.
    expect(await bob.auth.refresh()).toBeUndefined();
    expect(await rejection(bob.auth.me())).toBeInstanceOf(UnauthenticatedError);
    const session = await newClient().auth.login({ email, password: 'reset horse battery' });
    expect(session.user.email).toBe(email);
  });
});
