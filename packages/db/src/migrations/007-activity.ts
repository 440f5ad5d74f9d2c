import type { Knex } from 'knex';

/**
 * Activity across a user's groups (API.md §8a).
 *
 * - `events_group_time_idx` on `events` (`group_id`, `occurred_at` desc, `id` desc): the feed reads,
 *   per group the user belongs to, the newest events before a cursor in exactly the feed's order, so
 *   each group's scan stops after `limit + 1` rows. Created on the partitioned parent: PostgreSQL
 *   builds it on every partition, and on each partition attached later (`maintainPartitions`).
 * - `activity_read_markers`: one row per user, the (`read_at`, `read_id`) of the newest feed item
 *   they marked read, i.e. a position in the feed's order. It only moves forward.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index events_group_time_idx on events (group_id, occurred_at desc, id desc)');
  await knex.raw(`
    create table activity_read_markers (
      user_id text primary key references users (id),
      read_at timestamptz not null,
      read_id text not null,
      updated_at timestamptz not null
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists activity_read_markers');
  await knex.raw('drop index if exists events_group_time_idx');
}
