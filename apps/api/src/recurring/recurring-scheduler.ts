import type { Knex } from 'knex';
import { isUniqueViolation } from '../db-errors';
import { createExpensesService } from '../expenses/expenses.service';
import { ok } from '../http/reply';
import { createIdMaker } from '../ids';
import type { Announcer } from '../ledger/announcer';
import type { GroupGate } from '../ledger/group-access';
import { createWriteRunner, type OnIgnoredError } from '../ledger/write-runner';
import { createRecurringService, type OccurrenceStep } from './recurring.service';

export type RecurringSchedulerOptions = {
  knex: Knex;
  announcer: Announcer;
  /** The process's per-group write gate, shared with the API's writes. */
  groupGate?: GroupGate;
  /** How often this process looks for due occurrences, in ms; 0: never (the scheduler stays off). */
  pollMs: number;
  /** The clock the due dates are compared with (injectable for tests). @default () => new Date() */
  now?: () => Date;
  /** Schedules looked at per round. @default 20 */
  batchSize?: number;
  onIgnoredError?: OnIgnoredError;
};

/** The advisory-lock class of schedules being worked on (the object is `hashtext(id)`). */
const SCHEDULE_LOCK_CLASS = 7_340_212;

const DUE = `select id from recurring_expenses
               where next_due_at <= ? and deleted_at is null
               order by next_due_at, id limit ?`;

type Connection = { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * Creates the occurrences of recurring expenses (API.md §6a) in every API process: no leader, so no
 * crash can strand the work. Every `pollMs` it reads the due schedules, oldest due first, and for
 * each one it can claim creates its due occurrences in order until it is caught up.
 *
 * Exactly once does not rest on the claim: each occurrence is ONE group change that inserts its
 * expense and moves the schedule's pointer from exactly its index (`next_index = N`), under the
 * group's guard; a second attempt finds the pointer moved, and the expense's derived id and the
 * unique (`recurring_id`, `occurrence_date`) index refuse a second copy anyway. The claim only
 * spreads the work: a session advisory lock per schedule, taken with `pg_try_advisory_lock` on a
 * connection the round holds, so two processes do not work on one schedule at once, and a process
 * that dies lets go of its claims with its connection (no lease to wait out). The embedded database
 * has one process and one connection: no claim there.
 */
export function createRecurringScheduler(options: RecurringSchedulerOptions) {
  const { knex, announcer } = options;
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 20;
  const ignored: OnIgnoredError = options.onIgnoredError ?? (() => {});
  // A claim holds a pooled connection while the occurrences' writes take others: only with a pool
  // of at least two (exactly-once never depends on the claims).
  const poolMax = (knex.client.config as { pool?: { max?: number } }).pool?.max ?? 1;
  const claims = knex.client.config.client === 'pg' && poolMax >= 2;
  // The scheduler's own writes: its own ids and state cache, the process's group gate.
  const newId = createIdMaker();
  const writes = createWriteRunner({
    knex,
    newId,
    groupGate: options.groupGate,
    onIgnoredError: ignored,
    statementPrefix: 'tally_recurring_write',
  });
  const expenses = createExpensesService({ knex, newId });
  const recurring = createRecurringService({ knex, newId, expenses });

  let stopped = true;
  /** Once stopped, for good: a start() that comes later (after a slow boot step) does nothing. */
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;

  /** One occurrence of `id`, if due; its events announced as any write's. */
  async function step(id: string): Promise<OccurrenceStep> {
    try {
      const written = await writes.run<OccurrenceStep>({
        work: (ctx) => recurring.occur(ctx, id, now()),
        reply: (value) => ok(value),
      });
      announcer.announce(written.events);
      return written.reply.body as OccurrenceStep;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // The occurrence exists already: never a crash, never a second copy; the pointer moves on.
      await recurring.passExisting(id);
      return { kind: 'existing' };
    }
  }

  /** Creates every due occurrence of `id`, in order, until it is caught up (or the process stops). */
  async function catchUp(id: string): Promise<number> {
    let done = 0;
    while (!stopped) {
      const result = await step(id);
      if (result.kind === 'idle') break;
      done++;
    }
    return done;
  }

  /**
   * Works on `id` if this process can claim it: true when the work ran and finished. The work's
   * own failure (the database busy, a bug) is counted and left to the next round; a failure of the
   * claim's connection ends the round.
   */
  async function claimAndCatchUp(connection: Connection | undefined, id: string): Promise<boolean> {
    if (connection) {
      const { rows } = await connection.query('select pg_try_advisory_lock($1, hashtext($2)) as claimed', [
        SCHEDULE_LOCK_CLASS,
        id,
      ]);
      if (!(rows[0] as { claimed: boolean }).claimed) return false;
    }
    try {
      await catchUp(id);
      return true;
    } catch (error) {
      ignored('recurring_occurrence', error, { recurringId: id });
      return false;
    } finally {
      await connection?.query('select pg_advisory_unlock($1, hashtext($2))', [SCHEDULE_LOCK_CLASS, id]);
    }
  }

  const dueSchedules = async (): Promise<{ id: string }[]> =>
    (await knex.raw<{ rows: { id: string }[] }>(DUE, [now(), batchSize])).rows;

  /**
   * One round: the due schedules, a batch at a time, until none is due that this process can claim.
   * A round with nothing due holds no connection beyond its one query.
   */
  async function runRound(): Promise<void> {
    let rows = await dueSchedules();
    if (rows.length === 0) return;
    const connection = claims ? ((await knex.client.acquireConnection()) as Connection) : undefined;
    let healthy = true;
    try {
      for (let first = true; !stopped; first = false) {
        if (!first) rows = await dueSchedules();
        let worked = 0;
        for (const { id } of rows) {
          if (stopped) break;
          if (await claimAndCatchUp(connection, id)) worked++;
        }
        // Nothing claimable (others work on the rest) or nothing left: until the next round.
        if (worked === 0 || rows.length < batchSize) break;
      }
    } catch (error) {
      healthy = false;
      throw error;
    } finally {
      // A connection whose claim query failed may hold claims or be broken: it is closed, not reused
      // (closing it lets go of its claims).
      if (connection && !healthy) await knex.client.destroyRawConnection(connection).catch(() => {});
      if (connection) await knex.client.releaseConnection(connection);
    }
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      round = runRound()
        .catch((error: unknown) => ignored('recurring_round', error))
        .finally(() => {
          round = undefined;
          schedule(options.pollMs);
        });
    }, delayMs);
    timer.unref?.();
  }

  return {
    /**
     * Starts the rounds, every `pollMs`; the first within one `pollMs` (at a random point, so that
     * processes started together do not all look at once). Nothing when `pollMs` is 0.
     */
    start(): void {
      if (options.pollMs <= 0 || !stopped || closed) return;
      stopped = false;
      schedule(Math.floor(Math.random() * options.pollMs));
    },
    /** Runs one round now (tests), whether or not the scheduler is started. */
    async runOnce(): Promise<void> {
      const wasStopped = stopped;
      stopped = false;
      try {
        await runRound();
      } finally {
        stopped = wasStopped;
      }
    },
    /** Stops: no new round or occurrence; waits for the occurrence being written. */
    async stop(): Promise<void> {
      stopped = true;
      closed = true;
      if (timer) clearTimeout(timer);
      await round;
    },
  };
}

export type RecurringScheduler = ReturnType<typeof createRecurringScheduler>;
