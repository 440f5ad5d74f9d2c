import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, ref, timestamp } from './common';

const FieldChange: JsonSchema = {
  type: 'object',
  description:
    'One difference from the version before. `field`: a field of the record (`amount`, `description`…), ' +
    '`paidBy`, `shares` or `split.between` per member (with `userId`; `from`/`to` null where the member is ' +
    'not in that list; a split weight is the amount, percent or shares, `true` in an equal split), ' +
    '`split.type`, `split.items` (whole), `split.tax`, `split.tip`. Money in minor units.',
  properties: {
    field: { type: 'string', examples: ['amount'] },
    userId: { ...id('usr', 'User'), description: 'The member, for a per-member field' },
    from: { description: 'The value in the version before (null: absent)' },
    to: { description: 'The value in this version (null: absent)' },
  },
  required: ['field', 'from', 'to'],
  additionalProperties: false,
};

/** One version of a record: `record` is the expense or the settlement schema. */
const version = (record: 'Expense' | 'Settlement', versioned: boolean): JsonSchema =>
  closed({
    seq: { type: 'integer', minimum: 1, description: 'The event’s `seq` in the group’s log' },
    eventId: id('evt', 'Event'),
    action: { type: 'string', enum: ['created', 'updated', 'deleted', 'restored'] },
    actorId: { ...id('usr', 'User'), description: 'Who made the change' },
    actorName: {
      type: ['string', 'null'],
      description: 'Their current display name (`Deleted user` for a deleted account)',
    },
    occurredAt: timestamp,
    version: versioned
      ? { type: 'integer', minimum: 1, description: 'The expense’s `version` after the change' }
      : { type: 'null', description: 'Settlements have no version' },
    etag: versioned
      ? { type: 'string', description: 'The expense’s ETag after the change, `"v<version>"`' }
      : { type: 'null' },
    record: {
      ...ref(record),
      description:
        'The record as the change left it, as its event carries it (a deleted one as it was when deleted)',
    },
    changes: {
      type: ['array', 'null'],
      items: ref('FieldChange'),
      description:
        'Against the version before; empty for a delete or a restore; null for the first version or when the one before is no longer kept',
    },
  });

const historyPage = (item: string): JsonSchema =>
  closed({
    data: { type: 'array', items: ref(item) },
    nextCursor: {
      type: ['string', 'null'],
      description: 'Pass as `?cursor=` for the next page; null on the last page',
    },
    truncated: {
      type: 'boolean',
      description:
        'True when older versions are no longer kept (`EVENT_RETENTION_DAYS`): the first listed version is not the creation (or the one the cursor named)',
    },
  });

/** The history of a record (API.md §15). */
export const historySchemas: Record<string, JsonSchema> = {
  FieldChange,
  ExpenseVersion: version('Expense', true),
  SettlementVersion: version('Settlement', false),
  ExpenseHistoryPage: historyPage('ExpenseVersion'),
  SettlementHistoryPage: historyPage('SettlementVersion'),
};
