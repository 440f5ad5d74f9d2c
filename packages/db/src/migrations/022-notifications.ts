import type { Knex } from 'knex';

/**
 * Notifications (API.md §13, issue 33): push subscriptions, per-user preferences, and the
 * notifications themselves, driven from the event log.
 *
 * - `notification_cursors`: per group, the last `seq` whose events became notifications. Existing
 *   groups start at their current `last_seq`, so history from before this migration notifies nobody.
 * - `notification_deliveries`: one row per notification and recipient channel (email, or one push
 *   subscription). The unique index on (source, user, channel, subscription) is the dedupe-by-id
 *   rule: a notification is queued at most once however many processes read the same events.
 *   Senders claim due rows with `for update skip locked` and a lease: a claim moves `next_attempt_at`
 *   a lease ahead, so a row whose sender died is due again once the lease is over. `skipped` marks a
 *   weekly digest a user did not want (so the week's pass does not look at them again).
 * - `notification_reminders`: when a member last reminded another in a group (the per-pair limit).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table push_subscriptions (
      id text primary key,
      user_id text not null references users (id),
      endpoint text not null unique,
      p256dh text not null,
      auth text not null,
      created_at timestamptz not null
    )`);
  await knex.raw('create index push_subscriptions_user on push_subscriptions (user_id, created_at)');
  await knex.raw(`
    create table notification_settings (
      user_id text primary key references users (id),
      settings jsonb not null,
      updated_at timestamptz not null
    )`);
  await knex.raw(`
    create table notification_cursors (
      group_id text primary key references groups (id) on delete cascade,
      last_seq bigint not null
    )`);
  await knex.raw('insert into notification_cursors (group_id, last_seq) select id, last_seq from groups');
  await knex.raw(`
    create table notification_deliveries (
      id bigint generated always as identity primary key,
      source_id text not null,
      user_id text not null references users (id),
      channel text not null check (channel in ('push', 'email')),
      subscription_id text references push_subscriptions (id) on delete cascade,
      kind text not null,
      content jsonb not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed', 'skipped')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      created_at timestamptz not null,
      sent_at timestamptz,
      last_error text
    )`);
  await knex.raw(
    `create unique index notification_deliveries_once
       on notification_deliveries (source_id, user_id, channel, coalesce(subscription_id, ''))`,
  );
  await knex.raw(
    `create index notification_deliveries_due on notification_deliveries (next_attempt_at) where status = 'pending'`,
  );
  await knex.raw('create index notification_deliveries_created on notification_deliveries (created_at)');
  await knex.raw(`
    create table notification_reminders (
      group_id text not null references groups (id) on delete cascade,
      from_user_id text not null references users (id),
      to_user_id text not null references users (id),
      last_sent_at timestamptz not null,
      primary key (group_id, from_user_id, to_user_id)
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists notification_reminders');
  await knex.raw('drop table if exists notification_deliveries');
  await knex.raw('drop table if exists notification_cursors');
  await knex.raw('drop table if exists notification_settings');
  await knex.raw('drop table if exists push_subscriptions');
}
