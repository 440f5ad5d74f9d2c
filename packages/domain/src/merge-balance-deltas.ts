import { compareCodeUnits } from './compare-code-units';
import { toSafeNumber } from './to-safe-number';
import type { BalanceDelta } from './types';

/**
 * Sums deltas per (currency, userId) in BigInt, drops the entries that come to zero, and returns
 * them sorted by currency then userId. The fixed order matters to callers that update one balance
 * row per entry: concurrent transactions touching the same rows lock them in the same order and so
 * cannot deadlock each other.
 */
export function mergeBalanceDeltas(
  entries: Iterable<{ currency: string; userId: string; delta: bigint }>,
): BalanceDelta[] {
  const totals = new Map<string, Map<string, bigint>>();
  for (const { currency, userId, delta } of entries) {
    let users = totals.get(currency);
    if (users === undefined) {
      users = new Map();
      totals.set(currency, users);
    }
    users.set(userId, (users.get(userId) ?? 0n) + delta);
  }
  const merged: BalanceDelta[] = [];
  for (const [currency, users] of totals) {
    for (const [userId, delta] of users) {
      if (delta !== 0n) merged.push({ currency, userId, delta: toSafeNumber(delta) });
    }
  }
  return merged.sort(
    (a, b) => compareCodeUnits(a.currency, b.currency) || compareCodeUnits(a.userId, b.userId),
  );
}
