import type { AccessTokens } from '@tally/http-kit';
import { AppError } from '@tally/http-kit';
import type { RequestState, Step } from '../http/pipeline';

export const unauthenticated = (): AppError =>
  new AppError('unauthenticated', 401, 'A valid bearer access token is required.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="tally"' },
  });

/** Parses `Authorization: Bearer <jwt>` and returns the verified token (user, session, expiry), or undefined. */
export async function identityFromAuthorization(tokens: AccessTokens, header: string | undefined) {
  const match = header ? /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header) : null;
  return match?.[1] ? tokens.verifyDetailed(match[1]) : undefined;
}

/**
 * The pipeline's authentication step, for every route but the public ones: the bearer access
 * token's user and session, or `401`. `isRevoked`: a deleted account's access token (API.md §11.3),
 * or one of a session that was signed out (its `sid`, §2), is refused before it expires; absent,
 * every valid token is accepted.
 */
export function authenticationStep(
  tokens: AccessTokens,
  isRevoked?: (userId: string, sessionId?: string) => Promise<boolean>,
): Step {
  async function authenticate(s: RequestState): Promise<void> {
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
