import type { Knex } from 'knex';

/**
 * Verified email addresses (API.md §2.5).
 *
 * - `users.email_verified_at`: when the account proved it receives mail at its login email (it
 *   opened a link mailed there); null until then. Only a verified address claims a pending member
 *   by email (API.md §3.3). Accounts from before this migration start unverified.
 * - `email_verifications`: the links mailed to confirm an address, the account's own (at
 *   registration, or sent again) or a new one it asked to change to (`POST /v1/me/email`), which
 *   becomes the login email only when confirmed. As for password resets, only the SHA-256 of a
 *   token is kept; a token is used at most once (`used_at`) and not after `expires_at`;
 *   `created_at` bounds the mails one account gets per hour. A newer link supersedes the older ones
 *   (their `used_at` is set), and the rows of an account older than that hour that can no longer be
 *   used are deleted whenever it gets a new one, so an account never has more than an hour's mails
 *   and one live link here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table users add column email_verified_at timestamptz');
  await knex.raw(`
    create table email_verifications (
      token_hash text primary key,
      user_id text not null references users (id),
      email text not null,
      email_normalized text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`);
  await knex.raw(
    'create index email_verifications_user_created on email_verifications (user_id, created_at)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists email_verifications');
  await knex.raw('alter table users drop column if exists email_verified_at');
}
