import { batchFailureOf } from './write-batch';

/** Why a batch failed decides what its writes get (ARCHITECTURE.md, "Group commit"). */
describe('batchFailureOf', () => {
  it.each([
    [{ name: 'KnexTimeoutError', message: 'Timeout acquiring a connection' }, 'pool_exhausted'],
    [{ code: '55P03' }, 'lock_timeout'],
    [{ code: '57014' }, 'statement_timeout'],
    [{ code: '57P01' }, 'connection_lost'],
    [{ code: '08006' }, 'connection_lost'],
    // A demoted primary: nothing committed, and sending again alone to it cannot succeed.
    [{ code: '25006' }, 'connection_lost'],
    [{ message: 'Connection terminated unexpectedly' }, 'connection_lost'],
    [{ code: '23505' }, 'statement_error'],
    [{ code: 'TY001' }, 'statement_error'],
    [{ code: '250060' }, 'statement_error'],
  ])('%j is %s', (error, reason) => {
    expect(batchFailureOf(error)).toBe(reason);
  });
});
