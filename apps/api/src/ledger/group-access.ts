import { unavailable } from '@tally/http-kit';
import { Counter, type Registry } from 'prom-client';

export type GroupRow = {
  id: string;
  name: string;
  description: string;
  currency: string;
  last_seq: number | string;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  /** When the group was archived (API.md §3): it refuses every write until unarchived. */
  archived_at: Date | string | null;
  /** Which debts clients show (API.md §6): the simplified ones, or the original ones. */
  simplify_debts: boolean;
};

export type GroupGateOptions = {
  /**
   * Writes to one group this process lets run or wait at once; one more gets `503` at once. One
   * of them runs (one pooled connection, one statement); the others wait here without one.
   */
  maxWaiting: number;
  /** How long a write waits here for its turn before it gets `503` (as long as for a pooled connection). */
  waitTimeoutMs: number;
  registry?: Registry;
};

type Lane = { admitted: number; running: number; queue: Array<() => void> };

const busy = () => unavailable('Too many changes to this group are waiting; retry shortly.', 1);

/**
 * Lets the writes to one group in this process run one at a time, each on the state the previous
 * one left (the write runner keeps it), and bounds those that wait, before they touch the
 * database: a hot group queues at most `maxWaiting` writes and holds one pooled connection, so it
 * can neither starve the pool nor build a queue that only times out. Beyond the bound, and
 * after `waitTimeoutMs` in the queue, a write is refused with `503 unavailable` and
 * `Retry-After: 1`; it has done nothing, so the client retries it with the same Idempotency-Key.
 */
export function createGroupGate(options: GroupGateOptions) {
  const lanes = new Map<string, Lane>();
  const refused = new Counter({
    name: 'group_writes_refused_total',
    help: 'Writes refused with 503 before touching the database because their group was busy, by reason',
    labelNames: ['reason'] as const,
    registers: options.registry ? [options.registry] : [],
  });

  const leave = (groupId: string, lane: Lane) => {
    lane.admitted--;
    if (lane.admitted === 0) lanes.delete(groupId);
  };

  /** Waits for a running slot; false when the wait timed out (and the waiter is gone from the queue). */
  const turn = (lane: Lane) =>
    new Promise<boolean>((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        lane.queue.splice(lane.queue.indexOf(granted), 1);
        resolve(false);
      }, options.waitTimeoutMs);
      lane.queue.push(granted);
    });

  /** The lane's running slot: at once when free, else in turn; false (counted) after `waitTimeoutMs`. */
  async function takeTurn(lane: Lane): Promise<boolean> {
    if (lane.running === 0) {
      lane.running = 1;
      return true;
    }
    if (await turn(lane)) return true;
    refused.inc({ reason: 'wait_timeout' });
    return false;
  }

  /**
   * Takes a place for one write to `groupId`, with the group's turn; call the returned function when
   * the write is over. Meanwhile `passTurn()` gives the turn to the next write while keeping the
   * place (a write whose statement is queued: it still counts against `maxWaiting`), and `retake()`
   * waits for the turn again (a write that runs once more), refusing like `enter` after `waitTimeoutMs`.
   * @throws AppError 503 unavailable when the group is busy
   */
  async function enter(groupId: string): Promise<GroupPlace> {
    let lane = lanes.get(groupId);
    if (!lane) {
      lane = { admitted: 0, running: 0, queue: [] };
      lanes.set(groupId, lane);
    }
    if (lane.admitted >= options.maxWaiting) {
      refused.inc({ reason: 'queue_full' });
      throw busy();
    }
    lane.admitted++;
    if (!(await takeTurn(lane))) {
      leave(groupId, lane);
      throw busy();
    }
    const held = lane;
    let released = false;
    let holding = true;
    const passTurn = () => {
      if (!holding) return;
      holding = false;
      // The running slot passes straight to the next waiter, if any.
      const next = held.queue.shift();
      if (next) next();
      else held.running--;
    };
    const release = () => {
      if (released) return;
      released = true;
      passTurn();
      leave(groupId, held);
    };
    return Object.assign(release, {
      passTurn,
      async retake(): Promise<void> {
        if (holding || released) return;
        if (!(await takeTurn(held))) throw busy();
        holding = true;
      },
    });
  }

  return {
    enter,
    /** Runs `work` once the write has its place; refuses like `enter`. */
    async run<T>(groupId: string, work: () => Promise<T>): Promise<T> {
      const release = await enter(groupId);
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}

export type GroupGate = ReturnType<typeof createGroupGate>;

/** A write's place in its group's gate: call it when the write is over (see `enter`). */
export type GroupPlace = (() => void) & { passTurn(): void; retake(): Promise<void> };
