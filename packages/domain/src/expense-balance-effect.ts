import { mergeBalanceDeltas } from './merge-balance-deltas';
import type { BalanceDelta, Payer, Share } from './types';

/**
 * What a live expense adds to the members' nets: +paid for each payer, −owed for each participant,
 * merged per user with zero entries dropped (someone who paid exactly their own share is
 * unaffected). Stored balances are kept as the sum of these effects, so reading balances does not
 * depend on how long the group's history is.
 *
 * @returns deltas sorted by currency then userId; they add up to 0 when the expense is consistent
 */
export function expenseBalanceEffect(e: {
  currency: string;
  paidBy: Payer[];
  shares: Share[];
}): BalanceDelta[] {
  const { currency } = e;
  return mergeBalanceDeltas([
    ...e.paidBy.map((payer) => ({ currency, userId: payer.userId, delta: BigInt(payer.amount) })),
    ...e.shares.map((share) => ({ currency, userId: share.userId, delta: -BigInt(share.owed) })),
  ]);
}
