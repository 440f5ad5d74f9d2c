import { BOUNDS } from '../../bounds';
import type { JsonSchema } from '../joi-to-json-schema';
import { closed, currency, id, ref, timestamp } from './common';

const nullableTimestamp: JsonSchema = { ...timestamp, type: ['string', 'null'] };
const figure = (description: string): JsonSchema => ({
  type: 'integer',
  description: `${description}, in minor units (negative amounts, income or reimbursements, sum as they are)`,
});
const count: JsonSchema = { type: 'integer', minimum: 0, description: 'How many live expenses' };
const bucketKey: JsonSchema = {
  type: ['string', 'null'],
  description:
    'A category id (null: expenses without one), a member’s user id, a month `YYYY-MM` (UTC) or, in `/v1/me/stats`, a group id',
};
const memberFigure = closed({
  userId: id('usr', 'User'),
  share: figure('What the member owes of the expenses (their shares)'),
  paid: figure('What the member paid of them'),
});
const rates: JsonSchema = {
  type: 'array',
  items: ref('UsedRate'),
  description: 'The rates the conversion used',
};
const unconverted: JsonSchema = {
  type: 'array',
  items: { type: 'string' },
  description: 'With `?currency=`: the currencies without a rate into it (then `converted` is null)',
};

const Category: JsonSchema = closed({
  id: {
    type: 'string',
    description: 'A default’s stable id (`food`, `transport`…) or the group’s own `cat_…`',
    examples: ['food'],
  },
  groupId: { type: ['string', 'null'], description: 'The group of its own category; null for a default' },
  name: { type: 'string', minLength: 1, maxLength: 40 },
  icon: { type: ['string', 'null'], maxLength: 16, description: 'An emoji or a short token' },
  color: { type: ['string', 'null'], pattern: '^#[0-9a-fA-F]{6}$' },
  default: {
    type: 'boolean',
    description: 'One of the fixed default list (cannot be renamed, deleted or merged)',
  },
  createdAt: nullableTimestamp,
  updatedAt: nullableTimestamp,
});

const CategoryList: JsonSchema = closed({
  data: {
    type: 'array',
    items: ref('Category'),
    maxItems: 10 + BOUNDS.categoriesPerGroup,
    description: `The defaults, then the group’s own (at most ${BOUNDS.categoriesPerGroup}), oldest first`,
  },
});

const CategoryMerged: JsonSchema = closed({
  category: { ...ref('Category'), description: 'The category the expenses moved to' },
  moved: { type: 'integer', minimum: 0, description: 'How many live expenses moved' },
});

const GroupStats: JsonSchema = closed({
  groupId: id('grp', 'Group'),
  by: { type: 'string', enum: ['category', 'member', 'month'] },
  from: nullableTimestamp,
  to: nullableTimestamp,
  currencies: {
    type: 'array',
    description: 'One entry per currency with live expenses in the range, by code',
    items: closed({
      currency,
      total: figure('What the group spent'),
      expenses: count,
      members: {
        type: 'array',
        items: memberFigure,
        description: 'Each member’s share and payments, by user id',
      },
      buckets: {
        type: 'array',
        description: 'The breakdown, by key (null last)',
        items: closed({
          key: bucketKey,
          total: figure('What the group spent in this bucket'),
          expenses: { ...count, description: 'How many live expenses (0 in a breakdown by member)' },
          members: { type: 'array', items: memberFigure },
        }),
      },
    }),
  },
  converted: {
    type: ['object', 'null'],
    description: 'With `?currency=` and a rate for every currency: the totals in that currency',
    properties: {
      currency,
      total: figure('What the group spent'),
      members: { type: 'array', items: memberFigure },
      buckets: { type: 'array', items: closed({ key: bucketKey, total: figure('Spent in this bucket') }) },
      rates,
    },
    required: ['currency', 'total', 'members', 'buckets', 'rates'],
    additionalProperties: false,
  },
  unconverted,
});

const MyStats: JsonSchema = closed({
  userId: id('usr', 'User'),
  by: { type: 'string', enum: ['category', 'group', 'month'] },
  from: nullableTimestamp,
  to: nullableTimestamp,
  currencies: {
    type: 'array',
    items: closed({
      currency,
      share: figure('My share'),
      paid: figure('What I paid'),
      expenses: count,
      buckets: {
        type: 'array',
        items: closed({
          key: bucketKey,
          share: figure('My share'),
          paid: figure('What I paid'),
          expenses: count,
        }),
      },
    }),
  },
  converted: {
    type: ['object', 'null'],
    properties: {
      currency,
      share: figure('My share'),
      paid: figure('What I paid'),
      buckets: {
        type: 'array',
        items: closed({ key: bucketKey, share: figure('My share'), paid: figure('What I paid') }),
      },
      rates,
    },
    required: ['currency', 'share', 'paid', 'buckets', 'rates'],
    additionalProperties: false,
  },
  unconverted,
});

/** Categories and statistics (API.md §14). */
export const categorySchemas: Record<string, JsonSchema> = {
  Category,
  CategoryList,
  CategoryMerged,
  GroupStats,
  MyStats,
};
