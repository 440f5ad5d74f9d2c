import { compareCodeUnits } from './compare-code-units';
import type { MemberNet, Transfer } from './types';

type Party = { userId: string; remaining: number };

/**
 * Proposes who should pay whom so that everyone's net becomes 0, with few payments: greedily the
 * largest debtor pays the largest creditor the smaller of the two amounts (ties broken by userId
 * in ascending code-unit order), until all are settled. Every payment zeroes at least one party
 * and the last zeroes both, so there are at most (number of non-zero nets − 1) transfers. The
 * greedy rule is deterministic, so every reader of the same balances sees the same plan.
 *
 * @param nets one entry per user (any order) in a single currency, integers adding up to 0
 * @returns transfers from negative-net to positive-net users, each with a positive amount
 * @throws RangeError when a net is not a safe integer, a userId repeats, or the nets do not add up to 0
 */
export function simplifyDebts(nets: readonly MemberNet[]): Transfer[] {
  const seen = new Set<string>();
  let sum = 0n;
  const debtors: Party[] = [];
  const creditors: Party[] = [];
  for (const { userId, net } of nets) {
    if (!Number.isSafeInteger(net)) {
      throw new RangeError(`net of ${userId} must be a safe integer, got ${net}`);
    }
    if (seen.has(userId)) {
      throw new RangeError(`nets list ${userId} more than once`);
    }
    seen.add(userId);
    sum += BigInt(net);
    if (net < 0) debtors.push({ userId, remaining: -net });
    if (net > 0) creditors.push({ userId, remaining: net });
  }
  if (sum !== 0n) throw new RangeError(`nets must add up to 0, got ${sum}`);

  const transfers: Transfer[] = [];
  for (;;) {
    const debtor = largest(debtors);
    const creditor = largest(creditors);
    if (debtor === undefined || creditor === undefined) break;
    const amount = Math.min(debtor.remaining, creditor.remaining);
    transfers.push({ from: debtor.userId, to: creditor.userId, amount });
    debtor.remaining -= amount;
    creditor.remaining -= amount;
  }
  return transfers;
}

/** The unsettled party with the most remaining, the lowest userId among equals. */
function largest(parties: readonly Party[]): Party | undefined {
  let best: Party | undefined;
  for (const party of parties) {
    if (party.remaining === 0) continue;
    if (
      best === undefined ||
      party.remaining > best.remaining ||
      (party.remaining === best.remaining && compareCodeUnits(party.userId, best.userId) < 0)
    ) {
      best = party;
    }
  }
  return best;
}
