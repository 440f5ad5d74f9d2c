import { setImmediate } from 'node:timers/promises';
import {
  isPgServer,
  type PooledConnection,
  poolMaxOf,
  runSql,
  type Sql,
  sql,
  takePooledConnection,
} from '@tally/db';
import type { Knex } from 'knex';
import { isUniqueViolation } from '../db-errors';
import { createExpensesService } from '../expenses/expenses.service';
import { ok } from '../http/reply';
import { createIdMaker } from '../ids';
import type { Announcer } from '../ledger/announcer';
import type { GroupGate } from '../ledger/group-access';
import { createWriteRunner, type OnIgnoredError, type WriteRunner } from '../ledger/write-runner';
import { createRecurringService, type OccurrenceStep } from './recurring.service';

/**
 * How much one round of the scheduler may do (API.md §6a), so that a schedule far behind never
 * holds the process: its occurrences come in slices, round-robin with the other due schedules,
 * with a turn of the event loop between two occurrences.
 */
export const RECURRING_SLICES = {
  /** Schedules one round looks at. */
  batchSize: 20,
  /** Occurrences one schedule gets per round (its slice). */
  sliceSize: 10,
  /** Occurrences per round in all. */
  roundSize: 50,
} as const;

export type RecurringSchedulerOptions = {
  knex: Knex;
  announcer: Announcer;
  /** The process's per-group write gate, shared with the API's writes. */
  groupGate?: GroupGate;
  /**
   * The process's write runner, shared with the API's writes (one group commit; its metrics exported);
   * absent: the scheduler's own, on `groupGate`, with no metrics.
   */
  writes?: WriteRunner;
  /** How often this process looks for due occurrences, in ms; 0: never (the scheduler stays off). */
  pollMs: number;
  /** The clock the due dates are compared with (injectable for tests). @default () => new Date() */
  now?: () => Date;
  /** Schedules looked at per round. @default RECURRING_SLICES.batchSize */
  batchSize?: number;
  /** Occurrences one schedule gets per round. @default RECURRING_SLICES.sliceSize */
  sliceSize?: number;
  /** Occurrences per round in all. @default RECURRING_SLICES.roundSize */
  roundSize?: number;
  /**
   * Awaited before each occurrence: the other work of the process runs meanwhile. @default one
   * turn of the event loop (`setImmediate`): I/O that came in (requests) is handled first.
   */
  pause?: () => Promise<void>;
  /** Told of each step taken (tests, benches): the schedule and what the step did. */
  onStep?: (recurringId: string, step: OccurrenceStep) => void;
  onIgnoredError?: OnIgnoredError;
};

/** The advisory-lock class of schedules being worked on (the object is `hashtext(id)`). */
const SCHEDULE_LOCK_CLASS = 7_340_212;

const due = (at: Date, limit: number) =>
  sql`select id from recurring_expenses
       where next_due_at <= ${at} and deleted_at is null
       order by next_due_at, id limit ${limit}`;

/** A session statement on the round's own connection (its claims are session advisory locks). */
const onSession = async <R>(connection: PooledConnection, statement: Sql): Promise<R[]> =>
  (await connection.query(statement.text, [...statement.values])).rows as R[];

/** What one round did: occurrences stepped, and whether a schedule it worked on is still behind. */
export type RoundResult = { steps: number; behind: boolean };

