export { allocateLargestRemainder } from './allocate-largest-remainder';
export { computeShares } from './compute-shares';
export { type ConvertedBalances, type CurrencyNets, convertBalances } from './convert-balances';
export { diffBalanceEffects } from './diff-balance-effects';
export { DomainError, type DomainErrorCode, type FieldError } from './domain-error';
export { expenseBalanceEffect } from './expense-balance-effect';
export { MAX_ITEM_ENTRIES, MAX_ITEMS } from './itemized-split';
export { MAX_AMOUNT } from './max-amount';
export { CURRENCIES_WITH_MINOR_UNITS, minorUnitsOf } from './minor-units';
export { normalizePayers } from './normalize-payers';
export {
  diffPairEffects,
  expensePairEffect,
  type PairDelta,
  settlementPairEffect,
} from './pairwise-debts';
export { MAX_RATE_DIGITS, parseRate, type Rate } from './parse-rate';
export { recomputeNets } from './recompute-nets';
export {
  canonicalTimeZone,
  daysInMonth,
  firstOccurrenceAfter,
  isTimeZone,
  isWithin,
  type LocalDate,
  localDateAt,
  type OccurrenceSplit,
  occurrenceDate,
  occurrencesDue,
  parseLocalDate,
  RECURRENCE_EVERY,
  type RecurrenceEvery,
  splitAmongMembers,
  startOfLocalDay,
} from './recurrence';
export { expenseSearchText, normalizeSearchText, searchWordsOf } from './search-text';
export { settlementBalanceEffect } from './settlement-balance-effect';
export { simplifyDebts } from './simplify-debts';
export {
  clipCodePoints,
  codePointLength,
  hasLoneSurrogate,
  type TextKind,
  type TextProblem,
  textProblem,
} from './text';
export { isRealDate, isRealTimestamp, isStorableInstant } from './timestamps';
export type { BalanceDelta, MemberNet, Payer, Share, SplitInput, Transfer } from './types';
export { splitParties, userIdsOf } from './user-ids-of';
