import { MAX_AMOUNT, MAX_ITEMS } from '@tally/domain';
import Joi from 'joi';
import { categoryId } from './categories';
import {
  currency,
  freeText,
  groupId,
  money,
  nameText,
  nonNegativeMoney,
  realTimestamp,
  signedMoney,
} from './fields';

// ---- expenses ------------------------------------------------------------------------------------
const participant = Joi.string().min(1).max(100);
const percent = Joi.number().min(0).max(100).precision(2).strict();

const exactAmount = Joi.number().strict().integer().min(-MAX_AMOUNT).max(MAX_AMOUNT);

const itemShare = Joi.object({
  userId: participant.required(),
  shares: Joi.number().strict().integer().min(1).max(1_000_000).required(),
});

export const split = Joi.alternatives()
  .conditional('.type', {
    switch: [
      {
        is: 'equal',
        then: Joi.object({
          type: Joi.string().valid('equal').required(),
          between: Joi.array().items(participant).min(1).max(200).required(),
        }),
      },
      {
        is: 'exact',
        then: Joi.object({
          type: Joi.string().valid('exact').required(),
          between: Joi.array()
            // Zero or negative entries for a negative amount (checked against its sign by the domain).
            .items(Joi.object({ userId: participant.required(), amount: exactAmount.required() }))
            .min(1)
            .max(200)
            .required(),
        }),
      },
      {
        is: 'percent',
        then: Joi.object({
          type: Joi.string().valid('percent').required(),
          between: Joi.array()
            .items(Joi.object({ userId: participant.required(), percent: percent.required() }))
            .min(1)
            .max(200)
            .required(),
        }),
      },
      {
        is: 'shares',
        then: Joi.object({
          type: Joi.string().valid('shares').required(),
          between: Joi.array()
            .items(
              Joi.object({
                userId: participant.required(),
                shares: Joi.number().strict().integer().min(1).max(1_000_000).required(),
              }),
            )
            .min(1)
            .max(200)
            .required(),
        }),
      },
      {
        // An itemized receipt (API.md §4): per item who shares it (equally, or by shares), tax and
        // tip spread over the items in proportion. Bounds: 100 items, 1,000 people over all items.
        is: 'items',
        then: Joi.object({
          type: Joi.string().valid('items').required(),
          items: Joi.array()
            .items(
              Joi.object({
                description: nameText(100, { trim: true }),
                amount: nonNegativeMoney.required(),
                between: Joi.array().items(participant, itemShare).min(1).max(200).required(),
              }).label('ReceiptItem'),
            )
            .min(1)
            .max(MAX_ITEMS)
            .required(),
          tax: nonNegativeMoney,
          tip: nonNegativeMoney,
        }),
      },
    ],
    otherwise: Joi.object({
      type: Joi.string().valid('equal', 'exact', 'percent', 'shares', 'items').required(),
    }).unknown(true),
  })
  .label('Split');

const paidBy = Joi.alternatives()
  .try(
    participant,
    Joi.array()
      .items(Joi.object({ userId: participant.required(), amount: signedMoney.required() }))
      .min(1)
      .max(200),
  )
  .label('PaidBy');

export const expenseFields = {
  description: freeText(200, { trim: true }),
  category: nameText(64, { trim: false }).allow(null),
  categoryId: categoryId.allow(null),
  amount: signedMoney,
  currency,
  paidBy,
  occurredAt: realTimestamp,
  split,
};

export const createExpenseBody = Joi.object({
  groupId: groupId.required(),
  ...expenseFields,
  description: expenseFields.description.required(),
  amount: expenseFields.amount.required(),
  paidBy: expenseFields.paidBy.required(),
  split: expenseFields.split.required(),
}).label('ExpenseRequest');

export const patchExpenseBody = Joi.object(expenseFields).min(1).label('PatchExpenseRequest');

/** What a copy of an expense may set differently (API.md §4): its date, by default now. */
export const duplicateExpenseBody = Joi.object({
  occurredAt: expenseFields.occurredAt,
  description: expenseFields.description,
}).label('DuplicateExpenseRequest');

// ---- settlements ---------------------------------------------------------------------------------
export const createSettlementBody = Joi.object({
  groupId: groupId.required(),
  fromUserId: participant.required(),
  toUserId: participant.required(),
  amount: money.required(),
  currency,
  note: freeText(500, { allowEmpty: true }),
}).label('SettlementRequest');

// ---- queries -------------------------------------------------------------------------------------
const limit = Joi.number().integer().min(1).max(100).default(20);
const cursor = Joi.string()
  .max(500)
  .description(
    'The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422',
  );
export const listQuery = Joi.object({ limit, cursor }).label('ListQuery');
/** The caller's groups (API.md §3): the list's page, and whether archived ones only, or the others only. */
export const listGroupsQuery = listQuery
  .keys({
    archived: Joi.boolean().description(
      '`true`: only the archived groups; `false`: only the others; absent: all of them',
    ),
  })
  .label('ListGroupsQuery');
