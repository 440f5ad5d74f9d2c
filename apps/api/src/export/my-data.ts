import type { Writable } from 'node:stream';
import { raw, runSql, sql } from '@tally/db';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { toExpense } from '../expenses/expense-content';
import { type ListedGroupRow, toListedGroup } from '../groups/groups.service';
import { membersOfG } from '../read-queries';
import { toSettlement } from '../settlements/settlements.service';
import { type Key, type KeyedRow, keysetRows } from './keyset-pages';
import { writeWithBackpressure } from './write-with-backpressure';

const expensePage = (groupId: string) => (after: Key, limit: number) =>
  sql`select e.*, occurred_at::text as at_key from expenses e
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

/** Pieces of about 64 KiB: fewer writes than one per record, never a group's worth held. */
const CHUNK_CHARS = 65_536;

/**
 * `GET /v1/me/export` (API.md §11.2): one JSON document, written as it is read. The caller's account
 * (never the password hash), then each group they belong to, as `GET /v1/groups/{groupId}` shows it,
 * with every live expense and settlement as their own reads show them. Resolves false when the
 * client went away.
 */
export async function writeMyData(knex: Knex, out: Writable, userId: string): Promise<boolean> {
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
    for await (const e of keysetRows<Parameters<typeof toExpense>[0] & KeyedRow>(knex, expensePage(row.id))) {
      chunk += (first ? '' : ',') + JSON.stringify(toExpense(e));
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
