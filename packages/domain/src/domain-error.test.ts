import { DomainError } from './domain-error';

describe('DomainError', () => {
  it('carries its code, message and field errors and is an Error', () => {
    const error = new DomainError('split_mismatch', 'does not add up', [
      { path: 'paidBy', message: 'off by 1' },
    ]);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('DomainError');
    expect(error.code).toBe('split_mismatch');
    expect(error.message).toBe('does not add up');
    expect(error.errors).toEqual([{ path: 'paidBy', message: 'off by 1' }]);
  });

  it('defaults to no field errors', () => {
    expect(new DomainError('validation_failed', 'bad').errors).toEqual([]);
  });
});
