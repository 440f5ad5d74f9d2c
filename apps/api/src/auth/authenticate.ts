import type { AccessTokens } from '@tally/http-kit';
import { AppError } from '@tally/http-kit';
import type { RequestHandler } from 'express';
import { requestContext } from '../http/request-context';

const unauthenticated = () =>
  new AppError('unauthenticated', 401, 'A valid bearer access token is required.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="tally"' },
  });

/** Parses `Authorization: Bearer <jwt>` and returns the user id, or undefined. */
export async function userIdFromAuthorization(tokens: AccessTokens, header: string | undefined) {
  const match = header ? /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header) : null;
  return match?.[1] ? tokens.verify(match[1]) : undefined;
}

/** The session (`sid`, the refresh-token family) of a bearer token, or undefined. */
async function sessionIdFromAuthorization(tokens: AccessTokens, header: string | undefined) {
  const match = header ? /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header) : null;
  return match?.[1] ? (await tokens.verifyDetailed(match[1]))?.sessionId : undefined;
}

/**
 * `isRevoked`: a deleted account's access token is refused before it expires (API.md §11.3);
 * absent, every valid token is accepted.
 */
export function authenticate(
  tokens: AccessTokens,
  isRevoked?: (userId: string) => Promise<boolean>,
): RequestHandler {
  return async (req, res, next) => {
    const userId = await userIdFromAuthorization(tokens, req.get('authorization'));
    if (!userId || (isRevoked && (await isRevoked(userId)))) throw unauthenticated();
    res.locals['userId'] = userId;
    res.locals['sessionId'] = await sessionIdFromAuthorization(tokens, req.get('authorization'));
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

/** The caller's session (the access token's `sid`), where the token names one. */
export function sessionIdOf(res: { locals: Record<string, unknown> }): string | undefined {
  const id = res.locals['sessionId'];
  return typeof id === 'string' ? id : undefined;
}