/** A record's history (API.md §15): a smaller page, each version carries its whole record. */
export const historyQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(50).default(20),
  cursor,
}).label('HistoryQuery');
export const eventsQuery = Joi.object({
  limit,
  cursor,
  afterSeq: Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER),
}).label('EventsQuery');
export const emptyQuery = Joi.object({}).label('NoQuery');

// ---- exchange rates (fx/) ------------------------------------------------------------------------
/** The most rates one group may set: every ISO 4217 code fits. */
export const MAX_GROUP_RATES = 200;

/**
 * `PUT /v1/groups/{groupId}/rates`. Each entry of `rates` (an ISO 4217 code the API accepts, not
 * `base`, to a positive decimal string of at most 12 significant digits) and `asOf` being a real
 * date are checked after the schema (`fx/group-rates.ts`), with the same `422 validation_failed`.
 */
export const putRatesBody = Joi.object({
  base: currency.required().description('The currency the rates are quoted against'),
  rates: Joi.object()
    .unknown(true)
    .max(MAX_GROUP_RATES)
    .required()
    .description(
      'Units of each currency per one `base`, as decimal strings (`{"USD": "1.0823", "JPY": "160.34"}`): keys are ISO 4217 codes other than `base`, values positive decimals of at most 12 significant digits and 20 decimals',
    ),
  asOf: Joi.string()
    .pattern(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/)
    .required()
    .description('The day the rates are of, `YYYY-MM-DD` (a real calendar date)'),
}).label('PutRatesRequest');

export const balancesQuery = Joi.object({
  in: currency.description(
    'Also convert every member’s balance into this currency (`converted` in the answer)',
  ),
}).label('BalancesQuery');
// ---- search and comments (API.md §5.1, §5.2) ------------------------------------------------------
/** The longest `q` (UTF-16 units) and the most words in it. */
export const MAX_QUERY_LENGTH = 200;
export const MAX_QUERY_WORDS = 10;
/** A comment's text: 1 to 2000 Unicode code points (not UTF-16 units), not only whitespace. */
export const MAX_COMMENT_LENGTH = 2000;

export const searchQuery = Joi.string()
  .max(MAX_QUERY_LENGTH)
  .custom((value: string, helpers) =>
    value.trim().split(/\s+/u).length > MAX_QUERY_WORDS ? helpers.error('any.invalid') : value,
  )
  .messages({ 'any.invalid': `must have at most ${MAX_QUERY_WORDS} words` })
  .description(
    `Words that must all appear in the description or the category, in any order, as substrings; case, accents ` +
      `and compatibility forms are ignored. At most ${MAX_QUERY_LENGTH} characters and ${MAX_QUERY_WORDS} words; ` +
      'only spaces filters nothing',
  )
  .example('cafe dinner');

export const expensesQuery = Joi.object({
  limit,
  cursor,
  q: searchQuery,
  category: nameText(64, { trim: false }).description('Only expenses of exactly this category'),
  categoryId: categoryId.description('Only expenses in this category (API.md §14)'),
  paidBy: participant.description('Only expenses this member paid (all or part of)'),
  involves: participant.description('Only expenses this member paid or has a share in'),
  from: realTimestamp.description('Only expenses with `occurredAt` at or after this time'),
  to: realTimestamp.description('Only expenses with `occurredAt` before this time (exclusive)'),
  updatedAfter: realTimestamp.description(
    'Sync: only expenses whose `updatedAt` is after this time, oldest change first (`updatedAt`, then id, ascending)',
  ),
  includeDeleted: Joi.boolean().description(
    'Also list deleted expenses, each with `deletedAt` (every item then has `deletedAt`, null when live)',
  ),
}).label('ExpensesQuery');

export const commentText = freeText(MAX_COMMENT_LENGTH, { notBlank: true }).description(
  'Stored and returned exactly as sent (no trimming, no HTML interpretation)',
);

export const commentBody = Joi.object({ text: commentText.required() }).label('CommentRequest');

// ---- imports (API.md §6b) ------------------------------------------------------------------------
export const createImportBody = Joi.object({
  format: Joi.string()
    .valid('splitwise-csv')
    .required()
    .description('The file’s format: a Splitwise CSV export'),
  csv: Joi.string().min(1).required().description('The file’s text, as exported'),
  // Keys are the file's column names, values member ids: checked by the route against the file. At
  // most 200 keys, as a file has at most 200 person columns (API.md §6b).
  members: Joi.object()
    .unknown(true)
    .max(200)
    .required()
    .description(
      'Each person column of the file (its header name) → the id (`usr_…`) of the group member it is; at most 200',
    ),
}).label('CreateImportRequest');
