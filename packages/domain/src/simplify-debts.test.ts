import fc from 'fast-check';
import { simplifyDebts } from './simplify-debts';
import type { MemberNet } from './types';

/** Distinct users with nets adding up to 0: random nets, the last user balancing the rest. */
const netsArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 1_000 }), { minLength: 1, maxLength: 25 })
  .chain((ids) =>
    fc
      .array(
        fc.oneof(
          fc.constant(0),
          fc.integer({ min: -5, max: 5 }),
          fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
        ),
        { minLength: ids.length - 1, maxLength: ids.length - 1 },
      )
      .map((values): MemberNet[] => {
        const balancing = -values.reduce((sum, value) => sum + value, 0);
        return [...values, balancing].map((net, index) => ({ userId: `usr_${ids[index]}`, net: net + 0 }));
      }),
  );

describe('simplifyDebts', () => {
  it('pays the one creditor from each debtor, tied debtors in userId order', () => {
    expect(
      simplifyDebts([
        { userId: 'usr_a', net: 66_666 },
        { userId: 'usr_c', net: -33_333 },
        { userId: 'usr_b', net: -33_333 },
      ]),
    ).toEqual([
      { from: 'usr_b', to: 'usr_a', amount: 33_333 },
      { from: 'usr_c', to: 'usr_a', amount: 33_333 },
    ]);
  });

  it('matches the largest debtor with the largest creditor at every step', () => {
    expect(
      simplifyDebts([
        { userId: 'usr_a', net: 10 },
        { userId: 'usr_b', net: 5 },
        { userId: 'usr_c', net: -8 },
        { userId: 'usr_d', net: -7 },
      ]),
    ).toEqual([
      { from: 'usr_c', to: 'usr_a', amount: 8 },
      { from: 'usr_d', to: 'usr_b', amount: 5 },
      { from: 'usr_d', to: 'usr_a', amount: 2 },
    ]);
  });

  it('breaks ties between creditors by userId in code-unit order', () => {
    expect(
      simplifyDebts([
        { userId: 'usr_b', net: 5 },
        { userId: 'usr_B', net: 5 },
        { userId: 'usr_x', net: -10 },
      ]),
    ).toEqual([
      { from: 'usr_x', to: 'usr_B', amount: 5 },
      { from: 'usr_x', to: 'usr_b', amount: 5 },
    ]);
  });

  it('proposes nothing when everyone is settled', () => {
    expect(simplifyDebts([])).toEqual([]);
    expect(
      simplifyDebts([
        { userId: 'usr_a', net: 0 },
        { userId: 'usr_b', net: 0 },
      ]),
    ).toEqual([]);
  });

  it.each<[string, MemberNet[]]>([
    [
      'nets that do not add up to 0',
      [
        { userId: 'usr_a', net: 5 },
        { userId: 'usr_b', net: -4 },
      ],
    ],
    [
      'a user listed twice',
      [
        { userId: 'usr_a', net: 5 },
        { userId: 'usr_a', net: -5 },
      ],
    ],
    [
      'a fractional net',
      [
        { userId: 'usr_a', net: 0.5 },
        { userId: 'usr_b', net: -0.5 },
      ],
    ],
  ])('throws a RangeError for %s', (_name, nets) => {
    expect(() => simplifyDebts(nets)).toThrow(RangeError);
  });

  it('settles every net exactly with positive transfers from debtors to creditors', () => {
    fc.assert(
      fc.property(netsArb, (nets) => {
        const transfers = simplifyDebts(nets);
        const original = new Map(nets.map(({ userId, net }) => [userId, net]));
        const remaining = new Map(original);
        for (const { from, to, amount } of transfers) {
          expect(Number.isSafeInteger(amount) && amount > 0).toBe(true);
          expect(original.get(from)).toBeLessThan(0);
          expect(original.get(to)).toBeGreaterThan(0);
          remaining.set(from, remaining.get(from)! + amount);
          remaining.set(to, remaining.get(to)! - amount);
        }
        for (const net of remaining.values()) expect(net).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  it('needs at most one transfer fewer than there are non-zero nets', () => {
    fc.assert(
      fc.property(netsArb, (nets) => {
        const nonZero = nets.filter((n) => n.net !== 0).length;
        expect(simplifyDebts(nets).length).toBeLessThanOrEqual(Math.max(0, nonZero - 1));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same plan whatever order the nets come in', () => {
    fc.assert(
      fc.property(
        netsArb.chain((nets) =>
          fc.tuple(fc.constant(nets), fc.shuffledSubarray(nets, { minLength: nets.length })),
        ),
        ([nets, shuffled]) => {
          expect(simplifyDebts(shuffled)).toEqual(simplifyDebts(nets));
        },
      ),
      { numRuns: 300 },
    );
  });
});
