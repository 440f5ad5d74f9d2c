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
