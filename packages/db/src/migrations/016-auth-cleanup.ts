import type { Knex } from 'knex';

/**
 * Ended sessions, expired refresh tokens and spent password reset tokens are deleted after a
 * stated retention (API.md §2.3, §2.4; the sweep is `sweepAuthRecords` in apps/api/src/auth), a
 * bounded slice at a time. These indexes let each slice find its rows without reading the table:
 * - `sessions_ended` (`revoked_at`, ended sessions only) and `sessions_idle` (`last_used_at`, live
 *   ones only: a session unused for the refresh-token lifetime has expired);
 * - `refresh_tokens_expires_at` and `password_resets_expires_at`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index sessions_ended on sessions (revoked_at) where revoked_at is not null');
  await knex.raw('create index sessions_idle on sessions (last_used_at) where revoked_at is null');
  await knex.raw('create index refresh_tokens_expires_at on refresh_tokens (expires_at)');
  await knex.raw('create index password_resets_expires_at on password_resets (expires_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists password_resets_expires_at');
  await knex.raw('drop index if exists refresh_tokens_expires_at');
  await knex.raw('drop index if exists sessions_idle');
  await knex.raw('drop index if exists sessions_ended');
}
