import type { Writable } from 'node:stream';
import { runSql, sql } from '@tally/db';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { toExpense } from '../expenses/expense-content';
import { type ListedGroupRow, toListedGroup } from '../groups/groups.service';
import { jsonColumn } from '../json-column';
import { membersOfG } from '../read-queries';
import { EXPORT_LINK_TTL_SECONDS, type ReceiptLinks } from '../receipts/receipt-links';
import { type ReceiptRow, toReceipt, withLinks } from '../receipts/receipts.service';
import { toSettlement } from '../settlements/settlements.service';
import { type Key, type KeyedRow, keysetRows } from './keyset-pages';
import { writeWithBackpressure } from './write-with-backpressure';

const expensePage = (groupId: string) => (after: Key, limit: number) =>
  sql`select e.*, occurred_at::text as at_key,
                            (select to_jsonb(r) from receipts r where r.expense_id = e.id) as receipt_row
                        from expenses e
                       where group_id = ${groupId} and deleted_at is null and (occurred_at, id) > (${after[0]}::timestamptz, ${after[1]})
                       order by occurred_at, id limit ${limit}`;
const settlementPage = (groupId: string) => (after: Key, limit: number) =>
  sql`select s.*, created_at::text as at_key from settlements s
                          where group_id = ${groupId} and deleted_at is null and (created_at, id) > (${after[0]}::timestamptz, ${after[1]})
                          order by created_at, id limit ${limit}`;
const groupPage = (userId: string) => (after: Key, limit: number) =>
  sql`select g.*, ${membersOfG}, m.joined_at::text as at_key from group_members m
                      join groups g on g.id = m.group_id
                     where m.user_id = ${userId} and (m.joined_at, g.id) > (${after[0]}::timestamptz, ${after[1]})
                     order by m.joined_at, g.id limit ${limit}`;

type ExpenseWithReceiptRow = Parameters<typeof toExpense>[0] &
  KeyedRow & { receipt_row: ReceiptRow | string | null };

/**
 * An expense as its read shows it, plus its receipt (API.md §16) when it has one: the metadata and
 * links to the file and thumbnail, good for `EXPORT_LINK_TTL_SECONDS` (a day). The files themselves
 * are not in the document: it stays the size of the records, whatever the files weigh.
 */
function exportedExpense(row: ExpenseWithReceiptRow, links: ReceiptLinks | undefined) {
  const { receipt_row: receiptRow, ...expenseRow } = row;
  const expense = toExpense(expenseRow);
  if (receiptRow === null || links === undefined) return expense;
  const receipt = toReceipt(jsonColumn<ReceiptRow>(receiptRow));
  return { ...expense, receipt: withLinks(receipt, links, EXPORT_LINK_TTL_SECONDS) };
}

/** Pieces of about 64 KiB: fewer writes than one per record, never a group's worth held. */
const CHUNK_CHARS = 65_536;

/**
 * `GET /v1/me/export` (API.md §11.2): one JSON document, written as it is read. The caller's account
 * (never the password hash), then each group they belong to, as `GET /v1/groups/{groupId}` shows it,
 * with every live expense and settlement as their own reads show them. Resolves false when the
 * client went away.
 */
export async function writeMyData(
  knex: Knex,
  out: Writable,
  userId: string,
  receiptLinks?: ReceiptLinks,
): Promise<boolean> {
  const [user] = await runSql<{
    id: string;
    email: string;
    name: string;
    created_at: Date | string;
    email_verified_at: Date | string | null;
  }>(knex, sql`select id, email, name, created_at, email_verified_at from users where id = ${userId}`);
  if (!user) return false;
  let chunk = `{"exportedAt":${JSON.stringify(new Date().toISOString())},"user":${JSON.stringify({
    id: user.id,
    email: user.email,
    name: user.name,
    createdAt: toIso(user.created_at),
    emailVerified: user.email_verified_at !== null,
  })},"groups":[`;
  const flushIfFull = async () => {
    if (chunk.length < CHUNK_CHARS) return true;
    const text = chunk;
    chunk = '';
    return writeWithBackpressure(out, text);
  };
  let firstGroup = true;
  for await (const row of keysetRows<ListedGroupRow & KeyedRow>(knex, groupPage(userId))) {
    const { at_key: _key, ...groupRow } = row;
    const group = JSON.stringify(toListedGroup(groupRow as ListedGroupRow));
    // The group's own fields, then its records: `{…,"expenses":[…],"settlements":[…]}`.
    chunk += `${firstGroup ? '' : ','}${group.slice(0, -1)},"expenses":[`;
    firstGroup = false;
    let first = true;
    for await (const e of keysetRows<ExpenseWithReceiptRow>(knex, expensePage(row.id))) {
      chunk += (first ? '' : ',') + JSON.stringify(exportedExpense(e, receiptLinks));
      first = false;
      if (!(await flushIfFull())) return false;
    }
    chunk += '],"settlements":[';
    first = true;
    for await (const s of keysetRows<Parameters<typeof toSettlement>[0] & KeyedRow>(
      knex,
      settlementPage(row.id),
    )) {
      chunk += (first ? '' : ',') + JSON.stringify(toSettlement(s));
      first = false;
      if (!(await flushIfFull())) return false;
    }
    chunk += ']}';
    if (!(await flushIfFull())) return false;
  }
  chunk += ']}';
  return writeWithBackpressure(out, chunk);
}
