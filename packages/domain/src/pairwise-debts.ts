import { compareCodeUnits } from './compare-code-units';
import { toSafeNumber } from './to-safe-number';
import type { Payer, Share } from './types';

/**
 * A change to the original (unsimplified) debt between two people in one currency: `net` is what
 * `lowId` owes `highId` (negative: what `highId` owes `lowId`), with `lowId < highId` by code units.
 */
export type PairDelta = { currency: string; lowId: string; highId: string; net: number };

const least = (a: bigint, b: bigint) => (a < b ? a : b);
const greatest = (a: bigint, b: bigint) => (a > b ? a : b);

type Debt = { currency: string; debtor: string; creditor: string; amount: bigint };

/**
 * Sums debts per (currency, pair), drops those that come to zero (and anyone's debt to themselves),
 * sorted by currency, then the pair: the order every writer updates the rows in.
 */
function mergePairs(debts: Iterable<Debt>): PairDelta[] {
  const totals = new Map<string, { currency: string; lowId: string; highId: string; net: bigint }>();
  for (const { currency, debtor, creditor, amount } of debts) {
    if (debtor === creditor) continue;
    const low = compareCodeUnits(debtor, creditor) < 0;
    const [lowId, highId] = low ? [debtor, creditor] : [creditor, debtor];
    const key = `${currency}\u0000${lowId}\u0000${highId}`;
    const entry = totals.get(key) ?? { currency, lowId, highId, net: 0n };
    entry.net += low ? amount : -amount;
    totals.set(key, entry);
  }
  return [...totals.values()]
    .filter((p) => p.net !== 0n)
    .map((p) => ({ ...p, net: toSafeNumber(p.net) }))
    .sort(
      (a, b) =>
        compareCodeUnits(a.currency, b.currency) ||
        compareCodeUnits(a.lowId, b.lowId) ||
        compareCodeUnits(a.highId, b.highId),
    );
}

/**
 * Who owes whom for one expense (API.md §6, `original`): the payers and the shares laid end to end
 * on [0, |amount|), each in its listed order, and each participant owes each payer the overlap of
 * their two intervals. Integer, exact both ways (a participant owes their share in all, a payer is
 * owed what they paid less their own share), at most payers + participants − 1 pairs, and with one
 * payer (the usual case) everyone simply owes the payer their share. A negative expense (income,
 * a reimbursement) turns every debt round. Migration 025 computes the same in SQL.
 */
export function expensePairEffect(e: { currency: string; paidBy: Payer[]; shares: Share[] }): PairDelta[] {
  const sign = e.paidBy.reduce((sum, p) => sum + p.amount, 0) < 0 ? -1n : 1n;
  const debts: Debt[] = [];
  let paidUpTo = 0n;
  let owedUpTo = 0n;
  let share = 0;
  for (const payer of e.paidBy) {
    const payerFrom = paidUpTo;
    paidUpTo += BigInt(Math.abs(payer.amount));
    while (share < e.shares.length) {
      const { userId, owed } = e.shares[share]!;
      const shareFrom = owedUpTo;
      const shareTo = shareFrom + BigInt(Math.abs(owed));
      const overlap = least(shareTo, paidUpTo) - greatest(shareFrom, payerFrom);
      if (overlap > 0n) {
        debts.push({ currency: e.currency, debtor: userId, creditor: payer.userId, amount: sign * overlap });
      }
      if (shareTo > paidUpTo) break;
      owedUpTo = shareTo;
      share += 1;
    }
  }
  return mergePairs(debts);
}

/** A settlement from A to B lowers what A owes B by its amount. */
export function settlementPairEffect(s: {
  currency: string;
  fromUserId: string;
  toUserId: string;
  amount: number;
}): PairDelta[] {
  return mergePairs([
    { currency: s.currency, debtor: s.fromUserId, creditor: s.toUserId, amount: -BigInt(s.amount) },
  ]);
}

/** The change to the stored pairs when a record's effect goes from `before` to `after`. */
export function diffPairEffects(before: readonly PairDelta[], after: readonly PairDelta[]): PairDelta[] {
  const debt = (p: PairDelta, by: bigint): Debt => ({
    currency: p.currency,
    debtor: p.lowId,
    creditor: p.highId,
    amount: by * BigInt(p.net),
  });
  return mergePairs([...after.map((p) => debt(p, 1n)), ...before.map((p) => debt(p, -1n))]);
}
