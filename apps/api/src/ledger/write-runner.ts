import type { GroupEvent } from '@tally/events';
import { AppError, notFound, unavailable } from '@tally/http-kit';
import { DurableRecordExists, type TransactionHook } from '@tally/idempotency';
import type { Knex } from 'knex';
import type { Reply } from '../http/reply';
import { createRunRead, openTransaction, type RunRead } from '../read-queries';
import { createGroupGate, type GroupGate, type GroupRow } from './group-access';
import { GroupChange } from './group-change';
import { type GroupSnapshotRow, type GroupState, groupSnapshotSql, toGroupState } from './group-snapshot';

/** What a write's work decided: its outcome (the route turns it into the reply) and the events it appends. */
export type WriteResult<T> = { value: T; events: GroupEvent[] };

export type { TransactionHook } from '@tally/idempotency';

/** Told about every event after its write committed; a failure here never fails the write. */
export type EventNotifier = (events: readonly GroupEvent[]) => void;

/**
 * Thrown by a write's work when what it read disagrees with its change's state (e.g. a membership):
 * the state is out of date, and the work runs again on a state read afresh.
 */
export class StaleState extends Error {
  override name = 'StaleState';
}

/** The records a write may change, each read with its group's state in one statement. */
export type RecordTable = 'expenses' | 'settlements';

/**
 * What a write's work gets: the group it changes (at most one per write), as a `GroupChange` on
 * the group's current state, and reads for whatever else it needs to decide.
 */
export type WriteContext = {
  /**
   * A change to `groupId` by `userId` on the group's state: the one this process last wrote or read
   * (no round trip), or read now. 404 (`Group`) for an unknown group or a caller who is not a member.
   */
  open(groupId: string, userId: string): Promise<GroupChange>;
  /**
   * The record `id` of `table` with a change to its group, read in ONE statement so that the row
   * and the group's state are consistent. Undefined for an unknown id; `hidden()` when the caller is
   * not a member of the record's group (it must answer exactly as for an unknown id).
   */
  openRecord<R>(
    table: RecordTable,
    id: string,
    userId: string,
    hidden: () => AppError,
  ): Promise<{ row: R; change: GroupChange } | undefined>;
  /** A change that creates `group`, with `creatorId` its first member. */
  create(group: GroupRow, creatorId: string): GroupChange;
  /** A read that decides the change (a user to add, a group's members): one prepared statement. */
  read: RunRead;
};

export type Work<T> = (ctx: WriteContext) => Promise<WriteResult<T>>;

export type WriteOptions = {
  /**
   * Runs the work once more when it failed with an error this accepts: e.g. a create that lost the
   * race for its client-chosen id, which on the second attempt finds the row and replaces it.
   */
  retryIf?: (error: unknown) => boolean;
};

/** A record with its group's state, as `openRecord` reads it. */
const recordWithGroup = (table: RecordTable) => ({
  name: `write_open_${table}`,
  text: `select to_jsonb(r) as record, s.* from ${table} r
           cross join lateral (${groupSnapshotSql('r.group_id')}) s where r.id = $1`,
});
const RECORD_READS = { expenses: recordWithGroup('expenses'), settlements: recordWithGroup('settlements') };
const GROUP_READ = { name: 'write_open_group', text: groupSnapshotSql('$1') };

/**
 * How often a change whose state turned out out of date (another process wrote the group in
 * between) runs again on the state its statement returned, before the write gives up with `503`.
 */
const MAX_ATTEMPTS = 10;
/** The group's row lock, for a write that collided too often (see `attempt`). */
const LOCK_GROUP = { name: 'write_lock_group', text: 'select 1 from groups where id = $1 for update' };

/** Groups whose state this process keeps, least recently used first out. */
const CACHED_GROUPS = 10_000;

/**
 * The state of the groups this process wrote or read last, so a write to a group it knows needs
 * no read before its statement. Never trusted blindly: the statement's guard checks `last_seq`.
 */
