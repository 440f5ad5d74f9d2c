import fc from 'fast-check';
import { allocateLargestRemainder } from './allocate-largest-remainder';
import { computeShares } from './compute-shares';
import { MAX_AMOUNT } from './max-amount';
import { normalizePayers } from './normalize-payers';
import type { Payer, Share, SplitInput } from './types';

const USERS = ['usr_a', 'usr_b', 'usr_c', 'usr_d', 'usr_e'];
const CURRENCIES = ['INR', 'USD', 'JPY'];

export type ExpenseRecord = { currency: string; paidBy: Payer[]; shares: Share[] };
export type SettlementRecord = { currency: string; fromUserId: string; toUserId: string; amount: number };

const amountArb = fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: MAX_AMOUNT }));
const weightsArb = fc.array(fc.integer({ min: 1, max: 100 }), {
  minLength: USERS.length,
  maxLength: USERS.length,
});

function splitOf(type: SplitInput['type'], amount: number, ids: string[], weights: number[]): SplitInput {
  switch (type) {
    case 'equal':
      return { type, between: ids };
    case 'shares':
      return { type, between: ids.map((userId, index) => ({ userId, shares: weights[index]! })) };
    case 'exact': {
      const parts = allocateLargestRemainder(amount, weights.slice(0, ids.length));
      return { type, between: ids.map((userId, index) => ({ userId, amount: parts[index]! })) };
    }
    case 'percent': {
      const basisPoints = allocateLargestRemainder(10_000, weights.slice(0, ids.length));
      return { type, between: ids.map((userId, index) => ({ userId, percent: basisPoints[index]! / 100 })) };
    }
    case 'items': {
      // An item per participant, shared with the first one; a tenth of the amount is the tip.
      const tip = amount > 10 ? Math.floor(amount / 10) : 0;
      const parts = allocateLargestRemainder(amount - tip, weights.slice(0, ids.length));
      const items = ids.map((userId, index) => ({
        amount: parts[index]!,
        between: index === 0 ? [userId] : [userId, ids[0]!],
      }));
      return { type, items, ...(tip > 0 ? { tip } : {}) };
    }
  }
}

/**
 * Valid live expenses over a small pool of users and currencies (so records overlap), of every
 * split type, with one or several payers: the data the balance functions are fed in production.
 */
export const expenseArb: fc.Arbitrary<ExpenseRecord> = fc
  .record({
    currency: fc.constantFrom(...CURRENCIES),
    amount: amountArb,
    payerIds: fc.shuffledSubarray(USERS, { minLength: 1 }),
    payerWeights: weightsArb,
    participantIds: fc.shuffledSubarray(USERS, { minLength: 1 }),
    splitType: fc.constantFrom<SplitInput['type']>('equal', 'exact', 'percent', 'shares', 'items'),
    splitWeights: weightsArb,
  })
  .map(({ currency, amount, payerIds, payerWeights, participantIds, splitType, splitWeights }) => {
    const paid = allocateLargestRemainder(amount, payerWeights.slice(0, payerIds.length));
    const payers = payerIds
      .map((userId, index) => ({ userId, amount: paid[index]! }))
      .filter((payer) => payer.amount > 0);
    return {
      currency,
      paidBy: normalizePayers(amount, payers.length === 1 ? payers[0]!.userId : payers),
      shares: computeShares(amount, splitOf(splitType, amount, participantIds, splitWeights)),
    };
  });

/** Settlements between two different users of the same pool. */
export const settlementArb: fc.Arbitrary<SettlementRecord> = fc
  .record({
    currency: fc.constantFrom(...CURRENCIES),
    parties: fc.shuffledSubarray(USERS, { minLength: 2, maxLength: 2 }),
    amount: amountArb,
  })
  .map(({ currency, parties, amount }) => ({
    currency,
    fromUserId: parties[0]!,
    toUserId: parties[1]!,
    amount,
  }));
