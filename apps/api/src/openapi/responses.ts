import { MAX_AMOUNT } from '@tally/domain';
import type { ErrorCode } from '@tally/http-kit';
import { CURRENCY_CODES, type JsonSchema } from './joi-to-json-schema';

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
/** An import's id: `imp_` and the SHA-256 of its group and file (API.md §6b). */
const importId: JsonSchema = {
  type: 'string',
  pattern: '^imp_[0-9a-f]{64}$',
  description: 'Import id: `imp_` and 64 hex digits, derived from the group and the file',
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
const currency: JsonSchema = ref('Currency');
const localDate: JsonSchema = {
  type: 'string',
  format: 'date',
  description: 'A local calendar date, YYYY-MM-DD',
  examples: ['2027-01-31'],
};
const version: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'Incremented by every change; the ETag is `"v<version>"`',
};

/** The problem codes this document declares: http-kit's `ErrorCode`s, every one. */
export type DocumentedErrorCode = ErrorCode;

/** Every problem `code` with its HTTP status; `Record<…, …>` keeps it in step with http-kit. */
export const ERROR_STATUS: Record<DocumentedErrorCode, number> = {
  malformed_json: 400,
  idempotency_key_missing: 400,
  idempotency_key_invalid: 400,
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
};
export const ERROR_CODES = Object.keys(ERROR_STATUS) as DocumentedErrorCode[];

const payer: JsonSchema = {
  type: 'object',
  properties: { userId: id('usr', 'User'), amount },
  required: ['userId', 'amount'],
  additionalProperties: false,
};

const groupFields: Record<string, JsonSchema> = {
  id: id('grp', 'Group'),
  name: { type: 'string' },
  description: { type: 'string', description: 'Empty string when not set' },
  currency: { ...currency, description: 'Default currency of new expenses and settlements' },
  createdAt: timestamp,
  updatedAt: timestamp,
  version,
};

const object = (properties: Record<string, JsonSchema>, required: string[], description?: string) => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  required,
  additionalProperties: false,
});

