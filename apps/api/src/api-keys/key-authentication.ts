import { AppError } from '@tally/http-kit';
import type { ApiKeys, KeyIdentity } from './api-keys.service';
import type { KeyFailures } from './key-failures';
import { isWellFormedSecret, SECRET_PREFIX } from './secret';

/** Checks a request's API key (API.md §2.6): who it is, or `401`, or `429` once its IP failed too often. */
export type KeyAuthentication = (secret: string, ip: string | undefined) => Promise<KeyIdentity>;

/** A bearer credential that is an API key rather than an access token (a JWT never starts so). */
export const isApiKeyCredential = (token: string): boolean => token.startsWith(SECRET_PREFIX);

const invalidKey = () =>
  new AppError('unauthenticated', 401, 'This API key is unknown, revoked or expired.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="tally", error="invalid_token"' },
  });

/**
 * A key with a wrong checksum is refused without a lookup; one that is well formed is looked up by
 * its hash (one PostgreSQL round trip, no cache: a revoke on any process stops it at the next
 * request). Every refusal counts as a failure of the client IP.
 */
export function createKeyAuthentication(deps: {
  apiKeys: ApiKeys;
  failures: KeyFailures;
}): KeyAuthentication {
  return async (secret, ip) => {
    deps.failures.check(ip);
    const identity = isWellFormedSecret(secret) ? await deps.apiKeys.authenticate(secret) : undefined;
    if (identity) return identity;
    await deps.failures.fail(ip);
    throw invalidKey();
  };
}
