import { notFound } from '@tally/http-kit';
import type { Knex } from 'knex';

export type GroupRow = {
  id: string;
  name: string;
  description: string;
  currency: string;
  last_seq: number | string;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
};

type Db = Knex | Knex.Transaction;

export async function isMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  const row = await db('group_members').where({ group_id: groupId, user_id: userId }).first('user_id');
  return row !== undefined;
}

/** Non-members get the same 404 as for a group that does not exist, so ids do not leak. */
export async function assertMember(db: Db, groupId: string, userId: string): Promise<void> {
  if (!(await isMember(db, groupId, userId))) throw notFound('Group');
}

/**
 * Locks the group's row for the rest of the transaction. Every change to a group goes through
 * here first: it serialises writes per group (so balances and `seq` stay consistent) while
 * different groups proceed in parallel.
 */
export async function lockGroupForWrite(
  trx: Knex.Transaction,
  groupId: string,
  userId: string,
): Promise<GroupRow> {
  const group = await trx<GroupRow>('groups').where({ id: groupId }).forUpdate().first();
  if (!group || !(await isMember(trx, groupId, userId))) throw notFound('Group');
  return group;
}

export async function memberIdsOf(db: Db, groupId: string): Promise<string[]> {
  const rows = await db('group_members')
    .where({ group_id: groupId })
    .orderBy([
      { column: 'joined_at', order: 'asc' },
      { column: 'user_id', order: 'asc' },
    ]);
  return rows.map((r: { user_id: string }) => r.user_id);
}
