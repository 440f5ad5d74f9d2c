import type { JsonSchema } from '../joi-to-json-schema';
import { id, importId, localDate, object, ref, timestamp } from './common';

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
export function eventSchemas(): Record<string, JsonSchema> {
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
