import type { Knex } from 'knex';

/**
 * Password reset tokens (API.md §2). Only the SHA-256 of a token is kept: whoever reads the table
 * cannot reset anybody's password. A token is used at most once (`used_at`, set by a conditional
 * UPDATE) and not after `expires_at`; `created_at` bounds how many reset mails one account gets
 * per hour (`PASSWORD_RESET_MAX_PER_HOUR`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table password_resets (
      token_hash text primary key,
      user_id text not null references users (id),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`);
  await knex.raw('create index password_resets_user_created on password_resets (user_id, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists password_resets');
}
