import { MAX_AMOUNT } from '@tally/domain';
import type { ErrorCode } from '@tally/http-kit';
import type { JsonSchema } from './joi-to-json-schema';

/**
 * JSON Schemas of what the API answers. Responses are not validated with joi, so these are written
 * by hand from the TypeScript types of the services (Expense, Group, Member, Settlement, User,
 * Session, balances, GroupEvent) and from API.md.
 */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const id = (prefix: string, what: string): JsonSchema => ({
  type: 'string',
  description: `${what} id: \`${prefix}_\` followed by a ULID. Opaque: do not parse it.`,
  examples: [`${prefix}_01JD3Q8Z4T6Y5W2N8K1M0PX7RC`],
});
const timestamp: JsonSchema = {
  type: 'string',
  format: 'date-time',
  description: 'RFC 3339 UTC timestamp',
  examples: ['2026-11-25T10:00:00.000Z'],
};
const amount: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_AMOUNT,
  description: 'Integer count of minor units (paise, cents, yen)',
  examples: [100000],
};
const signedAmount: JsonSchema = {
  type: 'integer',
  description: 'Minor units; positive: the group owes this member, negative: the member owes the group',
};
const currency: JsonSchema = { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code' };
const version: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'Incremented by every change; the ETag is `"v<version>"`',
};

