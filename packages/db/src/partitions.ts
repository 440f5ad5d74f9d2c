import type { Knex } from 'knex';
import { raw, runSql, sql } from './sql';

/**
 * Time-partitioned tables (migration 003) and their upkeep: partitions are created ahead of time and
 * dropped whole once everything in them is past its retention. Nothing is ever deleted row by row.
 *
 * Each family shares one partition width (`tally_partitioning.width`, a day unless changed) and one
 * count of partitions kept ready ahead (`tally_partitioning.ahead`):
 *
 * - `events`, by `occurred_at`; kept `EVENT_RETENTION_DAYS` (unset: for ever);
 * - `idempotency`: `idempotency_records` and `idempotency_claims`, by `slot` (the start of the width-long
 *   slot a row belongs to); kept `IDEMPOTENCY_TTL_SECONDS`, plus a margin for clock skew.
 *
 * Partition bounds are multiples of the width counted from the Unix epoch (UTC midnights for a day),
 * as PostgreSQL's `date_bin(width, t, '1970-01-01Z')` computes them.
 */
export type PartitionFamily = 'events' | 'idempotency';

type TableSpec = {
  family: PartitionFamily;
  /** What a partition gets besides what the parent gives every partition (columns, indexes, foreign keys). */
  ownDdl?: (partition: string) => string;
};

export const PARTITIONED_TABLES: Readonly<Record<string, TableSpec>> = {
  // A unique index on a partitioned table must include the partition key, so the seq backstop
  // (unique group_id, seq) is declared per partition: exact within a partition; across partitions the
  // guard on groups.last_seq is what numbers events (see ARCHITECTURE.md "Bounded tables").
  events: { family: 'events', ownDdl: (p) => `alter table ${p} add primary key (group_id, seq)` },
  idempotency_records: { family: 'idempotency' },
  idempotency_claims: { family: 'idempotency' },
};

/** An idempotency partition goes this long after its last record could have expired (clock skew between processes). */
export const IDEMPOTENCY_DROP_MARGIN_MS = 5 * 60_000;

/** The maintainer's advisory lock: one process at a time creates or drops partitions. */
const PARTITION_LOCK_ID = 7_340_212;

/** How long a drop waits for its lock on the parent before giving up until the next run (queries queue behind it). */
const DROP_LOCK_TIMEOUT = '200ms';

export type PartitionSettings = { widthMs: number; ahead: number };

export type PartitionInfo = {
  table: string;
  name: string;
  /** Lower bound, null for MINVALUE (the partition of rows migrated from before partitioning). */
  from: Date | null;
  /** Upper bound (exclusive), null for MAXVALUE. */
  to: Date | null;
};

type Db = Knex | Knex.Transaction;

/** The width and the partitions kept ahead, per family, as stored in `tally_partitioning`. */
export async function readPartitionSettings(db: Db): Promise<Record<PartitionFamily, PartitionSettings>> {
  const rows = await runSql<{ name: PartitionFamily; width_ms: string | number; ahead: number }>(
    db,
    sql`select name, extract(epoch from width) * 1000 as width_ms, ahead from tally_partitioning`,
  );
  const settings: Partial<Record<PartitionFamily, PartitionSettings>> = {};
  for (const row of rows) settings[row.name] = { widthMs: Number(row.width_ms), ahead: Number(row.ahead) };
  if (!settings.events || !settings.idempotency) throw new Error('tally_partitioning is incomplete');
  return settings as Record<PartitionFamily, PartitionSettings>;
}

