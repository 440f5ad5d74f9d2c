import { DomainError, type FieldError } from './domain-error';
import { isRecord } from './is-record';
import type { Payer } from './types';
import { validateExpenseAmount } from './validate-amount';
import { validateUserId } from './validate-user-id';

/**
 * Turns `paidBy` into the list form that replies and storage always use, after checking it: a
 * single userId means that member paid the whole amount; a list must name each payer once, with
 * non-zero integer amounts of the sign of `amount` that add up to it exactly, so an expense can never create or
 * destroy money in the balances.
 *
 * @returns a fresh list of `{ userId, amount }` in the order given
 * @throws DomainError `validation_failed` for malformed or duplicate payers, `split_mismatch` when
 *   the payers' amounts do not add up to `amount`
 */
export function normalizePayers(amount: number, paidBy: string | Payer[]): Payer[] {
  const errors: FieldError[] = [];
  validateExpenseAmount(amount, 'amount', errors);
  // A negative expense (income, a reimbursement) has payers of negative amounts: who received it.
  const negative = typeof amount === 'number' && amount < 0;
  const seen = new Set<string>();
  const payers: Payer[] = [];

  if (typeof paidBy === 'string') {
    const userId = validateUserId(paidBy, 'paidBy', seen, errors);
    if (userId !== undefined) payers.push({ userId, amount });
  } else if (Array.isArray(paidBy) && paidBy.length > 0) {
    paidBy.forEach((entry: unknown, index) => {
      const path = `paidBy[${index}]`;
      if (!isRecord(entry)) {
        errors.push({ path, message: 'must be an object' });
        return;
      }
      const userId = validateUserId(entry['userId'], `${path}.userId`, seen, errors);
      const payerAmount = entry['amount'];
      if (
        typeof payerAmount !== 'number' ||
        !Number.isSafeInteger(payerAmount) ||
        (negative ? payerAmount > -1 : payerAmount < 1)
      ) {
        errors.push({
          path: `${path}.amount`,
          message: negative
            ? 'must be a negative integer when the amount is negative'
            : 'must be a positive integer',
        });
        return;
      }
      if (userId !== undefined) payers.push({ userId, amount: payerAmount });
    });
  } else {
    errors.push({ path: 'paidBy', message: 'must be a userId or a non-empty list of payers' });
  }
  if (errors.length > 0) {
    throw new DomainError('validation_failed', 'The payers are invalid.', errors);
  }

  const paid = payers.reduce((sum, payer) => sum + BigInt(payer.amount), 0n);
  if (paid !== BigInt(amount)) {
    const message = `payers' amounts add up to ${paid}, not to the amount ${amount}`;
    throw new DomainError('split_mismatch', `The payers do not match the amount: ${message}.`, [
      { path: 'paidBy', message },
    ]);
  }
  return payers;
}
