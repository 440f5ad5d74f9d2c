import type { Knex } from 'knex';

/**
 * An import's refused rows stored once each (issue 30). Migration 010 kept them as one JSON array on
 * the import's row, appended to every 100 rows (`refused = refused || batch`): each append rewrote
 * the whole list, so an import cost the square of its refusals, and the answer carried them all.
 *
 * - `import_refusals`: one row per refused line, inserted with the import's progress and never
 *   rewritten; the report pages them by line (API.md §6b).
 * - `imports.refused_count`: their number, a counter like `created` and `existing`.
 * - `imports.status` may be `failed`: a run that ended on an error it could not refuse as a row (its
 *   caller left the group, the database went away). A retry resumes it at `next_line`.
 *
 * The arrays of imports made before are moved into the table, then the column is dropped.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table import_refusals (
      import_id text not null references imports (id) on delete cascade,
      line integer not null,
      reason text not null,
      primary key (import_id, line)
    )`);
  await knex.raw('alter table imports add column refused_count integer not null default 0');
  await knex.raw(`
    insert into import_refusals (import_id, line, reason)
    select i.id, (r ->> 'line')::integer, r ->> 'reason'
      from imports i cross join lateral jsonb_array_elements(i.refused) r
    on conflict (import_id, line) do nothing`);
  await knex.raw('update imports set refused_count = jsonb_array_length(refused)');
  await knex.raw('alter table imports drop column refused');
  await knex.raw('alter table imports drop constraint imports_status_check');
  await knex.raw(
    "alter table imports add constraint imports_status_check check (status in ('running', 'completed', 'failed'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("update imports set status = 'running' where status = 'failed'");
  await knex.raw('alter table imports drop constraint imports_status_check');
  await knex.raw(
    "alter table imports add constraint imports_status_check check (status in ('running', 'completed'))",
  );
  await knex.raw("alter table imports add column refused jsonb not null default '[]'::jsonb");
  await knex.raw(`
    update imports i set refused = coalesce(
      (select jsonb_agg(jsonb_build_object('line', r.line, 'reason', r.reason) order by r.line)
         from import_refusals r where r.import_id = i.id), '[]'::jsonb)`);
  await knex.raw('alter table imports drop column refused_count');
  await knex.raw('drop table import_refusals');
}
