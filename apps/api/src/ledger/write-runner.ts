import { isPgServer, raw, type Sql } from '@tally/db';
import { AppError, notFound, unavailable } from '@tally/http-kit';
import { type DurableRecord, DurableRecordExists } from '@tally/idempotency';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import type { Reply } from '../http/reply';
import type { NewId } from '../ids';
import { createRunRead, openTransaction, type RunRead } from '../read-queries';
import { seqHeader } from '../read-routing';
import { createGroupGate, type GroupGate, type GroupPlace } from './group-access';
import { durableRecordInsert, GroupChange } from './group-change';
import { type GroupSnapshotRow, type GroupState, toGroupState } from './group-snapshot';
import { CACHED_GROUPS, createStateCache } from './group-state-cache';
import { createStatementBatcher } from './write-batch';
import { type Ahead, createChain } from './write-chain';
import {
  createStatementNames,
  groupRead,
  isLiveRecord,
  lockGroup,
  recordWithGroup,
  runNamed,
  type StatementRow,
} from './write-statements';
import {
  type OnIgnoredError,
  type RecordTable,
  StaleState,
  type WriteContext,
  type WriteRequest,
  type WriteResult,
  type Written,
} from './write-types';

export {
  type OnIgnoredError,
  type RecordTable,
  StaleState,
  type Work,
  type WriteContext,
  type WriteRequest,
  type WriteResult,
  type Written,
} from './write-types';

/**
 * How often a change whose state turned out out of date (another process wrote the group in
 * between) runs again on the state its statement returned, before the write gives up with `503`.
 */
const MAX_ATTEMPTS = 10;
/** After this many collisions a write takes its group's row lock (see `afterCollision`). */
const LOCK_AFTER_COLLISIONS = 2;

/** Everything one write keeps between its attempts. */
type WriteState = {
  attempts: number;
  /**
   * Its place in its group's gate (counted against the group's bound until the write is over) and
   * whether it holds the group's turn (while it decides, until its statement is queued).
   */
  turn: { groupId: string; place: GroupPlace; holding: boolean } | undefined;
  /** The group it changes, once it knows it. */
  groupId: string | undefined;
  /** The write on its way whose state the current attempt's change builds on, if any. */
  ahead: Ahead | undefined;
  /** The change the current attempt's work opened, if any. */
  change: GroupChange | undefined;
  /**
   * A cached state is good enough for a change (its guard checks it), but an answer that does not
   * go through the guard (an error, a no-op) is decided again on a state read afresh.
   */
  trustCache: boolean;
  /** Whether the current attempt's change was opened on a cached state. */
  fromCache: boolean;
  /**
   * After repeated collisions with other processes: a transaction that holds the group's row lock,
   * on whose connection every query of the write then runs.
   */
  locked: Awaited<ReturnType<typeof openTransaction>> | undefined;
};

/** `reply` with its group's `X-Seq` as `change` leaves the group (no change opened: as it is). */
function withSeq(reply: Reply, change: GroupChange | undefined): Reply {
  if (!change) return reply;
  return {
    ...reply,
    headers: { ...reply.headers, ...seqHeader(change.group.id, Number(change.group.last_seq)) },
  };
}

/** The change the current attempt's work opened (read through a call: the work set it meanwhile). */
const openedChange = (state: WriteState): GroupChange | undefined => state.change;

/** Why an attempt did not finish the write, and so what the next one needs. */
type Retry = 'stale' | 'collided';

/**
 * Runs writes. A write is one `GroupChange` sent as ONE statement in autocommit: the domain rows,
 * the balances, the event and (keyed) the durable idempotency record commit together or not at
 * all, and the group's row is locked only while the statement runs. Writes to one group take turns
 * in this process (`groupGate`, one at a time), so each builds on the state the previous one left;
 * across processes the statement's guard catches a state gone out of date, and the write runs again
 * on the current one, which the failed statement returned. The runner announces nothing: the route
 * that asked for the write announces its events once it has answered.
 */
