import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, importId, localDate, object, ref, timestamp } from './common';
import { importRecord } from './imports';

/** `data` of each event type, with the component name of that event. */
const EVENT_TYPES: Record<string, { name: string; data: JsonSchema }> = (() => {
  const balances = {
    type: 'array',
    items: ref('CurrencyBalances'),
    description: 'The group’s balances after the change (the `currencies` of `Balances`)',
  };
  const deletedAt = { ...timestamp, description: 'When it was deleted' };
  return {
    'group.updated': { name: 'GroupUpdatedEvent', data: closed({ group: ref('GroupSummary') }) },
    'member.added': {
      name: 'MemberAddedEvent',
      data: closed({ member: ref('LoggedMember') }),
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
      data: closed({
        memberId: { ...id('usr', 'User'), description: 'The pending member taken over' },
        userId: { ...id('usr', 'User'), description: 'The account that took them over' },
        member: ref('Member'),
        balances,
      }),
    },
    'invite.created': { name: 'InviteCreatedEvent', data: closed({ invite: ref('Invite') }) },
    'invite.revoked': {
      name: 'InviteRevokedEvent',
      data: closed({ inviteId: id('inv', 'Invite') }),
    },
    'expense.created': {
      name: 'ExpenseCreatedEvent',
      data: object(
        {
          expense: ref('Expense'),
          balances,
          restored: { const: true, description: 'Present when a deleted expense was restored' },
          recurring: closed(
            { id: id('rec', 'Recurring expense'), occurrenceDate: localDate },
            'Present when the expense is an occurrence of a recurring expense (API.md §6a)',
          ),
        },
        ['expense', 'balances'],
      ),
    },
    'expense.updated': {
      name: 'ExpenseUpdatedEvent',
      data: closed({ expense: ref('Expense'), balances }),
    },
    'expense.deleted': {
      name: 'ExpenseDeletedEvent',
      data: closed({ expense: ref('Expense'), deletedAt, balances }),
    },
    'settlement.created': {
      name: 'SettlementCreatedEvent',
      data: closed({ settlement: ref('Settlement'), balances }),
    },
    'settlement.deleted': {
      name: 'SettlementDeletedEvent',
      data: closed({ settlement: ref('Settlement'), deletedAt, balances }),
    },
    'recurring.created': {
      name: 'RecurringCreatedEvent',
      data: closed({ recurring: ref('RecurringExpense') }),
    },
    'recurring.updated': {
      name: 'RecurringUpdatedEvent',
      data: closed({ recurring: ref('RecurringExpense') }),
    },
    'recurring.deleted': {
      name: 'RecurringDeletedEvent',
      data: closed({ recurringId: id('rec', 'Recurring expense'), deletedAt }),
    },
    'recurring.skipped': {
      name: 'RecurringSkippedEvent',
      data: closed({
        recurringId: id('rec', 'Recurring expense'),
        occurrenceDate: localDate,
        reason: {
          type: 'string',
          description:
            '`payer_removed`, `participant_removed` (an `exact` or `percent` split naming a removed member) or ' +
            '`no_participants` (nobody of an `equal` or `shares` split is left); other rule codes may be added',
          examples: ['payer_removed'],
        },
      }),
    },
    'rates.updated': {
      name: 'RatesUpdatedEvent',
      data: closed({ rates: ref('GroupRates') }),
    },
    'comment.created': {
      name: 'CommentCreatedEvent',
      data: closed({ comment: ref('Comment') }),
    },
    'comment.deleted': {
      name: 'CommentDeletedEvent',
      data: closed({ comment: ref('Comment'), deletedAt }),
    },
    'category.created': { name: 'CategoryCreatedEvent', data: closed({ category: ref('Category') }) },
    'category.updated': { name: 'CategoryUpdatedEvent', data: closed({ category: ref('Category') }) },
    'category.deleted': {
      name: 'CategoryDeletedEvent',
      data: closed({
        category: ref('Category'),
        deletedAt,
        uncategorized: {
          type: 'integer',
          minimum: 0,
          description: 'How many live expenses lost the category',
        },
      }),
    },
    'category.merged': {
      name: 'CategoryMergedEvent',
      data: closed({
        category: { ...ref('Category'), description: 'The category merged away (now deleted)' },
        into: { ...ref('Category'), description: 'The category its expenses moved to' },
        moved: {
          type: 'integer',
          minimum: 0,
          description: 'How many live expenses moved (each one’s version bumped)',
        },
        deletedAt,
      }),
    },
    'import.started': {
      name: 'ImportStartedEvent',
      data: closed({
        import: object(
          {
            id: importId,
            format: { type: 'string', enum: ['splitwise-csv'] },
            rows: { type: 'integer', minimum: 0 },
          },
          ['id', 'format', 'rows'],
        ),
      }),
    },
    'import.completed': {
      name: 'ImportCompletedEvent',
      data: closed({
        import: importRecord({
          status: { type: 'string', enum: ['completed'] },
          refusedCount: {
            type: 'integer',
            minimum: 0,
            description: 'The rows refused (the report lists them)',
          },
        }),
      }),
    },
    'expense.receipt_changed': {
      name: 'ExpenseReceiptChangedEvent',
      data: closed({
        expenseId: id('exp', 'Expense'),
        receipt: {
          oneOf: [ref('Receipt'), { type: 'null' }],
          description: 'The new receipt; null once removed',
        },
      }),
    },
  };
})();

/** Every event type, in the order the document lists them (a webhook's `eventTypes` take these). */
export const EVENT_TYPE_NAMES: readonly string[] = Object.keys(EVENT_TYPES);

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
    schemas[name] = closed({
      id: id('evt', 'Event'),
      seq: { type: 'integer', minimum: 1, description: 'Per group, strictly increasing, without gaps' },
      type: { const: type },
      groupId: id('grp', 'Group'),
      actorId: { ...id('usr', 'User'), description: 'The user whose request made the change' },
      occurredAt: timestamp,
      data,
    });
  }
  return schemas;
}
