import { createApiKeyBody } from '../../api-keys/api-keys.schema';
import { API_KEYS_PER_USER } from '../../api-keys/api-keys.service';
import { noContent } from './shapes';
import type { Operation } from './types';

const SESSION_ONLY =
  'A signed-in person only: a request authenticated with an API key is `403 insufficient_scope`.';

/** API keys for scripts and integrations (API.md §2.6). */
export const apiKeysOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/me/api-keys',
    operationId: 'createApiKey',
    tag: 'Auth',
    summary: 'Create an API key',
    description:
      'The answer carries `secret` (`tally_sk_` + 43 random base62 characters + a 6-character base62 CRC-32 ' +
      'checksum of them), **shown this once**: only its SHA-256 is kept. Send it as `Authorization: Bearer ' +
      '<secret>`; it acts as its user within its `scopes` (`read`: GET and HEAD, `write`: the rest) until ' +
      `\`expiresAt\` or until revoked. At most ${API_KEYS_PER_USER} keys per account, expired ones included ` +
      '(`422 limit_exceeded`, `apiKeysPerUser`). An `expiresAt` not in the future is `422 validation_failed`. ' +
      `Not keyed: an \`Idempotency-Key\` is ignored (a secret is never recorded for a replay). ${SESSION_ONLY}`,
    body: createApiKeyBody,
    success: [{ status: 201, description: 'The key, with its secret', schema: 'CreatedApiKey' }],
    errors: ['limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/me/api-keys',
    operationId: 'listApiKeys',
    tag: 'Auth',
    summary: "The caller's API keys",
    description:
      'Every key, the newest first, expired ones too (until revoked); never a secret or its hash. ' +
      `\`lastUsedAt\` is updated at most once a minute per key. ${SESSION_ONLY}`,
    success: [{ status: 200, description: 'The keys', schema: 'ApiKeyList' }],
  },
  {
    method: 'delete',
    path: '/v1/me/api-keys/{keyId}',
    operationId: 'revokeApiKey',
    tag: 'Auth',
    summary: 'Revoke an API key',
    description:
      'Deletes the key: its next request, on any process, is `401 unauthenticated`. Another user’s key, or ' +
      `none (or one already revoked): \`404 not_found\`. Not keyed. ${SESSION_ONLY}`,
    success: noContent('The key is revoked'),
  },
];
