import { createHash } from 'node:crypto';
import { join, runSql, type Sql, sql } from '@tally/db';
import { searchWordsOf } from '@tally/domain';
import { notFound, validationFailed } from '@tally/http-kit';
import { canonicalJson } from '@tally/idempotency';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { CURSOR_IDS, cursorTime, decodeCursor, encodeCursor } from '../http/cursor';
import { type Expense, toExpense } from './expense-content';
import type { ExpensesService } from './expenses.service';

/** The query of `GET /v1/groups/{groupId}/expenses` (API.md §5.1), as `expensesQuery` validated it. */
export type ExpenseFilters = {
  q?: string;
  category?: string;
  categoryId?: string;
  paidBy?: string;
  involves?: string;
  from?: string;
  to?: string;
  updatedAfter?: string;
  includeDeleted?: boolean;
};
export type ExpensesQuery = ExpenseFilters & { limit: number; cursor?: string };

/** A listed expense; `deletedAt` is present (null when live) when the list includes deleted ones. */
export type ListedExpense = Expense & { deletedAt?: string | null };

type Row = Parameters<typeof toExpense>[0] & { member: boolean; id: string | null };

/** `%`, `_` and `\` of a query word are literal characters, not `like` wildcards. */
const likeSubstring = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The filters that narrow the list, normalized: what a cursor is tied to. Absent and empty mean
 * the same (`q` of only spaces filters nothing), so they give the same fingerprint.
 */
export function activeFilters(query: ExpensesQuery) {
  const words = query.q === undefined ? [] : searchWordsOf(query.q);
  const at = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());
  return {
    words,
    category: query.category,
    categoryId: query.categoryId,
    paidBy: query.paidBy,
    involves: query.involves,
    from: at(query.from),
    to: at(query.to),
    updatedAfter: at(query.updatedAfter),
    includeDeleted: query.includeDeleted === true,
  };
}
type Active = ReturnType<typeof activeFilters>;

const isUnfiltered = (f: Active) =>
  f.words.length === 0 &&
  f.category === undefined &&
  f.categoryId === undefined &&
  f.paidBy === undefined &&
  f.involves === undefined &&
  f.from === undefined &&
  f.to === undefined &&
  f.updatedAfter === undefined &&
  !f.includeDeleted;

/** 16 hex digits of the SHA-256 of the filters: a cursor carries it, and only works with the same ones. */
const fingerprintOf = (f: Active) => createHash('sha256').update(canonicalJson(f)).digest('hex').slice(0, 16);

const cursorError = (message: string) =>
  validationFailed([{ path: 'cursor', message }], 'The request query is not valid.');

/** A filtered list's cursor: `[time, id, fingerprint]`; a cursor of other filters (or none) is a 422. */
function decodeFilteredCursor(cursor: string | undefined, fingerprint: string) {
  if (cursor === undefined) return undefined;
  let key: (string | number)[] | undefined;
  try {
    key = decodeCursor(cursor, 3);
  } catch {
    throw cursorError(
      'is not a cursor of this list with these filters (a cursor keeps the filters it was issued for)',
    );
  }
  const [time, id, fp] = key ?? [];
  const at = cursorTime(time);
  if (
    at === undefined ||
    typeof id !== 'string' ||
    !CURSOR_IDS.expense.test(id) ||
    typeof fp !== 'string' ||
    !/^[0-9a-f]{16}$/.test(fp)
  ) {
    throw cursorError('is not a cursor this API issued');
  }
  if (fp !== fingerprint) {
    throw cursorError(
      'was issued for other filters: send the same filters with it, or start again without it',
    );
  }
  return { at, id };
}

/**
 * A user and the pending members they claimed in the group (API.md §3.1): records keep naming the
 * claimed id, so a filter on the account must find them too.
 */
const aliasesOf = (groupId: string, userId: string) =>
  sql`(array[${userId}::text] || array(select c.user_id from group_members c
                                         where c.group_id = ${groupId}::text and c.claimed_by = ${userId}::text))`;

/**
 * The page's statement: membership and page together (one row `member: false` for a non-member).
 * Exported for the bench's EXPLAIN (infra/bench/search.ts).
 */