/** Every problem `code` with its HTTP status; `Record<ErrorCode, …>` keeps it in step with http-kit. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  malformed_json: 400,
  idempotency_key_missing: 400,
  idempotency_key_invalid: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  not_found: 404,
  idempotency_key_reused: 409,
  idempotency_key_in_progress: 409,
  email_taken: 409,
  member_has_balance: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  not_a_member: 422,
  split_mismatch: 422,
  rate_limited: 429,
  unavailable: 503,
  internal_error: 500,
};
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

const payer: JsonSchema = {
  type: 'object',
  properties: { userId: id('usr', 'User'), amount },
  required: ['userId', 'amount'],
  additionalProperties: false,
};

export const responseSchemas: Record<string, JsonSchema> = {
  User: {
    type: 'object',
    properties: {
      id: id('usr', 'User'),
      email: { type: 'string', format: 'email' },
      name: { type: 'string' },
      createdAt: timestamp,
    },
    required: ['id', 'email', 'name', 'createdAt'],
    additionalProperties: false,
  },
  Session: {
    type: 'object',
    description:
      'A signed-in session. The access token is a JWT (HS256) valid `expiresIn` seconds; the refresh ' +
      'token is opaque, lives 30 days and rotates on every use (a used one is dead, and presenting a ' +
      'dead one revokes its whole family).',
    properties: {
      user: ref('User'),
      accessToken: { type: 'string', description: 'Bearer JWT for `Authorization: Bearer …`' },
      refreshToken: { type: 'string', description: 'Opaque single-use refresh token (30 days)' },
      expiresIn: { type: 'integer', minimum: 1, description: 'Access token lifetime in seconds' },
    },
    required: ['user', 'accessToken', 'refreshToken', 'expiresIn'],
    additionalProperties: false,
  },
  Member: {
    type: 'object',
    properties: { userId: id('usr', 'User'), name: { type: 'string' }, joinedAt: timestamp },
    required: ['userId', 'name', 'joinedAt'],
    additionalProperties: false,
  },
  Group: {
    type: 'object',
    properties: {
      id: id('grp', 'Group'),
      name: { type: 'string' },
      description: { type: 'string', description: 'Empty string when not set' },
      currency: { ...currency, description: 'Default currency of new expenses and settlements' },
      members: {
        type: 'array',
        items: ref('Member'),
        description: 'Current members, in the order they joined',
      },
      createdAt: timestamp,
      updatedAt: timestamp,
      version,
    },
    required: ['id', 'name', 'description', 'currency', 'members', 'createdAt', 'updatedAt', 'version'],
    additionalProperties: false,
  },
  Payer: payer,
  Share: {
    type: 'object',
    properties: { userId: id('usr', 'User'), owed: { type: 'integer', minimum: 0 } },
    required: ['userId', 'owed'],
    additionalProperties: false,
  },
  Expense: {
    type: 'object',
    properties: {
      id: {
        ...id('exp', 'Expense'),
        description: 'Expense id: `exp_` + ULID, or the id a client chose with PUT',
      },
      groupId: id('grp', 'Group'),
      description: { type: 'string' },
      category: { type: ['string', 'null'], maxLength: 64 },
      amount,
      currency,
      paidBy: {
        type: 'array',
        items: ref('Payer'),
        minItems: 1,
        description: 'Always the list form; the amounts add up to `amount`',
      },
      occurredAt: timestamp,
      split: { ...ref('Split'), description: 'As it was sent (generated from the request schema)' },
      shares: {
        type: 'array',
        items: ref('Share'),
        description:
          'What each participant owes, by largest remainder (ties to the one listed earlier); adds up to `amount` exactly',
      },
      createdBy: id('usr', 'User'),
      createdAt: timestamp,
      updatedAt: timestamp,
      version,
    },
    required: [
      'id',
      'groupId',
      'description',
      'category',
      'amount',
      'currency',
      'paidBy',
      'occurredAt',
      'split',
      'shares',
      'createdBy',
      'createdAt',
      'updatedAt',
      'version',
    ],
    additionalProperties: false,
  },
  Settlement: {
    type: 'object',
    properties: {
      id: id('stl', 'Settlement'),
      groupId: id('grp', 'Group'),
      fromUserId: { ...id('usr', 'User'), description: 'The member who paid' },
      toUserId: { ...id('usr', 'User'), description: 'The member who was paid back' },
      amount,
      currency,
      note: { type: 'string', description: 'Empty string when not set' },
      createdBy: id('usr', 'User'),
      createdAt: timestamp,
    },
    required: [
      'id',
      'groupId',
      'fromUserId',
      'toUserId',
      'amount',
      'currency',
      'note',
      'createdBy',
      'createdAt',
    ],
    additionalProperties: false,
  },
  CurrencyBalances: {
    type: 'object',
    properties: {
      currency,
      members: {
        type: 'array',
        description:
          'Every current member (and any former member whose net is not zero); the nets add up to exactly 0',
        items: {
          type: 'object',
          properties: { userId: id('usr', 'User'), net: signedAmount },
          required: ['userId', 'net'],
          additionalProperties: false,
        },
      },
      simplified: {
        type: 'array',
        description:
          'Transfers that settle every net exactly, each from a negative-net to a positive-net member, ' +
          'at most (number of non-zero nets − 1) of them',
        items: {
          type: 'object',
          properties: { from: id('usr', 'User'), to: id('usr', 'User'), amount },
          required: ['from', 'to', 'amount'],
          additionalProperties: false,
        },
      },
    },
    required: ['currency', 'members', 'simplified'],
    additionalProperties: false,
  },
  Balances: {
    type: 'object',
    properties: {
      groupId: id('grp', 'Group'),
      asOfSeq: {
        type: 'integer',
        minimum: 0,
        description: 'The event sequence number these balances reflect',
      },
      currencies: {
        type: 'array',
        items: ref('CurrencyBalances'),
        description:
          'One entry per currency that has at least one live (not deleted) expense or settlement, ' +
          'ordered by currency code. Currencies are never converted into each other.',
      },
    },
    required: ['groupId', 'asOfSeq', 'currencies'],
    additionalProperties: false,
  },
  Event: {
    type: 'object',
    description:
      'One entry of the group’s durable, ordered log. `data` by type: `group.updated` {group} (without ' +
      'members); `member.added` {member}; `member.removed` {userId}; `expense.created` {expense, balances} ' +
      '(plus `restored: true` when an expense was restored); `expense.updated` {expense, balances}; ' +
      '`expense.deleted` {expense, deletedAt, balances}; `settlement.created` {settlement, balances}; ' +
      '`settlement.deleted` {settlement, deletedAt, balances}. `balances` is the `currencies` array of ' +
      'the group’s balances after the change.',
    properties: {
      id: id('evt', 'Event'),
      seq: { type: 'integer', minimum: 1, description: 'Per group, strictly increasing, without gaps' },
      type: {
        type: 'string',
        enum: [
          'group.updated',
          'member.added',
          'member.removed',
          'expense.created',
          'expense.updated',
          'expense.deleted',
          'settlement.created',
          'settlement.deleted',
        ],
      },
      groupId: id('grp', 'Group'),
      actorId: { ...id('usr', 'User'), description: 'The user whose request made the change' },
      occurredAt: timestamp,
      data: {
        type: 'object',
        properties: {
          group: { type: 'object' },
          member: ref('Member'),
          userId: id('usr', 'User'),
          expense: ref('Expense'),
          settlement: ref('Settlement'),
          restored: { const: true },
          deletedAt: timestamp,
          balances: { type: 'array', items: ref('CurrencyBalances') },
        },
      },
    },
    required: ['id', 'seq', 'type', 'groupId', 'actorId', 'occurredAt', 'data'],
    additionalProperties: false,
  },
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
          'Present on `validation_failed` (and some `not_a_member`/`split_mismatch`): one entry per failure',
        items: {
          type: 'object',
          properties: { path: { type: 'string', examples: ['amount'] }, message: { type: 'string' } },
          required: ['path', 'message'],
          additionalProperties: false,
        },
      },
    },
    required: ['type', 'title', 'status', 'code', 'detail', 'requestId'],
  },
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
    },
    required: ['status'],
  },
};

/** `{ data: [...], nextCursor }`: one page of a cursor-paginated list. */
export function pageOf(itemSchema: string): JsonSchema {
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: ref(itemSchema) },
      nextCursor: {
        type: ['string', 'null'],
        description: 'Pass as `?cursor=` for the next page; null on the last page',
      },
    },
    required: ['data', 'nextCursor'],
    additionalProperties: false,
  };
}

for (const item of ['Group', 'Expense', 'Settlement', 'Event']) responseSchemas[`${item}Page`] = pageOf(item);
