import { type AppError, unavailable } from '@tally/http-kit';

/** PostgreSQL's unique_violation, the same from pg and PGlite. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/**
 * The database limits of `createKnex` as `503 unavailable` with `Retry-After`: a statement, lock
 * or idle-in-transaction timeout, the pool's acquire timeout, or a session the server ended (what
 * the next query of a transaction left idle too long sees). The work was cut short and rolled
 * back, nothing took effect, and a retry is expected to succeed. Undefined for any other error.
 */
export function databaseUnavailable(error: unknown): AppError | undefined {
  const e = error as { code?: string; name?: string; message?: string } | null;
  switch (e?.code) {
    case '57014': // query_canceled: statement_timeout
      return unavailable('The database took too long to answer; retry shortly.', 2);
    case '55P03': // lock_not_available: lock_timeout; another change to the same data holds the lock
      return unavailable('This data is busy with another change; retry shortly.', 1);
    case '25P03': // idle_in_transaction_session_timeout
      return unavailable('The database ended a stalled transaction; retry shortly.', 1);
    case '23514': // check_violation: e.g. no time partition for the row (partition maintenance behind)
      if (/no partition/i.test(e.message ?? ''))
        return unavailable('The database is not ready to store this yet; retry shortly.', 2);
      break;
  }
  if (e?.name === 'KnexTimeoutError') {
    return unavailable('No database connection became free in time; retry shortly.', 1);
  }
  if (/ is not queryable$/.test(e?.message ?? '')) {
    return unavailable('The database connection was lost; retry shortly.', 1);
  }
  return undefined;
}

export const toIso = (value: Date | string): string => new Date(value).toISOString();