/** `data` of each event type, with the component name of that event. */
const EVENT_TYPES: Record<string, { name: string; data: JsonSchema }> = (() => {
  const balances = {
    type: 'array',
    items: ref('CurrencyBalances'),
    description: 'The group’s balances after the change (the `currencies` of `Balances`)',
  };
  const deletedAt = { ...timestamp, description: 'When it was deleted' };
  return {
    'group.updated': { name: 'GroupUpdatedEvent', data: object({ group: ref('GroupSummary') }, ['group']) },
    'member.added': {
      name: 'MemberAddedEvent',
      data: object({ member: ref('LoggedMember') }, ['member']),
    },
    'member.removed': {
      name: 'MemberRemovedEvent',
      data: object(
        {
          userId: id('usr', 'User'),
          revokedInvites: {
            type: 'array',
            items: id('inv', 'Invite'),
            description: 'The live invites the member had made, revoked with the removal (absent when none)',
          },
        },
        ['userId'],
      ),
    },
    'member.claimed': {
      name: 'MemberClaimedEvent',
      data: object(
        {
          memberId: { ...id('usr', 'User'), description: 'The pending member taken over' },
          userId: { ...id('usr', 'User'), description: 'The account that took them over' },
          member: ref('Member'),
          balances,
        },
        ['memberId', 'userId', 'member', 'balances'],
      ),
    },
    'invite.created': { name: 'InviteCreatedEvent', data: object({ invite: ref('Invite') }, ['invite']) },
    'invite.revoked': {
      name: 'InviteRevokedEvent',
      data: object({ inviteId: id('inv', 'Invite') }, ['inviteId']),
    },
    'expense.created': {
      name: 'ExpenseCreatedEvent',
      data: object(
        {
          expense: ref('Expense'),
          balances,
          restored: { const: true, description: 'Present when a deleted expense was restored' },
          recurring: object(
            { id: id('rec', 'Recurring expense'), occurrenceDate: localDate },
            ['id', 'occurrenceDate'],
            'Present when the expense is an occurrence of a recurring expense (API.md §6a)',
          ),
        },
        ['expense', 'balances'],
      ),
    },
    'expense.updated': {
      name: 'ExpenseUpdatedEvent',
      data: object({ expense: ref('Expense'), balances }, ['expense', 'balances']),
    },
    'expense.deleted': {
      name: 'ExpenseDeletedEvent',
      data: object({ expense: ref('Expense'), deletedAt, balances }, ['expense', 'deletedAt', 'balances']),
    },
    'settlement.created': {
      name: 'SettlementCreatedEvent',
      data: object({ settlement: ref('Settlement'), balances }, ['settlement', 'balances']),
    },
    'settlement.deleted': {
      name: 'SettlementDeletedEvent',
      data: object({ settlement: ref('Settlement'), deletedAt, balances }, [
        'settlement',
        'deletedAt',
        'balances',
      ]),
    },
    'recurring.created': {
      name: 'RecurringCreatedEvent',
      data: object({ recurring: ref('RecurringExpense') }, ['recurring']),
    },
    'recurring.updated': {
      name: 'RecurringUpdatedEvent',
      data: object({ recurring: ref('RecurringExpense') }, ['recurring']),
    },
    'recurring.deleted': {
      name: 'RecurringDeletedEvent',
      data: object({ recurringId: id('rec', 'Recurring expense'), deletedAt }, ['recurringId', 'deletedAt']),
    },
    'recurring.skipped': {
      name: 'RecurringSkippedEvent',
      data: object(
        {
          recurringId: id('rec', 'Recurring expense'),
          occurrenceDate: localDate,
          reason: {
            type: 'string',
            description:
              '`payer_removed`, `participant_removed` (an `exact` or `percent` split naming a removed member) or ' +
              '`no_participants` (nobody of an `equal` or `shares` split is left); other rule codes may be added',
            examples: ['payer_removed'],
          },
        },
        ['recurringId', 'occurrenceDate', 'reason'],
      ),
    },
    'rates.updated': {
      name: 'RatesUpdatedEvent',
      data: object({ rates: ref('GroupRates') }, ['rates']),
    },
    'comment.created': {
      name: 'CommentCreatedEvent',
      data: object({ comment: ref('Comment') }, ['comment']),
    },
    'comment.deleted': {
      name: 'CommentDeletedEvent',
      data: object({ comment: ref('Comment'), deletedAt }, ['comment', 'deletedAt']),
    },
    'import.started': {
      name: 'ImportStartedEvent',
      data: object(
        {
          import: object(
            {
              id: importId,
              format: { type: 'string', enum: ['splitwise-csv'] },
              rows: { type: 'integer', minimum: 0 },
            },
            ['id', 'format', 'rows'],
          ),
        },
        ['import'],
      ),
    },
    'import.completed': {
      name: 'ImportCompletedEvent',
      data: object(
        {
          import: object(
            {
              id: importId,
              groupId: id('grp', 'Group'),
              format: { type: 'string', enum: ['splitwise-csv'] },
              status: { type: 'string', enum: ['completed'] },
              rows: { type: 'integer', minimum: 0 },
              created: { type: 'integer', minimum: 0 },
              existing: { type: 'integer', minimum: 0 },
              refusedCount: {
                type: 'integer',
                minimum: 0,
                description: 'The rows refused (the report lists them)',
              },
              createdBy: id('usr', 'User'),
              createdAt: timestamp,
              updatedAt: timestamp,
            },
            [
              'id',
              'groupId',
              'format',
              'status',
              'rows',
              'created',
              'existing',
              'refusedCount',
              'createdBy',
              'createdAt',
              'updatedAt',
            ],
          ),
        },
        ['import'],
      ),
    },
  };
})();

