import fc from 'fast-check';
import { allocateLargestRemainder } from './allocate-largest-remainder';
import { MAX_AMOUNT } from './max-amount';
import { referenceLargestRemainder } from './reference-largest-remainder.test-support';

const weightArb = fc.oneof(
  fc.integer({ min: 0, max: 10 }),
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
);
const weightsArb = fc
  .array(weightArb, { minLength: 1, maxLength: 20 })
  .filter((weights) => weights.some((weight) => weight > 0));
const amountArb = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: MAX_AMOUNT }));

describe('allocateLargestRemainder', () => {
  it('splits 100000 three ways as 33334, 33333, 33333', () => {
    expect(allocateLargestRemainder(100_000, [1, 1, 1])).toEqual([33_334, 33_333, 33_333]);
  });

  it('gives tied leftover units to the weights listed first', () => {
    expect(allocateLargestRemainder(5, [1, 1, 1])).toEqual([2, 2, 1]);
    expect(allocateLargestRemainder(1, [4, 4])).toEqual([1, 0]);
  });

  it('gives leftover units to the largest remainders even when they are listed later', () => {
    // 7 × [3,1,1] / 5 = 4.2, 1.4, 1.4: the .4 remainders beat the earlier-listed .2.
    expect(allocateLargestRemainder(7, [3, 1, 1])).toEqual([4, 2, 1]);
    // 7 × [1,1,3] / 5 = 1.4, 1.4, 4.2: one unit left, the tie between the .4s goes to the first.
    expect(allocateLargestRemainder(7, [1, 1, 3])).toEqual([2, 1, 4]);
  });

  it('gives nothing to a zero weight and everything to the only positive one', () => {
    expect(allocateLargestRemainder(10, [0, 1, 0])).toEqual([0, 10, 0]);
  });

  it('allocates an amount of 0 as all zeros', () => {
    expect(allocateLargestRemainder(0, [1, 2])).toEqual([0, 0]);
  });

  it('accepts bigint weights beyond the safe integer range', () => {
    const huge = 2n ** 80n;
    expect(allocateLargestRemainder(3, [huge, huge, huge])).toEqual([1, 1, 1]);
    expect(allocateLargestRemainder(10, [huge, 1n])).toEqual([10, 0]);
  });

  it('is exact for an amount of 1e12 with weights near 2^53, where float arithmetic picks the wrong unit', () => {
    // The 2nd and 3rd remainders differ by about 2e-5 of a unit, below float resolution at ~3e11;
    // naive float code answers [307850399315, 363437082524, 328712518161].
    const weights = [2_284_358_330_869_264, 2_696_831_087_617_985, 2_439_162_596_485_372];
    expect(allocateLargestRemainder(MAX_AMOUNT, weights)).toEqual([
      307_850_399_315, 363_437_082_523, 328_712_518_162,
    ]);
  });

  it.each([
    ['a negative amount', -1, [1]],
    ['a fractional amount', 1.5, [1]],
    ['an unsafe amount', 2 ** 53, [1]],
    ['a negative weight', 10, [1, -1]],
    ['a negative bigint weight', 10, [1n, -1n]],
    ['a fractional weight', 10, [1, 0.5]],
    ['weights that are all 0', 10, [0, 0]],
    ['no weights', 10, []],
  ] as const)('throws a RangeError for %s', (_name, amount, weights) => {
    expect(() => allocateLargestRemainder(amount, weights)).toThrow(RangeError);
  });

  it('matches the reference allocation for random amounts and weights', () => {
    fc.assert(
      fc.property(amountArb, weightsArb, (amount, weights) => {
        const expected = referenceLargestRemainder(BigInt(amount), weights.map(BigInt)).map(Number);
        expect(allocateLargestRemainder(amount, weights)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('adds up to the amount, with each part its floor or one more, the extras on the largest remainders', () => {
    fc.assert(
      fc.property(amountArb, weightsArb, (amount, weights) => {
        const parts = allocateLargestRemainder(amount, weights);
        const big = BigInt(amount);
        const total = weights.reduce((sum, weight) => sum + BigInt(weight), 0n);
        const floors = weights.map((weight) => (big * BigInt(weight)) / total);
        const remainders = weights.map((weight) => (big * BigInt(weight)) % total);

        expect(parts).toHaveLength(weights.length);
        expect(parts.reduce((sum, part) => sum + BigInt(part), 0n)).toBe(big);
        const extras = parts.map((part, index) => BigInt(part) - floors[index]!);
        for (const extra of extras) expect([0n, 1n]).toContain(extra);
        // Every part that got an extra unit outranks every part that did not: a larger remainder,
        // or an equal remainder and an earlier place in the list.
        extras.forEach((extra, i) => {
          if (extra !== 1n) return;
          expect(remainders[i]).toBeGreaterThan(0n);
          extras.forEach((other, j) => {
            if (other !== 0n) return;
            const outranks = remainders[i]! > remainders[j]! || (remainders[i] === remainders[j] && i < j);
            expect(outranks).toBe(true);
          });
        });
      }),
      { numRuns: 500 },
    );
  });
});
