import type { Knex } from 'knex';

/**
 * Webhooks (API.md §12, issue 33): endpoints a group's members register, and the log of what was
 * sent to each.
 *
 * - `webhook_endpoints`: one row per endpoint of one group. `delivered_seq` is its cursor in the
 *   group's event log (every event up to it is done: delivered, or filtered out by `event_types`);
 *   deliveries come from the log, never from the in-process notification. `lease_owner` and
 *   `lease_until` are the claim of the process sending for it (`for update skip locked`, a lease
 *   that lapses when the process dies), so one endpoint is sent by one process at a time, in seq
 *   order. `previous_secret` stays valid until `previous_secret_expires_at` after a rotation.
 * - `webhook_deliveries`: one row per (endpoint, event) the endpoint was sent or is being sent; its
 *   id is the `webhook-id`, derived from the endpoint and the seq so that a retry after a crash has
 *   the same one. The body is kept, so that "send again" works after the event left the log.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table webhook_endpoints (
      id text primary key,
      group_id text not null references groups (id) on delete cascade,
      created_by text not null,
      url text not null,
      description text not null default '',
      event_types text[] not null default '{}',
      secret text not null,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      enabled boolean not null default true,
      disabled_reason text,
      disabled_at timestamptz,
      delivered_seq bigint not null,
      retry_at timestamptz,
      skipped_events bigint not null default 0,
      lease_owner text,
      lease_until timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
  await knex.raw('create index webhook_endpoints_group_idx on webhook_endpoints (group_id, created_at, id)');
  await knex.raw('create index webhook_endpoints_enabled_idx on webhook_endpoints (group_id) where enabled');
  await knex.raw(`
    create table webhook_deliveries (
      id text primary key,
      endpoint_id text not null references webhook_endpoints (id) on delete cascade,
      seq bigint not null,
      event_type text not null,
      body text not null,
      status text not null,
      attempts integer not null default 0,
      last_status_code integer,
      last_error text,
      last_latency_ms integer,
      last_attempt_at timestamptz,
      next_attempt_at timestamptz,
      resend boolean not null default false,
      created_at timestamptz not null,
      constraint webhook_deliveries_endpoint_seq_unique unique (endpoint_id, seq)
    )`);
  await knex.raw(
    'create index webhook_deliveries_resend_idx on webhook_deliveries (endpoint_id) where resend',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists webhook_deliveries');
  await knex.raw('drop table if exists webhook_endpoints');
}