/** `Event` (one of the per-type events) and one component per event type. */
function events(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {
    Event: {
      description:
        'One entry of the group’s durable, ordered log; `data` depends on `type`. Money events carry ' +
        'the group’s balances after the change in `data.balances`.',
      oneOf: Object.values(EVENT_TYPES).map(({ name }) => ref(name)),
    },
  };
  for (const [type, { name, data }] of Object.entries(EVENT_TYPES)) {
    schemas[name] = object(
      {
        id: id('evt', 'Event'),
        seq: { type: 'integer', minimum: 1, description: 'Per group, strictly increasing, without gaps' },
        type: { const: type },
        groupId: id('grp', 'Group'),
        actorId: { ...id('usr', 'User'), description: 'The user whose request made the change' },
        occurredAt: timestamp,
        data,
      },
      ['id', 'seq', 'type', 'groupId', 'actorId', 'occurredAt', 'data'],
    );
  }
  return schemas;
}

/** Messages of the WebSocket protocol (`GET /v1/ws`), one JSON text frame each. */
function realtimeMessages(): Record<string, JsonSchema> {
  const requestId = { type: 'string', maxLength: 128, description: 'Echoed in the answer' };
  const groupId = { ...id('grp', 'Group'), minLength: 1, maxLength: 100 };
  const message = (
    type: string,
    properties: Record<string, JsonSchema>,
    required: string[],
    description: string,
  ) => object({ type: { const: type }, ...properties }, ['type', ...required], description);
  const seq = { type: 'integer', minimum: 0 };
  return {
    ServerMessage: {
      description: 'Every message the server sends on the WebSocket',
      oneOf: [
        message(
          'welcome',
          {
            connectionId: { type: 'string' },
            userId: id('usr', 'User'),
            heartbeatMs: { type: 'integer', minimum: 1, description: 'The server pings this often' },
          },
          ['connectionId', 'userId', 'heartbeatMs'],
          'Sent once, when the connection opens',
        ),
        message(
          'event',
          { groupId, seq: { ...seq, minimum: 1 }, event: ref('Event') },
          ['groupId', 'seq', 'event'],
          'An event of a subscribed group, in `seq` order without gaps',
        ),
        message(
          'subscribed',
          { id: requestId, groupId, seq: { ...seq, description: 'The group’s seq when the catch-up ended' } },
          ['groupId', 'seq'],
          'The subscription is live (after the missed events)',
        ),
        message(
          'resync_required',
          {
            id: requestId,
            groupId,
            seq: {
              ...seq,
              description: 'The group’s current seq: subscribe again from it, after refetching',
            },
          },
          ['groupId', 'seq'],
          'The answer to a `subscribe` whose `afterSeq` is older than the kept log (`EVENT_RETENTION_DAYS`): ' +
            'nothing is subscribed; refetch the group’s state, then subscribe again',
        ),
        message(
          'unsubscribed',
          {
            id: requestId,
            groupId,
            reason: { const: 'removed', description: 'Set when the user was removed from the group' },
          },
          ['groupId'],
          'The subscription ended',
        ),
        message(
          'presence',
          { groupId, online: { type: 'array', items: id('usr', 'User') } },
          ['groupId', 'online'],
          'The members of the group connected right now, on any gateway',
        ),
        message('pong', { id: requestId }, [], 'The answer to `ping`'),
        message(
          'authenticated',
          { id: requestId, expiresAt: { ...timestamp, description: 'When the new token expires' } },
          ['expiresAt'],
          'The answer to `auth`: the connection now holds until the new token expires',
        ),
        message(
          'error',
          {
            id: requestId,
            code: {
              type: 'string',
              enum: ['bad_message', 'not_found', 'limit_exceeded', 'unauthenticated', 'unavailable'],
            },
          },
          ['code'],
          'A request that failed; the connection stays open',
        ),
        message(
          'activity',
          {
            groupId,
            eventId: id('evt', 'Event'),
            seq: { ...seq, minimum: 1 },
            eventType: { type: 'string', description: 'The event’s `type` (API.md §8)' },
          },
          ['groupId', 'eventId', 'seq', 'eventType'],
          'After `activity.subscribe`: a new event in one of the user’s groups (a hint; `GET /v1/me/activity` is the feed)',
        ),
        message(
          'activity.subscribed',
          { id: requestId, groupCount: { type: 'integer', minimum: 0, description: 'The groups followed' } },
          ['groupCount'],
          'The answer to `activity.subscribe`: the user’s groups as of now are followed',
        ),
        message('activity.unsubscribed', { id: requestId }, [], 'The answer to `activity.unsubscribe`'),
      ],
    },
    ClientMessage: {
      description: 'Every message a client may send on the WebSocket (unknown fields are ignored)',
      oneOf: [
        message(
          'subscribe',
          {
            id: requestId,
            groupId,
            afterSeq: {
              ...seq,
              maximum: Number.MAX_SAFE_INTEGER,
              description: 'Replay the events after this seq first',
            },
          },
          ['groupId'],
          'Receive the group’s events (and presence)',
        ),
        message('unsubscribe', { id: requestId, groupId }, ['groupId'], 'Stop receiving the group'),
        message('ping', { id: requestId }, [], 'Answered with `pong`'),
        message(
          'auth',
          { id: requestId, accessToken: { type: 'string', minLength: 1, maxLength: 8192 } },
          ['accessToken'],
          'A fresh access token of the same user, before the current one expires',
        ),
        message(
          'activity.subscribe',
          { id: requestId },
          [],
          'Hear `activity` for new events of every group of the user; sent again, it re-reads the user’s groups',
        ),
        message('activity.unsubscribe', { id: requestId }, [], 'Stop hearing `activity`'),
      ].map(({ additionalProperties: _ignored, ...rest }) => rest),
    },
  };
}

