import type { FieldError } from './domain-error';
import { MAX_AMOUNT } from './max-amount';

/**
 * Records an error unless `value` is a valid money amount (a positive integer of minor units, at
 * most MAX_AMOUNT). Checked here as well as in the HTTP schema because the domain must never do
 * arithmetic on a float or an amount whose products could leave BigInt-free territory unnoticed.
 */
export function validateAmount(value: unknown, path: string, errors: FieldError[]): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_AMOUNT) {
    errors.push({ path, message: `must be a positive integer at most ${MAX_AMOUNT}` });
  }
}

/**
 * Records an error unless `value` is a valid expense amount: a non-zero integer of minor units,
 * at most MAX_AMOUNT either way. Negative: income or a reimbursement (API.md §4).
 */
export function validateExpenseAmount(value: unknown, path: string, errors: FieldError[]): void {
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value === 0 ||
    Math.abs(value) > MAX_AMOUNT
  ) {
    errors.push({ path, message: `must be a non-zero integer, at most ${MAX_AMOUNT} either way` });
  }
}
