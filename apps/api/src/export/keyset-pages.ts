import type { Knex } from 'knex';

/** A row with its keyset position: the time column as PostgreSQL's text (microseconds kept) and the id. */
export type KeyedRow = { at_key: string; id: string };

/** Rows per query of an export: small enough to hold, large enough that round trips do not dominate. */
export const EXPORT_PAGE_ROWS = 1000;

/**
 * Every row of a keyset-ordered query, a page at a time: `pageSql` takes `?` for the last key (text),
 * the last id and the page size, after `values`, and returns rows in (`at_key`, `id`) order. The
 * position is the time column as text, not a JavaScript `Date`, which would lose the microseconds
 * and read a row twice. Works the same on PostgreSQL and PGlite (no server-side cursor to keep open).
 */
export async function* keysetRows<R extends KeyedRow>(
  knex: Knex,
  pageSql: string,
  values: readonly Knex.Value[],
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<R> {
  let after: [string, string] = ['-infinity', ''];
  for (;;) {
    const result = (await knex.raw(pageSql, [...values, after[0], after[1], pageRows])) as { rows: R[] };
    for (const row of result.rows) yield row;
    const last = result.rows[result.rows.length - 1];
    if (!last || result.rows.length < pageRows) return;
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
