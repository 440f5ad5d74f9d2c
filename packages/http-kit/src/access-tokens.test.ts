import { SignJWT } from 'jose';
import { createAccessTokens } from './access-tokens';

const SECRET = 'access-tokens-test-secret-access-tokens-test';

describe('access tokens', () => {
  it('carry the session id as `sid` and give it back on verification', async () => {
    const tokens = createAccessTokens({ secret: SECRET, ttlSeconds: 60 });
    const verified = await tokens.verifyDetailed(await tokens.sign('usr_1', 'rtk_family'));
    expect(verified).toMatchObject({ userId: 'usr_1', sessionId: 'rtk_family' });
    const noSession = await tokens.verifyDetailed(await tokens.sign('usr_1'));
    expect(noSession?.userId).toBe('usr_1');
    expect(noSession?.sessionId).toBeUndefined();
  });

  it('write and require their audience: another deployment sharing the secret refuses them', async () => {
    const ours = createAccessTokens({ secret: SECRET, ttlSeconds: 60, audience: 'tally-eu' });
    const theirs = createAccessTokens({ secret: SECRET, ttlSeconds: 60, audience: 'tally-us' });
    const token = await ours.sign('usr_1', 'rtk_1');
    expect(await ours.verify(token)).toBe('usr_1');
    expect(await theirs.verify(token)).toBeUndefined();
    // The payload says `aud: tally-eu`.
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(payload).toMatchObject({ aud: 'tally-eu', iss: 'tally', sub: 'usr_1', sid: 'rtk_1' });
  });

  it('refuse a token with no audience, as minted before audiences were checked', async () => {
    const tokens = createAccessTokens({ secret: SECRET, ttlSeconds: 60 });
    const legacy = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('usr_1')
      .setIssuer('tally')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(Buffer.from(SECRET, 'utf8'));
    expect(await tokens.verify(legacy)).toBeUndefined();
  });
});
