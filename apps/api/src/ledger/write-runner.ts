import type { GroupEvent } from '@tally/events';
import { AppError, notFound, unavailable } from '@tally/http-kit';
import { type DurableRecord, DurableRecordExists } from '@tally/idempotency';
import type { Knex } from 'knex';
import type { Registry } from 'prom-client';
import type { Reply } from '../http/reply';
import type { NewId } from '../ids';
import { createRunRead, openTransaction, type RunRead } from '../read-queries';
import { createGroupGate, type GroupGate, type GroupPlace, type GroupRow } from './group-access';
import { durableRecordInsert, GroupChange } from './group-change';
import { type GroupSnapshotRow, type GroupState, groupSnapshotSql, toGroupState } from './group-snapshot';
import { raw, type Sql } from './sql';
import { createStatementBatcher, type Ticket } from './write-batch';

/** What a write's work decided: its outcome (the route turns it into the reply) and the events it appends. */
export type WriteResult<T> = { value: T; events: GroupEvent[] };

/** Told about an error that is handled by carrying on (logged once and counted by the composition root). */
export type OnIgnoredError = (reason: string, error: unknown, context?: Record<string, unknown>) => void;

/**
 * Thrown by a write's work when what it read disagrees with its change's state (e.g. a membership):
 * the state is out of date, and the work runs again on a state read afresh.
 */
export class StaleState extends Error {
  override name = 'StaleState';
}

/** The records a write may change, each read with its group's state in one statement. */
export type RecordTable = 'expenses' | 'settlements' | 'recurring_expenses' | 'comments';

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
   * A change to `groupId` by someone who need not be a member yet (joining it by an invite, or
   * claiming a pending member). 404 (`Group`) for an unknown group.
   */
  openJoining(groupId: string): Promise<GroupChange>;
  /**
   * The record `id` of `table` with a change to its group, read in ONE statement so that the row
   * and the group's state are consistent. Undefined for an unknown id; `hidden()` when the caller is
   * not a member of the record's group (it must answer exactly as for an unknown id). `userId` null:
   * the server's own change (the recurring-expense scheduler), made for no caller.
   */
  openRecord<R>(
    table: RecordTable,
    id: string,
    userId: string | null,
    hidden: () => AppError,
  ): Promise<{ row: R; change: GroupChange } | undefined>;
  /** A change that creates `group`, with `creatorId` its first member. */
  create(group: GroupRow, creatorId: string): GroupChange;
  /** A read that decides the change (a user to add, a group's members): one prepared statement. */
  read: RunRead;
};

export type Work<T> = (ctx: WriteContext) => Promise<WriteResult<T>>;

/** One write, as a route asks for it. */
export type WriteRequest<T> = {
  work: Work<T>;
  /** The answer to the caller, from the work's outcome (what a keyed request's durable record keeps). */
  reply: (value: T) => Reply;
  /** A keyed request's durable record of `reply`: it goes out in the change's own statement. */
  record?: (reply: Reply) => DurableRecord;
  /**
   * Runs the work once more when it failed with an error this accepts: e.g. a create that lost the
   * race for its client-chosen id, which on the second attempt finds the row and replaces it.
   */
  retryIf?: (error: unknown) => boolean;
};

/**
 * A write done: its answer, the events it committed, and whether its statement carried the durable
 * record (false when the work changed nothing: the caller records the answer by itself).
 */
export type Written = { reply: Reply; events: readonly GroupEvent[]; recorded: boolean };

/** A record with its group's state, as `openRecord` reads it. */
const recordWithGroup = (table: RecordTable) => ({
  name: `write_open_${table}`,
  text: `select to_jsonb(r) as record, s.* from ${table} r
           cross join lateral (${groupSnapshotSql('r.group_id')}) s where r.id = $1`,
});
const RECORD_READS = {
  expenses: recordWithGroup('expenses'),
  settlements: recordWithGroup('settlements'),
  recurring_expenses: recordWithGroup('recurring_expenses'),
  comments: recordWithGroup('comments'),
};
const GROUP_READ = { name: 'write_open_group', text: groupSnapshotSql('$1') };

