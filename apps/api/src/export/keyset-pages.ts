import type { Sql } from '@tally/db';
import { runSql } from '@tally/db';
import type { Knex } from 'knex';

/** A row with its keyset position: the time column as PostgreSQL's text (microseconds kept) and the id. */
export type KeyedRow = { at_key: string; id: string };

/** Rows per query of an export: small enough to hold, large enough that round trips do not dominate. */
export const EXPORT_PAGE_ROWS = 1000;

/** The last row's position: the time column as text, and the id (`['-infinity', '']` before the first). */
export type Key = readonly [at: string, id: string];

/**
 * Every row of a keyset-ordered query, a page at a time: `page` gives the statement of the rows
 * after a key, at most `limit` of them, in (`at_key`, `id`) order. The position is the time column
 * as text, not a JavaScript `Date`, which would lose the microseconds and read a row twice. Works
 * the same on PostgreSQL and PGlite (no server-side cursor to keep open).
 */
export async function* keysetRows<R extends KeyedRow>(
  knex: Knex,
  page: (after: Key, limit: number) => Sql,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<R> {
  let after: Key = ['-infinity', ''];
  for (;;) {
    const rows = await runSql<R>(knex, page(after, pageRows));
    for (const row of rows) yield row;
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageRows) return;
    after = [last.at_key, last.id];
  }
}

/** Two ordered streams as one, by `at` then by which came first: a merge, holding one row of each. */
export async function* mergeByTime<A, B>(
  a: AsyncIterator<A>,
  b: AsyncIterator<B>,
  atOf: (row: A | B) => number,
): AsyncGenerator<A | B> {
  let nextA = await a.next();
  let nextB = await b.next();
  while (!nextA.done || !nextB.done) {
    if (!nextA.done && (nextB.done || atOf(nextA.value) <= atOf(nextB.value))) {
      yield nextA.value;
      nextA = await a.next();
    } else if (!nextB.done) {
      yield nextB.value;
      nextB = await b.next();
    }
  }
}