export function createWriteRunner(deps: {
  /** Makes the ids of the events the changes append. */
  newId: NewId;
  knex: Knex;
  groupGate?: GroupGate;
  onIgnoredError?: OnIgnoredError;
  /**
   * The prefix of its statements' names: a statement name is per connection, so runners sharing a
   * pool need different ones. @default 'tally_write'
   */
  statementPrefix?: string;
  /** Where the group-commit metrics go (`write_batch_size`, `write_batches_failed_total{reason}`…: write-batch.ts). */
  registry?: Registry;
}) {
  const runRead = createRunRead(deps.knex);
  const gate =
    deps.groupGate ?? createGroupGate({ maxWaiting: Number.MAX_SAFE_INTEGER, waitTimeoutMs: 30_000 });
  const cache = createStateCache(CACHED_GROUPS);
  const nameOf = createStatementNames(deps.statementPrefix ?? 'tally_write');
  const ignored = deps.onIgnoredError ?? (() => {});
  // Group commit on PostgreSQL; embedded PGlite (one connection, no named statements) sends alone.
  const chain = isPgServer(deps.knex)
    ? createChain(createStatementBatcher({ knex: deps.knex, registry: deps.registry }), nameOf)
    : undefined;
  const writesBack = async (groupId: string) => chain?.writesBack(groupId);
  /** Reads on the write's locked transaction once it has one, else on any pooled connection. */
  const readFor =
    (state: WriteState): RunRead =>
    (query, values) =>
      state.locked ? state.locked.run(query, values) : runRead(query, values);

  async function enterGroup(state: WriteState, groupId: string): Promise<void> {
    const turn = state.turn;
    if (turn?.groupId === groupId) {
      if (!turn.holding) {
        await turn.place.retake();
        turn.holding = true;
      }
      return;
    }
    if (turn?.holding) throw new Error('a write changes one group');
    // Between attempts the group may differ: e.g. the record a create raced for is found in another group.
    turn?.place();
    state.turn = undefined;
    state.groupId = groupId;
    state.turn = { groupId, place: await gate.enter(groupId), holding: true };
  }

  /** Gives the group's turn to its next write (this one's statement is queued; it keeps its place). */
  function passTurn(state: WriteState): void {
    if (!state.turn?.holding) return;
    state.turn.place.passTurn();
    state.turn.holding = false;
  }

  async function readGroup(state: WriteState, groupId: string): Promise<GroupState | undefined> {
    await writesBack(groupId);
    const [row] = await runNamed<GroupSnapshotRow>(readFor(state), groupRead(groupId));
    if (!row) return undefined;
    const group = toGroupState(row);
    cache.offer(group);
    return group;
  }

  /**
   * The state a change to `groupId` is decided on, in the group's turn: the state the group's last
   * write on its way will leave, else the one this process last saw, else read now.
   */
  async function stateFor(state: WriteState, groupId: string): Promise<GroupState | undefined> {
    await enterGroup(state, groupId);
    state.ahead = state.trustCache ? chain?.usable(groupId) : undefined;
    const known = state.ahead?.state ?? (state.trustCache ? cache.get(groupId) : undefined);
    state.fromCache = known !== undefined;
    return known ?? (await readGroup(state, groupId));
  }

  /** A change decided on the state of a write on its way names that write's event in its guard. */
  function builtOnAhead(state: WriteState, change: GroupChange): void {
    if (state.ahead) change.buildsOn(state.ahead.event);
  }

  /** What the work of `state`'s current attempt sees. */
  function contextOf(state: WriteState): WriteContext {
    return {
      async open(groupId, userId) {
        const group = await stateFor(state, groupId);
        state.change = GroupChange.of(group, userId, () => notFound('Group'), deps.newId);
        builtOnAhead(state, state.change);
        return state.change;
      },
      async openArchiving(groupId, userId) {
        const group = await stateFor(state, groupId);
        state.change = GroupChange.archiving(group, userId, () => notFound('Group'), deps.newId);
        builtOnAhead(state, state.change);
        return state.change;
      },
      async openJoining(groupId) {
        const group = await stateFor(state, groupId);
        state.change = GroupChange.joining(group, () => notFound('Group'), deps.newId);
        builtOnAhead(state, state.change);
        return state.change;
      },
      async openRecord<R>(table: RecordTable, id: string, userId: string | null, hidden: () => AppError) {
        let [row] = await runNamed<GroupSnapshotRow & { record: R }>(
          readFor(state),
          recordWithGroup(table, id),
        );
        if (!row) return undefined;
        const groupId = row.id;
        await enterGroup(state, groupId);
        if (chain?.onItsWay(groupId)) {
          // A write of this process to the group is on its way: read the record once it is back.
          await writesBack(groupId);
          [row] = await runNamed<GroupSnapshotRow & { record: R }>(
            readFor(state),
            recordWithGroup(table, id),
          );
          if (!row) return undefined;
        }
        const group = toGroupState(row);
        cache.offer(group);
        const change = GroupChange.of(group, userId, hidden, deps.newId);
        state.change = change;
        return { row: row.record, change };
      },
      create(group, creatorId) {
        state.change = GroupChange.creating(group, creatorId, deps.newId);
        return state.change;
      },
      read: readFor(state),
    };
  }

  /**
   * Sends a change's statement by itself: on the write's locked transaction, or on embedded PGlite
   * (no group commit). A live durable record holding the key undoes it (`TY001`).
   */
  async function sendAlone(state: WriteState, statement: Sql): Promise<StatementRow | undefined> {
    const text = statement.text;
    try {
      const [row] = await readFor(state)<StatementRow>({ name: nameOf(text), text }, [...statement.values]);
      return row;
    } catch (error) {
      // TY001, from the durable record's claim (migration 003) or tally_write_settled (002): a live
      // durable record holds the key; the statement was undone, nothing was written.
      if (isLiveRecord(error)) throw new DurableRecordExists();
      throw error;
    }
  }

  /**
   * One attempt: the work decides on the group's state, and its change goes out as one statement.
   * Finished, or a reason to run again.
   */
  async function attempt<T>(state: WriteState, request: WriteRequest<T>): Promise<Written | Retry> {
    state.attempts += 1;
    state.change = undefined;
    state.ahead = undefined;
    state.fromCache = false;
    let outcome: WriteResult<T>;
    try {
      outcome = await request.work(contextOf(state));
    } catch (error) {
      const decidedOnCache = state.fromCache && error instanceof AppError;
      if ((error instanceof StaleState || decidedOnCache) && state.attempts < MAX_ATTEMPTS) {
        state.trustCache = false;
        return 'stale';
      }
      throw error;
    }
    const change = openedChange(state);
    // The answer says the group's `seq` once this change is in (or as found, when it changes
    // nothing): a client sends it back in `X-Min-Seq` so that no read goes behind it (read-routing.ts).
    const reply = withSeq(request.reply(outcome.value), change);
    if (!change?.changed) {
      if (state.fromCache) {
        state.trustCache = false;
        return 'stale';
      }
      // Nothing changed (a no-op PUT, a repeated delete): nothing to send.
      return { reply, events: [], recorded: false };
    }
    const statement = change.statement(request.record?.(reply));
    // With group commit the statement is queued for the next batch, and the group's turn passes to
    // its next write at once, which builds on the state this change leaves (`Ahead`).
    const row =
      chain !== undefined && state.locked === undefined
        ? await chain.send(statement, change, state.ahead, () => passTurn(state))
        : await sendAlone(state, statement);
    if (row && Number(row.applied) > 0) {
      cache.offer(change.after());
      return { reply, events: outcome.events, recorded: request.record !== undefined };
    }
    noteCollision(state, change, row);
    return 'collided';
  }

  /**
   * Another process wrote the group since the change's state: its statement wrote nothing and
   * returned the group's current state, which the next attempt decides on. When the statement had
   * waited for that process's lock, what it returned is still the state it started from (its
   * snapshot predates the other commit): then the group is read afresh instead.
   */
  function noteCollision(state: WriteState, change: GroupChange, row: StatementRow | undefined): void {
    const current = row?.id ? toGroupState(row) : undefined;
    if (current && Number(current.group.last_seq) !== change.startSeq) {
      cache.offer(current);
      return;
    }
    if (state.groupId) cache.forget(state.groupId);
    state.trustCache = false;
  }

  /**
   * Gives up with `503` after `MAX_ATTEMPTS`. After `LOCK_AFTER_COLLISIONS`, other processes keep
   * writing this group: the write takes the group's row lock in a transaction and runs there (a
   * fresh read, then the statement, then commit), so it cannot lose again; the others wait for it.
   */
  async function afterCollision(state: WriteState): Promise<void> {
    if (state.attempts >= MAX_ATTEMPTS)
      throw unavailable('This group is busy with other changes; retry shortly.', 1);
    if (state.attempts < LOCK_AFTER_COLLISIONS || !state.groupId || state.locked) return;
    await enterGroup(state, state.groupId);
    // This process's own writes on their way go first: they need the row lock this would hold.
    await writesBack(state.groupId);
    state.locked = await openTransaction(deps.knex);
    await runNamed(state.locked.run, lockGroup(state.groupId));
    state.trustCache = false;
  }

  /** Ends the write's locked transaction, if it took one: commit when the write finished. */
  async function unlock(state: WriteState, commit: boolean): Promise<void> {
    const held = state.locked;
    state.locked = undefined;
    if (!held) return;
    if (commit) {
      await held.end(true);
      return;
    }
    // A rollback that fails leaves nothing behind: the connection is given back and discarded.
    await held.end(false).catch((error: unknown) => ignored('rollback', error));
  }

  /** A write: attempts until one's statement applies; its turn in its group's gate throughout. */
  async function runOnce<T>(request: WriteRequest<T>): Promise<Written> {
    const state: WriteState = {
      attempts: 0,
      turn: undefined,
      groupId: undefined,
      ahead: undefined,
      change: undefined,
      trustCache: true,
      fromCache: false,
      locked: undefined,
    };
    try {
      for (;;) {
        const result = await attempt(state, request);
        if (result === 'collided') await afterCollision(state);
        if (typeof result === 'object') {
          await unlock(state, true);
          return result;
        }
      }
    } catch (error) {
      await unlock(state, false);
      // The operation's own answers (404, 409, 412, 422) say nothing about the state; anything else might.
      if (state.groupId && !(error instanceof AppError)) cache.forget(state.groupId);
      throw error;
    } finally {
      state.turn?.place();
    }
  }

  return {
    /** Runs a write (once more when `retryIf` accepts its error). */
    async run<T>(request: WriteRequest<T>): Promise<Written> {
      try {
        return await runOnce(request);
      } catch (error) {
        if (!request.retryIf?.(error)) throw error;
        return runOnce(request);
      }
    },

    /**
     * The durable record of an outcome that changed nothing (a no-op, the operation's own 4xx), by
     * itself. False when a live record already holds the key: nothing was written.
     */
    async recordAlone(record: DurableRecord): Promise<boolean> {
      const insert = durableRecordInsert(record, raw('(select 1) as alone'));
      const text = insert.text;
      try {
        await runRead({ name: nameOf(text), text }, [...insert.values]);
        return true;
      } catch (error) {
        if (isLiveRecord(error)) return false;
        throw error;
      }
    },
  };
}

export type WriteRunner = ReturnType<typeof createWriteRunner>;