function createStateCache(capacity: number) {
  const states = new Map<string, GroupState>();
  return {
    get(groupId: string): GroupState | undefined {
      const state = states.get(groupId);
      if (state) {
        states.delete(groupId);
        states.set(groupId, state);
      }
      return state;
    },
    /** Keeps `state` unless the cache already holds a later one. */
    offer(state: GroupState): void {
      const held = states.get(state.group.id);
      if (held && Number(held.group.last_seq) > Number(state.group.last_seq)) return;
      states.delete(state.group.id);
      states.set(state.group.id, state);
      if (states.size > capacity) states.delete(states.keys().next().value as string);
    },
    forget(groupId: string): void {
      states.delete(groupId);
    },
  };
}

/**
 * Runs writes. A write is one `GroupChange` sent as ONE statement in autocommit: the domain rows,
 * the balances, the event and (keyed) the durable idempotency record commit together or not at
 * all, and the group's row is locked only while the statement runs. Writes to one group take turns
 * in this process (`groupGate`, one at a time), so each builds on the state the previous one left;
 * across processes the statement's guard catches a state gone out of date, and the write runs again
 * on the current one, which the failed statement returned. Events are announced after the commit:
 * by `notify`, or by the idempotency layer with its completion.
 */
export function createWriteRunner(deps: { knex: Knex; notify: EventNotifier; groupGate?: GroupGate }) {
  const runRead = createRunRead(deps.knex);
  const gate =
    deps.groupGate ?? createGroupGate({ maxWaiting: Number.MAX_SAFE_INTEGER, waitTimeoutMs: 30_000 });
  const cache = createStateCache(CACHED_GROUPS);

  async function readState(read: RunRead, groupId: string): Promise<GroupState | undefined> {
    const [row] = await read<GroupSnapshotRow>(GROUP_READ, [groupId]);
    if (!row) return undefined;
    const state = toGroupState(row);
    cache.offer(state);
    return state;
  }

  /** One write: its turn in its group's gate, its work, its statement; again while its state was out of date. */
  async function attempt<T>(
    work: Work<T>,
    toReply: (value: T) => Reply,
    hook: TransactionHook | undefined,
  ): Promise<Reply> {
    let turn: { groupId: string; release: () => void } | undefined;
    const enter = async (groupId: string) => {
      if (turn) {
        if (turn.groupId !== groupId) throw new Error('a write changes one group');
        return;
      }
      turn = { groupId, release: await gate.enter(groupId) };
    };
    let change: GroupChange | undefined;
    /** The change the work opened in this attempt, if any. */
    const opened = (): GroupChange | undefined => change;
    // A cached state is good enough for a change (its guard checks it), but an answer that does
    // not go through the guard (an error, a no-op) is decided again on a state read afresh.
    let trustCache = true;
    let fromCache = false;
    // After repeated collisions with other processes: a transaction that holds the group's row lock,
    // on whose connection every query of the write then runs (see below).
    let locked: Awaited<ReturnType<typeof openTransaction>> | undefined;
    const read: RunRead = (query, values) => (locked ? locked.run(query, values) : runRead(query, values));
    const unlock = async (commit: boolean) => {
      const held = locked;
      locked = undefined;
      await held?.end(commit);
    };
    const ctx: WriteContext = {
      async open(groupId, userId) {
        await enter(groupId);
        const cached = trustCache ? cache.get(groupId) : undefined;
        fromCache = cached !== undefined;
        const state = cached ?? (await readState(read, groupId));
        change = GroupChange.of(state, userId, () => notFound('Group'));
        return change;
      },
      async openRecord<R>(table: RecordTable, id: string, userId: string, hidden: () => AppError) {
        const [row] = await read<GroupSnapshotRow & { record: R }>(RECORD_READS[table], [id]);
        if (!row) return undefined;
        const state = toGroupState(row);
        cache.offer(state);
        const opened = GroupChange.of(state, userId, hidden);
        await enter(state.group.id);
        change = opened;
        return { row: row.record, change: opened };
      },
      create(group, creatorId) {
        change = GroupChange.creating(group, creatorId);
        return change;
      },
      read,
    };

    try {
      for (let attempts = 1; ; attempts++) {
        change = undefined;
        fromCache = false;
        let outcome: WriteResult<T>;
        try {
          outcome = await work(ctx);
        } catch (error) {
          const decidedOnCache = fromCache && error instanceof AppError;
          if (!(error instanceof StaleState || decidedOnCache) || attempts >= MAX_ATTEMPTS) throw error;
          trustCache = false;
          continue;
        }
        const made = opened();
        const reply = toReply(outcome.value);
        if (!made?.changed && fromCache) {
          trustCache = false;
          continue;
        }
        if (!made?.changed) {
          // Nothing changed (a no-op PUT, a repeated delete): the record alone, when keyed.
          await unlock(true);
          if (hook) {
            await hook.insert(reply);
            hook.written();
          }
          return reply;
        }
        const statement = made.statement(hook?.values(reply));
        hook?.written();
        const [row] = await runStatement(statement, read);
        if (row && Number(row.applied) > 0) {
          await unlock(true);
          cache.offer(made.after());
          // A keyed write's layer may take the events, to publish them with its completion record
          // (one Redis round trip for both); otherwise they are announced here.
          if (outcome.events.length > 0 && !hook?.announce?.(outcome.events)) deps.notify(outcome.events);
          return reply;
        }
        // Another process wrote the group since this state: the statement wrote nothing and
        // returned the group's current state. Decide again on it. When the statement had waited
        // for that process's lock, what it returned is still the state it started from (its
        // snapshot predates the other commit): then read the group afresh instead.
        const current = row?.id ? toGroupState(row) : undefined;
        if (current && Number(current.group.last_seq) !== made.startSeq) cache.offer(current);
        else {
          if (turn) cache.forget(turn.groupId);
          trustCache = false;
        }
        if (attempts >= MAX_ATTEMPTS)
          throw unavailable('This group is busy with other changes; retry shortly.', 1);
        // Collided twice: other processes keep writing this group. Take its row lock in a
        // transaction and run the write there (a fresh read, then the statement, then commit), so
        // it cannot lose again; the others wait for the lock, as every writer did before issue #10.
        if (attempts >= 2 && turn && !locked) {
          locked = await openTransaction(deps.knex);
          await locked.run(LOCK_GROUP, [turn.groupId]);
          trustCache = false;
        }
      }
    } catch (error) {
      await unlock(false).catch(() => {});
      // The operation's own answers (404, 409, 412, 422) say nothing about the state; anything else might.
      if (turn && !(error instanceof AppError)) cache.forget(turn.groupId);
      throw error;
    } finally {
      turn?.release();
    }
  }

  async function runStatement(
    statement: { name: string; text: string; values: unknown[] },
    read: RunRead,
  ): Promise<(GroupSnapshotRow & { applied: number | string })[]> {
    try {
      return await read(statement, statement.values);
    } catch (error) {
      // TY001, from the durable record's claim (migration 003) or tally_write_settled (002): a live
      // durable record holds the key; the statement was undone, nothing was written.
      if ((error as { code?: string } | null)?.code === 'TY001') throw new DurableRecordExists();
      throw error;
    }
  }

  /** Runs `work`; `toReply` turns its outcome into the reply (which the durable record keeps). */
  return async function runWrite<T>(
    work: Work<T>,
    toReply: (value: T) => Reply,
    hook?: TransactionHook,
    options: WriteOptions = {},
  ): Promise<Reply> {
    try {
      return await attempt(work, toReply, hook);
    } catch (error) {
      if (!options.retryIf?.(error)) throw error;
      return attempt(work, toReply, hook);
    }
  };
}

export type RunWrite = ReturnType<typeof createWriteRunner>;
