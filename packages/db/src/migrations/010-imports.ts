import type { Knex } from 'knex';

/**
 * Imports of a Splitwise export into a group (API.md §6b). One row per (group, file): its id is
 * derived from both, so an upload of the same file finds it again. `next_line` is the first line
 * of the file not yet dealt with; it moves in the same statement as the row it passed (the expense
 * or settlement created, or the rows found present or refused), so an import interrupted at any
 * point resumes exactly there. `refused` is a JSON array of `{line, reason}`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table imports (
      id text primary key,
      group_id text not null references groups (id),
      file_hash text not null,
      format text not null,
      status text not null check (status in ('running', 'completed')),
      next_line integer not null,
      rows integer not null,
      created integer not null default 0,
      existing integer not null default 0,
      refused jsonb not null default '[]'::jsonb,
      created_by text not null references users (id),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists imports');
}
