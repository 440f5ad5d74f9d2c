import { isRealTimestamp } from '@tally/domain';
import { validationFailed } from '@tally/http-kit';

/**
 * Cursors are opaque to clients: base64url (no padding) of the JSON array of the last row's sort
 * key, written by `JSON.stringify`. A cursor decodes only to a key the API could have issued: the
 * same spelling (it is encoded again and compared), the list's arity, a time as `toISOString` writes
 * it within 0001–9999 (what the columns hold), an id of the list's shape. Anything else is
 * `422 validation_failed` at `cursor` (API.md §1), before any database sees it.
 */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export const invalidCursor = (message = 'is not a cursor this API issued') =>
  validationFailed([{ path: 'cursor', message }], 'The request query is not valid.');

export function decodeCursor(cursor: string | undefined, arity: number): (string | number)[] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === arity &&
      key.every((part) => typeof part === 'string' || typeof part === 'number') &&
      encodeCursor(key) === cursor
    ) {
      return key as (string | number)[];
    }
  } catch {
    // fall through to the validation error
  }
  throw invalidCursor();
}

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
/**
 * The ids each time-ordered list's cursor may carry: the ids the API makes for that list (and, for
 * expenses, the ids a client may choose with PUT and those of occurrences and imports).
 */
export const CURSOR_IDS = {
  group: new RegExp(`^grp_${ULID}$`),
  expense: /^(?:[A-Za-z0-9_-]{8,64}|exp_[ri][0-9a-f]{64})$/,
  settlement: new RegExp(`^stl_(?:${ULID}|i[0-9a-f]{64})$`),
  recurring: new RegExp(`^rec_${ULID}$`),
  comment: new RegExp(`^cmt_${ULID}$`),
  event: new RegExp(`^evt_${ULID}$`),
} as const;
export type CursorIdKind = keyof typeof CURSOR_IDS;

/** A time as the API writes it into a cursor: `toISOString` of an instant within 0001–9999. */
export function cursorTime(time: unknown): Date | undefined {
  if (typeof time !== 'string' || !isRealTimestamp(time)) return undefined;
  const at = new Date(time);
  return at.toISOString() === time ? at : undefined;
}

/**
 * The `[timestamp, id]` cursor of the time-ordered lists. A forged key whose time is not one the API
 * writes (or PostgreSQL could not hold), or whose id is not of `ids`' shape, is the same 422 as any
 * other bad cursor, never a database error.
 */
export function decodeTimeIdCursor(
  cursor: string | undefined,
  ids: CursorIdKind,
): { at: Date; id: string } | undefined {
  const key = decodeCursor(cursor, 2);
  if (key === undefined) return undefined;
  const [time, id] = key;
  const at = cursorTime(time);
  if (at === undefined || typeof id !== 'string' || !CURSOR_IDS[ids].test(id)) throw invalidCursor();
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
