import fc from 'fast-check';
import { allocateLargestRemainder } from './allocate-largest-remainder';
import { catchDomainError } from './catch-domain-error.test-support';
import { MAX_AMOUNT } from './max-amount';
import { normalizePayers } from './normalize-payers';
import type { Payer } from './types';

/** An amount and distinct payers with positive integer amounts adding up to it. */
const paidArb = fc
  .tuple(
    fc.integer({ min: 1, max: MAX_AMOUNT }),
    fc.uniqueArray(fc.integer({ min: 0, max: 1_000 }), { minLength: 1, maxLength: 8 }),
    fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 8, maxLength: 8 }),
  )
  .map(([amount, ids, weights]) => {
    const parts = allocateLargestRemainder(amount, weights.slice(0, ids.length));
    const payers: Payer[] = ids
      .map((id, index) => ({ userId: `usr_${id}`, amount: parts[index]! }))
      .filter((payer) => payer.amount > 0);
    return { amount, payers };
  });

describe('normalizePayers', () => {
  it('turns a single userId into one payer of the whole amount', () => {
    expect(normalizePayers(100_000, 'usr_a')).toEqual([{ userId: 'usr_a', amount: 100_000 }]);
  });

  it('keeps a list of payers that adds up to the amount, in the order given', () => {
    const paidBy = [
      { userId: 'usr_b', amount: 70 },
      { userId: 'usr_a', amount: 30 },
    ];
    expect(normalizePayers(100, paidBy)).toEqual(paidBy);
  });

  it('returns fresh objects without extra fields', () => {
    const paidBy = [{ userId: 'usr_a', amount: 100, note: 'x' } as Payer];
    const normalized = normalizePayers(100, paidBy);
    expect(normalized).toEqual([{ userId: 'usr_a', amount: 100 }]);
    expect(normalized[0]).not.toBe(paidBy[0]);
  });

  it('rejects payers that do not add up to the amount with split_mismatch', () => {
    const error = catchDomainError(() =>
      normalizePayers(100, [
        { userId: 'usr_a', amount: 70 },
        { userId: 'usr_b', amount: 31 },
      ]),
    );
    expect(error.code).toBe('split_mismatch');
    expect(error.errors).toEqual([{ path: 'paidBy', message: expect.stringContaining('101') }]);
  });

  it('rejects a payer listed twice with validation_failed', () => {
    const error = catchDomainError(() =>
      normalizePayers(100, [
        { userId: 'usr_a', amount: 50 },
        { userId: 'usr_a', amount: 50 },
      ]),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.errors.map((e) => e.path)).toEqual(['paidBy[1].userId']);
  });

  it.each<[string, number, unknown, string]>([
    ['an empty userId', 100, '', 'paidBy'],
    ['an empty list', 100, [], 'paidBy'],
    ['a value that is neither a string nor a list', 100, 42, 'paidBy'],
    ['a payer amount of 0', 100, [{ userId: 'usr_a', amount: 0 }], 'paidBy[0].amount'],
    ['a negative payer amount', 100, [{ userId: 'usr_a', amount: -100 }], 'paidBy[0].amount'],
    ['a fractional payer amount', 100, [{ userId: 'usr_a', amount: 99.5 }], 'paidBy[0].amount'],
    ['a payer without userId', 100, [{ amount: 100 }], 'paidBy[0].userId'],
    ['a payer that is not an object', 100, ['usr_a'], 'paidBy[0]'],
    ['an amount of 0', 0, 'usr_a', 'amount'],
    ['an amount over 1e12', MAX_AMOUNT + 1, 'usr_a', 'amount'],
  ])('rejects %s with validation_failed', (_name, amount, paidBy, path) => {
    const error = catchDomainError(() => normalizePayers(amount, paidBy as Payer[]));
    expect(error.code).toBe('validation_failed');
    expect(error.errors.map((e) => e.path)).toContain(path);
  });

  it('accepts any list of distinct positive payers adding up to the amount', () => {
    fc.assert(
      fc.property(paidArb, ({ amount, payers }) => {
        expect(normalizePayers(amount, payers)).toEqual(payers);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects any list whose total is off by some units with split_mismatch', () => {
    fc.assert(
      fc.property(paidArb, fc.integer({ min: -1_000, max: 1_000 }), ({ amount, payers }, off) => {
        const claimed = amount + off;
        fc.pre(off !== 0 && claimed >= 1 && claimed <= MAX_AMOUNT);
        expect(catchDomainError(() => normalizePayers(claimed, payers)).code).toBe('split_mismatch');
      }),
      { numRuns: 300 },
    );
  });
});
