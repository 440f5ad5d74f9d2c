import {
  isRealDate,
  isRealTimestamp,
  isTimeZone,
  MAX_AMOUNT,
  RECURRENCE_EVERY,
  type TextKind,
  textProblem,
} from '@tally/domain';
import Joi from 'joi';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './auth/password-rules';

/**
 * Bodies are validated with conversion on (so strings are trimmed and emails lower-cased) but every
 * number in a body is `strict()`: `"100"` is not an amount.
 *
 * Every request and response schema of the API, in one place: the route handlers validate with
 * them and the OpenAPI document is generated from them, so the two cannot drift apart.
 */

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const currency = Joi.string()
  .pattern(/^[A-Z]{3}$/)
  .custom((value: string, helpers) => (CURRENCIES.has(value) ? value : helpers.error('any.invalid')))
  .messages({
    'any.invalid': 'must be an ISO 4217 currency code',
    'string.pattern.base': 'must be an ISO 4217 currency code',
  })
  .description('ISO 4217 currency code')
  .example('INR');

export const money = Joi.number()
  .strict()
  .integer()
  .min(1)
  .max(MAX_AMOUNT)
  .messages({
    'number.base': 'must be a positive integer',
    'number.integer': 'must be a positive integer',
    'number.min': 'must be a positive integer',
    'number.max': `must be at most ${MAX_AMOUNT}`,
  })
  .description('Integer count of minor units (paise, cents, yen)')
  .example(100000);

const nonNegativeMoney = Joi.number().strict().integer().min(0).max(MAX_AMOUNT);
export const userId = Joi.string()
  .pattern(/^usr_[0-9A-HJKMNP-TV-Z]{26}$/)
  .message('must be a user id');
export const groupId = Joi.string().min(1).max(100);
/**
 * The one rule for timestamps (API.md §1), in bodies and queries: an RFC 3339 date-time with an
 * offset, of a real date and time within years 0001–9999 (`@tally/domain` isRealTimestamp). Not
 * converted: the service reads it as the instant it names.
 */
export const realTimestamp = Joi.string()
  .max(40)
  .custom((value: string, helpers) => (isRealTimestamp(value) ? value : helpers.error('any.invalid')))
  .messages({
    'any.invalid':
      'must be an RFC 3339 date-time with an offset, of a real date and time within years 0001–9999, e.g. 2027-01-31T00:00:00Z',
  })
  .description('RFC 3339 date-time with an offset, a real date and time within years 0001–9999')
  .example('2027-01-31T00:00:00Z');

export const clientId = Joi.string()
  .pattern(/^[A-Za-z0-9_-]{8,64}$/)
  .message('must be 8–64 letters, digits, _ or -');

// ---- user text (API.md §1 "Strings") -------------------------------------------------------------
/** What a text field checks, by its custom validator: read by the OpenAPI converter to state it. */
export type TextRule = { kind: TextKind; min: number; max: number; trim: boolean; notBlank: boolean };
export const TEXT_RULES = new Map<unknown, TextRule>();

const NAME_CONTROLS = 'U+0000–U+001F, U+007F–U+009F, U+2028, U+2029';
const BIDI_CONTROLS = 'U+202A–U+202E, U+2066–U+2069';

/**
 * A field of text a user types, by the one rule of `@tally/domain` `textProblem`: well-formed
 * Unicode (a lone surrogate is refused, never replaced), a length in code points, and for a name no
 * control or bidi control characters, for free text no control but line feed and tab. Stored as sent
 * (after trimming, where the field trims): no Unicode normalization.
 */
function userText(
  kind: TextKind,
  rule: { max: number; trim: boolean; allowEmpty: boolean; notBlank: boolean },
) {
  const min = rule.allowEmpty ? 0 : 1;
  const check = (value: string, helpers: Joi.CustomHelpers) => {
    const problem = textProblem(value, kind, { min, max: rule.max });
    if (problem) return helpers.error(`text.${problem}`);
    if (rule.notBlank && value.trim() === '') return helpers.error('text.blank');
    return value;
  };
  TEXT_RULES.set(check, { kind, min, max: rule.max, trim: rule.trim, notBlank: rule.notBlank });
  const base = rule.trim ? Joi.string().trim() : Joi.string();
  return (rule.allowEmpty ? base.allow('') : base).custom(check).messages({
    'string.empty': 'must not be empty',
    'text.wellFormed': 'must be well-formed Unicode (no lone surrogates)',
    'text.control':
      kind === 'name'
        ? `must not contain control characters (${NAME_CONTROLS})`
        : 'must not contain control characters other than line feed and tab',
    'text.bidi': `must not contain bidirectional controls (${BIDI_CONTROLS})`,
    'text.tooShort': `must be at least ${min} characters (Unicode code points)`,
    'text.tooLong': `must be at most ${rule.max} characters (Unicode code points)`,
    'text.blank': 'must not be only whitespace',
  });
}

