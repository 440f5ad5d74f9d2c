import type { Knex } from 'knex';

/**
 * A group's own exchange rates (API.md §6, "Settling in one currency"): at most one set per group,
 * replaced whole by `PUT /v1/groups/{groupId}/rates`. `rates` is a JSON object of decimal strings
 * (`{"USD": "1.0823"}`: units of each currency per one `base`), kept as text so no rate ever passes
 * through a float. Written in the statement of the change that appends its `rates.updated` event.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table group_rates (
      group_id text primary key references groups (id),
      base text not null check (base ~ '^[A-Z]{3}$'),
      rates jsonb not null check (jsonb_typeof(rates) = 'object'),
      as_of date not null,
      updated_by text not null references users (id),
      updated_at timestamptz not null
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists group_rates');
}
