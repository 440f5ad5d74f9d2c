import fc from 'fast-check';
import { catchDomainError } from './catch-domain-error.test-support';
import { computeShares } from './compute-shares';
import type { ItemsSplit } from './types';

const USERS = ['usr_a', 'usr_b', 'usr_c', 'usr_d', 'usr_e'];

/** Each participant's exact share as a fraction `num / den`, by the rule of API.md §4, in BigInt rationals. */
function exactShares(amount: number, split: ItemsSplit): Map<string, { num: bigint; den: bigint }> {
  const itemsTotal = split.items.reduce((sum, item) => sum + BigInt(item.amount), 0n);
  const shares = new Map<string, { num: bigint; den: bigint }>();
  for (const item of split.items) {
    const entries = item.between.map((e) => (typeof e === 'string' ? { userId: e, shares: 1 } : e));
    const total = entries.reduce((sum, e) => sum + BigInt(e.shares), 0n);
    for (const e of entries) {
      // amount × item.amount × shares / (total × itemsTotal), added to what the user has.
      const num = BigInt(amount) * BigInt(item.amount) * BigInt(e.shares);
      const den = total * itemsTotal;
      const known = shares.get(e.userId) ?? { num: 0n, den: 1n };
      shares.set(e.userId, { num: known.num * den + num * known.den, den: known.den * den });
    }
  }
  return shares;
}

const entryArb = fc.oneof(
  fc.constant<'equal'>('equal'),
  fc.integer({ min: 1, max: 1_000_000 }).map((shares) => ({ shares })),
);

/** Receipts of 1–40 items over a few users: zero-amount items, and tax and tip up to 10× the items. */
const receiptArb = fc
  .record({
    items: fc.array(
      fc.record({
        amount: fc.oneof(
          fc.constant(0),
          fc.integer({ min: 1, max: 100_000 }),
          fc.integer({ min: 1, max: 1e9 }),
        ),
        people: fc.subarray(USERS, { minLength: 1 }),
        weight: entryArb,
      }),
      { minLength: 1, maxLength: 40 },
    ),
    tax: fc.integer({ min: 0, max: 50_000 }),
    tipFactor: fc.integer({ min: 0, max: 10 }),
    everywhere: fc.boolean(),
  })
  .filter(({ items }) => items.some((item) => item.amount > 0))
  .map(({ items, tax, tipFactor, everywhere }) => {
    const itemsTotal = items.reduce((sum, item) => sum + item.amount, 0);
    const split: ItemsSplit = {
      type: 'items',
      items: items.map(({ amount, people, weight }) => {
        // `everywhere`: usr_a shares every item (one member in all of them).
        const names = everywhere && !people.includes('usr_a') ? ['usr_a', ...people] : people;
        return {
          amount,
          between: names.map((userId, i) =>
            weight === 'equal' ? userId : { userId, shares: weight.shares + i },
          ),
        };
      }),
      ...(tax > 0 ? { tax } : {}),
      ...(tipFactor > 0 ? { tip: itemsTotal * tipFactor } : {}),
    };
    return { amount: itemsTotal + tax + itemsTotal * tipFactor, split };
  });

describe('computeShares of an itemized receipt (type: "items")', () => {
  it('spreads tax and tip over the items in proportion, with one rounding', () => {
    // Pizza 1200 for a and b, wine 800 by shares a:1 c:3; tax 200 and tip 300 on 2000 of items.
    const split: ItemsSplit = {
      type: 'items',
      items: [
        { description: 'Pizza', amount: 1200, between: ['usr_a', 'usr_b'] },
        {
          description: 'Wine',
          amount: 800,
          between: [
            { userId: 'usr_a', shares: 1 },
            { userId: 'usr_c', shares: 3 },
          ],
        },
      ],
      tax: 200,
      tip: 300,
    };
    // Before tax and tip: a 600 + 200 = 800, b 600, c 600; all × 2500/2000.
    expect(computeShares(2500, split)).toEqual([
      { userId: 'usr_a', owed: 1000 },
      { userId: 'usr_b', owed: 750 },
      { userId: 'usr_c', owed: 750 },
    ]);
  });

  it('hands out the leftover units once, by largest remainder, over the whole receipt', () => {
    const split: ItemsSplit = {
      type: 'items',
      items: [
        { amount: 100, between: ['usr_a', 'usr_b', 'usr_c'] },
        { amount: 1, between: ['usr_b', 'usr_c'] },
      ],
      tip: 10,
    };
    const shares = computeShares(111, split);
    expect(shares.reduce((sum, s) => sum + s.owed, 0)).toBe(111);
    // Exact: a 36.63…, b 37.18…, c 37.18…: floors 36, 37, 37 leave 1 unit, to the largest
    // remainder (a's .63), not per item (where rounding each item would have given b and c more).
    expect(shares).toEqual([
      { userId: 'usr_a', owed: 37 },
      { userId: 'usr_b', owed: 37 },
      { userId: 'usr_c', owed: 37 },
    ]);
  });

  it('adds up to the amount, and nobody is more than one unit from the exact share', () => {
    fc.assert(
      fc.property(receiptArb, ({ amount, split }) => {
        const shares = computeShares(amount, split);
        expect(shares.reduce((sum, s) => sum + s.owed, 0)).toBe(amount);
        const exact = exactShares(amount, split);
        expect(shares.map((s) => s.userId)).toEqual([...exact.keys()]);
        for (const { userId, owed } of shares) {
          const { num, den } = exact.get(userId) as { num: bigint; den: bigint };
          const diff = BigInt(owed) * den - num;
          expect(diff < den && diff > -den).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses items, tax and tip that do not add up to the amount (split_mismatch)', () => {
    const error = catchDomainError(() =>
      computeShares(1000, { type: 'items', items: [{ amount: 900, between: ['usr_a'] }], tax: 50 }),
    );
    expect(error.code).toBe('split_mismatch');
    expect(error.errors[0]?.path).toBe('split.items');
  });

  it('refuses what cannot be divided: no items, only zero items, a person twice in an item, a bad share', () => {
    const cases: [unknown, string][] = [
      [{ type: 'items', items: [] }, 'split.items'],
      [{ type: 'items', items: [{ amount: 0, between: ['usr_a'] }], tip: 10 }, 'split.items'],
      [{ type: 'items', items: [{ amount: 10, between: ['usr_a', 'usr_a'] }] }, 'split.items[0].between[1]'],
      [
        { type: 'items', items: [{ amount: 10, between: [{ userId: 'usr_a', shares: 0 }] }] },
        'split.items[0].between[0].shares',
      ],
      [{ type: 'items', items: [{ amount: -1, between: ['usr_a'] }] }, 'split.items[0].amount'],
      [{ type: 'items', items: [{ amount: 10, between: [] }] }, 'split.items[0].between'],
      [{ type: 'items', items: [{ amount: 10, between: ['usr_a'] }], tip: 1.5 }, 'split.tip'],
      [{ type: 'items', items: Array(101).fill({ amount: 1, between: ['usr_a'] }) }, 'split.items'],
    ];
    for (const [split, path] of cases) {
      const error = catchDomainError(() => computeShares(10, split as ItemsSplit));
      expect([path, error.code]).toEqual([path, 'validation_failed']);
      expect(error.errors.map((e) => e.path)).toContain(path);
    }
  });
});
