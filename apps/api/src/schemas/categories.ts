import Joi from 'joi';
import { currency, nameText, realTimestamp } from './fields';

/**
 * A category id as a request names it: a default's (`food`, API.md §14) or a group's own
 * (`cat_…`). Whether it exists in the expense's group is checked by the write (`422 unknown_category`).
 */
export const categoryId = Joi.string()
  .pattern(/^(?:[a-z]{2,20}|cat_[0-9A-HJKMNP-TV-Z]{26})$/)
  .message('must be a category id: a default one (e.g. food) or a group’s own (cat_…)')
  .description('A default category id (e.g. `food`) or one of the group’s own (`cat_…`)')
  .example('food');

/** An icon: an emoji or a short token, one line, at most 16 code points. */
const icon = nameText(16)
  .allow(null)
  .description('An emoji or a short token (1–16 code points), or null for none')
  .example('🍕');
const color = Joi.string()
  .pattern(/^#[0-9a-fA-F]{6}$/)
  .message('must be a colour as #rrggbb')
  .allow(null)
  .description('A colour as `#rrggbb`, or null for none')
  .example('#e07a5f');
const categoryName = nameText(40).description(
  '1–40 code points; unique (ignoring case) among the group’s live categories',
);

export const createCategoryBody = Joi.object({ name: categoryName.required(), icon, color }).label(
  'CategoryRequest',
);
export const patchCategoryBody = Joi.object({ name: categoryName, icon, color })
  .min(1)
  .label('PatchCategoryRequest');
export const mergeCategoryBody = Joi.object({
  into: categoryId
    .required()
    .description('The category that receives the expenses (a default or the group’s own)'),
}).label('MergeCategoryRequest');

const statsFields = {
  from: realTimestamp.description('Only expenses with `occurredAt` at or after this time'),
  to: realTimestamp.description('Only expenses with `occurredAt` before this time (exclusive)'),
  currency: currency.description(
    'Also convert the totals into this currency (`converted`), with the group’s rates and the provider’s',
  ),
};
export const groupStatsQuery = Joi.object({
  ...statsFields,
  by: Joi.string()
    .valid('category', 'member', 'month')
    .default('category')
    .description('How to break the totals down'),
}).label('GroupStatsQuery');
export const myStatsQuery = Joi.object({
  ...statsFields,
  by: Joi.string()
    .valid('category', 'group', 'month')
    .default('category')
    .description('How to break my share down'),
}).label('MyStatsQuery');
