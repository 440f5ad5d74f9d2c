import { raw, type Sql, sql } from '@tally/db';
import type { RunRead } from '../read-queries';
import { type GroupSnapshotRow, groupSnapshot } from './group-snapshot';
import type { RecordTable } from './write-types';

/**
 * A fixed statement of the write path with its values: `sql` gives the text (the same for every
 * value, so one name prepares it once per connection) and the values beside it.
 */
export type NamedSql = { name: string; sql: Sql };

/** Runs a `NamedSql` as a named (prepared) statement. */
export const runNamed = <R>(run: RunRead, query: NamedSql): Promise<R[]> =>
  run<R>({ name: query.name, text: query.sql.text }, [...query.sql.values]);

/** The record `id` of `table` with its group's state, in one statement (see `openRecord`). */
export const recordWithGroup = (table: RecordTable, id: string): NamedSql => ({
  name: `write_open_${table}`,
  sql: sql`select to_jsonb(r) as record, s.* from ${raw(table)} r
           cross join lateral (${groupSnapshot(raw('r.group_id'))}) s where r.id = ${id}`,
});

/** The group's state (`GroupSnapshotRow`). */
export const groupRead = (groupId: string): NamedSql => ({
  name: 'write_open_group',
  sql: groupSnapshot(sql`${groupId}`),
});

/** The group's row lock, for a write that collided too often (`afterCollision`). */
export const lockGroup = (groupId: string): NamedSql => ({
  name: 'write_lock_group',
  sql: sql`select 1 from groups where id = ${groupId} for update`,
});

/** What a change's statement returns: whether it applied, and the group's state after it. */
export type StatementRow = GroupSnapshotRow & { applied: number | string };

/** Statement names by text: one prepared statement per shape of change, per runner. */
export function createStatementNames(prefix: string) {
  const names = new Map<string, string>();
  return (text: string): string => {
    let name = names.get(text);
    if (name === undefined) {
      name = `${prefix}_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
}

/** `tally_idempotency_replaceable` (migration 003): a live durable record holds the key. */
export const isLiveRecord = (error: unknown): boolean =>
  (error as { code?: string } | null)?.code === 'TY001';
