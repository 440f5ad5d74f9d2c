import type { Writable } from 'node:stream';
import { runSql, sql } from '@tally/db';
import {
  expenseBalanceEffect,
  minorUnitsOf,
  type Payer,
  type Share,
  settlementBalanceEffect,
} from '@tally/domain';
import { notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { DEFAULT_CATEGORIES } from '../categories/default-categories';
import { jsonColumn } from '../json-column';
import { csvRecord, decimalOf, numberCell, textCell, utcDateTime } from './csv';
import { type Key, type KeyedRow, keysetRows, mergeByTime } from './keyset-pages';
import { writeWithBackpressure } from './write-with-backpressure';

const DEFAULT_NAMES = new Map<string, string>(DEFAULT_CATEGORIES.map((c) => [c.id, c.name]));

/** The `Category` cell: the name of the expense's category (§14), else its free-text `category`. */
const categoryOf = (row: ExpenseRow): string | null =>
  row.category_name ?? (row.category_id ? DEFAULT_NAMES.get(row.category_id) : undefined) ?? row.category;

/** Excel reads a CSV as UTF-8 only when it starts with the byte order mark; other readers skip it. */
export const UTF8_BOM = '\uFEFF';

export const FIXED_COLUMNS = [
  'Type',
  'Date (UTC)',
  'Description',
  'Category',
  'Currency',
  'Amount',
  'Paid by',
  'Id',
] as const;

/** A column of the export: an account (claimed pending members folded in) or a member who is gone. */
type Column = { userId: string; header: string };

type ExpenseRow = KeyedRow & {
  kind: 'expense';
  at: Date | string;
  description: string;
  category: string | null;
  /** The name of the expense's category (API.md §14): the group's own, or a default's; else null. */
  category_name: string | null;
  category_id: string | null;
  amount: string | number;
  currency: string;
  paid_by: Payer[] | string;
  shares: Share[] | string;
};
type SettlementRow = KeyedRow & {
  kind: 'settlement';
  at: Date | string;
  note: string | null;
  amount: string | number;
  currency: string;
  from_user_id: string;
  to_user_id: string;
};

const expensePage = (groupId: string) => (after: Key, limit: number) =>
  sql`select 'expense' as kind, id, occurred_at as at, occurred_at::text as at_key, description,
                             category, category_id, (select c.name from categories c where c.id = expenses.category_id) as category_name,
                             amount, currency, paid_by, shares
                        from expenses
                       where group_id = ${groupId} and deleted_at is null and (occurred_at, id) > (${after[0]}::timestamptz, ${after[1]})
                       order by occurred_at, id limit ${limit}`;
const settlementPage = (groupId: string) => (after: Key, limit: number) =>
  sql`select 'settlement' as kind, id, created_at as at, created_at::text as at_key, note,
                                amount, currency, from_user_id, to_user_id
                           from settlements
                          where group_id = ${groupId} and deleted_at is null and (created_at, id) > (${after[0]}::timestamptz, ${after[1]})
                          order by created_at, id limit ${limit}`;

/**
 * The ids a page of live expenses names, in the file's keyset order: `involved_ids`, kept with every
 * expense (payers and the split's users, as its `paid_by` and `shares` name them; migration 008).
 */
const expensePeoplePage = (groupId: string) => (after: Key, limit: number) =>
  sql`select id, occurred_at::text as at_key, involved_ids as ids
                              from expenses
                             where group_id = ${groupId} and deleted_at is null and (occurred_at, id) > (${after[0]}::timestamptz, ${after[1]})
                             order by occurred_at, id limit ${limit}`;
/** The ids a page of live settlements names. */
const settlementPeoplePage = (groupId: string) => (after: Key, limit: number) =>
  sql`select id, created_at::text as at_key, array[from_user_id, to_user_id] as ids
                                 from settlements
                                where group_id = ${groupId} and deleted_at is null and (created_at, id) > (${after[0]}::timestamptz, ${after[1]})
                                order by created_at, id limit ${limit}`;

/**
 * The people of `ids` (the ids of every member and of everyone a live record names), each with the
 * column it goes to: a pending member an account claimed is folded into the account, as the group's
 * reads show it (`claimed_by`).
 */
const peopleOf = (ids: string[], groupId: string) => sql`
  select n.id, coalesce(m.claimed_by, n.id) as column_id, u.name, u.status, m.joined_at, m.claimed_by
    from unnest(${ids}::text[]) as n(id)
    join users u on u.id = coalesce((select claimed_by from group_members c where c.group_id = ${groupId} and c.user_id = n.id), n.id)
    left join group_members m on m.group_id = ${groupId} and m.user_id = n.id`;

type PersonRow = {
  id: string;
  column_id: string;
  name: string;
  status: string;
  joined_at: Date | string | null;
  claimed_by: string | null;
};

/** Header names: the member's name, "Name (2)", "Name (3)"… when names repeat, in column order. */
function columnsOf(people: PersonRow[]): { columns: Column[]; columnOf: Map<string, number> } {
  const byColumn = new Map<string, PersonRow>();
  for (const p of people) {
    const seen = byColumn.get(p.column_id);
    // The account's own row (not a claimed alias) says when it joined.
    if (!seen || (p.id === p.column_id && seen.id !== seen.column_id)) byColumn.set(p.column_id, p);
  }
  const ordered = [...byColumn.values()].sort((a, b) => {
    const aMember = a.joined_at !== null && a.id === a.column_id;
    const bMember = b.joined_at !== null && b.id === b.column_id;
    if (aMember !== bMember) return aMember ? -1 : 1;
    if (aMember && bMember) {
      const t = new Date(a.joined_at as Date).getTime() - new Date(b.joined_at as Date).getTime();
      if (t !== 0) return t;
    }
    return a.name.localeCompare(b.name) || (a.column_id < b.column_id ? -1 : 1);
  });
  const counts = new Map<string, number>();
  const columns = ordered.map((p) => {
    const base = p.status === 'deleted' ? 'Deleted user' : p.name;
    const n = (counts.get(base) ?? 0) + 1;
    counts.set(base, n);
    return { userId: p.column_id, header: n === 1 ? base : `${base} (${n})` };
  });
  // A name repeated later may equal an earlier "Name (2)": extremely unlikely, and still readable.
  const columnOf = new Map(columns.map((c, i) => [c.userId, i]));
  for (const p of people) columnOf.set(p.id, columnOf.get(p.column_id) as number);
  return { columns, columnOf };
}

export type GroupCsvDeps = { knex: Knex };

/** What `prepare` read: the group and the member columns. */
export type PreparedCsv = {
  group: { id: string; name: string };
  columns: Column[];
  columnOf: Map<string, number>;
};

/** `GET /v1/groups/{groupId}/export.csv` (API.md §11.1). */
export function createGroupCsvExport(deps: GroupCsvDeps) {
  const { knex } = deps;

  return {
    /**
     * Checks the caller is a member and reads the columns; throws `notFound` before anything is
     * written, so a refusal is still a problem+json.
     */
    async prepare(userId: string, groupId: string): Promise<PreparedCsv> {
      const [group] = await runSql<{ id: string; name: string }>(
        knex,
        sql`select g.id, g.name from groups g
             where g.id = ${groupId}
               and exists (select 1 from group_members m where m.group_id = g.id and m.user_id = ${userId})`,
      );
      if (!group) throw notFound('Group');
      // Everyone who is a member or is named by a live record: current members first in join
      // order, then the others (removed members) by name. Collected a page at a time (never one
      // statement over the whole group's history, which grows without bound), so other requests
      // are served between the pages.
      const ids = new Set<string>();
      const members = await runSql<{ user_id: string }>(
        knex,
        sql`select user_id from group_members where group_id = ${groupId}`,
      );
      for (const m of members) ids.add(m.user_id);
      for (const page of [expensePeoplePage(groupId), settlementPeoplePage(groupId)]) {
        for await (const row of keysetRows<KeyedRow & { ids: string[] }>(knex, page)) {
          for (const id of row.ids) if (id !== null) ids.add(id);
        }
      }
      const people = await runSql<PersonRow>(knex, peopleOf([...ids], groupId));
      return { group, ...columnsOf(people) };
    },

    /**
     * Writes the file: the BOM, the header, then every live expense and settlement by date (an
     * expense's `occurredAt`, a settlement's creation time), read 1,000 rows a query and written
     * as the socket takes them. Resolves false when the client went away.
     */
    async write(out: Writable, groupId: string, prepared: PreparedCsv): Promise<boolean> {
      const { columns, columnOf } = prepared;
      const header = [...FIXED_COLUMNS, ...columns.map((c) => c.header)].map((h) => textCell(h));
      if (!(await writeWithBackpressure(out, UTF8_BOM + csvRecord(header)))) return false;

      const nameOf = (id: string) => {
        const i = columnOf.get(id);
        return i === undefined ? id : (columns[i] as Column).header;
      };
      const rows = mergeByTime<ExpenseRow, SettlementRow>(
        keysetRows<ExpenseRow>(knex, expensePage(groupId)),
        keysetRows<SettlementRow>(knex, settlementPage(groupId)),
        (r) => new Date(r.at).getTime(),
      );
      let chunk = '';
      for await (const row of rows) {
        const digits = minorUnitsOf(row.currency);
        const nets: string[] = columns.map(() => '');
        const deltas =
          row.kind === 'expense'
            ? expenseBalanceEffect({
                currency: row.currency,
                paidBy: jsonColumn(row.paid_by),
                shares: jsonColumn(row.shares),
              })
            : settlementBalanceEffect({
                currency: row.currency,
                fromUserId: row.from_user_id,
                toUserId: row.to_user_id,
                amount: Number(row.amount),
              });
        // A claimed pending member and its account share a column: their effects add up.
        const sums = new Map<number, bigint>();
        for (const d of deltas) {
          const i = columnOf.get(d.userId);
          if (i !== undefined) sums.set(i, (sums.get(i) ?? 0n) + BigInt(d.delta));
        }
        for (const [i, sum] of sums) if (sum !== 0n) nets[i] = numberCell(decimalOf(sum, digits));
        const paidBy =
          row.kind === 'expense'
            ? jsonColumn(row.paid_by)
                .map((p) => nameOf(p.userId))
                .join('; ')
            : nameOf(row.from_user_id);
        const cells = [
          row.kind,
          numberCell(utcDateTime(new Date(row.at))),
          textCell(row.kind === 'expense' ? row.description : (row.note ?? '')),
          textCell(row.kind === 'expense' ? categoryOf(row) : ''),
          textCell(row.currency),
          numberCell(decimalOf(BigInt(row.amount), digits)),
          textCell(paidBy),
          textCell(row.id),
          ...nets,
        ];
        chunk += csvRecord(cells);
        // Written in pieces of about 64 KiB: fewer writes than one per row, never a page's worth held.
        if (chunk.length >= 65_536) {
          if (!(await writeWithBackpressure(out, chunk))) return false;
          chunk = '';
        }
      }
      if (chunk && !(await writeWithBackpressure(out, chunk))) return false;
      return true;
    },
  };
}

export type GroupCsvExport = ReturnType<typeof createGroupCsvExport>;
