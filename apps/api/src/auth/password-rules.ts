import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The rules for a password being chosen (API.md §2, OWASP): 8–128 characters counted in Unicode
 * code points, no composition rules, and not one of the common passwords found in leaks (the
 * 49,233 entries of `@zxcvbn-ts/language-common`'s `passwords-common`, shipped with the package:
 * nothing is fetched at run time), compared without regard to case.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

let common: ReadonlySet<string> | undefined;

/** The list, loaded once on first use. */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.normalize('NFKC').toLowerCase()));
  return common;
}

/** Whether `password` is on the list of common passwords (case-insensitively, NFKC as it is hashed). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.normalize('NFKC').toLowerCase());
}

/** Why `password` may not be chosen, as a joi error code of `newPassword`, or undefined when it may. */
export function passwordProblem(
  password: string,
): 'password.tooShort' | 'password.tooLong' | 'password.common' | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return 'password.tooShort';
  if (length > PASSWORD_MAX_LENGTH) return 'password.tooLong';
  if (isCommonPassword(password)) return 'password.common';
  return undefined;
}
