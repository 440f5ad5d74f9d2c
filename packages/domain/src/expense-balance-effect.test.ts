import fc from 'fast-check';
import { expenseBalanceEffect } from './expense-balance-effect';
import { expenseArb } from './money-arbitraries.test-support';

describe('expenseBalanceEffect', () => {
  it('credits the payer and debits each participant their share', () => {
    expect(
      expenseBalanceEffect({
        currency: 'INR',
        paidBy: [{ userId: 'usr_a', amount: 100_000 }],
        shares: [
          { userId: 'usr_a', owed: 33_334 },
          { userId: 'usr_b', owed: 33_333 },
          { userId: 'usr_c', owed: 33_333 },
        ],
      }),
    ).toEqual([
      { currency: 'INR', userId: 'usr_a', delta: 66_666 },
      { currency: 'INR', userId: 'usr_b', delta: -33_333 },
      { currency: 'INR', userId: 'usr_c', delta: -33_333 },
    ]);
  });

  it('merges what a user paid and owes into one entry, sorted by userId', () => {
    expect(
      expenseBalanceEffect({
        currency: 'USD',
        paidBy: [
          { userId: 'usr_b', amount: 60 },
          { userId: 'usr_a', amount: 40 },
        ],
        shares: [
          { userId: 'usr_b', owed: 50 },
          { userId: 'usr_a', owed: 50 },
        ],
      }),
    ).toEqual([
      { currency: 'USD', userId: 'usr_a', delta: -10 },
      { currency: 'USD', userId: 'usr_b', delta: 10 },
    ]);
  });

  it('drops users whose payment equals their share', () => {
    expect(
      expenseBalanceEffect({
        currency: 'INR',
        paidBy: [{ userId: 'usr_a', amount: 100 }],
        shares: [{ userId: 'usr_a', owed: 100 }],
      }),
    ).toEqual([]);
  });

  it('gives each user paid − owed, adding up to 0, with no zero or repeated entries', () => {
    fc.assert(
      fc.property(expenseArb, (expense) => {
        const effect = expenseBalanceEffect(expense);
        const expected = new Map<string, number>();
        for (const p of expense.paidBy) expected.set(p.userId, (expected.get(p.userId) ?? 0) + p.amount);
        for (const s of expense.shares) expected.set(s.userId, (expected.get(s.userId) ?? 0) - s.owed);
        for (const [userId, delta] of expected) if (delta === 0) expected.delete(userId);

        expect(effect.every((d) => d.currency === expense.currency && d.delta !== 0)).toBe(true);
        expect(new Map(effect.map((d) => [d.userId, d.delta]))).toEqual(expected);
        expect(effect).toHaveLength(expected.size);
        expect(effect.reduce((sum, d) => sum + d.delta, 0)).toBe(0);
        expect(effect.map((d) => d.userId)).toEqual([...expected.keys()].sort());
      }),
      { numRuns: 300 },
    );
  });
});
