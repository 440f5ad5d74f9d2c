import fc from 'fast-check';
import { catchDomainError } from './catch-domain-error.test-support';
import { computeShares } from './compute-shares';
import { MAX_AMOUNT } from './max-amount';
import { referenceLargestRemainder } from './reference-largest-remainder.test-support';
import type { SplitInput } from './types';

/** The splits with a `between` list (every type but `items`, tested in itemized-split.test.ts). */
type WeightedSplit = Exclude<SplitInput, { type: 'items' }>;

import { userIdsOf } from './user-ids-of';

const amountArb = fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: MAX_AMOUNT }));

/** Distinct participant ids, in random order (ids are not sorted, so listing order is what counts). */
const userIdsArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 15 })
  .map((ns) => ns.map((n) => `usr_${n}`));

/** `count` non-negative integers adding up to `total`, from random cut points. */
function partsOf(total: number, count: number): fc.Arbitrary<number[]> {
  return fc
    .array(fc.integer({ min: 0, max: total }), { minLength: count - 1, maxLength: count - 1 })
    .map((cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b), total];
      return points.slice(1).map((point, index) => point - points[index]!);
    });
}

const equalArb = userIdsArb.map((between): WeightedSplit => ({ type: 'equal', between }));
const sharesArb = userIdsArb.chain((ids) =>
  fc
    .array(fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })), {
      minLength: ids.length,
      maxLength: ids.length,
    })
    .map(
      (weights): WeightedSplit => ({
        type: 'shares',
        between: ids.map((userId, index) => ({ userId, shares: weights[index]! })),
      }),
    ),
);
const percentArb = userIdsArb.chain((ids) =>
  partsOf(10_000, ids.length).map(
    (basisPoints): WeightedSplit => ({
      type: 'percent',
      between: ids.map((userId, index) => ({ userId, percent: basisPoints[index]! / 100 })),
    }),
  ),
);
const splitArb = fc.oneof(equalArb, sharesArb, percentArb);

/** The weights the API.md rules assign, computed independently of the implementation. */
function weightsOf(split: WeightedSplit): bigint[] {
  switch (split.type) {
    case 'equal':
      return split.between.map(() => 1n);
    case 'exact':
      return split.between.map((entry) => BigInt(entry.amount));
    case 'percent':
      return split.between.map((entry) => BigInt(Math.round(entry.percent * 100)));
    case 'shares':
      return split.between.map((entry) => BigInt(entry.shares));
  }
}

