import { CURRENCY_CODES, type JsonSchema } from '../joi-to-json-schema';
import { closed, currency, id, ref, timestamp, version } from './common';

const groupFields: Record<string, JsonSchema> = {
  id: id('grp', 'Group'),
  name: { type: 'string' },
  description: { type: 'string', description: 'Empty string when not set' },
  currency: { ...currency, description: 'Default currency of new expenses and settlements' },
  createdAt: timestamp,
  updatedAt: timestamp,
  version,
  archivedAt: {
    type: ['string', 'null'],
    format: 'date-time',
    description:
      'When the group was archived (it refuses every write meanwhile, API.md §3); null when it is not',
  },
  simplifyDebts: {
    type: 'boolean',
    description: 'Which debts clients show: the simplified ones (true) or the original ones (API.md §6)',
  },
};

const inviteFields: Record<string, JsonSchema> = {
  id: id('inv', 'Invite'),
  groupId: id('grp', 'Group'),
  createdBy: id('usr', 'User'),
  createdAt: timestamp,
  expiresAt: timestamp,
};

/** Accounts, groups, members and invites. */
export const peopleSchemas: Record<string, JsonSchema> = {
  Currency: {
    type: 'string',
    enum: [...CURRENCY_CODES],
    description:
      'ISO 4217 currency code: one of the codes the server accepts (those its runtime knows, ' +
      '`Intl.supportedValuesOf("currency")`); anything else is `422 validation_failed`',
    examples: ['INR'],
  },
  User: closed({
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
  }),
  Session: closed(
    {
      user: ref('User'),
      accessToken: { type: 'string', description: 'Bearer JWT for `Authorization: Bearer …`' },
      refreshToken: { type: 'string', description: 'Opaque single-use refresh token (30 days)' },
      expiresIn: { type: 'integer', minimum: 1, description: 'Access token lifetime in seconds' },
    },
    'A signed-in session. The access token is a JWT (HS256) valid `expiresIn` seconds; the refresh ' +
      'token is opaque, lives 30 days and rotates on every use (a used one is dead, and presenting a ' +
      'dead one revokes its whole family).',
  ),
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
  Invite: closed(inviteFields, 'An invite link, without its code'),
  CreatedInvite: closed(
    {
      ...inviteFields,
      code: {
        type: 'string',
        pattern: '^[A-Za-z0-9_-]{43}$',
        description: '32 random bytes, base64url: share it (e.g. in a link); Tally keeps only its hash',
      },
    },
    'An invite just made: the only answer that carries its code',
  ),
  EmailLinkSent: closed(
    { email: { type: 'string', format: 'email', description: 'Where the link went' } },
    'A verification link was mailed (after the answer) to `email`',
  ),
  ClaimableMemberList: closed({
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
  }),
  InviteList: closed({ data: { type: 'array', items: ref('Invite') } }),
  InvitePreview: closed({
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
  }),
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
};
