import type { AccessTokens } from '@tally/http-kit';
import { AppError } from '@tally/http-kit';
import type { RequestHandler } from 'express';
import { requestContext } from '../http/request-context';

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
 * `isRevoked`: a deleted account's access token (API.md §11.3), or one of a session that was signed
 * out (its `sid`, §2), is refused before it expires; absent, every valid token is accepted.
 */
export function authenticate(
  tokens: AccessTokens,
  isRevoked?: (userId: string, sessionId?: string) => Promise<boolean>,
): RequestHandler {
  return async (req, res, next) => {
    const identity = await identityFromAuthorization(tokens, req.get('authorization'));
    const userId = identity?.userId;
    if (!userId || (isRevoked && (await isRevoked(userId, identity.sessionId)))) throw unauthenticated();
    res.locals['userId'] = userId;
    if (identity.sessionId !== undefined) res.locals['sessionId'] = identity.sessionId;
    const ctx = requestContext.getStore();
    if (ctx) ctx.userId = userId;
    next();
  };
}

export function userIdOf(res: { locals: Record<string, unknown> }): string {
  const id = res.locals['userId'];
  if (typeof id !== 'string') throw unauthenticated();
  return id;
}

/** The session (`sid`) of the request's access token; undefined for a token issued without one. */
export function sessionIdOf(res: { locals: Record<string, unknown> }): string | undefined {
  const id = res.locals['sessionId'];
  return typeof id === 'string' ? id : undefined;
}
