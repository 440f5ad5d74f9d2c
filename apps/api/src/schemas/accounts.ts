import Joi from 'joi';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from '../auth/password-rules';
import { currency, freeText, nameText, userId } from './fields';

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

const groupCurrency = currency.description(
  'ISO 4217 code: the group’s default currency, which expenses and settlements sent without one take',
);
const simplifyDebts = Joi.boolean()
  .strict()
  .description(
    'Which debts clients show (API.md §6): the simplified ones (`true`, the default) or the original ones',
  );

export const createGroupBody = Joi.object({
  name: groupName.required(),
  currency: groupCurrency,
  description: groupDescription,
  simplifyDebts,
}).label('CreateGroupRequest');

export const patchGroupBody = Joi.object({
  name: groupName,
  description: groupDescription,
  currency: groupCurrency,
  simplifyDebts,
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
