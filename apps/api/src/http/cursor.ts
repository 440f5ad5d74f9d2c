import { validationFailed } from '@tally/http-kit';
import type { Knex } from 'knex';

/** Cursors are opaque to clients: base64url JSON of the last row's sort key. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

const invalidCursor = () =>
  validationFailed(
    [{ path: 'cursor', message: 'is not a cursor this API issued' }],
    'The request query is not valid.',
  );

export function decodeCursor(cursor: string | undefined, arity: number): (string | number)[] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === arity &&
      key.every((part) => typeof part === 'string' || typeof part === 'number')
    ) {
      return key as (string | number)[];
    }
  } catch {
    // fall through to the validation error
  }
  throw invalidCursor();
}

/**
 * The `[timestamp, id]` cursor of the time-ordered lists. A forged key whose time is not a time
 * (or whose id is not a string) is the same 422 as any other bad cursor, never a database error.
 */
export function decodeTimeIdCursor(cursor: string | undefined): { at: Date; id: string } | undefined {
  const key = decodeCursor(cursor, 2);
  if (key === undefined) return undefined;
  const [time, id] = key;
  const at = typeof time === 'string' ? new Date(time) : undefined;
  if (at === undefined || Number.isNaN(at.getTime()) || typeof id !== 'string') throw invalidCursor();
  return { at, id };
}

/** The cursor of the event log: the last delivered `seq`. */
export function decodeSeqCursor(cursor: string | undefined): number | undefined {
  const key = decodeCursor(cursor, 1);
  if (key === undefined) return undefined;
  const [seq] = key;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw invalidCursor();
  return seq;
}

/** Shapes one page: `limit + 1` rows were read so that the next cursor is known without a count. */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => (string | number)[]) {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, nextCursor: hasMore && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

/**
 * Keyset pagination, newest first: narrows `query` to the rows strictly after the cursor's
 * (time, id) in `time desc, id desc` order. A cursor this API did not issue is a 422.
 */
export function afterTimeIdCursor<Q extends Knex.QueryBuilder>(
  query: Q,
  cursor: string | undefined,
  timeColumn: string,
  idColumn: string,
): Q {
  const after = decodeTimeIdCursor(cursor);
  if (after) {
    query.andWhere((w) =>
      w
        .where(timeColumn, '<', after.at)
        .orWhere((x) => x.where(timeColumn, '=', after.at).andWhere(idColumn, '<', after.id)),
    );
  }
  return query;
}