describe('computeShares', () => {
  describe('examples', () => {
    it('splits 100000 equally three ways as 33334, 33333, 33333', () => {
      expect(computeShares(100_000, { type: 'equal', between: ['usr_a', 'usr_b', 'usr_c'] })).toEqual([
        { userId: 'usr_a', owed: 33_334 },
        { userId: 'usr_b', owed: 33_333 },
        { userId: 'usr_c', owed: 33_333 },
      ]);
    });

    it('gives the tied extra unit to whoever is listed earlier, not to the smaller userId', () => {
      expect(computeShares(100, { type: 'equal', between: ['usr_c', 'usr_b', 'usr_a'] })).toEqual([
        { userId: 'usr_c', owed: 34 },
        { userId: 'usr_b', owed: 33 },
        { userId: 'usr_a', owed: 33 },
      ]);
      expect(
        computeShares(2, { type: 'equal', between: ['usr_z', 'usr_y', 'usr_x'] }).map((s) => s.owed),
      ).toEqual([1, 1, 0]);
    });

    it('splits 100 as 33.33 / 33.33 / 33.34 percent into 33, 33, 34', () => {
      const split: SplitInput = {
        type: 'percent',
        between: [
          { userId: 'usr_a', percent: 33.33 },
          { userId: 'usr_b', percent: 33.33 },
          { userId: 'usr_c', percent: 33.34 },
        ],
      };
      expect(computeShares(100, split).map((s) => s.owed)).toEqual([33, 33, 34]);
      expect(computeShares(100_000, split).map((s) => s.owed)).toEqual([33_330, 33_330, 33_340]);
    });

    it('accepts percents whose binary float form is inexact', () => {
      const split: SplitInput = {
        type: 'percent',
        between: [
          { userId: 'usr_a', percent: 10.1 },
          { userId: 'usr_b', percent: 20.2 },
          { userId: 'usr_c', percent: 69.7 },
        ],
      };
      expect(computeShares(1_000, split).map((s) => s.owed)).toEqual([101, 202, 697]);
    });

    it('allows a percent of 0', () => {
      const split: SplitInput = {
        type: 'percent',
        between: [
          { userId: 'usr_a', percent: 0 },
          { userId: 'usr_b', percent: 100 },
        ],
      };
      expect(computeShares(999, split).map((s) => s.owed)).toEqual([0, 999]);
    });

    it('splits by shares 1:2:3 with the leftover unit on the largest remainder', () => {
      const split: SplitInput = {
        type: 'shares',
        between: [
          { userId: 'usr_a', shares: 1 },
          { userId: 'usr_b', shares: 2 },
          { userId: 'usr_c', shares: 3 },
        ],
      };
      // 16.67, 33.33, 50: the one unit left goes to the .67.
      expect(computeShares(100, split).map((s) => s.owed)).toEqual([17, 33, 50]);
      expect(computeShares(600, split).map((s) => s.owed)).toEqual([100, 200, 300]);
    });

    it('returns exact amounts as given, including 0', () => {
      const split: SplitInput = {
        type: 'exact',
        between: [
          { userId: 'usr_a', amount: 70 },
          { userId: 'usr_b', amount: 0 },
          { userId: 'usr_c', amount: 30 },
        ],
      };
      expect(computeShares(100, split)).toEqual([
        { userId: 'usr_a', owed: 70 },
        { userId: 'usr_b', owed: 0 },
        { userId: 'usr_c', owed: 30 },
      ]);
    });

    it('is exact for an amount of 1e12 with share weights near 2^53', () => {
      const split: SplitInput = {
        type: 'shares',
        between: [
          { userId: 'usr_a', shares: 2_284_358_330_869_264 },
          { userId: 'usr_b', shares: 2_696_831_087_617_985 },
          { userId: 'usr_c', shares: 2_439_162_596_485_372 },
        ],
      };
      expect(computeShares(MAX_AMOUNT, split).map((s) => s.owed)).toEqual([
        307_850_399_315, 363_437_082_523, 328_712_518_162,
      ]);
    });

    it('splits the largest amount across the largest safe share weights exactly', () => {
      const split: SplitInput = {
        type: 'shares',
        between: [
          { userId: 'usr_a', shares: Number.MAX_SAFE_INTEGER },
          { userId: 'usr_b', shares: Number.MAX_SAFE_INTEGER - 1 },
          { userId: 'usr_c', shares: 3 },
        ],
      };
      // totalWeight = 2^54, so the exact parts are 500000000000 − ε, 500000000000 − 2ε and 3ε for
      // ε = 1e12 / 2^54 ≈ 0.000055: floors 499999999999, 499999999999, 0 and two units left over.
      expect(computeShares(MAX_AMOUNT, split).map((s) => s.owed)).toEqual([
        500_000_000_000, 500_000_000_000, 0,
      ]);
    });
  });

  describe('errors', () => {
    it('rejects exact amounts that do not add up to the amount with split_mismatch', () => {
      const error = catchDomainError(() =>
        computeShares(100, {
          type: 'exact',
          between: [
            { userId: 'usr_a', amount: 60 },
            { userId: 'usr_b', amount: 39 },
          ],
        }),
      );
      expect(error.code).toBe('split_mismatch');
      expect(error.errors).toEqual([{ path: 'split.between', message: expect.stringContaining('99') }]);
    });

    it.each([
      ['99.99', [33.33, 33.33, 33.33]],
      ['100.01', [33.33, 33.34, 33.34]],
    ])('rejects percents adding up to %s with split_mismatch', (_sum, percents) => {
      const error = catchDomainError(() =>
        computeShares(100, {
          type: 'percent',
          between: percents.map((percent, index) => ({ userId: `usr_${index}`, percent })),
        }),
      );
      expect(error.code).toBe('split_mismatch');
      expect(error.message).toContain(_sum);
    });

    it('rejects a percent with 3 decimals with validation_failed', () => {
      const error = catchDomainError(() =>
        computeShares(100, {
          type: 'percent',
          between: [
            { userId: 'usr_a', percent: 33.333 },
            { userId: 'usr_b', percent: 66.667 },
          ],
        }),
      );
      expect(error.code).toBe('validation_failed');
      expect(error.errors.map((e) => e.path)).toEqual([
        'split.between[0].percent',
        'split.between[1].percent',
      ]);
    });

    it('rejects a negative percent with validation_failed even when the sum is 100', () => {
      const error = catchDomainError(() =>
        computeShares(100, {
          type: 'percent',
          between: [
            { userId: 'usr_a', percent: -10 },
            { userId: 'usr_b', percent: 110 },
          ],
        }),
      );
      expect(error.code).toBe('validation_failed');
      expect(error.errors).toEqual([{ path: 'split.between[0].percent', message: expect.any(String) }]);
    });

    it('rejects a participant listed twice with validation_failed', () => {
      const equal = catchDomainError(() =>
        computeShares(100, { type: 'equal', between: ['usr_a', 'usr_b', 'usr_a'] }),
      );
      expect(equal.code).toBe('validation_failed');
      expect(equal.errors).toEqual([{ path: 'split.between[2]', message: expect.stringContaining('usr_a') }]);

      const shares = catchDomainError(() =>
        computeShares(100, {
          type: 'shares',
          between: [
            { userId: 'usr_a', shares: 1 },
            { userId: 'usr_a', shares: 1 },
          ],
        }),
      );
      expect(shares.code).toBe('validation_failed');
      expect(shares.errors.map((e) => e.path)).toEqual(['split.between[1].userId']);
    });

    it('reports a duplicate in an exact split as validation_failed rather than split_mismatch', () => {
      const error = catchDomainError(() =>
        computeShares(100, {
          type: 'exact',
          between: [
            { userId: 'usr_a', amount: 100 },
            { userId: 'usr_a', amount: 100 },
          ],
        }),
      );
      expect(error.code).toBe('validation_failed');
    });

    it.each<[string, number, unknown]>([
      ['an empty between', 100, { type: 'equal', between: [] }],
      ['a missing between', 100, { type: 'equal' }],
      ['an unknown type', 100, { type: 'halves', between: ['usr_a'] }],
      ['a split that is not an object', 100, null],
      ['an empty userId', 100, { type: 'equal', between: [''] }],
      ['a non-string participant', 100, { type: 'equal', between: [7] }],
      ['an entry that is not an object', 100, { type: 'shares', between: ['usr_a'] }],
      ['a share weight of 0', 100, { type: 'shares', between: [{ userId: 'usr_a', shares: 0 }] }],
      ['a fractional share weight', 100, { type: 'shares', between: [{ userId: 'usr_a', shares: 1.5 }] }],
      ['a negative exact amount', 100, { type: 'exact', between: [{ userId: 'usr_a', amount: -1 }] }],
      ['a fractional exact amount', 100, { type: 'exact', between: [{ userId: 'usr_a', amount: 99.5 }] }],
      ['a non-finite percent', 100, { type: 'percent', between: [{ userId: 'usr_a', percent: Number.NaN }] }],
      ['an amount of 0', 0, { type: 'equal', between: ['usr_a'] }],
      ['a negative amount under -1e12', -MAX_AMOUNT - 1, { type: 'equal', between: ['usr_a'] }],
      [
        'a positive exact part of a negative amount',
        -5,
        { type: 'exact', between: [{ userId: 'usr_a', amount: 5 }] },
      ],
      ['an itemized negative amount', -5, { type: 'items', items: [{ amount: 5, between: ['usr_a'] }] }],
      ['a fractional amount', 10.5, { type: 'equal', between: ['usr_a'] }],
      ['an amount over 1e12', MAX_AMOUNT + 1, { type: 'equal', between: ['usr_a'] }],
    ])('rejects %s with validation_failed', (_name, amount, split) => {
      const error = catchDomainError(() => computeShares(amount, split as SplitInput));
      expect(error.code).toBe('validation_failed');
      expect(error.errors.length).toBeGreaterThan(0);
    });

    it('splits a negative amount (income, a reimbursement) as its opposite, every share negated', () => {
      expect(computeShares(-100000, { type: 'equal', between: ['usr_a', 'usr_b', 'usr_c'] })).toEqual([
        { userId: 'usr_a', owed: -33334 },
        { userId: 'usr_b', owed: -33333 },
        { userId: 'usr_c', owed: -33333 },
      ]);
      const exact = computeShares(-10, {
        type: 'exact',
        between: [
          { userId: 'usr_a', amount: -10 },
          { userId: 'usr_b', amount: 0 },
        ],
      });
      expect(exact).toEqual([
        { userId: 'usr_a', owed: -10 },
        { userId: 'usr_b', owed: 0 },
      ]);
      expect(Object.is(exact[1]!.owed, 0)).toBe(true);
      const mismatch = catchDomainError(() =>
        computeShares(-10, { type: 'exact', between: [{ userId: 'usr_a', amount: -9 }] }),
      );
      expect(mismatch.code).toBe('split_mismatch');
    });

    it('reports every invalid field at once', () => {
      const error = catchDomainError(() =>
        computeShares(0, {
          type: 'shares',
          between: [
            { userId: 'usr_a', shares: 0 },
            { userId: 'usr_b', shares: 2 },
            { userId: 'usr_b', shares: -1 },
          ],
        }),
      );
      expect(error.errors.map((e) => e.path)).toEqual([
        'amount',
        'split.between[0].shares',
        'split.between[2].userId',
        'split.between[2].shares',
      ]);
    });

    it('accepts the largest allowed amount', () => {
      expect(computeShares(MAX_AMOUNT, { type: 'equal', between: ['usr_a'] })).toEqual([
        { userId: 'usr_a', owed: MAX_AMOUNT },
      ]);
    });
  });

  describe('properties', () => {
    it('owes amounts that add up exactly, each its floor or one more, extras by the reference rule', () => {
      fc.assert(
        fc.property(amountArb, splitArb, (amount, split) => {
          const shares = computeShares(amount, split);
          const weights = weightsOf(split);
          const total = weights.reduce((sum, weight) => sum + weight, 0n);
          const big = BigInt(amount);

          expect(shares.map((s) => s.userId)).toEqual(userIdsOf(split));
          expect(shares.reduce((sum, s) => sum + BigInt(s.owed), 0n)).toBe(big);
          shares.forEach((share, index) => {
            const floor = (big * weights[index]!) / total;
            expect([floor, floor + 1n]).toContain(BigInt(share.owed));
          });
          expect(shares.map((s) => BigInt(s.owed))).toEqual(referenceLargestRemainder(big, weights));
        }),
        { numRuns: 600 },
      );
    });

    it('returns exact splits unchanged', () => {
      const exactArb = amountArb.chain((amount) =>
        userIdsArb.chain((ids) =>
          partsOf(amount, ids.length).map((parts) => ({
            amount,
            split: {
              type: 'exact' as const,
              between: ids.map((userId, index) => ({ userId, amount: parts[index]! })),
            },
          })),
        ),
      );
      fc.assert(
        fc.property(exactArb, ({ amount, split }) => {
          expect(computeShares(amount, split)).toEqual(
            split.between.map((entry) => ({ userId: entry.userId, owed: entry.amount })),
          );
        }),
        { numRuns: 300 },
      );
    });

    it('rejects any split that lists a participant twice', () => {
      const duplicatedArb = splitArb.chain((split) =>
        fc
          .tuple(fc.nat({ max: split.between.length - 1 }), fc.nat({ max: split.between.length }))
          .map(([from, to]): SplitInput => {
            const between: unknown[] = [...split.between];
            between.splice(to, 0, between[from]);
            return { ...split, between } as SplitInput;
          }),
      );
      fc.assert(
        fc.property(amountArb, duplicatedArb, (amount, split) => {
          expect(catchDomainError(() => computeShares(amount, split)).code).toBe('validation_failed');
        }),
        { numRuns: 300 },
      );
    });
  });
});
