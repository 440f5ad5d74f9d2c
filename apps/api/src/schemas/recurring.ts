import { isRealDate, isTimeZone, RECURRENCE_EVERY } from '@tally/domain';
import Joi from 'joi';
import { expenseFields } from './expenses';
import { money } from './fields';

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
  // A schedule's amount stays positive: income is entered as it comes.
  amount: money,
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
