import { allocateLargestRemainder } from './allocate-largest-remainder';
import { DomainError, type FieldError } from './domain-error';
import { isRecord } from './is-record';
import { itemizedWeights } from './itemized-split';
import type { Share, SplitInput } from './types';
import { validateAmount, validateExpenseAmount } from './validate-amount';
import { validateUserId } from './validate-user-id';

type SplitType = SplitInput['type'];

/** A split that passed field validation: participants and their integer weights, in `between` order. */
type ParsedSplit = { type: SplitType; userIds: string[]; weights: bigint[] };
type WeightedType = Exclude<SplitType, 'items'>;

const SPLIT_TYPES: readonly SplitType[] = ['equal', 'exact', 'percent', 'shares', 'items'];

/** Percents are compared as basis points so that 33.33 + 33.33 + 33.34 is exactly 100. */
const BASIS_POINTS_IN_WHOLE = 10_000n;

/** How far percent × 100 may sit from an integer and still count as having at most 2 decimals. */
const BASIS_POINT_TOLERANCE = 1e-9;

/**
 * Validates a split against the expense amount and returns what each participant owes, in
 * `between` order. This is the single place the API.md split and rounding rules live, so create,
 * replace, patch and replay all derive identical shares; the result always adds up to `amount`.
 *
 * Field problems (bad amount, unknown type, empty or duplicate participants, negative or
 * non-integer values, percents with more than 2 decimals) are reported together as
 * `validation_failed`; a well-formed split whose exact amounts do not add up to `amount`, or whose
 * percents do not add up to 100, is `split_mismatch`.
 *
 * @throws DomainError with code `validation_failed` or `split_mismatch`
 */
export function computeShares(amount: number, split: SplitInput): Share[] {
  if (typeof amount === 'number' && amount < 0) return negativeShares(amount, split);
  const errors: FieldError[] = [];
  validateAmount(amount, 'amount', errors);
  const parsed = parseSplit(split, errors, amount);
  if (parsed === undefined || errors.length > 0) {
    throw new DomainError('validation_failed', 'The expense split is invalid.', errors);
  }

  const { type, userIds, weights } = parsed;
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0n);
  if (type === 'exact' && totalWeight !== BigInt(amount)) {
    const message = `exact amounts add up to ${totalWeight}, not to the amount ${amount}`;
    throw new DomainError('split_mismatch', `The split does not match the amount: ${message}.`, [
      { path: 'split.between', message },
    ]);
  }
  if (type === 'percent' && totalWeight !== BASIS_POINTS_IN_WHOLE) {
    const message = `percents add up to ${formatBasisPoints(totalWeight)}, not to 100`;
    throw new DomainError('split_mismatch', `The split does not match the amount: ${message}.`, [
      { path: 'split.between', message },
    ]);
  }

  // Exact weights add up to `amount`, so the allocation hands each participant exactly their
  // amount; going through it anyway keeps one code path for every type.
  const owed = allocateLargestRemainder(amount, weights);
  return userIds.map((userId, index) => ({ userId, owed: owed[index]! }));
}

/**
 * A negative expense (income, a reimbursement: API.md §4) is split as its positive counterpart and
 * every share negated, so `-100000` three ways is −33334, −33333, −33333. Its `exact` amounts are
 * zero or negative and add up to `amount`; an itemized split needs a positive amount.
 */
