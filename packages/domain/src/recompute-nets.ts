import { compareCodeUnits } from './compare-code-units';
import { toSafeNumber } from './to-safe-number';
import type { Payer, Share } from './types';

/**
 * Recomputes every member's net from the live expenses and settlements alone. It is the reference
 * the incrementally stored balances must always equal (API.md §6), and the way to rebuild them.
 *
 * Zero nets: a user is present in a currency's map, possibly with net 0, exactly when they appear
 * in at least one live record in that currency (as payer, participant, or settlement party). Users
 * with no live record in a currency, and currencies with no live record, are absent; callers that
 * must list every member fill those in with 0.
 *
 * @returns currency → userId → net, both levels in ascending code-unit order of their keys; the
 *   nets of each currency add up to exactly 0 when every expense's payers and shares add up to
 *   its amount
 */
export function recomputeNets(
  expenses: readonly { currency: string; paidBy: Payer[]; shares: Share[] }[],
  settlements: readonly { currency: string; fromUserId: string; toUserId: string; amount: number }[],
): Map<string, Map<string, number>> {
  const totals = new Map<string, Map<string, bigint>>();
  const add = (currency: string, userId: string, delta: bigint): void => {
    let users = totals.get(currency);
    if (users === undefined) {
      users = new Map();
      totals.set(currency, users);
    }
    users.set(userId, (users.get(userId) ?? 0n) + delta);
  };

  for (const expense of expenses) {
    for (const payer of expense.paidBy) add(expense.currency, payer.userId, BigInt(payer.amount));
    for (const share of expense.shares) add(expense.currency, share.userId, -BigInt(share.owed));
  }
  for (const settlement of settlements) {
    add(settlement.currency, settlement.fromUserId, BigInt(settlement.amount));
    add(settlement.currency, settlement.toUserId, -BigInt(settlement.amount));
  }

  const nets = new Map<string, Map<string, number>>();
  for (const currency of [...totals.keys()].sort(compareCodeUnits)) {
    const users = totals.get(currency)!;
    const sorted = new Map<string, number>();
    for (const userId of [...users.keys()].sort(compareCodeUnits)) {
      sorted.set(userId, toSafeNumber(users.get(userId)!));
    }
    nets.set(currency, sorted);
  }
  return nets;
}
