import type { Knex } from 'knex';

/**
 * Sessions (API.md §2): each refresh-token family is a signed-in device. The row's id is the family
 * id (the access token's `sid`); it keeps the device's user agent and IP as they were at sign-in,
 * when it was last refreshed, and when and why it ended (`revoked_at`, `revoked_reason`: `logout`,
 * `revoked`, `reuse`, `deleted`, …). Ending a session revokes its refresh tokens in the same
 * statement; a refresh updates `last_used_at` and is refused once the session ended.
 *
 * Back-fill: every family with a live refresh token (neither revoked nor expired) becomes a live
 * session, with unknown device (null user agent and IP), created at its first token and last used
 * at its newest one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table sessions (
      id text primary key,
      user_id text not null references users (id),
      user_agent text,
      ip text,
      created_at timestamptz not null,
      last_used_at timestamptz not null,
      revoked_at timestamptz,
      revoked_reason text
    )`);
  await knex.raw(
    'create index sessions_user_live on sessions (user_id, last_used_at desc) where revoked_at is null',
  );
  await knex.raw(
    `insert into sessions (id, user_id, created_at, last_used_at)
     select t.family_id, min(t.user_id), min(t.created_at), max(t.created_at)
       from refresh_tokens t
      group by t.family_id
     having bool_or(t.revoked_at is null and t.used_at is null and t.expires_at > now())`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists sessions');
}