/** The partitions of `table` with their bounds, oldest first. */
export async function listPartitions(db: Db, table: string): Promise<PartitionInfo[]> {
  // Bounds print as FOR VALUES FROM ('2026-11-26 00:00:00+00') TO (…), or MINVALUE/MAXVALUE.
  const rows = await runSql<{ name: string; lower: Date | string | null; upper: Date | string | null }>(
    db,
    sql`select c.relname as name,
              (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz as lower,
              (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz as upper
         from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = ${table}::regclass`,
  );
  const at = (v: Date | string | null) => (v === null ? null : new Date(v));
  return rows
    .map((r) => ({ table, name: r.name, from: at(r.lower), to: at(r.upper) }))
    .sort((a, b) => (a.from?.getTime() ?? -Infinity) - (b.from?.getTime() ?? -Infinity));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `events_p20261126` for a partition starting at a UTC midnight, `…_p20261126t101502` otherwise. */
export function partitionName(table: string, from: Date): string {
  const day = `${pad(from.getUTCFullYear(), 4)}${pad(from.getUTCMonth() + 1)}${pad(from.getUTCDate())}`;
  const time = `${pad(from.getUTCHours())}${pad(from.getUTCMinutes())}${pad(from.getUTCSeconds())}`;
  const ms = from.getUTCMilliseconds();
  return `${table}_p${day}${time === '000000' && ms === 0 ? '' : `t${time}${ms ? pad(ms, 3) : ''}`}`;
}

/** The start of the width-long slot holding `at` (what `date_bin(width, at, epoch)` returns). */
export const slotOf = (at: number, widthMs: number): number => Math.floor(at / widthMs) * widthMs;

/**
 * The width-aligned ranges within [from, to) that no partition of `existing` covers yet (cut short
 * where a partition of another width or alignment begins, so nothing overlaps).
 */
export function missingRanges(
  existing: readonly PartitionInfo[],
  from: number,
  to: number,
  widthMs: number,
): [number, number][] {
  const covered = existing
    .map((p) => [p.from?.getTime() ?? -Infinity, p.to?.getTime() ?? Infinity] as const)
    .sort((a, b) => a[0] - b[0]);
  const missing: [number, number][] = [];
  for (let start = slotOf(from, widthMs); start < to; start += widthMs) {
    let lo = start;
    let hi = start + widthMs;
    for (const [a, b] of covered) {
      if (b <= lo || a >= hi) continue;
      if (a <= lo) lo = Math.max(lo, b);
      else hi = Math.min(hi, a);
    }
    if (lo < hi) missing.push([lo, hi]);
  }
  return missing;
}

const literal = (at: Date | number) => `'${new Date(at).toISOString()}'`;

/**
 * Attaches a new partition `name` of `table` for `bounds`: created as a table of its own, then
 * attached, which takes only a SHARE UPDATE EXCLUSIVE lock on the parent (writes and reads go on).
 * DDL takes no parameters: names and bounds are Tally's own, never a request's.
 */
async function attach(db: Db, table: string, name: string, bounds: string): Promise<string> {
  const spec = PARTITIONED_TABLES[table];
  if (!spec) throw new Error(`${table} is not a partitioned table of Tally`);
  await runSql(
    db,
    sql`create table ${raw(name)} (like ${raw(table)} including defaults including constraints)`,
  );
  if (spec.ownDdl) await runSql(db, raw(spec.ownDdl(name)));
  await runSql(db, sql`alter table ${raw(table)} attach partition ${raw(name)} for values ${raw(bounds)}`);
  return name;
}

/** A new partition of `table` for [from, to). */
const attachPartition = (db: Db, table: string, from: number, to: number): Promise<string> =>
  attach(db, table, partitionName(table, new Date(from)), `from (${literal(from)}) to (${literal(to)})`);

/** Creates the partitions of `table` missing in [from, to) (width-aligned); returns their names. */
export async function createPartitions(
  db: Db,
  table: string,
  widthMs: number,
  from: number,
  to: number,
): Promise<string[]> {
  const existing = await listPartitions(db, table);
  const created: string[] = [];
  for (const [lo, hi] of missingRanges(existing, from, to, widthMs)) {
    created.push(await attachPartition(db, table, lo, hi));
  }
  return created;
}

/** One partition for everything below `to`: where rows from before partitioning go when they are older than `to`. */
export const createPartitionBelow = (db: Db, table: string, to: number): Promise<string> =>
  attach(db, table, `${table}_p_before`, `from (minvalue) to (${literal(to)})`);

export type MaintenanceOptions = {
  /** The time to maintain for (tests move it forward). @default new Date() */
  now?: Date;
  /** Events in partitions wholly older than this many days are dropped; undefined or 0: kept for ever. */
  eventRetentionDays?: number | undefined;
  /** Idempotency records' retention (IDEMPOTENCY_TTL_SECONDS). */
  idempotencyTtlSeconds: number;
  /** Wait for another process's maintenance to finish rather than skip this run. @default false */
  wait?: boolean;
};

export type MaintenanceResult = {
  /** False when another process held the maintenance lock (nothing was done). */
  ran: boolean;
  created: string[];
  dropped: string[];
};

/** How long a family's rows are kept, in ms; undefined for ever. */
function retentionMs(family: PartitionFamily, options: MaintenanceOptions): number | undefined {
  if (family === 'idempotency') return options.idempotencyTtlSeconds * 1000 + IDEMPOTENCY_DROP_MARGIN_MS;
  const days = options.eventRetentionDays;
  // A creation's durable record points at its event (migration 013): events are kept at least as
  // long as the records, whatever EVENT_RETENTION_DAYS says.
  return days
    ? Math.max(days * 86_400_000, options.idempotencyTtlSeconds * 1000 + IDEMPOTENCY_DROP_MARGIN_MS)
    : undefined;
}

/** About this many partitions of `events` hold what the retention keeps (see `eventsWidthMs`). */
export const EVENT_PARTITIONS_KEPT = 8;
/** With the event log kept for ever, one partition of `events` spans this many widths (days): a quarter. */
export const EVENT_WIDTHS_FOR_EVER = 90;

/**
 * The width of the `events` partitions made from now on: the family's width (a day) times
 * retention / `EVENT_PARTITIONS_KEPT` (at least 1), or a quarter when kept for ever. Every read of
 * the log by seq visits each partition, so their number is kept small whatever the retention: about
 * 8 kept plus those ahead, instead of one per day of retention (events are then kept between the
 * retention and an eighth more). The grid of `events` partitions matters for nothing else: a change
 * of retention only makes the next partitions wider or narrower.
 */
export function eventsWidthMs(settings: PartitionSettings, eventRetentionDays: number | undefined): number {
  const units = eventRetentionDays
    ? Math.max(1, Math.ceil((eventRetentionDays * 86_400_000) / settings.widthMs / EVENT_PARTITIONS_KEPT))
    : EVENT_WIDTHS_FOR_EVER;
  return units * settings.widthMs;
}

/**
 * How far ahead partitions must exist: `ahead` widths of the family (at least one partition of the
 * width used), plus, for the idempotency tables, the whole retention (claims reach a record's expiry).
 */
function horizonMs(
  family: PartitionFamily,
  settings: PartitionSettings,
  widthMs: number,
  options: MaintenanceOptions,
): number {
  const ahead = Math.max(settings.ahead * settings.widthMs, widthMs) + widthMs;
  return family === 'idempotency' ? ahead + options.idempotencyTtlSeconds * 1000 : ahead;
}

async function takeLock(trx: Knex.Transaction, wait: boolean): Promise<boolean> {
  if (wait) {
    await runSql(
      trx,
      sql`select set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)`,
    );
    await runSql(trx, sql`select pg_advisory_xact_lock(${PARTITION_LOCK_ID})`);
    return true;
  }
  const [row] = await runSql<{ locked: boolean }>(
    trx,
    sql`select pg_try_advisory_xact_lock(${PARTITION_LOCK_ID}) as locked`,
  );
  return row?.locked === true;
}

/**
 * One maintenance run: under an advisory lock (one process at a time; the others skip), creates the
 * partitions due from one width before `now` to the horizon ahead, then drops, each in its own short
 * transaction, every partition whose upper bound is older than the retention. A drop that cannot
 * get its lock on the parent at once (a long query on the table) is left to the next run.
 */
export async function maintainPartitions(
  knex: Knex,
  options: MaintenanceOptions,
): Promise<MaintenanceResult> {
  const now = (options.now ?? new Date()).getTime();
  const wait = options.wait ?? false;
  const result: MaintenanceResult = { ran: false, created: [], dropped: [] };
  const doomed = await knex.transaction(async (trx) => {
    if (!(await takeLock(trx, wait))) return undefined;
    result.ran = true;
    const settings = await readPartitionSettings(trx);
    const drop: PartitionInfo[] = [];
    for (const [table, spec] of Object.entries(PARTITIONED_TABLES)) {
      const family = settings[spec.family];
      const widthMs =
        spec.family === 'events' ? eventsWidthMs(family, options.eventRetentionDays) : family.widthMs;
      const from = now - family.widthMs;
      const to = now + horizonMs(spec.family, family, widthMs, options);
      result.created.push(...(await createPartitions(trx, table, widthMs, from, to)));
      const keep = retentionMs(spec.family, options);
      if (keep === undefined) continue;
      for (const partition of await listPartitions(trx, table)) {
        if (partition.to !== null && partition.to.getTime() + keep <= now) drop.push(partition);
      }
    }
    return drop;
  });
  for (const partition of doomed ?? []) {
    const dropped = await knex.transaction(async (trx) => {
      if (!(await takeLock(trx, wait))) return false;
      if (
        PARTITIONED_TABLES[partition.table]?.family === 'idempotency' &&
        (await holdsLive(trx, partition, now))
      )
        return false;
      if (!wait) await runSql(trx, sql`select set_config('lock_timeout', ${DROP_LOCK_TIMEOUT}, true)`);
      await runSql(trx, sql`drop table if exists ${raw(partition.name)}`);
      return true;
    });
    if (dropped) result.dropped.push(partition.name);
  }
  return result;
}

/**
 * Whether an idempotency partition due by its bound still holds a record or claim that is not
 * expired (plus the margin): one written with a longer `IDEMPOTENCY_TTL_SECONDS` than this
 * process's, or migrated from before partitioning. Such a partition stays until it holds none: a key
 * never counts as unseen before its own expiry. One read of a partition that is about to go.
 */
async function holdsLive(trx: Knex.Transaction, partition: PartitionInfo, now: number): Promise<boolean> {
  const [row] = await runSql<{ latest: Date | string | null }>(
    trx,
    sql`select max(expires_at) as latest from ${raw(partition.name)}`,
  );
  const latest = row?.latest;
  return (
    latest !== null && latest !== undefined && new Date(latest).getTime() + IDEMPOTENCY_DROP_MARGIN_MS > now
  );
}

type LoggerLike = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

/**
 * Runs `maintainPartitions` now and then every `intervalMs` (10 minutes by default) until `stop()`.
 * Every API process runs one; the advisory lock lets one of them work at a time, the others skip.
 */
export function createPartitionMaintainer(
  options: Omit<MaintenanceOptions, 'now' | 'wait'> & {
    knex: Knex;
    logger?: LoggerLike;
    intervalMs?: number;
    /** A failed run (the next one tries again); counted by the composition root. @default a warn line */
    onIgnoredError?: (reason: string, error: unknown) => void;
  },
) {
  const { knex, logger } = options;
  const ignored =
    options.onIgnoredError ??
    ((_reason: string, err: unknown) =>
      logger?.warn({ err }, 'partition maintenance failed; the next run tries again'));
  const intervalMs = options.intervalMs ?? 10 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const runOnce = async (): Promise<MaintenanceResult | undefined> => {
    try {
      const result = await maintainPartitions(knex, {
        eventRetentionDays: options.eventRetentionDays,
        idempotencyTtlSeconds: options.idempotencyTtlSeconds,
      });
      if (result.created.length > 0 || result.dropped.length > 0) {
        logger?.info({ created: result.created, dropped: result.dropped }, 'partitions maintained');
      }
      return result;
    } catch (err) {
      ignored('partition_maintenance', err);
      return undefined;
    }
  };

  const loop = (): Promise<void> => {
    running = runOnce().then(() => {
      if (!stopped) timer = setTimeout(loop, intervalMs).unref();
    });
    return running;
  };

  return {
    /** Runs once at once, then periodically; resolves when the first run is over (failed runs are logged). */
    start(): Promise<void> {
      if (running !== undefined || stopped) return running ?? Promise.resolve();
      return loop();
    },
    runOnce,
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

export type PartitionMaintainer = ReturnType<typeof createPartitionMaintainer>;
