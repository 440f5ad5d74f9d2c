export { allocateLargestRemainder } from './allocate-largest-remainder';
export { computeShares } from './compute-shares';
export { diffBalanceEffects } from './diff-balance-effects';
export { DomainError, type DomainErrorCode, type FieldError } from './domain-error';
export { expenseBalanceEffect } from './expense-balance-effect';
export { MAX_AMOUNT } from './max-amount';
export { normalizePayers } from './normalize-payers';
export { recomputeNets } from './recompute-nets';
export {
  daysInMonth,
  firstOccurrenceAfter,
  isTimeZone,
  isWithin,
  type LocalDate,
  localDateAt,
  type OccurrenceSplit,
  occurrenceDate,
  parseLocalDate,
  RECURRENCE_EVERY,
  type RecurrenceEvery,
  splitAmongMembers,
  startOfLocalDay,
} from './recurrence';
export { settlementBalanceEffect } from './settlement-balance-effect';
export { simplifyDebts } from './simplify-debts';
export type { BalanceDelta, MemberNet, Payer, Share, SplitInput, Transfer } from './types';
export { userIdsOf } from './user-ids-of';