export const responseSchemas: Record<string, JsonSchema> = {
  Currency: {
    type: 'string',
    enum: [...CURRENCY_CODES],
    description:
      'ISO 4217 currency code: one of the codes the server accepts (those its runtime knows, ' +
      '`Intl.supportedValuesOf("currency")`); anything else is `422 validation_failed`',
    examples: ['INR'],
  },
  User: {
    type: 'object',
    properties: {
      id: id('usr', 'User'),
      email: { type: 'string', format: 'email' },
      name: { type: 'string' },
      createdAt: timestamp,
      emailVerified: {
        type: 'boolean',
        description:
          'Whether the account confirmed its `email` by the link mailed to it (API.md §2.5); only a verified ' +
          'address claims the pending members added with it',
      },
    },
    required: ['id', 'email', 'name', 'createdAt', 'emailVerified'],
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
    properties: {
      userId: id('usr', 'User'),
      name: { type: 'string' },
      joinedAt: timestamp,
      status: {
        type: 'string',
        enum: ['active', 'pending', 'deleted'],
        description:
          '`active`: an account; `pending`: someone added by name, without an account; `deleted`: an account ' +
          'its owner deleted (name "Deleted user", API.md §11.3)',
      },
      claimed: {
        type: 'array',
        items: id('usr', 'User'),
        minItems: 1,
        description:
          'On an account that took over pending members: their ids, which older expenses, settlements and ' +
          'events still name. Absent otherwise.',
      },
    },
    required: ['userId', 'name', 'joinedAt', 'status'],
    additionalProperties: false,
  },
  LoggedMember: {
    type: 'object',
    description:
      'A `Member` as a `member.added` event logged it. Events logged before pending members existed ' +
      '(API.md §3.1) have no `status`: those members are accounts (`active`).',
    properties: {
      userId: id('usr', 'User'),
      name: { type: 'string' },
      joinedAt: timestamp,
      status: { type: 'string', enum: ['active', 'pending'] },
      claimed: { type: 'array', items: id('usr', 'User'), minItems: 1 },
    },
    required: ['userId', 'name', 'joinedAt'],
    additionalProperties: false,
  },
  Invite: {
    type: 'object',
    description: 'An invite link, without its code',
    properties: {
      id: id('inv', 'Invite'),
      groupId: id('grp', 'Group'),
      createdBy: id('usr', 'User'),
      createdAt: timestamp,
      expiresAt: timestamp,
    },
    required: ['id', 'groupId', 'createdBy', 'createdAt', 'expiresAt'],
    additionalProperties: false,
  },
  CreatedInvite: {
    type: 'object',
    description: 'An invite just made: the only answer that carries its code',
    properties: {
      id: id('inv', 'Invite'),
      groupId: id('grp', 'Group'),
      createdBy: id('usr', 'User'),
      createdAt: timestamp,
      expiresAt: timestamp,
      code: {
        type: 'string',
        pattern: '^[A-Za-z0-9_-]{43}$',
        description: '32 random bytes, base64url: share it (e.g. in a link); Tally keeps only its hash',
      },
    },
    required: ['id', 'groupId', 'createdBy', 'createdAt', 'expiresAt', 'code'],
    additionalProperties: false,
  },
  EmailLinkSent: {
    type: 'object',
    description: 'A verification link was mailed (after the answer) to `email`',
    properties: { email: { type: 'string', format: 'email', description: 'Where the link went' } },
    required: ['email'],
    additionalProperties: false,
  },
  ClaimableMemberList: {
    type: 'object',
    properties: {
      data: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            groupId: id('grp', 'Group'),
            groupName: { type: 'string' },
            memberId: { ...id('usr', 'User'), description: 'The pending member to claim' },
            name: { type: 'string' },
          },
          required: ['groupId', 'groupName', 'memberId', 'name'],
          additionalProperties: false,
        },
      },
    },
    required: ['data'],
    additionalProperties: false,
  },
  InviteList: {
    type: 'object',
    properties: { data: { type: 'array', items: ref('Invite') } },
    required: ['data'],
    additionalProperties: false,
  },
  InvitePreview: {
    type: 'object',
    properties: {
      groupId: id('grp', 'Group'),
      groupName: { type: 'string' },
      memberCount: { type: 'integer', minimum: 0 },
      pendingMembers: {
        type: 'array',
        description:
          'Pending members the caller may become by accepting with `asMember` (API.md §3.3): those added with ' +
          'the caller’s verified email and, for a caller who is not a member yet, those added by name only',
        items: {
          type: 'object',
          properties: { userId: id('usr', 'User'), name: { type: 'string' } },
          required: ['userId', 'name'],
          additionalProperties: false,
        },
      },
      expiresAt: timestamp,
      isMember: { type: 'boolean', description: 'Whether the caller is a member already' },
    },
    required: ['groupId', 'groupName', 'memberCount', 'pendingMembers', 'expiresAt', 'isMember'],
    additionalProperties: false,
  },
  Group: {
    type: 'object',
    properties: {
      ...groupFields,
      members: {
        type: 'array',
        items: ref('Member'),
        description: 'Current members, in the order they joined',
      },
    },
    required: [...Object.keys(groupFields), 'members'],
    additionalProperties: false,
  },
  GroupSummary: {
    type: 'object',
    description: 'A group without its members (in `group.updated` events)',
    properties: groupFields,
    required: Object.keys(groupFields),
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
        description:
          'Expense id: `exp_` + ULID, or the id a client chose with PUT, or (an occurrence of a recurring expense) derived from its schedule and date',
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
      recurringId: {
        type: ['string', 'null'],
        description:
          'The recurring expense (`rec_…`) this expense is an occurrence of (API.md §6a); null for any other',
      },
      deletedAt: {
        type: ['string', 'null'],
        format: 'date-time',
        description:
          'Only in a list asked with `includeDeleted=true` (API.md §5.1): when the expense was deleted, null when it is live',
      },
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
      'recurringId',
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
  MemberNet: {
    type: 'object',
    properties: { userId: id('usr', 'User'), net: signedAmount },
    required: ['userId', 'net'],
    additionalProperties: false,
  },
  Transfer: {
    type: 'object',
    description: 'One payment that settles debts: `from` pays `to` the `amount`',
    properties: { from: id('usr', 'User'), to: id('usr', 'User'), amount },
    required: ['from', 'to', 'amount'],
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
        items: ref('MemberNet'),
      },
      simplified: {
        type: 'array',
        description:
          'Transfers that settle every net exactly, each from a negative-net to a positive-net member, ' +
          'at most (number of non-zero nets − 1) of them',
        items: ref('Transfer'),
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
      converted: ref('ConvertedBalances'),
    },
    required: ['groupId', 'asOfSeq', 'currencies'],
    additionalProperties: false,
  },
  ...events(),
  ...realtimeMessages(),
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
      limit: {
        type: 'object',
        description:
          'On `limit_exceeded` (and a `payload_too_large` that names its bound): which bound of API.md §9 the request ran into, and its value',
        properties: {
          name: { type: 'string', examples: ['schedulesPerGroup'] },
          max: { type: 'integer', minimum: 0 },
        },
        required: ['name', 'max'],
        additionalProperties: false,
      },
    },
    required: ['type', 'title', 'status', 'code', 'detail', 'requestId'],
  },
  FieldError: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Dotted path of the field', examples: ['amount'] },
      message: { type: 'string' },
    },
    required: ['path', 'message'],
    additionalProperties: false,
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
      starting: {
        type: 'boolean',
        description:
          'On /readyz: `true` while the process is still starting (waiting for its database, `BOOT_DB_TIMEOUT_SECONDS`)',
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

// ---- recurring expenses (API.md §6a) --------------------------------------------------------------
responseSchemas['RecurringExpense'] = object(
  {
    id: id('rec', 'Recurring expense'),
    groupId: id('grp', 'Group'),
    expense: object(
      {
        description: { type: 'string' },
        category: { type: ['string', 'null'], maxLength: 64 },
        amount,
        currency: { ...currency, description: 'When absent, each occurrence takes the group’s currency' },
        paidBy: {
          description: 'A member id, or payers whose amounts add up to `amount`, as sent',
          oneOf: [{ type: 'string' }, { type: 'array', items: ref('Payer'), minItems: 1 }],
        },
        split: { ...ref('Split'), description: 'As it was sent' },
      },
      ['description', 'amount', 'paidBy', 'split'],
      'What each occurrence copies: the body of `POST /v1/expenses` without `groupId` and `occurredAt`',
    ),
    schedule: object(
      {
        every: { type: 'string', enum: ['week', '2 weeks', 'month', 'year'] },
        startsOn: { ...localDate, description: 'The first occurrence' },
        until: {
          type: ['string', 'null'],
          format: 'date',
          description: 'The last possible occurrence, inclusive',
        },
        timeZone: {
          type: 'string',
          description:
            'IANA time zone name, the zone’s one name (API.md §6a): `Europe/Berlin`, `UTC`, `Asia/Kolkata`',
          examples: ['Europe/Berlin'],
        },
      },
      ['every', 'startsOn', 'until', 'timeZone'],
    ),
    nextOccurrence: {
      type: ['string', 'null'],
      format: 'date',
      description: 'The local date of the next occurrence to create; null once the schedule is over',
    },
    createdBy: id('usr', 'User'),
    version,
    createdAt: timestamp,
    updatedAt: timestamp,
  },
  [
    'id',
    'groupId',
    'expense',
    'schedule',
    'nextOccurrence',
    'createdBy',
    'version',
    'createdAt',
    'updatedAt',
  ],
);
responseSchemas['RecurringExpensePage'] = pageOf('RecurringExpense');
// ---- imports (API.md §6b) -------------------------------------------------------------------------
responseSchemas['ImportRefusal'] = object(
  {
    line: { type: 'integer', minimum: 1, description: 'The line of the file the row starts on' },
    reason: {
      type: 'string',
      maxLength: 300,
      description: 'Why it was not imported (at most 300 characters)',
    },
  },
  ['line', 'reason'],
  'A row of the file not imported, and why',
);
responseSchemas['ImportRefusalPage'] = pageOf('ImportRefusal');
responseSchemas['ImportReport'] = object(
  {
    id: importId,
    groupId: id('grp', 'Group'),
    format: { type: 'string', enum: ['splitwise-csv'] },
    status: {
      type: 'string',
      enum: ['running', 'completed', 'failed'],
      description:
        '`running` while a run is under way (or its process died); `failed` when a run stopped on an error ' +
        'it could not refuse as a row. A retry of either resumes where it stopped.',
    },
    rows: { type: 'integer', minimum: 0, description: 'Expense and payment rows in the file' },
    created: { type: 'integer', minimum: 0, description: 'Rows this import created (across a resumed run)' },
    existing: {
      type: 'integer',
      minimum: 0,
      description: 'Rows found already imported (the same file before)',
    },
    refusedCount: { type: 'integer', minimum: 0, description: 'Rows refused (all of them)' },
    refused: {
      type: 'array',
      maxItems: 20,
      items: ref('ImportRefusal'),
      description:
        'The first 20 refused rows, by line; all of them are paged from `GET …/imports/{importId}/refusals`',
    },
    createdBy: id('usr', 'User'),
    createdAt: timestamp,
    updatedAt: timestamp,
  },
  [
    'id',
    'groupId',
    'format',
    'status',
    'rows',
    'created',
    'existing',
    'refusedCount',
    'refused',
    'createdBy',
    'createdAt',
    'updatedAt',
  ],
);
// ---- currency conversion (fx/) --------------------------------------------------------------------
const decimalRate: JsonSchema = {
  type: 'string',
  pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$',
  description:
    'A positive decimal of at most 12 significant digits and 20 decimals, as a string (never a float)',
  examples: ['1.0823'],
};
const day: JsonSchema = {
  type: 'string',
  format: 'date',
  description: 'A day, `YYYY-MM-DD`',
  examples: ['2026-11-25'],
};

responseSchemas['GroupRates'] = {
  type: 'object',
  description:
    'A group’s own exchange rates: `rates[c]` units of currency `c` per one `base`. A group that never ' +
    'set any has `base`, `asOf`, `updatedBy` and `updatedAt` null and `rates` empty.',
  properties: {
    groupId: id('grp', 'Group'),
    base: { anyOf: [currency, { type: 'null' }] },
    rates: { type: 'object', additionalProperties: decimalRate, description: 'ISO 4217 code → rate' },
    asOf: { anyOf: [day, { type: 'null' }] },
    updatedBy: { anyOf: [id('usr', 'User'), { type: 'null' }] },
    updatedAt: { anyOf: [timestamp, { type: 'null' }] },
  },
  required: ['groupId', 'base', 'rates', 'asOf', 'updatedBy', 'updatedAt'],
  additionalProperties: false,
};
responseSchemas['UsedRate'] = {
  type: 'object',
  description:
    'A rate a conversion used: `rate` units of `currency` per one `base`, from `source`, of the day `asOf`',
  properties: {
    currency,
    base: currency,
    rate: decimalRate,
    source: {
      type: 'string',
      description: '`group` (the group’s own rates) or the provider (`ecb`)',
      examples: ['ecb'],
    },
    asOf: day,
  },
  required: ['currency', 'base', 'rate', 'source', 'asOf'],
  additionalProperties: false,
};
responseSchemas['ConvertedBalances'] = {
  type: 'object',
  description:
    'Present when the request asked for `in`: every member’s nets of all currencies converted into ' +
    '`currency` at the `rates` listed, rounded once (API.md §6, "Settling in one currency")',
  properties: {
    currency,
    members: {
      type: 'array',
      description:
        'Every member of any listed currency, with their converted net in `currency`’s minor units; ' +
        'the nets add up to exactly 0, each within one minor unit of its exact value',
      items: ref('MemberNet'),
    },
    simplified: {
      type: 'array',
      description:
        'Transfers in `currency` that settle the converted nets exactly, at most (non-zero nets − 1)',
      items: ref('Transfer'),
    },
    rates: {
      type: 'array',
      description:
        'The rates used, by currency (empty when nothing needed converting); a cross rate is the ' +
        'quotient of two listed rates of the same `base`',
      items: ref('UsedRate'),
    },
  },
  required: ['currency', 'members', 'simplified', 'rates'],
  additionalProperties: false,
};

// ---- activity (API.md §8a) -------------------------------------------------------------------------
const unreadFields: Record<string, JsonSchema> = {
  unread: {
    type: 'integer',
    minimum: 0,
    maximum: 100,
    description: 'Items newer than the read marker, at most 100',
  },
  unreadCapped: { type: 'boolean', description: 'True when there are more than 100 (show “100+”)' },
  readUpTo: {
    type: ['string', 'null'],
    description: 'The id of the item the read marker is at; null when the caller never marked any',
  },
};
responseSchemas['ActivityItem'] = object(
  {
    id: id('evt', 'Event'),
    groupId: id('grp', 'Group'),
    groupName: { type: 'string' },
    seq: { type: 'integer', minimum: 1 },
    type: { type: 'string', description: 'The event’s type (API.md §8)' },
    actorId: id('usr', 'User'),
    occurredAt: timestamp,
    data: { type: 'object', description: 'The event’s `data`, as in the group’s log' },
  },
  ['id', 'groupId', 'groupName', 'seq', 'type', 'actorId', 'occurredAt', 'data'],
  'An event of one of the caller’s groups, with the group’s name',
);
responseSchemas['ActivityPage'] = {
  ...pageOf('ActivityItem'),
  properties: { ...(pageOf('ActivityItem').properties as Record<string, JsonSchema>), ...unreadFields },
  required: ['data', 'nextCursor', 'unread', 'unreadCapped', 'readUpTo'],
};
responseSchemas['ActivityUnread'] = object(unreadFields, ['unread', 'unreadCapped', 'readUpTo']);

// ---- comments (API.md §5.2) ------------------------------------------------------------------------
responseSchemas['Comment'] = object(
  {
    id: id('cmt', 'Comment'),
    groupId: id('grp', 'Group'),
    targetType: { type: 'string', enum: ['expense', 'settlement'], description: 'What the comment is on' },
    targetId: { type: 'string', description: 'The expense or settlement id' },
    authorId: id('usr', 'User'),
    text: {
      type: 'string',
      minLength: 1,
      description: 'Exactly as sent: 1–2000 Unicode code points, no trimming, no HTML interpretation',
    },
    createdAt: timestamp,
  },
  ['id', 'groupId', 'targetType', 'targetId', 'authorId', 'text', 'createdAt'],
);
responseSchemas['CommentPage'] = pageOf('Comment');

// ---- sessions (API.md §2, added 2026-11-27) --------------------------------------------------------
responseSchemas['DeviceSession'] = {
  type: 'object',
  description: "A signed-in device: one refresh-token family (the access token's `sid`).",
  properties: {
    id: id('rtk', 'Session'),
    userAgent: {
      type: ['string', 'null'],
      description:
        'The `User-Agent` of the sign-in as sent (its bytes read as UTF-8; controls and bidi overrides removed; at most 256 code points); null when unknown',
    },
    ip: {
      type: ['string', 'null'],
      description:
        'The client IP of the sign-in (by `TRUST_PROXY`): always an IP address, IPv6 compressed in lower case, an IPv4-mapped one as IPv4; null when unknown',
    },
    createdAt: timestamp,
    lastUsedAt: { ...timestamp, description: 'The sign-in or the latest refresh' },
    current: { type: 'boolean', description: 'The session of the access token that asked' },
  },
  required: ['id', 'userAgent', 'ip', 'createdAt', 'lastUsedAt', 'current'],
  additionalProperties: false,
};
responseSchemas['DeviceSessionList'] = {
  type: 'object',
  properties: { data: { type: 'array', items: ref('DeviceSession') } },
  required: ['data'],
  additionalProperties: false,
};