/**
 * A name (of a user, a group, a member, a category): 1–`max` code points, one line, no control or
 * bidi control characters. Surrounding whitespace is trimmed unless `trim: false`.
 */
export const nameText = (max: number, options: { trim?: boolean } = {}) =>
  userText('name', { max, trim: options.trim ?? true, allowEmpty: false, notBlank: false });

/**
 * Free text (a description, a note, a comment): up to `max` code points, line feeds and tabs kept.
 * `allowEmpty`: `""` is a value; `notBlank`: only whitespace is refused (for text not trimmed).
 */
export const freeText = (
  max: number,
  options: { trim?: boolean; allowEmpty?: boolean; notBlank?: boolean } = {},
) =>
  userText('free', {
    max,
    trim: options.trim ?? false,
    allowEmpty: options.allowEmpty ?? false,
    notBlank: options.notBlank ?? false,
  });

// ---- auth ----------------------------------------------------------------------------------------
const email = Joi.string().trim().lowercase().email({ tlds: false }).max(254);
/**
 * A password being chosen (register, change, reset): the rules of API.md §2 (`auth/password-rules.ts`):
 * 8–128 characters (code points), no composition rules, not a common password from leaks.
 */
export const newPassword = Joi.string()
  .custom((value: string, helpers) => {
    const problem = passwordProblem(value);
    return problem ? helpers.error(problem) : value;
  })
  .messages({
    'string.empty': `must be at least ${PASSWORD_MIN_LENGTH} characters`,
    'password.tooShort': `must be at least ${PASSWORD_MIN_LENGTH} characters`,
    'password.tooLong': `must be at most ${PASSWORD_MAX_LENGTH} characters`,
    'password.common': 'is too common: it appears in lists of leaked passwords; choose another',
  })
  .description(
    `${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters, counted in Unicode code points; any characters, no composition rules; ` +
      'a password on the list of common passwords found in leaks is refused (422), whatever its case',
  );

export const registerBody = Joi.object({
  email: email.required(),
  name: nameText(100).required(),
  password: newPassword.required(),
}).label('RegisterRequest');

export const loginBody = Joi.object({
  email: email.required(),
  // Any password chosen before the rules of API.md §2 still signs in: up to 1024 characters, as
  // registration allowed then; longer is refused (422) before anything is hashed.
  password: Joi.string().min(1).max(1024).required(),
}).label('LoginRequest');

export const refreshBody = Joi.object({
  refreshToken: Joi.string().min(1).max(512).required(),
}).label('RefreshRequest');

// Password reset and change (API.md §2).
export const passwordResetBody = Joi.object({
  email: email.required(),
}).label('PasswordResetRequest');

export const passwordResetConfirmBody = Joi.object({
  token: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{16,128}$/)
    .message('must be the token of a reset link')
    .required(),
  password: newPassword.required(),
}).label('PasswordResetConfirmRequest');

export const changePasswordBody = Joi.object({
  current: Joi.string().min(1).max(1024).required(),
  new: newPassword.required(),
}).label('ChangePasswordRequest');

// Email verification and change (API.md §2.5).
export const verifyEmailBody = Joi.object({
  token: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{16,128}$/)
    .message('must be the token of a verification link')
    .required(),
}).label('VerifyEmailRequest');

export const changeEmailBody = Joi.object({
  email: email.required().description('The new address; the login email once its link is opened'),
  password: Joi.string().min(1).max(1024).required().description('The current password'),
}).label('ChangeEmailRequest');

/** A POST that takes no body: none, or `{}` (unknown fields are refused, API.md §1). */
export const noBody = Joi.object({}).label('NoBody');

// ---- groups --------------------------------------------------------------------------------------
const groupName = nameText(100);
const groupDescription = freeText(1000, { allowEmpty: true });

export const createGroupBody = Joi.object({
  name: groupName.required(),
  currency,
  description: groupDescription,
}).label('CreateGroupRequest');

export const patchGroupBody = Joi.object({
  name: groupName,
  description: groupDescription,
}).label('PatchGroupRequest');

export const addMemberBody = Joi.object({
  userId,
  email,
  // A pending member (API.md §3.1): someone without an account, by name, with an optional email.
  name: nameText(100),
})
  .or('userId', 'email', 'name')
  .description(
    'Exactly one of: `{userId}` or `{email}` (a registered user), or `{name, email?}` (a pending member: ' +
      'someone without an account). `userId` with `email` or `name` is `422 validation_failed`.',
  )
  .label('AddMemberRequest');

