import { MAX_AMOUNT } from '@tally/domain';
import type { JsonSchema } from '../joi-to-json-schema';
import { amount, closed, currency, id, object, ref, signedAmount, timestamp, version } from './common';

/** An expense's amount and its parts: negative for income or a reimbursement (API.md §4). */
const expenseAmount: JsonSchema = {
  type: 'integer',
  minimum: -MAX_AMOUNT,
  maximum: MAX_AMOUNT,
  not: { const: 0 },
  description: 'Integer count of minor units (paise, cents, yen); negative for income or a reimbursement',
  examples: [100000],
};

const payer: JsonSchema = closed({ userId: id('usr', 'User'), amount: expenseAmount });

/** Expenses, settlements and balances. */
export const moneySchemas: Record<string, JsonSchema> = {
  Payer: payer,
  Share: closed({
    userId: id('usr', 'User'),
    owed: {
      type: 'integer',
      description: 'Zero or negative in a negative expense (what the member gets back)',
    },
  }),
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
      categoryId: {
        type: ['string', 'null'],
        description:
          'The expense’s category (API.md §14): a default id (`food`…) or the group’s own (`cat_…`); null for none',
      },
      amount: expenseAmount,
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
      'categoryId',
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
  Settlement: closed({
    id: id('stl', 'Settlement'),
    groupId: id('grp', 'Group'),
    fromUserId: { ...id('usr', 'User'), description: 'The member who paid' },
    toUserId: { ...id('usr', 'User'), description: 'The member who was paid back' },
    amount,
    currency,
    note: { type: 'string', description: 'Empty string when not set' },
    createdBy: id('usr', 'User'),
    createdAt: timestamp,
  }),
  MemberNet: closed({ userId: id('usr', 'User'), net: signedAmount }),
  Transfer: closed(
    { from: id('usr', 'User'), to: id('usr', 'User'), amount },
    'One payment that settles debts: `from` pays `to` the `amount`',
  ),
  CurrencyBalances: object(
    {
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
      original: {
        type: 'array',
        description:
          'Only in `GET …/balances`: the original (unsimplified) debts, one per pair of people with a debt ' +
          'between them, from who owes to whom, sorted by `from`, then `to`; they add up to the nets too',
        items: ref('Transfer'),
      },
    },
    ['currency', 'members', 'simplified'],
  ),
  Balances: {
    type: 'object',
    properties: {
      groupId: id('grp', 'Group'),
      asOfSeq: {
        type: 'integer',
        minimum: 0,
        description: 'The event sequence number these balances reflect',
      },
      simplifyDebts: {
        type: 'boolean',
        description:
          'The group’s setting: whether clients show `simplified` (true) or `original` (false) debts',
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
    required: ['groupId', 'asOfSeq', 'simplifyDebts', 'currencies'],
    additionalProperties: false,
  },
};
