import { DomainError, type FieldError } from './domain-error';
import { isRecord } from './is-record';
import type { ItemsSplit } from './types';
import { validateAmount } from './validate-amount';
import { validateUserId } from './validate-user-id';

/** The most items one receipt may list, and (user, item) entries over all its items (API.md §9.1). */
export const MAX_ITEMS = 100;
export const MAX_ITEM_ENTRIES = 1000;

/** A receipt that passed field validation: per item its amount, its people and their integer weights. */
type ParsedItem = { amount: bigint; userIds: string[]; weights: bigint[] };

/**
 * The weights of an itemized split (`type: "items"`, API.md §4), one per participant in order of
 * first appearance, for ONE largest-remainder allocation of the whole `amount`: each participant's
 * exact share is Σ over items of `item.amount × (their weight in the item / the item's weights)`,
 * scaled by `amount / Σ items` so that tax and tip are spread over the items in proportion. In
 * integers: with D the least common multiple of the items' total weights, a participant's weight
 * is Σ `item.amount × weight × (D / item's total)`, which is D × their exact share before scaling;
 * the allocation scales by `amount / (D × Σ items)` and rounds once.
 *
 * Field problems are `validation_failed` (paths under `split`); items, tax and tip that do not add
 * up to `amount` are `split_mismatch`.
 *
 * @throws DomainError
 */
export function itemizedWeights(
  amount: number,
  split: Record<string, unknown>,
  errors: FieldError[],
): { userIds: string[]; weights: bigint[] } | undefined {
  const items = parseItems(split['items'], errors);
  const tax = optionalAmount(split['tax'], 'split.tax', errors);
  const tip = optionalAmount(split['tip'], 'split.tip', errors);
  if (items === undefined || tax === undefined || tip === undefined || errors.length > 0) return undefined;

  const itemsTotal = items.reduce((sum, item) => sum + item.amount, 0n);
  if (itemsTotal === 0n) {
    errors.push({ path: 'split.items', message: 'must add up to more than 0' });
    return undefined;
  }
  if (itemsTotal + tax + tip !== BigInt(amount)) {
    const message = `items (${itemsTotal}), tax (${tax}) and tip (${tip}) add up to ${itemsTotal + tax + tip}, not to the amount ${amount}`;
    throw new DomainError('split_mismatch', `The split does not match the amount: ${message}.`, [
      { path: 'split.items', message },
    ]);
  }

  const totals = items.map((item) => item.weights.reduce((sum, w) => sum + w, 0n));
  const common = totals.reduce(lcm, 1n);
  const weightOf = new Map<string, bigint>();
  items.forEach((item, i) => {
    const scale = (item.amount * common) / (totals[i] as bigint);
    item.userIds.forEach((userId, j) => {
      weightOf.set(userId, (weightOf.get(userId) ?? 0n) + scale * (item.weights[j] as bigint));
    });
  });
  return { userIds: [...weightOf.keys()], weights: [...weightOf.values()] };
}

/** The participants of an itemized split in order of first appearance, each with where it first stands. */
export function itemizedParties(split: ItemsSplit): { userId: string; path: string }[] {
  const seen = new Map<string, string>();
  split.items.forEach((item, i) => {
    item.between.forEach((entry, j) => {
      const userId = typeof entry === 'string' ? entry : entry.userId;
      const path = `split.items[${i}].between[${j}]${typeof entry === 'string' ? '' : '.userId'}`;
      if (!seen.has(userId)) seen.set(userId, path);
    });
  });
  return [...seen].map(([userId, path]) => ({ userId, path }));
}

function parseItems(value: unknown, errors: FieldError[]): ParsedItem[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    errors.push({ path: 'split.items', message: 'must be a non-empty array' });
    return undefined;
  }
  if (value.length > MAX_ITEMS) {
    errors.push({ path: 'split.items', message: `must list at most ${MAX_ITEMS} items` });
    return undefined;
  }
  const entries = value.reduce<number>(
    (n, item) => n + (isRecord(item) && Array.isArray(item['between']) ? item['between'].length : 0),
    0,
  );
  if (entries > MAX_ITEM_ENTRIES) {
    errors.push({
      path: 'split.items',
      message: `must name at most ${MAX_ITEM_ENTRIES} people over all items`,
    });
    return undefined;
  }
  const before = errors.length;
  const items = value.map((item: unknown, i) => parseItem(item, `split.items[${i}]`, errors));
  return errors.length === before ? (items as ParsedItem[]) : undefined;
}

function parseItem(item: unknown, path: string, errors: FieldError[]): ParsedItem | undefined {
  if (!isRecord(item)) {
    errors.push({ path, message: 'must be an object' });
    return undefined;
  }
  const amount = item['amount'];
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) {
    errors.push({ path: `${path}.amount`, message: 'must be a non-negative integer' });
    return undefined;
  }
  const between: unknown = item['between'];
  if (!Array.isArray(between) || between.length === 0) {
    errors.push({ path: `${path}.between`, message: 'must be a non-empty array' });
    return undefined;
  }
  const seen = new Set<string>();
  const userIds: string[] = [];
  const weights: bigint[] = [];
  between.forEach((entry: unknown, j) => {
    const at = `${path}.between[${j}]`;
    if (typeof entry === 'string') {
      userIds.push(validateUserId(entry, at, seen, errors) ?? '');
      weights.push(1n);
      return;
    }
    if (!isRecord(entry)) {
      errors.push({ path: at, message: 'must be a user id or {userId, shares}' });
      return;
    }
    userIds.push(validateUserId(entry['userId'], `${at}.userId`, seen, errors) ?? '');
    const shares = entry['shares'];
    if (typeof shares !== 'number' || !Number.isSafeInteger(shares) || shares < 1) {
      errors.push({ path: `${at}.shares`, message: 'must be a positive integer' });
      return;
    }
    weights.push(BigInt(shares));
  });
  return { amount: BigInt(amount), userIds, weights };
}

/** `tax` or `tip`: absent is 0; else a non-negative amount in minor units. */
function optionalAmount(value: unknown, path: string, errors: FieldError[]): bigint | undefined {
  if (value === undefined) return 0n;
  if (value === 0) return 0n;
  const before = errors.length;
  validateAmount(value, path, errors);
  return errors.length === before ? BigInt(value as number) : undefined;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};
const lcm = (a: bigint, b: bigint): bigint => (a / gcd(a, b)) * b;
