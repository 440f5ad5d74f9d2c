import fc from 'fast-check';
import { computeShares } from './compute-shares';
import { expenseBalanceEffect } from './expense-balance-effect';
import { expenseArb, settlementArb } from './money-arbitraries.test-support';
import { normalizePayers } from './normalize-payers';
import { diffPairEffects, expensePairEffect, type PairDelta, settlementPairEffect } from './pairwise-debts';
import { settlementBalanceEffect } from './settlement-balance-effect';
import type { BalanceDelta } from './types';

/** Each person's net from the pairs: what they are owed less what they owe. */
function netsOf(pairs: readonly PairDelta[]): Map<string, number> {
  const nets = new Map<string, number>();
  const add = (key: string, by: number) => {
    const net = (nets.get(key) ?? 0) + by;
    if (net === 0) nets.delete(key);
    else nets.set(key, net);
  };
  for (const p of pairs) {
    add(`${p.currency} ${p.lowId}`, -p.net);
    add(`${p.currency} ${p.highId}`, p.net);
  }
  return nets;
}
const asMap = (deltas: readonly BalanceDelta[]) =>
  new Map(deltas.map((d) => [`${d.currency} ${d.userId}`, d.delta]));

describe('pairwise debts (API.md §6 `original`)', () => {
  it('everyone owes a single payer their share', () => {
    const shares = computeShares(900, { type: 'equal', between: ['usr_a', 'usr_b', 'usr_c'] });
    expect(
      expensePairEffect({ currency: 'EUR', paidBy: [{ userId: 'usr_a', amount: 900 }], shares }),
    ).toEqual([
      { currency: 'EUR', lowId: 'usr_a', highId: 'usr_b', net: -300 },
      { currency: 'EUR', lowId: 'usr_a', highId: 'usr_c', net: -300 },
    ]);
  });

  it('lays several payers and the shares end to end', () => {
    const paidBy = normalizePayers(900, [
      { userId: 'usr_a', amount: 600 },
      { userId: 'usr_b', amount: 300 },
    ]);
    const shares = computeShares(900, { type: 'equal', between: ['usr_a', 'usr_b', 'usr_c'] });
    expect(expensePairEffect({ currency: 'EUR', paidBy, shares })).toEqual([
      { currency: 'EUR', lowId: 'usr_a', highId: 'usr_b', net: -300 },
      { currency: 'EUR', lowId: 'usr_b', highId: 'usr_c', net: -300 },
    ]);
  });

  it('turns a negative expense round', () => {
    const paidBy = normalizePayers(-900, 'usr_a');
    const shares = computeShares(-900, { type: 'equal', between: ['usr_a', 'usr_b', 'usr_c'] });
    expect(shares.map((s) => s.owed)).toEqual([-300, -300, -300]);
    expect(expensePairEffect({ currency: 'EUR', paidBy, shares })).toEqual([
      { currency: 'EUR', lowId: 'usr_a', highId: 'usr_b', net: 300 },
      { currency: 'EUR', lowId: 'usr_a', highId: 'usr_c', net: 300 },
    ]);
  });

  it('adds up, person by person, to the balance effect of any expense or settlement, of either sign', () => {
    const negated = expenseArb.map((e) => ({
      currency: e.currency,
      paidBy: e.paidBy.map((p) => ({ ...p, amount: -p.amount })),
      shares: e.shares.map((s) => ({ ...s, owed: 0 - s.owed })),
    }));
    fc.assert(
      fc.property(fc.oneof(expenseArb, negated), settlementArb, (expense, settlement) => {
        const pairs = expensePairEffect(expense);
        expect(netsOf(pairs)).toEqual(asMap(expenseBalanceEffect(expense)));
        const payers = expense.paidBy.length;
        const sharers = expense.shares.filter((s) => s.owed !== 0).length;
        expect(pairs.length).toBeLessThanOrEqual(Math.max(0, payers + sharers - 1));
        expect(netsOf(settlementPairEffect(settlement))).toEqual(asMap(settlementBalanceEffect(settlement)));
        // Undoing a record takes its pairs away again.
        expect(diffPairEffects(pairs, pairs)).toEqual([]);
        expect(diffPairEffects(pairs, [])).toEqual(pairs.map((p) => ({ ...p, net: -p.net })));
      }),
    );
  });
});
