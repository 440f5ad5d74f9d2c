import type { GroupEvent } from '@tally/events';
import type { AppError } from '@tally/http-kit';
import type { DurableRecord } from '@tally/idempotency';
import type { Reply } from '../http/reply';
import type { RunRead } from '../read-queries';
import type { GroupRow } from './group-access';
import type { GroupChange } from './group-change';

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
  /** A change that archives or unarchives `groupId` (by a member): the one that may open an archived group. */
  openArchiving(groupId: string, userId: string): Promise<GroupChange>;
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
