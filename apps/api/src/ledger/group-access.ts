import { notFound, unavailable } from '@tally/http-kit';
import type { Knex } from 'knex';
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
};

type Db = Knex | Knex.Transaction;

export async function isMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  const row = await db('group_members').where({ group_id: groupId, user_id: userId }).first('user_id');
  return row !== undefined;
}

/** Non-members get the same 404 as for a group that does not exist, so ids do not leak. */
export async function assertMember(db: Db, groupId: string, userId: string): Promise<void> {
  if (!(await isMember(db, groupId, userId))) throw notFound('Group');
}

/**
 * The group an expense or a settlement belongs to, or undefined for an unknown id. Records never
 * move between groups, so this may be read before the write's transaction, to pass the group's
 * gate before taking a pooled connection for the transaction.
 */
export async function groupIdOf(
  db: Db,
  table: 'expenses' | 'settlements',
  id: string,
): Promise<string | undefined> {
  const row = (await db(table).where('id', id).first('group_id')) as { group_id: string } | undefined;
  return row?.group_id;
}

export type GroupGateOptions = {
  /** Writes to one group this process lets run or wait at once; one more gets `503` at once. */
  maxWaiting: number;
  /**
   * Of those, how many may go on to the database (a pooled connection, the group's row lock) at
   * once; the others wait here without a connection. The row lock lets one write run per group
   * anyway; a second one already waiting at the lock takes over the moment the first commits.
   * @default 2
   */
  maxRunning?: number;
  /** How long a write waits here for its turn before it gets `503` (as long as for a pooled connection). */
  waitTimeoutMs: number;
  registry?: Registry;
};

type Lane = { admitted: number; running: number; queue: Array<() => void> };

const busy = () => unavailable('Too many changes to this group are waiting; retry shortly.', 1);

/**
 * Bounds the writes that wait on one group in this process, before they touch the database: a hot
 * group queues at most `maxWaiting` writes and holds at most `maxRunning` pooled connections, so
 * it can neither starve the pool nor build a queue that only times out. Beyond the bound, and
 * after `waitTimeoutMs` in the queue, a write is refused with `503 unavailable` and
 * `Retry-After: 1`; it has done nothing, so the client retries it with the same Idempotency-Key.
 */
export function createGroupGate(options: GroupGateOptions) {
  const maxRunning = Math.max(1, Math.min(options.maxRunning ?? 2, options.maxWaiting));
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

  /**
   * Takes a place for one write to `groupId`; call the returned function when the write is over.
   * @throws AppError 503 unavailable when the group is busy
   */
  async function enter(groupId: string): Promise<() => void> {
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
    if (lane.running < maxRunning) lane.running++;
    else if (!(await turn(lane))) {
      leave(groupId, lane);
      refused.inc({ reason: 'wait_timeout' });
      throw busy();
    }
    const held = lane;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The running slot passes straight to the next waiter, if any.
      const next = held.queue.shift();
      if (next) next();
      else held.running--;
      leave(groupId, held);
    };
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
