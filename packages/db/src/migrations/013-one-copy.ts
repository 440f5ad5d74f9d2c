import type { Knex } from 'knex';

/**
 * One copy of each fact (issue 23). A keyed creation used to write its expense's JSON three times:
 * the row, the event's `data` and the durable idempotency record's `body`. Now:
 *
 * - `events.data` is `json` (the text as written), not `jsonb`: a write stores its event's text
 *   without converting it, and `data -> 'expense'` gives back, byte for byte, the text the writer
 *   serialised (jsonb would reorder keys and add spaces). Nothing queries `data` by content (no
 *   jsonb operator or index uses it).
 * - `idempotency_records.body` may be null: the record of a reply whose body is a value its event
 *   carries (a created expense is `data.expense`) points at that event instead (`body_event_group`,
 *   `body_event_seq`, `body_event_at` — the event's partition key, so the lookup visits one
 *   partition — and `body_event_field`). The event is immutable, so a replay still answers the
 *   original response after the expense is edited or deleted; the events partitions are kept at
 *   least as long as the records (`maintainPartitions`). Records written before this migration keep
 *   their `body` and replay from it.
 * - The claims trigger (`tally_idempotency_claim`, migration 003) reads the slot width once instead of
 *   three times (each read is a query of `tally_partitioning`): the same slots, about a tenth less of
 *   the trigger's time (measured with EXPLAIN ANALYZE).
 */
const CLAIM_BEFORE = `
    create or replace function tally_idempotency_claim() returns trigger language plpgsql as $fn$
    begin
      insert into idempotency_claims (user_id, key, path, slot, expires_at)
      select new.user_id, new.key, new.path, s, new.expires_at
        from generate_series(new.slot, tally_idempotency_slot(greatest(new.expires_at, new.slot)),
                             tally_idempotency_width()) s
      on conflict (user_id, key, path, slot) do update set expires_at = excluded.expires_at
        where tally_idempotency_replaceable(idempotency_claims.expires_at);
      return null;
    end
    $fn$`;

/** `tally_idempotency_slot` inlined, with the width read once: the same slots. */
const CLAIM = `
    create or replace function tally_idempotency_claim() returns trigger language plpgsql as $fn$
    declare
      width constant interval := tally_idempotency_width();
    begin
      insert into idempotency_claims (user_id, key, path, slot, expires_at)
      select new.user_id, new.key, new.path, s, new.expires_at
        from generate_series(new.slot,
                             date_bin(width, greatest(new.expires_at, new.slot), timestamptz '1970-01-01 00:00:00+00'),
                             width) s
      on conflict (user_id, key, path, slot) do update set expires_at = excluded.expires_at
        where tally_idempotency_replaceable(idempotency_claims.expires_at);
      return null;
    end
    $fn$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(CLAIM);
  await knex.raw('alter table events alter column data type json using data::json');
  await knex.raw(`
    alter table idempotency_records
      alter column body drop not null,
      add column body_event_group text,
      add column body_event_seq bigint,
      add column body_event_at timestamptz,
      add column body_event_field text`);
  await knex.raw(`
    alter table idempotency_records add constraint idempotency_records_body_check
      check (body is not null or (body_event_group is not null and body_event_seq is not null
                                  and body_event_at is not null and body_event_field is not null))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    update idempotency_records r set body = (
      select (e.data -> r.body_event_field)::text from events e
       where e.group_id = r.body_event_group and e.seq = r.body_event_seq and e.occurred_at = r.body_event_at)
     where r.body is null`);
  await knex.raw(`
    alter table idempotency_records
      drop constraint idempotency_records_body_check,
      alter column body set not null,
      drop column body_event_group,
      drop column body_event_seq,
      drop column body_event_at,
      drop column body_event_field`);
  await knex.raw('alter table events alter column data type jsonb using data::jsonb');
  await knex.raw(CLAIM_BEFORE);
}
