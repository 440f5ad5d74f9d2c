import fc from 'fast-check';
import { diffBalanceEffects } from './diff-balance-effects';
import type { BalanceDelta } from './types';

const deltaArb: fc.Arbitrary<BalanceDelta> = fc.record({
  currency: fc.constantFrom('INR', 'USD', 'JPY'),
  userId: fc.constantFrom('usr_a', 'usr_b', 'usr_c', 'usr_d'),
  delta: fc.oneof(
    fc.integer({ min: -3, max: 3 }),
    fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
  ),
});
const deltasArb = fc.array(deltaArb, { maxLength: 12 });

/** Sum per (currency, userId) with zeros dropped: what stored balance rows would hold. */
function totalsOf(...lists: (readonly BalanceDelta[])[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const list of lists) {
    for (const { currency, userId, delta } of list) {
      const key = `${currency} ${userId}`;
      totals.set(key, (totals.get(key) ?? 0) + delta);
    }
  }
  for (const [key, total] of totals) if (total === 0) totals.delete(key);
  return totals;
}

describe('diffBalanceEffects', () => {
  const expense: BalanceDelta[] = [
    { currency: 'INR', userId: 'usr_a', delta: 60 },
    { currency: 'INR', userId: 'usr_b', delta: -60 },
  ];

  it('is the whole effect when a record is created', () => {
    expect(diffBalanceEffects([], expense)).toEqual(expense);
  });

  it('reverses the effect when a record is deleted', () => {
    expect(diffBalanceEffects(expense, [])).toEqual([
      { currency: 'INR', userId: 'usr_a', delta: -60 },
      { currency: 'INR', userId: 'usr_b', delta: 60 },
    ]);
  });

  it('is empty when an edit leaves the effect unchanged', () => {
    expect(diffBalanceEffects(expense, [...expense].reverse())).toEqual([]);
  });

  it('moves the effect between currencies when an edit changes the currency', () => {
    const after = expense.map((d) => ({ ...d, currency: 'USD' }));
    expect(diffBalanceEffects(expense, after)).toEqual([
      { currency: 'INR', userId: 'usr_a', delta: -60 },
      { currency: 'INR', userId: 'usr_b', delta: 60 },
      { currency: 'USD', userId: 'usr_a', delta: 60 },
      { currency: 'USD', userId: 'usr_b', delta: -60 },
    ]);
  });

  it('only touches the users whose effect changed', () => {
    const after: BalanceDelta[] = [
      { currency: 'INR', userId: 'usr_a', delta: 90 },
      { currency: 'INR', userId: 'usr_b', delta: -60 },
      { currency: 'INR', userId: 'usr_c', delta: -30 },
    ];
    expect(diffBalanceEffects(expense, after)).toEqual([
      { currency: 'INR', userId: 'usr_a', delta: 30 },
      { currency: 'INR', userId: 'usr_c', delta: -30 },
    ]);
  });

  it('turns the totals of before into the totals of after when applied', () => {
    fc.assert(
      fc.property(deltasArb, deltasArb, (before, after) => {
        const diff = diffBalanceEffects(before, after);
        expect(totalsOf(before, diff)).toEqual(totalsOf(after));
      }),
      { numRuns: 500 },
    );
  });

  it('returns one non-zero entry per (currency, userId), sorted by currency then userId', () => {
    fc.assert(
      fc.property(deltasArb, deltasArb, (before, after) => {
        const diff = diffBalanceEffects(before, after);
        const keys = diff.map((d) => `${d.currency} ${d.userId}`);
        expect(diff.every((d) => d.delta !== 0)).toBe(true);
        expect(new Set(keys).size).toBe(keys.length);
        expect(keys).toEqual([...keys].sort());
      }),
      { numRuns: 300 },
    );
  });
});
