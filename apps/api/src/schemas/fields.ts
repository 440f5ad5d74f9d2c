import { isRealTimestamp, MAX_AMOUNT, type TextKind, textProblem } from '@tally/domain';
import Joi from 'joi';

/**
 * The fields many request schemas share: money, ids, timestamps and user text. Bodies are validated
 * with conversion on (so strings are trimmed and emails lower-cased) but every number in a body is
 * `strict()`: `"100"` is not an amount.
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

/** An expense's amount (API.md §4): negative for income or a reimbursement, never 0. */
export const signedMoney = Joi.number()
  .strict()
  .integer()
  .min(-MAX_AMOUNT)
  .max(MAX_AMOUNT)
  .invalid(0)
  .messages({
    'number.base': 'must be a non-zero integer',
    'number.integer': 'must be a non-zero integer',
    'any.invalid': 'must be a non-zero integer',
    'number.min': `must be at least -${MAX_AMOUNT}`,
    'number.max': `must be at most ${MAX_AMOUNT}`,
  })
  .description('Integer count of minor units (paise, cents, yen); negative for income or a reimbursement')
  .example(100000);

export const nonNegativeMoney = Joi.number().strict().integer().min(0).max(MAX_AMOUNT);
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
