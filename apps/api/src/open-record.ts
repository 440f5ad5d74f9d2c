import { notFound } from '@tally/http-kit';
import type { GroupChange } from './ledger/group-change';
import type { RecordTable, WriteContext } from './ledger/write-runner';

/** What each kind of record is called in its `404` (API.md §1). */
const RECORD_NAMES: Record<RecordTable, string> = {
  expenses: 'Expense',
  settlements: 'Settlement',
  recurring_expenses: 'Recurring expense',
  comments: 'Comment',
};

/** The record's `404`: the same for an unknown id and for a record of a group the caller is not in. */
export const recordNotFound = (table: RecordTable) => notFound(RECORD_NAMES[table]);

/**
 * The record `id` of `table` with a change to its group (`ctx.openRecord`), for a write on a record
 * that must exist: its `404` for an unknown id and for a non-member alike (not even the problem's
 * detail tells them the id exists), and, with `live`, for a deleted record too (an edit; a delete
 * gets the deleted row, to answer again as it did).
 */
export async function openExisting<R extends { deleted_at: unknown }>(
  ctx: WriteContext,
  table: RecordTable,
  id: string,
  userId: string,
  options: { live?: boolean } = {},
): Promise<{ row: R; change: GroupChange }> {
  const missing = () => recordNotFound(table);
  const found = await ctx.openRecord<R>(table, id, userId, missing);
  if (!found || (options.live === true && found.row.deleted_at)) throw missing();
  return found;
}
