import type { Knex } from 'knex';
import { createPartitionBelow, createPartitions, readPartitionSettings, slotOf } from '../partitions';

/**
 * Bounded tables: `events` and `idempotency_records` become time-partitioned (PostgreSQL native range
 * partitioning), so that old rows go by dropping whole partitions (`maintainPartitions`), never by
 * row-by-row deletes. Works on a database that already has rows: they are copied into the new tables.
 *
 * - `tally_partitioning`: per family (`events`, `idempotency`) the partition width (a day; for
 *   `events` the unit of the width the maintainer picks from the retention) and how many widths are
 *   kept ready ahead (7).
 * - `events`, partitioned by `occurred_at`: columns as before; per partition primary key
 *   (`group_id`, `seq`); on the parent an index on `id` (the relay's marks), the partial index of
 *   unpublished events and the foreign key to `groups`.
 * - `idempotency_records`, partitioned by `slot` (the start of the day its record was written in):
 *   primary key (`user_id`, `key`, `path`, `slot`).
 * - `idempotency_claims`, partitioned by `slot`: one small row (`user_id`, `key`, `path`, `slot`,
 *   `expires_at`) per slot a record is live in, from its own slot to the slot of its expiry. Its
 *   primary key (`user_id`, `key`, `path`, `slot`) is what keeps a key from executing twice while a
 *   record of it is live, across slot boundaries: any later attempt within the retention falls in a
 *   slot the live record claimed. Written by a trigger on `idempotency_records`, so the record's write
 *   stays ONE insert (one CTE of a write's one statement).
 * - `tally_idempotency_replaceable(expires_at)`: true for an expired row (its place may be taken);
 *   raises `TY001` for a live one, which undoes the whole statement (the writer replays the record).
 *
 * Rows older than the first partition (one width before now) go into one `…_p_before` partition per
 * table, dropped whole when its upper bound is past the retention. Expired idempotency records are
 * not copied (they count as unseen already).
 */
