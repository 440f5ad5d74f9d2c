import {
  allocateLargestRemainder,
  computeShares,
  DomainError,
  diffBalanceEffects,
  expenseBalanceEffect,
  MAX_AMOUNT,
  normalizePayers,
  recomputeNets,
  settlementBalanceEffect,
  simplifyDebts,
  userIdsOf,
} from './index';

describe('@tally/domain entry point', () => {
  it('exports the money API the other packages are written against', () => {
    const functions = {
      allocateLargestRemainder,
      computeShares,
      diffBalanceEffects,
      expenseBalanceEffect,
      normalizePayers,
      recomputeNets,
      settlementBalanceEffect,
      simplifyDebts,
      userIdsOf,
    };
    for (const fn of Object.values(functions)) expect(typeof fn).toBe('function');
    expect(new DomainError('validation_failed', 'x')).toBeInstanceOf(Error);
    expect(MAX_AMOUNT).toBe(1_000_000_000_000);
  });
});
