import type { JsonSchema } from '../joi-to-json-schema';
import { amount, closed, currency, id, localDate, object, pageOf, ref, timestamp, version } from './common';

const RecurringExpense: JsonSchema = closed({
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
});
const RecurringExpensePage: JsonSchema = pageOf('RecurringExpense');

/** Recurring expenses (API.md §6a). */
export const recurringSchemas: Record<string, JsonSchema> = { RecurringExpense, RecurringExpensePage };
