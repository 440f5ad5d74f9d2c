import type { Knex } from 'knex';

/**
 * People who are not on Tally yet (API.md §3.1).
 *
 * - `users.status`: `active` (an account) or `pending` (a member added by name, who can pay, owe and
 *   settle but never sign in). A pending user has no login email and no password (`email`,
 *   `email_normalized`, `password_hash` become nullable; the unique index on `email_normalized` allows
 *   any number of nulls), belongs to the one group that added it (`pending_group_id`), and keeps the
 *   address the group typed in `pending_email` / `pending_email_normalized`: NOT unique, so the real
 *   person can still register with it and several groups can add the same friend.
 * - `group_members.claimed_by`: the account that took over a pending member. The pending member's
 *   membership row stays (every expense, settlement and event that names it stays valid); the group's
 *   snapshot reads it as an alias of the account.
 * - `invites`: invite links. Only the SHA-256 of a code is kept, never the code.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table users add column status text not null default 'active'`);
  await knex.raw(
    `alter table users add constraint users_status_check check (status in ('active', 'pending'))`,
  );
  await knex.raw('alter table users alter column email drop not null');
  await knex.raw('alter table users alter column email_normalized drop not null');
  await knex.raw('alter table users alter column password_hash drop not null');
  await knex.raw('alter table users add column pending_email text');
  await knex.raw('alter table users add column pending_email_normalized text');
  await knex.raw('alter table users add column pending_group_id text references groups (id)');
  // An account that signs in always has its email and password; a pending user has neither.
  await knex.raw(`alter table users add constraint users_pending_check check (
    (status = 'active' and email_normalized is not null and password_hash is not null)
    or (status = 'pending' and email_normalized is null and password_hash is null and pending_group_id is not null))`);
  await knex.raw(
    'create index users_pending_email_idx on users (pending_email_normalized) where pending_email_normalized is not null',
  );

  await knex.raw('alter table group_members add column claimed_by text references users (id)');
  // Group reads list each account's claimed ids: few rows, found without scanning the group's members.
  await knex.raw(
    'create index group_members_claimed_idx on group_members (group_id, claimed_by) where claimed_by is not null',
  );

  await knex.raw(`
    create table invites (
      id text primary key,
      group_id text not null references groups (id),
      code_hash text not null unique,
      created_by text not null references users (id),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      revoked_at timestamptz
    )`);
  await knex.raw('create index invites_group_idx on invites (group_id, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  // Pending users and everything naming them cannot go back into the old schema: refuse rather than lose them.
  const [{ n } = { n: 0 }] = (
    (await knex.raw(`select count(*)::int as n from users where status = 'pending'`)) as {
      rows: { n: number }[];
    }
  ).rows;
  if (Number(n) > 0) throw new Error('004-pending-members: pending members exist; cannot migrate down');
  await knex.raw('drop table if exists invites');
  await knex.raw('alter table group_members drop column if exists claimed_by');
  await knex.raw('drop index if exists users_pending_email_idx');
  await knex.raw('alter table users drop constraint if exists users_pending_check');
  await knex.raw('alter table users drop column if exists pending_group_id');
  await knex.raw('alter table users drop column if exists pending_email_normalized');
  await knex.raw('alter table users drop column if exists pending_email');
  await knex.raw('alter table users alter column password_hash set not null');
  await knex.raw('alter table users alter column email_normalized set not null');
  await knex.raw('alter table users alter column email set not null');
  await knex.raw('alter table users drop constraint if exists users_status_check');
  await knex.raw('alter table users drop column if exists status');
}
