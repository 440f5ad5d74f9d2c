import type { Knex } from 'knex';

/**
 * Recurring expenses (API.md §6a). A schedule is a row of `recurring_expenses`; each occurrence is an
 * ordinary expense that names its schedule and its local date. The unique index on
 * (`recurring_id`, `occurrence_date`) is what makes an occurrence exist at most once whatever the
 * processes do: a second insert of the same occurrence fails (its id, derived from the same pair,
 * is the primary key's second line of defence). Dates are `YYYY-MM-DD` text: local dates of the
 * schedule's time zone, compared as text (they sort as dates), never turned into instants by a driver.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('recurring_expenses', (t) => {
    t.text('id').primary();
    t.text('group_id').notNullable().references('groups.id');
    // The body of POST /v1/expenses without groupId and occurredAt.
    t.jsonb('expense').notNullable();
    t.text('every').notNullable();
    t.text('starts_on').notNullable();
    t.text('until');
    t.text('time_zone').notNullable();
    // The index of the next occurrence to create (0 is starts_on), and when it is due (the start of
    // its local date); null once the schedule is over (past `until`) or deleted.
    t.integer('next_index').notNullable().defaultTo(0);
    t.timestamp('next_due_at', { useTz: true });
    t.text('created_by').notNullable().references('users.id');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('deleted_at', { useTz: true });
  });
  await knex.raw(
    `alter table recurring_expenses add constraint recurring_expenses_every_check
       check (every in ('week', '2 weeks', 'month', 'year'))`,
  );
  // What the schedulers look for: the due schedules, oldest first.
  await knex.raw(
    'create index recurring_expenses_due_idx on recurring_expenses (next_due_at) where deleted_at is null and next_due_at is not null',
  );
  await knex.raw(
    'create index recurring_expenses_group_idx on recurring_expenses (group_id, created_at desc, id desc) where deleted_at is null',
  );
  await knex.schema.alterTable('expenses', (t) => {
    t.text('recurring_id').references('recurring_expenses.id');
    t.text('occurrence_date');
  });
  await knex.raw(
    'create unique index expenses_occurrence_unique on expenses (recurring_id, occurrence_date) where recurring_id is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists expenses_occurrence_unique');
  await knex.schema.alterTable('expenses', (t) => {
    t.dropColumn('occurrence_date');
    t.dropColumn('recurring_id');
  });
  await knex.schema.dropTable('recurring_expenses');
}
