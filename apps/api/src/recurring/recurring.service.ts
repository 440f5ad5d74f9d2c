import { createHash } from 'node:crypto';
import { sql } from '@tally/db';
import {
  firstOccurrenceAfter,
  isWithin,
  type LocalDate,
  occurrenceDate,
  occurrencesDue,
  type Payer,
  type RecurrenceEvery,
  type SplitInput,
  splitAmongMembers,
  splitParties,
  startOfLocalDay,
} from '@tally/domain';
import { AppError, limitExceeded, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import type { ExpensesService, OccurrenceOrigin } from '../expenses/expenses.service';
import { pageOf } from '../http/cursor';
import { etagOf, ifMatchHolds } from '../http/reply';
import type { NewId } from '../ids';
import { jsonColumn } from '../json-column';
import type { GroupChange, Party } from '../ledger/group-change';
import { StaleState, type WriteContext, type WriteResult } from '../ledger/write-runner';
import { openExisting, recordNotFound } from '../open-record';
import {
  beforeCursor,
  createRunRead,
  groupPage,
  liveRecordOfMember,
  named,
  readGroupPage,
  readNamed,
  timeIdAfter,
} from '../read-queries';

/** The body of POST /v1/expenses without `groupId` and `occurredAt`: what each occurrence copies. */
export type RecurringTemplate = {
  description: string;
  category?: string | null;
  amount: number;
  currency?: string;
  paidBy: string | Payer[];
  split: SplitInput;
};

export type RecurringSchedule = {
  every: RecurrenceEvery;
  startsOn: LocalDate;
  until?: LocalDate | null;
  timeZone: string;
};

export type RecurringInput = { expense: RecurringTemplate; schedule: RecurringSchedule };
export type RecurringPatch = {
  expense?: Partial<RecurringTemplate>;
  schedule?: Partial<RecurringSchedule>;
};

/** The resource of API.md §6a. */
export type Recurring = {
  id: string;
  groupId: string;
  expense: RecurringTemplate;
  schedule: { every: RecurrenceEvery; startsOn: LocalDate; until: LocalDate | null; timeZone: string };
  /** The local date of the next occurrence to create; null once the schedule is over or deleted. */
  nextOccurrence: LocalDate | null;
  createdBy: string;
  version: number;
  createdAt: string;
  updatedAt: string;
};

type RecurringRow = {
  id: string;
  group_id: string;
  expense: RecurringTemplate | string;
  every: RecurrenceEvery;
  starts_on: string;
  until: string | null;
  time_zone: string;
  next_index: number;
  next_due_at: Date | string | null;
  created_by: string;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  deleted_at: Date | string | null;
};

const scheduleOf = (row: RecurringRow): Recurring['schedule'] => ({
  every: row.every,
  startsOn: row.starts_on,
  until: row.until,
  timeZone: row.time_zone,
});

/** Where a schedule stands at occurrence `index`: its date, and when it is due (null: over). */
function pointerAt(schedule: Recurring['schedule'], index: number) {
  const date = occurrenceDate(schedule.startsOn, schedule.every, index);
  if (!isWithin(date, schedule.until)) return { index, date: null, dueAt: null };
  return { index, date, dueAt: startOfLocalDay(date, schedule.timeZone) };
}

const toRecurring = (row: RecurringRow): Recurring => {
  const schedule = scheduleOf(row);
  return {
    id: row.id,
    groupId: row.group_id,
    expense: jsonColumn(row.expense),
    schedule,
    nextOccurrence: row.deleted_at ? null : pointerAt(schedule, row.next_index).date,
    createdBy: row.created_by,
    version: row.version,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
};

/**
 * The id of the expense of occurrence `date` of schedule `recurringId`: derived, never drawn, so a
 * second attempt at the same occurrence collides on the primary key as well as on the unique
 * (`recurring_id`, `occurrence_date`) index. 69 characters: longer than any id a client may choose
 * with PUT (at most 64), so no client can take an occurrence's id first.
 */
export function occurrenceExpenseId(recurringId: string, date: LocalDate): string {
  const digest = createHash('sha256').update(`${recurringId}\u0000${date}`).digest('hex');
  return `exp_r${digest}`;
}

/**
 * The bounds of API.md §6a (table in §9.1), over which a write is refused with `422 limit_exceeded`
 * naming the bound, and writes nothing. Contract values, the same in every process: a client can
 * rely on them, so they are not settings.
 */
export const RECURRING_LIMITS = {
  /** Live (not deleted) recurring expenses in one group, ended ones included: what its list holds. */
  schedulesPerGroup: 50,
  /**
   * Occurrences already due that a create, or a PATCH of the schedule, may leave for the scheduler
   * to catch up at once: a `startsOn` far back is refused rather than flooding the group.
   */
  recurringBacklog: 100,
} as const;

/**
 * Refuses a schedule that would have more than `recurringBacklog` occurrences due at once from
 * `from` on; `before`, on a change, is how many were due before it (a change that does not add to
 * an older backlog, left by servers that were down, is not refused for it).
 */
function checkBacklog(schedule: Recurring['schedule'], from: number, now: Date, before = 0): void {
  const max = RECURRING_LIMITS.recurringBacklog;
  const due = occurrencesDue(schedule, from, now);
  if (due > max && due > before) {
    throw limitExceeded(
      'recurringBacklog',
      max,
      `This schedule would have ${due} past occurrences created at once; at most ${max} may be. Start it later.`,
    );
  }
}

/** `until` must not be before `startsOn` (a schedule with no occurrence is a mistake). */
export function checkSchedule(schedule: Pick<RecurringSchedule, 'startsOn' | 'until'>): void {
  if (schedule.until != null && schedule.until < schedule.startsOn) {
    throw new AppError('validation_failed', 422, 'The schedule ends before it starts.', {
      errors: [{ path: 'schedule.until', message: 'must not be before schedule.startsOn' }],
    });
  }
}

/** The users a template names, with the path of the request field that names them. */
const partiesOf = (t: Pick<RecurringTemplate, 'paidBy' | 'split'>): Party[] => [
  ...(typeof t.paidBy === 'string'
    ? [{ userId: t.paidBy, path: 'expense.paidBy' }]
    : t.paidBy.map((p, i) => ({ userId: p.userId, path: `expense.paidBy[${i}].userId` }))),
  ...splitParties(t.split, 'expense.split'),
];

const preconditionFailed = () =>
  new AppError('precondition_failed', 412, 'The recurring expense has changed since you read it.');

/** The recurring rows' writes, as parts of a change's one statement (`GroupChange.write`). */
const RECURRING_WRITES = {
  insert: (r: Recurring, nextIndex: number, dueAt: Date | null, now: Date) =>
    sql`insert into recurring_expenses (id, group_id, expense, every, starts_on, until, time_zone, next_index,
                                        next_due_at, created_by, version, created_at, updated_at)
        select ${r.id}::text, guard.id, ${JSON.stringify(r.expense)}::jsonb, ${r.schedule.every}::text,
               ${r.schedule.startsOn}::text, ${r.schedule.until}::text, ${r.schedule.timeZone}::text,
               ${nextIndex}::integer, ${dueAt}::timestamptz, ${r.createdBy}::text, 1, ${now}::timestamptz,
               ${now}::timestamptz from guard`,
  update: (r: Recurring, nextIndex: number, dueAt: Date | null, now: Date) =>
    sql`update recurring_expenses set expense = ${JSON.stringify(r.expense)}::jsonb, every = ${r.schedule.every}::text,
               starts_on = ${r.schedule.startsOn}::text, until = ${r.schedule.until}::text,
               time_zone = ${r.schedule.timeZone}::text, next_index = ${nextIndex}::integer,
               next_due_at = ${dueAt}::timestamptz, version = ${r.version}::integer, updated_at = ${now}::timestamptz
          from guard where recurring_expenses.id = ${r.id}::text`,
  remove: (id: string, version: number, now: Date) =>
    sql`update recurring_expenses set deleted_at = ${now}::timestamptz, next_due_at = null,
               version = ${version}::integer, updated_at = ${now}::timestamptz
          from guard where recurring_expenses.id = ${id}::text`,
  /** Moves the pointer past occurrence `index`, only from there: an occurrence advances it once. */
  advance: (id: string, index: number, dueAt: Date | null) =>
    sql`update recurring_expenses set next_index = ${index + 1}::integer, next_due_at = ${dueAt}::timestamptz
          from guard where recurring_expenses.id = ${id}::text and recurring_expenses.next_index = ${index}::integer`,
};

const RECURRING_READS = {
  one: (id: string, userId: string) => liveRecordOfMember('read_recurring', 'recurring_expenses', id, userId),
  page: groupPage(
    'read_recurring_page',
    'recurring_expenses',
    sql`deleted_at is null`,
    sql`created_at desc, id desc`,
    beforeCursor('created_at'),
  ),
  /**
   * A group's live schedules, with the `last_seq` they were counted at (one statement: one
   * snapshot), so a create can tell whether the count belongs to the state it decides on.
   */
  liveCount: (groupId: string) =>
    named(
      'read_recurring_live_count',
      sql`select g.last_seq, (select count(*) from recurring_expenses r
                               where r.group_id = g.id and r.deleted_at is null) as live
            from groups g where g.id = ${groupId}`,
    ),
  /** For the scheduler's rare repair (see `passExisting`): the row alone. */
  row: (id: string) => named('read_recurring_row', sql`select * from recurring_expenses where id = ${id}`),
  passExisting: (id: string, index: number, dueAt: Date | null) =>
    named(
      'recurring_pass_existing',
      sql`update recurring_expenses set next_index = ${index}::integer + 1, next_due_at = ${dueAt}
           where id = ${id} and next_index = ${index}::integer`,
    ),
};

/** What the scheduler's step for one schedule did. */
export type OccurrenceStep =
  | { kind: 'created'; occurrenceDate: LocalDate; expenseId: string }
  | { kind: 'skipped'; occurrenceDate: LocalDate; reason: string }
  /** The occurrence's expense was already there: the pointer moved past it. */
  | { kind: 'existing' }
  | { kind: 'idle' };

export function createRecurringService(deps: { knex: Knex; newId: NewId; expenses: ExpensesService }) {
  const { newId, expenses } = deps;
  const runRead = createRunRead(deps.knex);

  return {
    async create(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      input: RecurringInput,
    ): Promise<WriteResult<Recurring>> {
      const change = await ctx.open(groupId, userId);
      change.assertMembers(partiesOf(input.expense));
      change.assertOnePersonEach(partiesOf(input.expense));
      const now = new Date();
      const schedule = { ...input.schedule, until: input.schedule.until ?? null };
      checkBacklog(schedule, 0, now);
      await checkRoomFor(ctx, change);
      const first = pointerAt(schedule, 0);
      const recurring: Recurring = {
        id: newId('rec'),
        groupId,
        expense: input.expense,
        schedule,
        nextOccurrence: first.date,
        createdBy: userId,
        version: 1,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      };
      change.write(RECURRING_WRITES.insert(recurring, 0, first.dueAt, now));
      const event = change.commit('recurring.created', userId, { recurring });
      return { value: recurring, events: [event] };
    },

    /**
     * Changes the template or the schedule from the next occurrence on: the occurrences already
     * created stay as they are. A changed schedule continues with its first occurrence after the
     * last one created (or from its start when none was).
     */
    async patch(
      ctx: WriteContext,
      userId: string,
      id: string,
      patch: RecurringPatch,
      ifMatch: string | undefined,
      checkTemplate: (t: RecurringTemplate) => void,
    ): Promise<WriteResult<Recurring>> {
      const { change, row } = await openExisting<RecurringRow>(ctx, 'recurring_expenses', id, userId, {
        live: true,
      });
      if (!ifMatchHolds(ifMatch, etagOf(row.version))) throw preconditionFailed();
      const current = toRecurring(row);
      const expense = { ...current.expense, ...patch.expense };
      const schedule = { ...current.schedule, ...patch.schedule };
      schedule.until = schedule.until ?? null;
      checkTemplate(expense);
      checkSchedule(schedule);
      // Who pays and who shares are checked when the patch names them: a member who left since does
      // not block a change of the amount or the schedule (the occurrences handle them, API.md §6a).
      if (patch.expense?.paidBy !== undefined || patch.expense?.split !== undefined) {
        change.assertMembers(partiesOf(expense));
        change.assertOnePersonEach(partiesOf(expense));
      }
      let nextIndex = row.next_index;
      const now = new Date();
      if (patch.schedule) {
        const lastCreated =
          row.next_index > 0 ? occurrenceDate(row.starts_on, row.every, row.next_index - 1) : undefined;
        nextIndex = lastCreated ? firstOccurrenceAfter(schedule.startsOn, schedule.every, lastCreated) : 0;
        // Moving `startsOn` back, or lifting an `until` long past, may not make a backlog a create could not.
        checkBacklog(schedule, nextIndex, now, occurrencesDue(current.schedule, row.next_index, now));
      }
      const next = pointerAt(schedule, nextIndex);
      const recurring: Recurring = {
        ...current,
        expense,
        schedule,
        nextOccurrence: next.date,
        version: current.version + 1,
        updatedAt: now.toISOString(),
      };
      change.write(RECURRING_WRITES.update(recurring, nextIndex, next.dueAt, now));
      const event = change.commit('recurring.updated', userId, { recurring });
      return { value: recurring, events: [event] };
    },

    /** Stops the schedule; the occurrences already created stay. A repeated delete changes nothing. */
    async remove(
      ctx: WriteContext,
      userId: string,
      id: string,
      ifMatch: string | undefined,
    ): Promise<WriteResult<void>> {
      const { change, row } = await openExisting<RecurringRow>(ctx, 'recurring_expenses', id, userId);
      if (row.deleted_at) return { value: undefined, events: [] };
      if (!ifMatchHolds(ifMatch, etagOf(row.version))) throw preconditionFailed();
      const now = new Date();
      const version = row.version + 1;
      change.write(RECURRING_WRITES.remove(id, version, now));
      const event = change.commit('recurring.deleted', userId, {
        recurringId: id,
        deletedAt: now.toISOString(),
      });
      return { value: undefined, events: [event] };
    },

    async get(userId: string, id: string): Promise<Recurring> {
      const [row] = await readNamed<RecurringRow>(runRead, RECURRING_READS.one(id, userId));
      if (!row) throw notFound('Recurring expense');
      return toRecurring(row);
    },

    async list(userId: string, groupId: string, query: { limit: number; cursor?: string }) {
      const rows = await readGroupPage<RecurringRow>(
        runRead,
        RECURRING_READS.page,
        { groupId, userId, limit: query.limit + 1 },
        timeIdAfter(query.cursor, 'recurring'),
      );
      return pageOf(rows.map(toRecurring), query.limit, (r) => [r.createdAt, r.id]);
    },

    /**
     * The scheduler's step: the next occurrence of schedule `id` if it is due at `now`, as ONE change
     * of its group that also moves the schedule's pointer past it (from exactly that index). Either
     * the occurrence's expense (an ordinary `expense.created`) or, when members it names have left
     * the group in a way its split cannot absorb, a `recurring.skipped` event (API.md §6a).
     */
    async occur(ctx: WriteContext, id: string, now: Date): Promise<WriteResult<OccurrenceStep>> {
      const found = await ctx.openRecord<RecurringRow>('recurring_expenses', id, null, () =>
        recordNotFound('recurring_expenses'),
      );
      if (!found) return { value: { kind: 'idle' }, events: [] };
      const { change, row } = found;
      const dueAt = row.next_due_at === null ? undefined : new Date(row.next_due_at);
      if (row.deleted_at || !dueAt || dueAt.getTime() > now.getTime()) {
        return { value: { kind: 'idle' }, events: [] };
      }
      const schedule = scheduleOf(row);
      const index = row.next_index;
      const date = occurrenceDate(schedule.startsOn, schedule.every, index);
      const after = pointerAt(schedule, index + 1);
      const template: RecurringTemplate = jsonColumn(row.expense);
      const step = stageOccurrence(change, row, template, date);
      change.write(RECURRING_WRITES.advance(id, index, after.dueAt));
      return step;
    },

    /**
     * The rare repair after an occurrence's insert found its expense already there (a unique
     * violation; it takes a bug elsewhere, since the pointer moves in the expense's own statement):
     * the occurrence exists, so the pointer moves past it, from exactly that index.
     */
    async passExisting(id: string): Promise<void> {
      const [row] = await readNamed<RecurringRow>(runRead, RECURRING_READS.row(id));
      if (!row) return;
      const after = pointerAt(scheduleOf(row), row.next_index + 1);
      await readNamed(runRead, RECURRING_READS.passExisting(id, row.next_index, after.dueAt));
    },
  };

  /**
   * Refuses a create in a group that holds `schedulesPerGroup` live schedules already. The count is
   * read with the group's `last_seq`: counted at the state the change builds on, it is exact (any
   * other create or delete bumps `last_seq`, and the change's guard then refuses to apply); counted
   * at another (a write of this process still on its way, another process's since), the change runs
   * again on the group read afresh.
   */
  async function checkRoomFor(ctx: WriteContext, change: GroupChange): Promise<void> {
    const [counted] = await readNamed<{ last_seq: number | string; live: number | string }>(
      ctx.read,
      RECURRING_READS.liveCount(change.group.id),
    );
    if (!counted || Number(counted.last_seq) !== change.startSeq) throw new StaleState();
    const max = RECURRING_LIMITS.schedulesPerGroup;
    if (Number(counted.live) >= max) {
      throw limitExceeded(
        'schedulesPerGroup',
        max,
        `This group has ${max} recurring expenses, the most it may have; delete one first.`,
      );
    }
  }

  /** The occurrence on `change`: its expense among the current members, or the skip and why. */
  function stageOccurrence(
    change: GroupChange,
    row: RecurringRow,
    template: RecurringTemplate,
    date: LocalDate,
  ): WriteResult<OccurrenceStep> {
    const origin: OccurrenceOrigin = { recurringId: row.id, occurrenceDate: date };
    const skip = (reason: string): WriteResult<OccurrenceStep> => {
      const event = change.commit('recurring.skipped', row.created_by, {
        recurringId: row.id,
        occurrenceDate: date,
        reason,
      });
      return { value: { kind: 'skipped', occurrenceDate: date, reason }, events: [event] };
    };
    const parties = splitAmongMembers(template.paidBy, template.split, (userId) => change.isMember(userId));
    if (!parties.ok) return skip(parties.reason);
    const expenseId = occurrenceExpenseId(row.id, date);
    try {
      const { events } = expenses.createOccurrence(
        change,
        row.created_by,
        expenseId,
        {
          ...template,
          groupId: row.group_id,
          paidBy: parties.paidBy,
          split: parties.split,
          occurredAt: startOfLocalDay(date, row.time_zone).toISOString(),
        },
        origin,
      );
      return { value: { kind: 'created', occurrenceDate: date, expenseId }, events };
    } catch (error) {
      // A template the group's state now refuses (an exact split that no longer adds up cannot
      // happen; this is for rules added later): skipped with the rule's code, never retried for ever.
      if (error instanceof AppError && !change.changed) return skip(error.code);
      throw error;
    }
  }
}

export type RecurringService = ReturnType<typeof createRecurringService>;
