import { AppError } from '@tally/http-kit';

/** What a key may do (API.md §2.6): `read` the safe methods, `write` the others. */
export const KEY_SCOPES = ['read', 'write'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/**
 * What only a signed-in person may do, never a key, whatever its scopes: manage API keys and
 * sessions, change the password or the email, delete the account. A leaked key must not be able to
 * make itself permanent (a new key, the password) or lock its owner out.
 */
export const SESSION_ONLY_OPERATIONS: ReadonlySet<string> = new Set([
  'listApiKeys',
  'createApiKey',
  'revokeApiKey',
  'listSessions',
  'revokeSession',
  'logout',
  'logoutAll',
  'changePassword',
  'changeEmail',
  'requestEmailVerification',
  'deleteMe',
]);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The scope a request needs: `read` for a safe method, `write` for any other. */
export const scopeFor = (method: string): KeyScope =>
  SAFE_METHODS.has(method.toUpperCase()) ? 'read' : 'write';

/** `403 insufficient_scope` unless a key of `scopes` may call `operationId` with `method`. */
export function assertKeyMayCall(operationId: string, method: string, scopes: readonly string[]): void {
  if (SESSION_ONLY_OPERATIONS.has(operationId)) {
    throw new AppError(
      'insufficient_scope',
      403,
      'API keys cannot manage keys or sessions, change the password or email, or delete the account; sign in.',
    );
  }
  const needed = scopeFor(method);
  if (!scopes.includes(needed)) {
    throw new AppError('insufficient_scope', 403, `This API key lacks the \`${needed}\` scope.`);
  }
}