const WIDTH = '1 day';
const AHEAD = 7;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table tally_partitioning (
      name text primary key check (name in ('events', 'idempotency')),
      width interval not null check (width >= interval '1 second'),
      ahead integer not null check (ahead >= 1)
    )`);
  await knex.raw(
    `insert into tally_partitioning (name, width, ahead) values ('events', ?, ?), ('idempotency', ?, ?)`,
    [WIDTH, AHEAD, WIDTH, AHEAD],
  );
  const settings = await readPartitionSettings(knex);
  const [{ now: nowValue } = { now: new Date() }] = (
    (await knex.raw('select now() as now')) as { rows: { now: Date | string }[] }
  ).rows;
  const now = new Date(nowValue).getTime();

  // ---- events --------------------------------------------------------------------------------
  await knex.raw('alter table events rename to events_unpartitioned');
  await knex.raw(`
    create table events (
      id text not null,
      group_id text not null,
      seq bigint not null,
      type text not null,
      actor_id text not null,
      occurred_at timestamptz not null,
      data jsonb not null,
      published_at timestamptz
    ) partition by range (occurred_at)`);
  // Yesterday to tomorrow, day by day: the maintainer (at every API process's boot, before it
  // listens) makes the partitions after those, as wide as the retention asks (`eventsWidthMs`).
  await partitionFor(knex, 'events', 'events_unpartitioned', 'occurred_at', settings.events.widthMs, now, 1);
  await knex.raw(
    `insert into events (id, group_id, seq, type, actor_id, occurred_at, data, published_at)
     select id, group_id, seq, type, actor_id, occurred_at, data, published_at from events_unpartitioned`,
  );
  await knex.raw('drop table events_unpartitioned');
  await knex.raw('create index events_id_idx on events (id)');
  await knex.raw('create index events_unpublished_idx on events (occurred_at) where published_at is null');
  await knex.raw(
    'alter table events add constraint events_group_id_foreign foreign key (group_id) references groups (id)',
  );

  // ---- idempotency ---------------------------------------------------------------------------
  await knex.raw(`
    create function tally_idempotency_width() returns interval language sql stable as
      $fn$ select width from tally_partitioning where name = 'idempotency' $fn$`);
  await knex.raw(`
    create function tally_idempotency_slot(at timestamptz) returns timestamptz language sql stable as
      $fn$ select date_bin(tally_idempotency_width(), at, timestamptz '1970-01-01 00:00:00+00') $fn$`);
  await knex.raw(`
    create function tally_idempotency_replaceable(expires_at timestamptz) returns boolean
    language plpgsql volatile as $fn$
    begin
      if expires_at > now() then
        raise exception 'a live durable idempotency record holds this key' using errcode = 'TY001';
      end if;
      return true;
    end
    $fn$`);

  await knex.raw('alter table idempotency_records rename to idempotency_records_unpartitioned');
  // Index names are per schema: the new table's primary key takes the old name.
  await knex.raw(
    'alter table idempotency_records_unpartitioned rename constraint idempotency_records_pkey to idempotency_records_unpartitioned_pkey',
  );
  await knex.raw(`
    create table idempotency_records (
      user_id text not null,
      key text not null,
      path text not null,
      slot timestamptz not null,
      fingerprint text not null,
      status integer not null,
      headers jsonb not null,
      body text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      primary key (user_id, key, path, slot)
    ) partition by range (slot)`);
  await knex.raw(`
    create table idempotency_claims (
      user_id text not null,
      key text not null,
      path text not null,
      slot timestamptz not null,
      expires_at timestamptz not null,
      primary key (user_id, key, path, slot)
    ) partition by range (slot)`);
  await knex.raw(`
    create function tally_idempotency_claim() returns trigger language plpgsql as $fn$
    begin
      insert into idempotency_claims (user_id, key, path, slot, expires_at)
      select new.user_id, new.key, new.path, s, new.expires_at
        from generate_series(new.slot, tally_idempotency_slot(greatest(new.expires_at, new.slot)),
                             tally_idempotency_width()) s
      on conflict (user_id, key, path, slot) do update set expires_at = excluded.expires_at
        where tally_idempotency_replaceable(idempotency_claims.expires_at);
      return null;
    end
    $fn$`);
  await knex.raw(`
    create trigger idempotency_records_claim after insert or update on idempotency_records
    for each row execute function tally_idempotency_claim()`);

  const width = settings.idempotency.widthMs;
  const live = 'from idempotency_records_unpartitioned where expires_at > now()';
  await partitionFor(
    knex,
    'idempotency_records',
    undefined,
    undefined,
    width,
    now,
    settings.idempotency.ahead,
    {
      sql: `select min(created_at) as lo, max(created_at) as hi ${live}`,
    },
  );
  await partitionFor(
    knex,
    'idempotency_claims',
    undefined,
    undefined,
    width,
    now,
    settings.idempotency.ahead,
    {
      sql: `select min(created_at) as lo, max(greatest(expires_at, created_at)) as hi ${live}`,
    },
  );
  await knex.raw(
    `insert into idempotency_records (user_id, key, path, slot, fingerprint, status, headers, body, created_at, expires_at)
     select user_id, key, path, tally_idempotency_slot(created_at), fingerprint, status, headers, body, created_at, expires_at
     ${live}`,
  );
  await knex.raw('drop table idempotency_records_unpartitioned');
}

/**
 * Creates the partitions `table` needs: from one width before now to `ahead` widths after it, plus
 * whatever the rows to be copied need (those older than that in one `…_p_before` partition).
 */
async function partitionFor(
  knex: Knex,
  table: string,
  source: string | undefined,
  column: string | undefined,
  widthMs: number,
  now: number,
  ahead: number,
  range?: { sql: string },
): Promise<void> {
  const query = range?.sql ?? `select min(${column}) as lo, max(${column}) as hi from ${source}`;
  const [row] = (
    (await knex.raw(query)) as { rows: { lo: Date | string | null; hi: Date | string | null }[] }
  ).rows;
  const first = slotOf(now, widthMs) - widthMs;
  const lo = row?.lo ? new Date(row.lo).getTime() : undefined;
  const hi = row?.hi ? new Date(row.hi).getTime() : undefined;
  if (lo !== undefined && lo < first) await createPartitionBelow(knex, table, first);
  const last = Math.max(now + (ahead + 1) * widthMs, hi === undefined ? 0 : hi + widthMs);
  await createPartitions(knex, table, widthMs, first, last);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table events rename to events_partitioned');
  await knex.raw(`
    create table events (
      id text primary key,
      group_id text not null references groups (id),
      seq bigint not null,
      type text not null,
      actor_id text not null,
      occurred_at timestamptz not null,
      data jsonb not null,
      published_at timestamptz,
      constraint events_group_id_seq_unique unique (group_id, seq)
    )`);
  await knex.raw(
    'insert into events select id, group_id, seq, type, actor_id, occurred_at, data, published_at from events_partitioned',
  );
  await knex.raw('drop table events_partitioned');
  await knex.raw('create index events_unpublished_idx on events (occurred_at) where published_at is null');

  await knex.raw('alter table idempotency_records rename to idempotency_records_partitioned');
  await knex.raw(
    'alter table idempotency_records_partitioned rename constraint idempotency_records_pkey to idempotency_records_partitioned_pkey',
  );
  await knex.raw(`
    create table idempotency_records (
      user_id text not null,
      key text not null,
      path text not null,
      fingerprint text not null,
      status integer not null,
      headers jsonb not null,
      body text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      primary key (user_id, key, path)
    )`);
  await knex.raw('create index idempotency_records_expires_at_index on idempotency_records (expires_at)');
  await knex.raw(
    `insert into idempotency_records (user_id, key, path, fingerprint, status, headers, body, created_at, expires_at)
     select distinct on (user_id, key, path) user_id, key, path, fingerprint, status, headers, body, created_at, expires_at
       from idempotency_records_partitioned where expires_at > now()
      order by user_id, key, path, expires_at desc`,
  );
  await knex.raw('drop table idempotency_records_partitioned');
  await knex.raw('drop table idempotency_claims');
  await knex.raw('drop function tally_idempotency_claim()');
  await knex.raw('drop function tally_idempotency_replaceable(timestamptz)');
  await knex.raw('drop function tally_idempotency_slot(timestamptz)');
  await knex.raw('drop function tally_idempotency_width()');
  await knex.raw('drop table tally_partitioning');
}
