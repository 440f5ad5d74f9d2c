import fc from 'fast-check';
import { diffBalanceEffects } from './diff-balance-effects';
import { expenseBalanceEffect } from './expense-balance-effect';
import {
  type ExpenseRecord,
  expenseArb,
  type SettlementRecord,
  settlementArb,
} from './money-arbitraries.test-support';
import { recomputeNets } from './recompute-nets';
import { settlementBalanceEffect } from './settlement-balance-effect';
import type { BalanceDelta } from './types';

/** The nets as `currency userId` → net with zero nets left out, the form stored balance rows can be compared in. */
function nonZero(nets: Map<string, Map<string, number>>): Map<string, number> {
  const flat = new Map<string, number>();
  for (const [currency, users] of nets) {
    for (const [userId, net] of users) if (net !== 0) flat.set(`${currency} ${userId}`, net);
  }
  return flat;
}

type Operation =
  | { kind: 'createExpense'; expense: ExpenseRecord }
  | { kind: 'editExpense'; pick: number; expense: ExpenseRecord }
  | { kind: 'deleteExpense'; pick: number }
  | { kind: 'restoreExpense'; pick: number }
  | { kind: 'createSettlement'; settlement: SettlementRecord }
  | { kind: 'deleteSettlement'; pick: number };

const pickArb = fc.nat({ max: 1_000 });
const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  expenseArb.map((expense) => ({ kind: 'createExpense' as const, expense })),
  fc.record({ kind: fc.constant('editExpense' as const), pick: pickArb, expense: expenseArb }),
  fc.record({ kind: fc.constant('deleteExpense' as const), pick: pickArb }),
  fc.record({ kind: fc.constant('restoreExpense' as const), pick: pickArb }),
  settlementArb.map((settlement) => ({ kind: 'createSettlement' as const, settlement })),
  fc.record({ kind: fc.constant('deleteSettlement' as const), pick: pickArb }),
);

describe('recomputeNets', () => {
  it('nets paid − owed + settlements paid − settlements received per currency', () => {
    const nets = recomputeNets(
      [
        {
          currency: 'INR',
          paidBy: [{ userId: 'usr_a', amount: 100_000 }],
          shares: [
            { userId: 'usr_a', owed: 33_334 },
            { userId: 'usr_b', owed: 33_333 },
            { userId: 'usr_c', owed: 33_333 },
          ],
        },
        {
          currency: 'USD',
          paidBy: [{ userId: 'usr_c', amount: 10 }],
          shares: [{ userId: 'usr_b', owed: 10 }],
        },
      ],
      [{ currency: 'INR', fromUserId: 'usr_b', toUserId: 'usr_a', amount: 33_333 }],
    );
    expect(nets).toEqual(
      new Map([
        [
          'INR',
          new Map([
            ['usr_a', 33_333],
            ['usr_b', 0],
            ['usr_c', -33_333],
          ]),
        ],
        [
          'USD',
          new Map([
            ['usr_b', -10],
            ['usr_c', 10],
          ]),
        ],
      ]),
    );
  });

  it('keeps zero nets of users who appear in a record and sorts currencies and users', () => {
    const nets = recomputeNets(
      [{ currency: 'USD', paidBy: [{ userId: 'usr_z', amount: 5 }], shares: [{ userId: 'usr_z', owed: 5 }] }],
      [{ currency: 'EUR', fromUserId: 'usr_y', toUserId: 'usr_x', amount: 1 }],
    );
    expect([...nets.keys()]).toEqual(['EUR', 'USD']);
    expect([...nets.get('EUR')!.keys()]).toEqual(['usr_x', 'usr_y']);
    expect(nets.get('USD')).toEqual(new Map([['usr_z', 0]]));
  });

  it('is empty when there are no live records', () => {
    expect(recomputeNets([], [])).toEqual(new Map());
  });

  it('nets of each currency add up to exactly 0', () => {
    fc.assert(
      fc.property(
        fc.array(expenseArb, { maxLength: 15 }),
        fc.array(settlementArb, { maxLength: 8 }),
        (expenses, settlements) => {
          for (const users of recomputeNets(expenses, settlements).values()) {
            expect([...users.values()].reduce((sum, net) => sum + net, 0)).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('equals the sum of the balance effects of every record', () => {
    fc.assert(
      fc.property(
        fc.array(expenseArb, { maxLength: 15 }),
        fc.array(settlementArb, { maxLength: 8 }),
        (expenses, settlements) => {
          const summed = new Map<string, number>();
          for (const d of [
            ...expenses.flatMap(expenseBalanceEffect),
            ...settlements.flatMap(settlementBalanceEffect),
          ]) {
            const key = `${d.currency} ${d.userId}`;
            summed.set(key, (summed.get(key) ?? 0) + d.delta);
          }
          for (const [key, total] of summed) if (total === 0) summed.delete(key);
          expect(nonZero(recomputeNets(expenses, settlements))).toEqual(summed);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches balances kept incrementally through creates, edits, deletes and restores', () => {
    fc.assert(
      fc.property(fc.array(operationArb, { maxLength: 30 }), (operations) => {
        const expenses: { record: ExpenseRecord; live: boolean }[] = [];
        const settlements: { record: SettlementRecord; live: boolean }[] = [];
        const stored = new Map<string, number>();
        const apply = (before: BalanceDelta[], after: BalanceDelta[]): void => {
          for (const { currency, userId, delta } of diffBalanceEffects(before, after)) {
            const key = `${currency} ${userId}`;
            const total = (stored.get(key) ?? 0) + delta;
            if (total === 0) stored.delete(key);
            else stored.set(key, total);
          }
        };
        const effectOf = (e: { record: ExpenseRecord; live: boolean }): BalanceDelta[] =>
          e.live ? expenseBalanceEffect(e.record) : [];

        for (const op of operations) {
          if (op.kind === 'createExpense') {
            expenses.push({ record: op.expense, live: true });
            apply([], expenseBalanceEffect(op.expense));
          } else if (op.kind === 'createSettlement') {
            settlements.push({ record: op.settlement, live: true });
            apply([], settlementBalanceEffect(op.settlement));
          } else if (op.kind === 'deleteSettlement') {
            const target = settlements[op.pick % Math.max(1, settlements.length)];
            if (target === undefined || !target.live) continue;
            target.live = false;
            apply(settlementBalanceEffect(target.record), []);
          } else {
            const target = expenses[op.pick % Math.max(1, expenses.length)];
            if (target === undefined) continue;
            const before = effectOf(target);
            if (op.kind === 'editExpense') target.record = op.expense;
            if (op.kind === 'deleteExpense') target.live = false;
            if (op.kind === 'restoreExpense') target.live = true;
            apply(before, effectOf(target));
          }
        }

        const recomputed = recomputeNets(
          expenses.filter((e) => e.live).map((e) => e.record),
          settlements.filter((s) => s.live).map((s) => s.record),
        );
        expect(nonZero(recomputed)).toEqual(stored);
      }),
      { numRuns: 300 },
    );
  });
});