// ---- expenses ------------------------------------------------------------------------------------
const participant = Joi.string().min(1).max(100);
const percent = Joi.number().min(0).max(100).precision(2).strict();

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
            .items(Joi.object({ userId: participant.required(), amount: nonNegativeMoney.required() }))
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
    ],
    otherwise: Joi.object({
      type: Joi.string().valid('equal', 'exact', 'percent', 'shares').required(),
    }).unknown(true),
  })
  .label('Split');

const paidBy = Joi.alternatives()
  .try(
    participant,
    Joi.array()
      .items(Joi.object({ userId: participant.required(), amount: money.required() }))
      .min(1)
      .max(200),
  )
  .label('PaidBy');

const expenseFields = {
  description: freeText(200, { trim: true }),
  category: nameText(64, { trim: false }).allow(null),
  amount: money,
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
export const eventsQuery = Joi.object({
  limit,
  cursor,
  afterSeq: Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER),
}).label('EventsQuery');
export const emptyQuery = Joi.object({}).label('NoQuery');

// ---- invites and claims (API.md §3.1–§3.3) -------------------------------------------------------
export const createInviteBody = Joi.object({
  expiresInDays: Joi.number().strict().integer().min(1).max(30).description('Lifetime in days (default 7)'),
}).label('CreateInviteRequest');

export const acceptInviteBody = Joi.object({
  asMember: userId.description('A pending member of the group to become (their place, balances and history)'),
}).label('AcceptInviteRequest');

// ---- activity (API.md §8a) -----------------------------------------------------------------------
export const activityReadBody = Joi.object({
  upTo: Joi.string().max(200).required().description('The id of the newest feed item read (an event id)'),
}).label('ActivityReadRequest');
// ---- recurring expenses (API.md §6a) -------------------------------------------------------------
export const localDate = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((value: string, helpers) =>
    isRealDate(value) && value >= '2000-01-01' ? value : helpers.error('any.invalid'),
  )
  .messages({
    'any.invalid': 'must be a calendar date YYYY-MM-DD, 2000-01-01 or later',
    'string.pattern.base': 'must be a calendar date YYYY-MM-DD, 2000-01-01 or later',
  })
  .description('A local calendar date, YYYY-MM-DD')
  .example('2027-01-31');

/** An IANA zone name in any case, no offsets; the routes keep it under the zone's one name (API.md §6a). */
export const timeZone = Joi.string()
  .max(100)
  .custom((value: string, helpers) => (isTimeZone(value) ? value : helpers.error('any.invalid')))
  .messages({ 'any.invalid': 'must be an IANA time zone name, such as Europe/Berlin (not a UTC offset)' })
  .description(
    'IANA time zone name, in any case; kept under the zone’s one name (`europe/berlin` → `Europe/Berlin`, `Etc/UTC` → `UTC`, `Asia/Calcutta` → `Asia/Kolkata`). A UTC offset such as `+05:30` is not one',
  )
  .example('Europe/Berlin');

const every = Joi.string()
  .valid(...RECURRENCE_EVERY)
  .messages({ 'any.only': 'must be one of week, 2 weeks, month, year' });

/** The body of POST /v1/expenses without `groupId` (the path has it) and `occurredAt` (each occurrence's date). */
const recurringTemplateFields = {
  description: expenseFields.description,
  category: expenseFields.category,
  amount: expenseFields.amount,
  currency: expenseFields.currency,
  paidBy: expenseFields.paidBy,
  split: expenseFields.split,
};

export const recurringTemplate = Joi.object({
  ...recurringTemplateFields,
  description: recurringTemplateFields.description.required(),
  amount: recurringTemplateFields.amount.required(),
  paidBy: recurringTemplateFields.paidBy.required(),
  split: recurringTemplateFields.split.required(),
}).label('RecurringExpenseTemplate');

export const recurringSchedule = Joi.object({
  every: every.required(),
  startsOn: localDate.required(),
  until: localDate.allow(null),
  timeZone: timeZone.required(),
}).label('RecurringSchedule');

export const createRecurringBody = Joi.object({
  expense: recurringTemplate.required(),
  schedule: recurringSchedule.required(),
}).label('RecurringExpenseRequest');

export const patchRecurringBody = Joi.object({
  expense: Joi.object(recurringTemplateFields).min(1).label('PatchRecurringExpenseTemplate'),
  schedule: Joi.object({ every, startsOn: localDate, until: localDate.allow(null), timeZone })
    .min(1)
    .label('PatchRecurringSchedule'),
})
  .min(1)
  .label('PatchRecurringExpenseRequest');
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