/**
 * Creates the occurrences of recurring expenses (API.md §6a) in every API process: no leader, so no
 * crash can strand the work. Every `pollMs` it runs a round: the due schedules, oldest due first (at
 * most `batchSize`), of which it claims as many as it can give a full slice, worked on round-robin, one occurrence each in turn, in
 * each schedule's date order, at most `sliceSize` per schedule and `roundSize` in all, with a pause
 * (a turn of the event loop) before each occurrence, so that requests are served in between and a
 * schedule far behind cannot starve the others. When a schedule is still behind after its slice,
 * the next round comes at once (after a turn of the event loop) rather than after `pollMs`.
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
  const batchSize = options.batchSize ?? RECURRING_SLICES.batchSize;
  const sliceSize = options.sliceSize ?? RECURRING_SLICES.sliceSize;
  const roundSize = options.roundSize ?? RECURRING_SLICES.roundSize;
  const pause = options.pause ?? (() => setImmediate());
  const onStep = options.onStep ?? (() => {});
  const ignored: OnIgnoredError = options.onIgnoredError ?? (() => {});
  // A claim holds a pooled connection while the occurrences' writes take others: only with a pool
  // of at least two (exactly-once never depends on the claims).
  const claims = isPgServer(knex) && poolMaxOf(knex) >= 2;
  // Its writes: through the process's write runner when given (start.ts), else one of its own.
  const newId = createIdMaker();
  const writes =
    options.writes ??
    createWriteRunner({
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
  let round: Promise<RoundResult> | undefined;

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

  /** Claims `id` for this round (always, without claims): false when another process works on it. */
  async function claim(connection: PooledConnection | undefined, id: string): Promise<boolean> {
    if (!connection) return true;
    const [row] = await onSession<{ claimed: boolean }>(
      connection,
      sql`select pg_try_advisory_lock(${SCHEDULE_LOCK_CLASS}, hashtext(${id})) as claimed`,
    );
    return row?.claimed === true;
  }

  /**
   * The claimed schedules' due occurrences, round-robin: one step of each in turn, a schedule
   * leaving the turn once caught up, after `sliceSize` steps, or when its step failed (counted and
   * left to a later round; the occurrence is not lost, the pointer did not move); at most
   * `roundSize` steps in all, with a pause before each (the round's own queries come first).
   */
  async function workRoundRobin(ids: string[]): Promise<RoundResult> {
    const turns = ids.map((id) => ({ id, done: 0 }));
    let steps = 0;
    let behind = false;
    while (turns.length > 0 && !stopped) {
      for (let i = 0; i < turns.length && !stopped; ) {
        if (steps >= roundSize) return { steps, behind: true };
        const turn = turns[i] as { id: string; done: number };
        await pause();
        let result: OccurrenceStep;
        try {
          result = await step(turn.id);
        } catch (error) {
          ignored('recurring_occurrence', error, { recurringId: turn.id });
          turns.splice(i, 1);
          continue;
        }
        onStep(turn.id, result);
        if (result.kind === 'idle') {
          turns.splice(i, 1);
          continue;
        }
        steps++;
        turn.done++;
        if (turn.done >= sliceSize) {
          // Its slice is over: the next round goes on with it (it may be caught up just now).
          behind = true;
          turns.splice(i, 1);
          continue;
        }
        i++;
      }
    }
    return { steps, behind };
  }

  const dueSchedules = async (): Promise<{ id: string }[]> =>
    runSql<{ id: string }>(knex, due(now(), batchSize));

  /**
   * One round: of the due schedules (one batch), as many as it can give a full slice
   * (`roundSize / sliceSize`) that this process can claim, worked on round-robin; the claims held
   * for the round and let go at its end, so that other processes take the schedules it did not. A round with nothing due holds no connection
   * beyond its one query. `behind`: there may be more to do now (a slice ran out, or the batch was
   * full), so the next round should not wait for `pollMs`.
   */
  async function runRound(): Promise<RoundResult> {
    const rows = await dueSchedules();
    if (rows.length === 0) return { steps: 0, behind: false };
    const held = claims ? await takePooledConnection(knex) : undefined;
    const connection = held?.connection;
    const claimed: string[] = [];
    let healthy = true;
    try {
      // No more than the round can give a full slice: the rest is left to the other processes.
      const claimable = Math.ceil(roundSize / sliceSize);
      for (const { id } of rows) {
        if (stopped || claimed.length >= claimable) break;
        if (await claim(connection, id)) claimed.push(id);
      }
      const result = await workRoundRobin(claimed);
      // A full batch, or schedules left unclaimed: more may be due than this round took.
      const more = rows.length >= batchSize || claimed.length < rows.length;
      return { steps: result.steps, behind: result.behind || (result.steps > 0 && more) };
    } catch (error) {
      healthy = false;
      throw error;
    } finally {
      if (held && connection) {
        if (healthy) {
          for (const id of claimed) {
            await onSession(
              connection,
              sql`select pg_advisory_unlock(${SCHEDULE_LOCK_CLASS}, hashtext(${id}))`,
            ).catch((error: unknown) => {
              healthy = false;
              ignored('recurring_unlock', error, { recurringId: id });
            });
            if (!healthy) break;
          }
        }
        // A connection whose claim or unlock query failed may hold claims or be broken: it is
        // closed, not reused (closing it lets go of its claims).
        await held.release(!healthy);
      }
    }
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      let behind = false;
      round = runRound()
        .then((result) => {
          behind = result.behind;
          return result;
        })
        .catch((error: unknown) => {
          ignored('recurring_round', error);
          return { steps: 0, behind: false };
        })
        .finally(() => {
          round = undefined;
          // Still behind: the next slice at once (a timer, so the event loop turns first).
          schedule(behind ? 0 : options.pollMs);
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
    /**
     * Runs one round now (tests, benches), whether or not the scheduler is started: at most
     * `sliceSize` occurrences per schedule and `roundSize` in all.
     */
    async runOnce(): Promise<RoundResult> {
      const wasStopped = stopped;
      stopped = false;
      try {
        return await runRound();
      } finally {
        stopped = wasStopped;
      }
    },
    /** Runs rounds until no schedule is behind (tests): every due occurrence, slice by slice. */
    async runUntilCaughtUp(): Promise<number> {
      let steps = 0;
      for (;;) {
        const result = await this.runOnce();
        steps += result.steps;
        if (!result.behind || result.steps === 0) return steps;
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
