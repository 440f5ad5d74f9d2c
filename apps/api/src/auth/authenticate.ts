import type { AccessTokens } from '@tally/http-kit';
import { AppError } from '@tally/http-kit';
import { isApiKeyCredential, type KeyAuthentication } from '../api-keys/key-authentication';
import type { RequestState, Step } from '../http/pipeline';

export const unauthenticated = (): AppError =>
  new AppError('unauthenticated', 401, 'A valid bearer access token is required.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="tally"' },
  });

/** The credential of `Authorization: Bearer <credential>`, or undefined. */
const bearerOf = (header: string | undefined) =>
  header ? /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header)?.[1] : undefined;

/** Parses `Authorization: Bearer <jwt>` and returns the verified token (user, session, expiry), or undefined. */
export async function identityFromAuthorization(tokens: AccessTokens, header: string | undefined) {
  const token = bearerOf(header);
  return token ? tokens.verifyDetailed(token) : undefined;
}

/**
 * The pipeline's authentication step, for every route but the public ones: the bearer access
 * token's user and session, or `401`. `isRevoked`: a deleted account's access token (API.md §11.3),
 * or one of a session that was signed out (its `sid`, §2), is refused before it expires; absent,
 * every valid token is accepted. `keys`: a bearer API key (`tally_sk_…`, API.md §2.6) is checked
 * there (its scopes by the `keyScope` step, after its budget); absent, a key is refused like any
 * token that does not verify.
 */
export function authenticationStep(
  tokens: AccessTokens,
  isRevoked?: (userId: string, sessionId?: string) => Promise<boolean>,
  keys?: KeyAuthentication,
): Step {
  async function authenticate(s: RequestState): Promise<void> {
    const credential = bearerOf(s.req.headers.authorization);
    if (keys && credential && isApiKeyCredential(credential)) {
      // The key's account is checked active by the lookup itself: no `isRevoked` round trip.
      const key = await keys(credential, s.ip);
      s.userId = key.userId;
      s.apiKeyId = key.keyId;
      s.apiKeyScopes = key.scopes;
      return;
    }
    const identity = await identityFromAuthorization(tokens, s.req.headers.authorization);
    const userId = identity?.userId;
    if (!userId || (isRevoked && (await isRevoked(userId, identity.sessionId)))) throw unauthenticated();
    // The state is the request context too: the logs of the request carry the user from here on.
    s.userId = userId;
    s.sessionId = identity.sessionId;
  }
  return {
    name: 'authenticate',
    run: (s) => (s.route.access === 'user' ? authenticate(s) : undefined),
  };
}
