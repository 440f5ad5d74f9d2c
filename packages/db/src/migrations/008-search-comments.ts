import type { Knex } from 'knex';

/**
 * Search and filters on expenses, and comments (API.md §5.1, §5.2).
 *
 * - `expenses.search_text`: description and category, normalized in the app (lower case, NFKD,
 *   combining marks stripped; `@tally/domain` `expenseSearchText`), so accents fold without the
 *   `unaccent` extension. SQL cannot reproduce JavaScript's Unicode tables exactly, so existing rows
 *   are filled here in JS, in batches, by a frozen copy of that function (a migration must not
 *   change meaning when the app's code does). A query word matches as a substring (`like`), which a
 *   `pg_trgm` GIN index serves; PGlite loads `pg_trgm` from its contrib (`createKnex`).
 * - `expenses.payer_ids` and `involved_ids` (payers, and payers plus the split's users): text
 *   arrays with GIN indexes for `paidBy` and `involves` (`&&`). Computed from the JSON exactly, so
 *   the migration fills them in SQL.
 * - `expenses_group_updated_idx` for `updatedAfter` (sync: deleted rows too), and
 *   `expenses_group_category_idx` for `category`.
 * - `comments`: on an expense or a settlement, in the target's group.
 */

/** Frozen copy of `expenseSearchText` (packages/domain/src/search-text.ts) as of this migration. */
const searchTextOf = (description: string, category: string | null): string => {
  const normalize = (text: string) => text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
  return `${normalize(description)}\n${normalize(category ?? '')}`;
};

const BATCH = 1000;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');
  await knex.raw(`alter table expenses add column search_text text not null default '',
                                       add column payer_ids text[] not null default '{}',
                                       add column involved_ids text[] not null default '{}'`);
  await knex.raw(`
    update expenses set
      payer_ids = array(select distinct p->>'userId' from jsonb_array_elements(paid_by) p),
      involved_ids = array(
        select p->>'userId' from jsonb_array_elements(paid_by) p
        union
        select case when jsonb_typeof(b) = 'string' then b #>> '{}' else b->>'userId' end
          from jsonb_array_elements(split->'between') b)`);
  // Keyset batches by id: memory stays bounded whatever the table's size.
  let after = '';
  for (;;) {
    const rows: { id: string; description: string; category: string | null }[] = await knex('expenses')
      .select('id', 'description', 'category')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH);
    if (rows.length === 0) break;
    await knex.raw(
      `update expenses e set search_text = v.search_text
         from (select unnest(?::text[]) as id, unnest(?::text[]) as search_text) v where e.id = v.id`,
      [rows.map((r) => r.id), rows.map((r) => searchTextOf(r.description, r.category))],
    );
    after = (rows[rows.length - 1] as { id: string }).id;
  }
  await knex.raw('create index expenses_search_trgm_idx on expenses using gin (search_text gin_trgm_ops)');
  await knex.raw('create index expenses_payer_ids_idx on expenses using gin (payer_ids)');
  await knex.raw('create index expenses_involved_ids_idx on expenses using gin (involved_ids)');
  await knex.raw('create index expenses_group_updated_idx on expenses (group_id, updated_at, id)');
  await knex.raw(
    `create index expenses_group_category_idx on expenses (group_id, category, occurred_at desc, id desc)
       where deleted_at is null`,
  );

  await knex.raw(`
    create table comments (
      id text primary key,
      group_id text not null references groups (id),
      target_type text not null check (target_type in ('expense', 'settlement')),
      target_id text not null,
      author_id text not null references users (id),
      text text not null,
      created_at timestamptz not null,
      deleted_at timestamptz
    )`);
  // A target's comments, oldest first (the list's order and its cursor).
  await knex.raw(
    `create index comments_target_idx on comments (target_type, target_id, created_at, id)
       where deleted_at is null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists comments');
  for (const index of [
    'expenses_group_category_idx',
    'expenses_group_updated_idx',
    'expenses_involved_ids_idx',
    'expenses_payer_ids_idx',
    'expenses_search_trgm_idx',
  ]) {
    await knex.raw(`drop index if exists ${index}`);
  }
  await knex.raw(`alter table expenses drop column if exists search_text,
                                       drop column if exists payer_ids,
                                       drop column if exists involved_ids`);
}
