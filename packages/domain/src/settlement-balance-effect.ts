import { mergeBalanceDeltas } from './merge-balance-deltas';
import type { BalanceDelta } from './types';

/**
 * What a live settlement adds to the members' nets. The payer is paying a debt back, so their net
 * rises by `amount` and the receiver's falls by it; the two deltas add up to 0. Kept beside
 * `expenseBalanceEffect` so both kinds of record update stored balances the same way.
 *
 * @returns deltas sorted by currency then userId, zero entries dropped
 */
export function settlementBalanceEffect(s: {
  currency: string;
  fromUserId: string;
  toUserId: string;
  amount: number;
}): BalanceDelta[] {
  const { currency } = s;
  return mergeBalanceDeltas([
    { currency, userId: s.fromUserId, delta: BigInt(s.amount) },
    { currency, userId: s.toUserId, delta: -BigInt(s.amount) },
  ]);
}