/**
 * How often a change whose state turned out out of date (another process wrote the group in
 * between) runs again on the state its statement returned, before the write gives up with `503`.
 */
const MAX_ATTEMPTS = 10;
/** After this many collisions a write takes its group's row lock (see `afterCollision`). */
const LOCK_AFTER_COLLISIONS = 2;
/** The group's row lock, for a write that collided too often. */
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

/** Statement names by text: one prepared statement per shape of change, per runner. */
function createStatementNames(prefix: string) {
  const names = new Map<string, string>();
  return (text: string): string => {
    let name = names.get(text);
    if (name === undefined) {
      name = `${prefix}_${names.size + 1}`;
      names.set(text, name);
    }
    return name;
  };
}

/**
 * A write whose statement is on its way (group commit), and the state it will leave: the group's
 * next write in this process is decided on that state at once, instead of waiting for the
 * statement to come back, so that both can go in one batch. The next one's guard names this one's
 * event (`GroupChange.buildsOn`): it applies only after this one did.
 */
type Ahead = {
  state: GroupState;
  event: { eventId: string; at: Date };
  ticket: Ticket;
  /** Settles (never rejects) when the statement is back. */
  back: Promise<unknown>;
  /** The statement failed or did not apply: nothing may build on it any more. */
  failed: boolean;
  /** The write this one builds on, while that one is on its way too. */
  parent: Ahead | undefined;
};

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

/** The change the current attempt's work opened (read through a call: the work set it meanwhile). */
const openedChange = (state: WriteState): GroupChange | undefined => state.change;

/** Why an attempt did not finish the write, and so what the next one needs. */
type Retry = 'stale' | 'collided';

