import { mergeBalanceDeltas } from './merge-balance-deltas';
import type { BalanceDelta } from './types';

/**
 * The change to stored balances when a record's effect goes from `before` to `after`: after −
 * before, merged per (currency, userId), zeros dropped. One function serves every write — create
 * (before = []), edit, delete (after = []) and restore — so incremental balances cannot drift from
 * a full recomputation, including when an edit changes the currency.
 *
 * @returns deltas sorted by currency then userId, so concurrent writers update rows in one order
 */
export function diffBalanceEffects(
  before: readonly BalanceDelta[],
  after: readonly BalanceDelta[],
): BalanceDelta[] {
  return mergeBalanceDeltas([
    ...after.map(({ currency, userId, delta }) => ({ currency, userId, delta: BigInt(delta) })),
    ...before.map(({ currency, userId, delta }) => ({ currency, userId, delta: -BigInt(delta) })),
  ]);
}