function negativeShares(amount: number, split: SplitInput): Share[] {
  const errors: FieldError[] = [];
  validateExpenseAmount(amount, 'amount', errors);
  let positive: unknown = split;
  if (isRecord(split) && split['type'] === 'items') {
    errors.push({ path: 'split.type', message: 'an itemized split needs a positive amount' });
  } else if (isRecord(split) && split['type'] === 'exact' && Array.isArray(split['between'])) {
    positive = {
      ...split,
      between: split['between'].map((entry: unknown, index) => {
        if (!isRecord(entry) || typeof entry['amount'] !== 'number') return entry;
        if (entry['amount'] > 0) {
          errors.push({
            path: `split.between[${index}].amount`,
            message: 'must be zero or negative when the amount is negative',
          });
        }
        return { ...entry, amount: 0 - entry['amount'] };
      }),
    };
  }
  if (errors.length > 0) throw new DomainError('validation_failed', 'The expense split is invalid.', errors);
  try {
    return computeShares(-amount, positive as SplitInput).map((s) => ({ ...s, owed: 0 - s.owed }));
  } catch (error) {
    if (error instanceof DomainError && error.code === 'split_mismatch') {
      throw new DomainError(
        'split_mismatch',
        `The split does not match the amount: exact amounts do not add up to the amount ${amount}.`,
        [{ path: 'split.between', message: `exact amounts do not add up to the amount ${amount}` }],
      );
    }
    throw error;
  }
}

function parseSplit(split: unknown, errors: FieldError[], amount: number): ParsedSplit | undefined {
  if (!isRecord(split)) {
    errors.push({ path: 'split', message: 'must be an object' });
    return undefined;
  }
  const type = split['type'];
  if (!isSplitType(type)) {
    errors.push({ path: 'split.type', message: `must be one of ${SPLIT_TYPES.join(', ')}` });
    return undefined;
  }
  if (type === 'items') {
    const itemized = itemizedWeights(amount, split, errors);
    return itemized && { type, ...itemized };
  }
  const between: unknown = split['between'];
  if (!Array.isArray(between) || between.length === 0) {
    errors.push({ path: 'split.between', message: 'must be a non-empty array' });
    return undefined;
  }

  const errorCountBefore = errors.length;
  const seen = new Set<string>();
  const userIds: string[] = [];
  const weights: bigint[] = [];
  between.forEach((entry: unknown, index) => {
    const path = `split.between[${index}]`;
    if (type === 'equal') {
      userIds.push(validateUserId(entry, path, seen, errors) ?? '');
      weights.push(1n);
      return;
    }
    if (!isRecord(entry)) {
      errors.push({ path, message: 'must be an object' });
      return;
    }
    userIds.push(validateUserId(entry['userId'], `${path}.userId`, seen, errors) ?? '');
    weights.push(readWeight(type, entry, path, errors) ?? 0n);
  });
  return errors.length === errorCountBefore ? { type, userIds, weights } : undefined;
}

function readWeight(
  type: Exclude<WeightedType, 'equal'>,
  entry: Record<string, unknown>,
  path: string,
  errors: FieldError[],
): bigint | undefined {
  switch (type) {
    case 'exact': {
      const value = entry['amount'];
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        errors.push({ path: `${path}.amount`, message: 'must be a non-negative integer' });
        return undefined;
      }
      return BigInt(value);
    }
    case 'percent': {
      const value = entry['percent'];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
        errors.push({ path: `${path}.percent`, message: 'must be a non-negative number' });
        return undefined;
      }
      const basisPoints = value * 100;
      const rounded = Math.round(basisPoints);
      if (Math.abs(basisPoints - rounded) > BASIS_POINT_TOLERANCE) {
        errors.push({ path: `${path}.percent`, message: 'must have at most 2 decimal places' });
        return undefined;
      }
      return BigInt(rounded);
    }
    case 'shares': {
      const value = entry['shares'];
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
        errors.push({ path: `${path}.shares`, message: 'must be a positive integer' });
        return undefined;
      }
      return BigInt(value);
    }
  }
}

function isSplitType(value: unknown): value is SplitType {
  return typeof value === 'string' && (SPLIT_TYPES as readonly string[]).includes(value);
}

function formatBasisPoints(basisPoints: bigint): string {
  const whole = basisPoints / 100n;
  const fraction = (basisPoints % 100n).toString().padStart(2, '0');
  return fraction === '00' ? whole.toString() : `${whole}.${fraction}`;
}
