import type { ErrorCode } from '@tally/http-kit';
import type { JsonSchema } from '../joi-to-json-schema';
import { closed, ref } from './common';

export type DocumentedErrorCode = ErrorCode;

/** Every problem `code` with its HTTP status; `Record<…, …>` keeps it in step with http-kit. */
export const ERROR_STATUS: Record<DocumentedErrorCode, number> = {
  malformed_json: 400,
  idempotency_key_missing: 400,
  idempotency_key_invalid: 400,
  min_seq_invalid: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  not_found: 404,
  forbidden: 403,
  idempotency_key_reused: 409,
  idempotency_key_in_progress: 409,
  email_taken: 409,
  member_has_balance: 409,
  member_claimed: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  not_a_member: 422,
  split_mismatch: 422,
  rate_unavailable: 422,
  rate_limited: 429,
  unavailable: 503,
  resync_required: 410,
  upgrade_required: 426,
  internal_error: 500,
  invalid_reset_token: 400,
  wrong_password: 403,
  limit_exceeded: 422,
  insufficient_scope: 403,
  receipt_unreadable: 422,
  group_archived: 409,
  unknown_category: 422,
  category_name_taken: 409,
};
export const ERROR_CODES = Object.keys(ERROR_STATUS) as DocumentedErrorCode[];

/** What any endpoint may answer: problem details (RFC 9457), and the probes' health. */
export const serviceSchemas: Record<string, JsonSchema> = {
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details (`application/problem+json`). 5xx bodies never carry internals.',
    properties: {
      type: {
        type: 'string',
        description: '`/problems/` + the code with `_` turned into `-`',
        examples: ['/problems/idempotency-key-reused'],
      },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      code: {
        type: 'string',
        enum: ERROR_CODES,
        description: 'Stable, machine-readable; clients switch on it',
      },
      detail: { type: 'string' },
      requestId: { type: 'string', description: 'Same as the `X-Request-Id` response header' },
      errors: {
        type: 'array',
        description:
          'Present on `validation_failed` and `not_a_member` (one entry per non-member, at the path that names them, e.g. `split.between[2].userId`), and on some `split_mismatch`: one entry per failure',
        items: ref('FieldError'),
      },
      limit: closed(
        {
          name: { type: 'string', examples: ['schedulesPerGroup'] },
          max: { type: 'integer', minimum: 0 },
        },
        'On `limit_exceeded` (and a `payload_too_large` that names its bound): which bound of API.md §9 the request ran into, and its value',
      ),
    },
    required: ['type', 'title', 'status', 'code', 'detail', 'requestId'],
  },
  FieldError: closed({
    path: { type: 'string', description: 'Dotted path of the field', examples: ['amount'] },
    message: { type: 'string' },
  }),
  Health: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['ok', 'ready', 'unavailable'] },
      checks: {
        type: 'object',
        description:
          'On /readyz: each dependency of this process, `up` or `down` (only `database` decides readiness)',
        additionalProperties: { type: 'string', enum: ['up', 'down'] },
      },
      starting: {
        type: 'boolean',
        description:
          'On /readyz: `true` while the process is still starting (waiting for its database, `BOOT_DB_TIMEOUT_SECONDS`)',
      },
    },
    required: ['status'],
  },
};
