import { NotFoundError, UnauthenticatedError } from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

/** `tally.sessions`, `tally.auth.logout()` and `logoutAll()` against the real server (API.md §2). */
describe('TallyClient: sessions and signing out', () => {
  let t: TestServer;

  const newClient = () => quickClient(t.url);
  /** One user signed in on two devices (clients). */
  const twoDevices = async (name: string) => {
    const email = uniqueEmail(name);
    const laptop = newClient();
    await laptop.auth.register({ email, name, password: PASSWORD });
    const phone = newClient();
    await phone.auth.login({ email, password: PASSWORD });
    return { laptop, phone };
  };

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('lists the sessions, marks the current one, and signs the other device out', async () => {
    const { laptop, phone } = await twoDevices('Sdk');
    const listed = await laptop.sessions.list();
    expect(listed).toHaveLength(2);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    const phoneSession = listed.find((s) => !s.current);
    await laptop.sessions.revoke(phoneSession?.id ?? '');

    // The phone's next call fails: its access token is refused, and so is the refresh it tries.
    expect(await rejection(phone.auth.me())).toBeInstanceOf(UnauthenticatedError);
    expect(await phone.auth.isSignedIn()).toBe(false);
    expect((await laptop.sessions.list()).map((s) => s.current)).toEqual([true]);
    expect(await rejection(laptop.sessions.revoke('rtk_unknown'))).toBeInstanceOf(NotFoundError);
  });

  it('logout() ends this session on the server and forgets the tokens; the other device goes on', async () => {
    const { laptop, phone } = await twoDevices('SdkOut');
    const { refreshToken } = (await laptop.tokens.tokens()) ?? { refreshToken: '' };
    await laptop.auth.logout();
    expect(await laptop.auth.isSignedIn()).toBe(false);
    const refused = await t.request.post('/v1/auth/refresh').send({ refreshToken });
    expect(refused.status).toBe(401);
    expect((await phone.auth.me()).name).toBe('SdkOut');
    expect(await phone.sessions.list()).toHaveLength(1);
    // Signing out when signed out already is no error.
    await laptop.auth.logout();
  });

  it('logoutAll() ends every session', async () => {
    const { laptop, phone } = await twoDevices('SdkAll');
    await phone.auth.logoutAll();
    expect(await phone.auth.isSignedIn()).toBe(false);
    expect(await rejection(laptop.auth.me())).toBeInstanceOf(UnauthenticatedError);
    expect(await laptop.auth.isSignedIn()).toBe(false);
  });
});