type StatementRow = GroupSnapshotRow & { applied: number | string };

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
  /** Where the group-commit batch metrics go (`write_batch_size`). */
  registry?: Registry;
}) {
  const runRead = createRunRead(deps.knex);
  const gate =
    deps.groupGate ?? createGroupGate({ maxWaiting: Number.MAX_SAFE_INTEGER, waitTimeoutMs: 30_000 });
  const cache = createStateCache(CACHED_GROUPS);
  const nameOf = createStatementNames(deps.statementPrefix ?? 'tally_write');
  const ignored = deps.onIgnoredError ?? (() => {});
  // Group commit on PostgreSQL; embedded PGlite (one connection, no named statements) sends alone.
  const batcher =
    deps.knex.client?.config?.client === 'pg'
      ? createStatementBatcher({ knex: deps.knex, runRead, registry: deps.registry })
      : undefined;
  /** Per group, the last write on its way (see `Ahead`). */
  const aheadOf = new Map<string, Ahead>();

  /** The group's last write on its way, if what it builds on has not failed. */
  function usableAhead(groupId: string): Ahead | undefined {
    const ahead = aheadOf.get(groupId);
    for (let link = ahead; link; link = link.parent) {
      if (link.failed) {
        aheadOf.delete(groupId);
        return undefined;
      }
    }
    return ahead;
  }

  /** Waits until the group's writes on their way are back, so that a read of the group sees them. */
  async function writesBack(groupId: string): Promise<void> {
    for (
      let ahead = aheadOf.get(groupId);
      ahead && ahead.ticket.stage !== 'settled';
      ahead = aheadOf.get(groupId)
    )
      await ahead.back;
  }

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
    const [row] = await readFor(state)<GroupSnapshotRow>(GROUP_READ, [groupId]);
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
    state.ahead = state.trustCache ? usableAhead(groupId) : undefined;
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
      async openJoining(groupId) {
        const group = await stateFor(state, groupId);
        state.change = GroupChange.joining(group, () => notFound('Group'), deps.newId);
        builtOnAhead(state, state.change);
        return state.change;
      },
      async openRecord<R>(table: RecordTable, id: string, userId: string | null, hidden: () => AppError) {
        let [row] = await readFor(state)<GroupSnapshotRow & { record: R }>(RECORD_READS[table], [id]);
        if (!row) return undefined;
        const groupId = row.id;
        await enterGroup(state, groupId);
        const onItsWay = aheadOf.get(groupId);
        if (onItsWay && onItsWay.ticket.stage !== 'settled') {
          // A write of this process to the group is on its way: read the record once it is back.
          await writesBack(groupId);
          [row] = await readFor(state)<GroupSnapshotRow & { record: R }>(RECORD_READS[table], [id]);
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

  /** Sends a change's statement; a live durable record holding the key undoes it (`TY001`). */
  async function sendStatement(
    state: WriteState,
    statement: Sql,
    groupId: string,
  ): Promise<StatementRow | undefined> {
    const text = statement.text;
    try {
      // A write on its locked transaction sends there; the others go with the next batch.
      const [row] =
        batcher !== undefined && state.locked === undefined
          ? ((await batcher.send({
              name: nameOf(text),
              text,
              values: [...statement.values],
              groupId,
            })) as StatementRow[])
          : await readFor(state)<StatementRow>({ name: nameOf(text), text }, [...statement.values]);
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
    const reply = request.reply(outcome.value);
    const change = openedChange(state);
    if (!change?.changed) {
      if (state.fromCache) {
        state.trustCache = false;
        return 'stale';
      }
      // Nothing changed (a no-op PUT, a repeated delete): nothing to send.
      return { reply, events: [], recorded: false };
    }
    const statement = change.statement(request.record?.(reply));
    const row =
      batcher !== undefined && state.locked === undefined
        ? await sendAhead(state, statement, change)
        : await sendStatement(state, statement, change.group.id);
    if (row && Number(row.applied) > 0) {
      cache.offer(change.after());
      return { reply, events: outcome.events, recorded: request.record !== undefined };
    }
    noteCollision(state, change, row);
    return 'collided';
  }

  /**
   * Queues the change's statement with the next batch, and gives the group's turn to its next
   * write at once, which builds on the state this change leaves (`Ahead`) and may share its batch.
   */
  async function sendAhead(
    state: WriteState,
    statement: Sql,
    change: GroupChange,
  ): Promise<StatementRow | undefined> {
    const groupId = change.group.id;
    const text = statement.text;
    const { ticket, rows } = (batcher as NonNullable<typeof batcher>).enqueue(
      { name: nameOf(text), text, values: [...statement.values], groupId },
      state.ahead?.ticket,
    );
    const ahead: Ahead = {
      state: change.after(),
      event: change.staged as NonNullable<GroupChange['staged']>,
      ticket,
      back: rows.catch(() => undefined),
      failed: false,
      parent: state.ahead,
    };
    aheadOf.set(groupId, ahead);
    passTurn(state);
    let row: StatementRow | undefined;
    try {
      [row] = (await rows) as StatementRow[];
    } catch (error) {
      ahead.failed = true;
      if (aheadOf.get(groupId) === ahead) aheadOf.delete(groupId);
      if (isLiveRecord(error)) throw new DurableRecordExists();
      throw error;
    }
    ahead.parent = undefined;
    if (!(row && Number(row.applied) > 0)) ahead.failed = true;
    if (aheadOf.get(groupId) === ahead) aheadOf.delete(groupId);
    return row;
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
    await state.locked.run(LOCK_GROUP, [state.groupId]);
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

/** `tally_idempotency_replaceable` (migration 003): a live durable record holds the key. */
const isLiveRecord = (error: unknown): boolean => (error as { code?: string } | null)?.code === 'TY001';

export type WriteRunner = ReturnType<typeof createWriteRunner>;
