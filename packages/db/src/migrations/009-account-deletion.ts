import type { Knex } from 'knex';

/**
 * Deleted accounts (API.md §11.3, `DELETE /v1/me`). The row stays, because every expense,
 * settlement, event and membership that names the user must keep pointing at something; what
 * identified the person goes: `email`, `email_normalized` and `password_hash` become null, `name`
 * becomes "Deleted user", `status` becomes `deleted` and `deleted_at` says when.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table users add column deleted_at timestamptz');
  await knex.raw('alter table users drop constraint users_status_check');
  await knex.raw(
    `alter table users add constraint users_status_check check (status in ('active', 'pending', 'deleted'))`,
  );
  await knex.raw('alter table users drop constraint users_pending_check');
  // A deleted account keeps nothing to sign in with; `pending_group_id` may stay (a pending member
  // is never deleted this way, but the column is not the person's data).
  await knex.raw(`alter table users add constraint users_pending_check check (
    (status = 'active' and email_normalized is not null and password_hash is not null)
    or (status = 'pending' and email_normalized is null and password_hash is null and pending_group_id is not null)
    or (status = 'deleted' and email is null and email_normalized is null and password_hash is null
        and pending_email is null and pending_email_normalized is null and deleted_at is not null))`);
}

export async function down(knex: Knex): Promise<void> {
  // A deleted account cannot go back into the old schema (it has no email and no password).
  const { rows } = (await knex.raw(`select count(*)::int as n from users where status = 'deleted'`)) as {
    rows: { n: number }[];
  };
  if (Number(rows[0]?.n ?? 0) > 0)
    throw new Error('009-account-deletion: deleted users exist; cannot migrate down');
  await knex.raw('alter table users drop constraint users_pending_check');
  await knex.raw(`alter table users add constraint users_pending_check check (
    (status = 'active' and email_normalized is not null and password_hash is not null)
    or (status = 'pending' and email_normalized is null and password_hash is null and pending_group_id is not null))`);
  await knex.raw('alter table users drop constraint users_status_check');
  await knex.raw(
    `alter table users add constraint users_status_check check (status in ('active', 'pending'))`,
  );
  await knex.raw('alter table users drop column deleted_at');
}
