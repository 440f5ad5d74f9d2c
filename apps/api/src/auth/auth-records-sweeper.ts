import { raw, runSql, type Sql, sql } from '@tally/db';
import type { Knex } from 'knex';
import { REFRESH_TOKEN_TTL_MS } from './sessions';

const DAY_MS = 86_400_000;

/** An ended session (signed out, revoked, reuse, password change or reset, account deleted) is kept this long. */
export const ENDED_SESSION_RETENTION_MS = 30 * DAY_MS;
/** A password reset token is kept this long after it expires, used or not. */
export const PASSWORD_RESET_RETENTION_MS = DAY_MS;
/** Rows one slice deletes at most (one short statement in its own transaction). */
export const SWEEP_SLICE_ROWS = 500;
/** Slices one run takes per kind of record at most; what is left waits for the next run. */
export const SWEEP_MAX_SLICES = 20;
/** How often each API process runs a sweep (one at a time across the fleet). */
export const SWEEP_INTERVAL_MS = 10 * 60_000;

/** An arbitrary constant shared by every Tally process: one sweep at a time. */
const SWEEP_LOCK_ID = 7_340_216;

export type SweptKind = 'ended_sessions' | 'expired_sessions' | 'refresh_tokens' | 'password_resets';

type Target = {
  kind: SweptKind;
  table: string;
  key: string;
  /** The rows due, given the cutoff. */
  where: (cutoff: Date) => Sql;
  cutoff: (now: number) => Date;
};

/**
 * What goes, and when (API.md §2.3, §2.4):
 * - a session that ended: `ENDED_SESSION_RETENTION_MS` after it ended;
 * - a session never ended but unused for the refresh-token lifetime (it expired then):
 *   `ENDED_SESSION_RETENTION_MS` after it expired;
 * - a refresh token (used, revoked or live): once it expired. Reuse detection holds for a token's
 *   lifetime; an expired token is refused as unknown, without ending anything.
 * - a password reset token: `PASSWORD_RESET_RETENTION_MS` after it expired, used or not (it counts
 *   towards the hourly limit for an hour after its creation, which is before its expiry plus a day).
 */
const TARGETS: readonly Target[] = [
  {
    kind: 'ended_sessions',
    table: 'sessions',
    key: 'id',
    where: (cutoff) => sql`revoked_at is not null and revoked_at < ${cutoff}`,
    cutoff: (now) => new Date(now - ENDED_SESSION_RETENTION_MS),
  },
  {
    kind: 'expired_sessions',
    table: 'sessions',
    key: 'id',
    where: (cutoff) => sql`revoked_at is null and last_used_at < ${cutoff}`,
    cutoff: (now) => new Date(now - REFRESH_TOKEN_TTL_MS - ENDED_SESSION_RETENTION_MS),
  },
  {
    kind: 'refresh_tokens',
    table: 'refresh_tokens',
    key: 'id',
    where: (cutoff) => sql`expires_at < ${cutoff}`,
    cutoff: (now) => new Date(now),
  },
  {
    kind: 'password_resets',
    table: 'password_resets',
    key: 'token_hash',
    where: (cutoff) => sql`expires_at < ${cutoff}`,
    cutoff: (now) => new Date(now - PASSWORD_RESET_RETENTION_MS),
  },
];

export type SweepOptions = {
  /** The time to sweep for (tests move it). @default new Date() */
  now?: Date;
  /** @default SWEEP_SLICE_ROWS */
  sliceRows?: number;
  /** @default SWEEP_MAX_SLICES */
  maxSlices?: number;
  /** Between two slices, after the first one committed (tests watch the sweep here). @default one turn of the event loop */
  betweenSlices?: (kind: SweptKind, deleted: number) => Promise<void> | void;
};

export type SweepResult = {
  /** False when another process was sweeping (nothing was done). */
  ran: boolean;
  /** Rows deleted by each slice, per kind, in order. */
  slices: Record<SweptKind, number[]>;
  /** Kinds that had more due than one run takes (the next run goes on). */
  unfinished: SweptKind[];
};

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One sweep: for each kind of record, slices of at most `sliceRows` rows deleted, each its own short
 * transaction under an advisory lock (another process sweeping: this run stops), rows locked by a
 * request skipped (`skip locked`, the next run takes them), at most `maxSlices` slices per kind. The
 * sweep holds no lock between slices, and lets the event loop turn.
 */
export async function sweepAuthRecords(knex: Knex, options: SweepOptions = {}): Promise<SweepResult> {
  const now = (options.now ?? new Date()).getTime();
  const sliceRows = options.sliceRows ?? SWEEP_SLICE_ROWS;
  const maxSlices = options.maxSlices ?? SWEEP_MAX_SLICES;
  const between = options.betweenSlices ?? nextTurn;
  const result: SweepResult = {
    ran: true,
    slices: { ended_sessions: [], expired_sessions: [], refresh_tokens: [], password_resets: [] },
    unfinished: [],
  };
  for (const target of TARGETS) {
    const cutoff = target.cutoff(now);
    for (let slice = 1; ; slice++) {
      const deleted = await knex.transaction(async (trx) => {
        const [lock] = await runSql<{ locked: boolean }>(
          trx,
          sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_ID}) as locked`,
        );
        if (lock?.locked !== true) return undefined;
        const [table, key] = [raw(target.table), raw(target.key)];
        const rows = await runSql(
          trx,
          sql`with doomed as (select ${key} from ${table} where ${target.where(cutoff)}
                               limit ${sliceRows} for update skip locked)
              delete from ${table} where ${key} in (select ${key} from doomed)
              returning 1`,
        );
        return rows.length;
      });
      if (deleted === undefined) return { ...result, ran: false };
      result.slices[target.kind].push(deleted);
      if (deleted < sliceRows) break;
      if (slice === maxSlices) {
        result.unfinished.push(target.kind);
        break;
      }
      await between(target.kind, deleted);
    }
  }
  return result;
}

type LoggerLike = { info(obj: object, msg: string): void };

/**
 * Runs `sweepAuthRecords` now and then every `intervalMs` until `stop()`. Every API process runs
 * one; the advisory lock lets one of them sweep at a time.
 */
export function createAuthRecordsSweeper(options: {
  knex: Knex;
  logger?: LoggerLike;
  /** @default SWEEP_INTERVAL_MS */
  intervalMs?: number;
  /** A failed run (the next one tries again). */
  onIgnoredError?: (reason: string, error: unknown) => void;
}) {
  const intervalMs = options.intervalMs ?? SWEEP_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const runOnce = async (): Promise<SweepResult | undefined> => {
    try {
      const result = await sweepAuthRecords(options.knex);
      const deleted = Object.fromEntries(
        Object.entries(result.slices).map(([kind, slices]) => [kind, slices.reduce((a, b) => a + b, 0)]),
      );
      if (Object.values(deleted).some((n) => n > 0))
        options.logger?.info({ deleted, unfinished: result.unfinished }, 'ended sessions and tokens deleted');
      return result;
    } catch (error) {
      options.onIgnoredError?.('auth_records_sweep', error);
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
    /** Sweeps at once, then periodically (the first run is not awaited by anyone who does not want it). */
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

export type AuthRecordsSweeper = ReturnType<typeof createAuthRecordsSweeper>;
