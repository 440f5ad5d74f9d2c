import type { Knex } from 'knex';

/**
 * API keys (API.md §2.6): a user's long-lived credentials for scripts. Only the SHA-256 of the
 * secret is kept (`secret_hash`, unique: a request's key is found by it in one index lookup), with
 * the non-secret `prefix` the lists show. Revoking deletes the row, so a lookup finds nothing on
 * every process at once; `last_used_at` is written at most once a minute per key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table api_keys (
      id text primary key,
      user_id text not null references users (id),
      name text not null,
      scopes text[] not null,
      prefix text not null,
      secret_hash text not null unique,
      created_at timestamptz not null,
      expires_at timestamptz,
      last_used_at timestamptz
    )`);
  await knex.raw('create index api_keys_user on api_keys (user_id, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists api_keys');
}