export function searchStatement(
  groupId: string,
  userId: string,
  f: Active,
  after: { at: Date; id: string } | undefined,
  limit: number,
): Sql {
  const sync = f.updatedAfter !== undefined;
  const where: Sql[] = [sql`e.group_id = ${groupId}::text`];
  if (!f.includeDeleted) where.push(sql`e.deleted_at is null`);
  for (const word of f.words) where.push(sql`e.search_text like ${likeSubstring(word)}::text`);
  if (f.category !== undefined) where.push(sql`e.category = ${f.category}::text`);
  if (f.categoryId !== undefined) where.push(sql`e.category_id = ${f.categoryId}::text`);
  if (f.paidBy !== undefined) where.push(sql`e.payer_ids && ${aliasesOf(groupId, f.paidBy)}`);
  if (f.involves !== undefined) where.push(sql`e.involved_ids && ${aliasesOf(groupId, f.involves)}`);
  if (f.from !== undefined) where.push(sql`e.occurred_at >= ${f.from}::timestamptz`);
  if (f.to !== undefined) where.push(sql`e.occurred_at < ${f.to}::timestamptz`);
  if (sync) where.push(sql`e.updated_at > ${f.updatedAfter}::timestamptz`);
  if (after) {
    where.push(
      sync
        ? sql`(e.updated_at, e.id) > (${after.at}::timestamptz, ${after.id}::text)`
        : sql`(e.occurred_at, e.id) < (${after.at}::timestamptz, ${after.id}::text)`,
    );
  }
  const order = sync ? sql`e.updated_at asc, e.id asc` : sql`e.occurred_at desc, e.id desc`;
  return sql`select a.member, r.* from
      (select exists (select 1 from group_members m where m.group_id = ${groupId}::text and m.user_id = ${userId}::text) as member) a
      left join lateral (select e.* from expenses e where ${join(where, ' and ')}
                          order by ${order} limit ${limit}::integer) r on a.member`;
}

/**
 * The expense list with its filters (API.md §5.1). Without any filter it is the plain list (its
 * prepared statement and its two-part cursor); with filters, one statement composed of the
 * filters given, each served by an index of migration 008.
 */
export function createExpenseSearch(deps: { knex: Knex; expenses: ExpensesService }) {
  const { knex, expenses } = deps;

  return {
    /** `db`: where the request's reads go (read-routing.ts); the primary by default. */
    async list(
      userId: string,
      groupId: string,
      query: ExpensesQuery,
      db: Knex = knex,
    ): Promise<{ data: ListedExpense[]; nextCursor: string | null }> {
      // An unnamed statement: its text varies with the filters, so it is not prepared per connection.
      const run = (statement: Sql): Promise<Row[]> => runSql<Row>(db, statement);
      const f = activeFilters(query);
      if (isUnfiltered(f))
        return expenses.list(userId, groupId, { limit: query.limit, cursor: query.cursor }, db);
      const fingerprint = fingerprintOf(f);
      let after: { at: Date; id: string } | undefined;
      try {
        after = decodeFilteredCursor(query.cursor, fingerprint);
      } catch (invalid) {
        // Membership first: a non-member learns nothing, not even that the cursor is bad.
        const [row] = await run(searchStatement(groupId, userId, f, undefined, 0));
        if (!row?.member) throw notFound('Group');
        throw invalid;
      }
      const rows = await run(searchStatement(groupId, userId, f, after, query.limit + 1));
      if (!rows[0]?.member) throw notFound('Group');
      const found = rows.filter((row) => row.id !== null);
      const page = found
        .slice(0, query.limit)
        .map(
          (row): ListedExpense =>
            f.includeDeleted
              ? { ...toExpense(row), deletedAt: row.deleted_at === null ? null : toIso(row.deleted_at) }
              : toExpense(row),
        );
      const last = page[page.length - 1];
      const sync = f.updatedAfter !== undefined;
      const nextCursor =
        found.length > query.limit && last
          ? encodeCursor([sync ? last.updatedAt : last.occurredAt, last.id, fingerprint])
          : null;
      return { data: page, nextCursor };
    },
  };
}

export type ExpenseSearch = ReturnType<typeof createExpenseSearch>;
