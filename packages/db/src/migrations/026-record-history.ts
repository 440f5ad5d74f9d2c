import type { Knex } from 'knex';

/**
 * The history of a record (API.md §15): its versions are its money events, found by the record's id
 * inside the event's `data` (a `json` column, migration 013).
 *
 * - `events_expense_idx` on `events` ((`data`->'expense'->>'id'), `seq`), only for the three expense
 *   event types; `events_settlement_idx` the same for settlements. A history page is then an index
 *   range per kept partition, in `seq` order, instead of a scan of every event of the group. Partial,
 *   so the other events (members, comments, rates…) pay nothing; a money event's insert pays one
 *   parse of its `data`. Created on the partitioned parent: PostgreSQL builds them on every partition
 *   and on each partition attached later (`maintainPartitions`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index events_expense_idx on events (((data -> 'expense') ->> 'id'), seq)
                   where type in ('expense.created', 'expense.updated', 'expense.deleted')`);
  await knex.raw(`create index events_settlement_idx on events (((data -> 'settlement') ->> 'id'), seq)
                   where type in ('settlement.created', 'settlement.deleted')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists events_settlement_idx');
  await knex.raw('drop index if exists events_expense_idx');
}
