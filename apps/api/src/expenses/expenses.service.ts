import {
  type BalanceDelta,
  computeShares,
  DomainError,
  diffBalanceEffects,
  expenseBalanceEffect,
  normalizePayers,
  type Payer,
  type Share,
  type SplitInput,
  userIdsOf,
} from '@tally/domain';
import type { EventType } from '@tally/events';
import { AppError, notFound } from '@tally/http-kit';
import { canonicalJson } from '@tally/idempotency';
import type { Knex } from 'knex';
import { isUniqueViolation, toIso } from '../db-errors';
import { pageOf } from '../http/cursor';
import { etagOf, ifMatchHolds } from '../http/reply';
import { newId } from '../ids';
import { jsonColumn } from '../json-column';
import type { GroupRow } from '../ledger/group-access';
import type { GroupChange, StatementPart } from '../ledger/group-change';
import type { WriteContext, WriteResult } from '../ledger/write-runner';
import { createRunRead, READS, readGroupPage, timeIdAfter } from '../read-queries';

export type ExpenseInput = {
  groupId: string;
  description: string;
  category?: string | null;
  amount: number;
  currency?: string;
  paidBy: string | Payer[];
  occurredAt?: string;
  split: SplitInput;
};
export type ExpensePatch = Partial<Omit<ExpenseInput, 'groupId'>>;

export type Expense = {
  id: string;
  groupId: string;
  description: string;
  category: string | null;
  amount: number;
  currency: string;
  paidBy: Payer[];
  occurredAt: string;
  split: SplitInput;
  shares: Share[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  version: number;
};

type ExpenseRow = {
  id: string;
  group_id: string;
  description: string;
  category: string | null;
  amount: number | string;
  currency: string;
  paid_by: Payer[] | string;
  split: SplitInput | string;
  shares: Share[] | string;
  occurred_at: Date | string;
  created_by: string;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
  deleted_at: Date | string | null;
};

export const toExpense = (row: ExpenseRow): Expense => ({
  id: row.id,
  groupId: row.group_id,
  description: row.description,
  category: row.category,
  amount: Number(row.amount),
  currency: row.currency,
  paidBy: jsonColumn(row.paid_by),
  occurredAt: toIso(row.occurred_at),
  split: jsonColumn(row.split),
  shares: jsonColumn(row.shares),
  createdBy: row.created_by,
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
  version: row.version,
});

/** An expense a write left, and whether the write created it (a PUT may create or replace). */
export type ExpenseWritten = { expense: Expense; created: boolean };

/** The money-relevant content of an expense, after validation against the domain rules. */
type Prepared = Pick<
  Expense,
  'description' | 'category' | 'amount' | 'currency' | 'paidBy' | 'occurredAt' | 'split' | 'shares'
>;

function prepare(
  input: Omit<ExpenseInput, 'groupId'>,
  group: GroupRow,
  fallbackOccurredAt: string,
): Prepared {
  try {
    return {
      description: input.description,
      category: input.category ?? null,
      amount: input.amount,
      currency: input.currency ?? group.currency,
      paidBy: normalizePayers(input.amount, input.paidBy),
      occurredAt: input.occurredAt ? new Date(input.occurredAt).toISOString() : fallbackOccurredAt,
      split: input.split,
      shares: computeShares(input.amount, input.split),
    };
  } catch (error) {
    if (error instanceof DomainError) {
      const status = 422;
      throw new AppError(
        error.code,
        status,
        error.message,
        error.errors.length > 0 ? { errors: error.errors } : {},
      );
    }
    throw error;
  }
}

const contentOf = (p: Prepared) => [
  p.description,
  p.category,
  p.amount,
  p.currency,
  p.paidBy,
  p.occurredAt,
  p.split,
  p.shares,
];

const sameContent = (a: Prepared, b: Prepared): boolean =>
  canonicalJson(contentOf(a)) === canonicalJson(contentOf(b));

const partiesOf = (e: Pick<Expense, 'paidBy' | 'split'>): string[] => [
  ...e.paidBy.map((p) => p.userId),
  ...userIdsOf(e.split),
];

/** The content columns of `EXPENSE_WRITES`, `$2`…`$9`, in their order. */
const contentValues = (p: Prepared): unknown[] => [
  p.description,
  p.category,
  p.amount,
  p.currency,
  JSON.stringify(p.paidBy),
  JSON.stringify(p.split),
  JSON.stringify(p.shares),
  p.occurredAt,
];

/** The expense rows' writes, as parts of a change's one statement (`GroupChange.write`); `$1` is the id. */
const EXPENSE_WRITES = {
  insert: {
    name: 'expense_insert',
    sql: `insert into expenses (id, group_id, description, category, amount, currency, paid_by, split, shares,
                                occurred_at, created_by, created_at, updated_at, version)
          select $1::text, guard.id, $2::text, $3::text, $4::bigint, $5::text, $6::jsonb, $7::jsonb, $8::jsonb,
                 $9::timestamptz, $10::text, $11::timestamptz, $11::timestamptz, 1 from guard`,
  },
  replace: {
    name: 'expense_replace',
    sql: `update expenses set description = $2::text, category = $3::text, amount = $4::bigint, currency = $5::text,
                              paid_by = $6::jsonb, split = $7::jsonb, shares = $8::jsonb, occurred_at = $9::timestamptz,
                              updated_at = $10::timestamptz, version = $11::integer
            from guard where expenses.id = $1::text`,
  },
  remove: {
    name: 'expense_delete',
    sql: `update expenses set deleted_at = $2::timestamptz, updated_at = $2::timestamptz, version = $3::integer
            from guard where expenses.id = $1::text`,
  },
  restore: {
    name: 'expense_restore',
    sql: `update expenses set deleted_at = null, updated_at = $2::timestamptz, version = $3::integer
            from guard where expenses.id = $1::text`,
  },
} satisfies Record<string, StatementPart>;

/**
 * A PUT-create that lost the race for its client-chosen id: another request created it after this
 * one looked (the insert hits the primary key). Run again, the PUT finds the expense and takes the
 * replace path: a no-op `200` for the same body, `412`/`422` as for any existing expense.
 */
export const lostCreateRace = (error: unknown): boolean => isUniqueViolation(error, 'expenses_pkey');
const preconditionFailed = () =>
  new AppError('precondition_failed', 412, 'The expense has changed since you read it.');

export function createExpensesService(deps: { knex: Knex }) {
  const runRead = createRunRead(deps.knex);

  /** Applies a balance change and announces it: the money event carries the balances after it. */
  function recordChange(
    change: GroupChange,
    userId: string,
    type: EventType,
    expense: Expense,
    deltas: BalanceDelta[],
    extra: Record<string, unknown> = {},
  ) {
    change.applyDeltas(deltas);
    return change.commit(type, userId, { expense, ...extra }, { withBalances: true });
  }

  function insert(
    change: GroupChange,
    userId: string,
    id: string,
    input: ExpenseInput,
  ): WriteResult<ExpenseWritten> {
    const { group } = change;
    const now = new Date();
    const prepared = prepare(input, group, now.toISOString());
    change.assertMembers(partiesOf(prepared));
    change.write(EXPENSE_WRITES.insert, [id, ...contentValues(prepared), userId, now]);
    const expense: Expense = {
      id,
      groupId: group.id,
      ...prepared,
      createdBy: userId,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      version: 1,
    };
    change.countRecord(expense.currency, 1);
    const event = recordChange(change, userId, 'expense.created', expense, expenseBalanceEffect(expense));
    return { value: { expense, created: true }, events: [event] };
  }

  /**
   * The expense with a change to its group; undefined for an unknown id. A non-member gets
   * `hidden()`, which must be exactly what the caller answers for an unknown id, so that not even
   * the problem's detail tells them the id exists (API.md §1).
   */
  const openExpense = (
    ctx: WriteContext,
    userId: string,
    expenseId: string,
    hidden: () => AppError = () => notFound('Expense'),
  ) => ctx.openRecord<ExpenseRow>('expenses', expenseId, userId, hidden);

  function replace(
    change: GroupChange,
    userId: string,
    row: ExpenseRow,
    input: Omit<ExpenseInput, 'groupId'>,
  ): WriteResult<ExpenseWritten> {
    const current = toExpense(row);
    const next = prepare(input, change.group, current.occurredAt);
    if (sameContent(current, next)) return { value: { expense: current, created: false }, events: [] };
    const before = expenseBalanceEffect(current);
    const after = expenseBalanceEffect(next);
    const deltas = diffBalanceEffects(before, after);
    const known = new Set(partiesOf(current));
    change.assertMembers([...partiesOf(next).filter((id) => !known.has(id)), ...deltas.map((d) => d.userId)]);
    const now = new Date();
    const version = current.version + 1;
    change.write(EXPENSE_WRITES.replace, [row.id, ...contentValues(next), now, version]);
    if (next.currency !== current.currency) {
      change.countRecord(current.currency, -1);
      change.countRecord(next.currency, 1);
    }
    const expense: Expense = { ...current, ...next, updatedAt: now.toISOString(), version };
    const event = recordChange(change, userId, 'expense.updated', expense, deltas);
    return { value: { expense, created: false }, events: [event] };
  }

  return {
    async create(ctx: WriteContext, userId: string, input: ExpenseInput): Promise<WriteResult<Expense>> {
      const { value, events } = insert(await ctx.open(input.groupId, userId), userId, newId('exp'), input);
      return { value: value.expense, events };
    },

    /** PUT: replaces an expense, or creates it at a client-chosen id. */
    async put(
      ctx: WriteContext,
      userId: string,
      expenseId: string,
      input: ExpenseInput,
      ifMatch: string | undefined,
    ): Promise<WriteResult<ExpenseWritten>> {
      // For an unknown id PUT creates the expense in `input.groupId`, which a non-member of that
      // group is told is not found; an existing expense they cannot see answers the same.
      const found = await openExpense(ctx, userId, expenseId, () => notFound('Group'));
      if (!found) {
        if (ifMatch !== undefined) throw preconditionFailed();
        return insert(await ctx.open(input.groupId, userId), userId, expenseId, input);
      }
      const { change, row } = found;
      if (row.deleted_at) throw notFound('Expense');
      if (!ifMatchHolds(ifMatch, etagOf(row.version))) throw preconditionFailed();
      if (input.groupId !== row.group_id) {
        throw new AppError('validation_failed', 422, 'An expense cannot move to another group.', {
          errors: [{ path: 'groupId', message: 'must be the group the expense belongs to' }],
        });
      }
      const { groupId: _groupId, ...rest } = input;
      return replace(change, userId, row, rest);
    },

    async patch(
      ctx: WriteContext,
      userId: string,
      expenseId: string,
      patch: ExpensePatch,
      ifMatch: string | undefined,
    ): Promise<WriteResult<Expense>> {
      const found = await openExpense(ctx, userId, expenseId);
      if (!found || found.row.deleted_at) throw notFound('Expense');
      const { change, row } = found;
      if (!ifMatchHolds(ifMatch, etagOf(row.version))) throw preconditionFailed();
      const current = toExpense(row);
      const onlyPayer = current.paidBy.length === 1 ? current.paidBy[0] : undefined;
      // A single payer keeps paying the whole amount when only the amount changes.
      const paidBy =
        patch.paidBy ?? (patch.amount !== undefined && onlyPayer ? onlyPayer.userId : current.paidBy);
      const { value, events } = replace(change, userId, row, {
        description: patch.description ?? current.description,
        category: patch.category === undefined ? current.category : patch.category,
        amount: patch.amount ?? current.amount,
        currency: patch.currency ?? current.currency,
        paidBy,
        occurredAt: patch.occurredAt ?? current.occurredAt,
        split: patch.split ?? current.split,
      });
      return { value: value.expense, events };
    },

    async remove(
      ctx: WriteContext,
      userId: string,
      expenseId: string,
      ifMatch: string | undefined,
    ): Promise<WriteResult<void>> {
      const found = await openExpense(ctx, userId, expenseId);
      if (!found) throw notFound('Expense');
      const { change, row } = found;
      if (row.deleted_at) return { value: undefined, events: [] };
      if (!ifMatchHolds(ifMatch, etagOf(row.version))) throw preconditionFailed();
      const current = toExpense(row);
      const deltas = diffBalanceEffects(expenseBalanceEffect(current), []);
      change.assertMembers(deltas.map((d) => d.userId));
      const now = new Date();
      const version = current.version + 1;
      change.write(EXPENSE_WRITES.remove, [row.id, now, version]);
      change.countRecord(current.currency, -1);
      const expense = { ...current, updatedAt: now.toISOString(), version };
      const event = recordChange(change, userId, 'expense.deleted', expense, deltas, {
        deletedAt: now.toISOString(),
      });
      return { value: undefined, events: [event] };
    },

    async restore(ctx: WriteContext, userId: string, expenseId: string): Promise<WriteResult<Expense>> {
      const found = await openExpense(ctx, userId, expenseId);
      if (!found) throw notFound('Expense');
      const { change, row } = found;
      const current = toExpense(row);
      if (!row.deleted_at) return { value: current, events: [] };
      const deltas = expenseBalanceEffect(current);
      change.assertMembers(partiesOf(current));
      const now = new Date();
      const version = current.version + 1;
      change.write(EXPENSE_WRITES.restore, [row.id, now, version]);
      change.countRecord(current.currency, 1);
      const expense = { ...current, updatedAt: now.toISOString(), version };
      const event = recordChange(change, userId, 'expense.created', expense, deltas, {
        restored: true,
      });
      return { value: expense, events: [event] };
    },

    /** One statement; an expense in a group the caller is not in is as unknown as any other id. */
    async get(userId: string, expenseId: string): Promise<Expense> {
      const [row] = await runRead<ExpenseRow>(READS.expense, [expenseId, userId]);
      if (!row) throw notFound('Expense');
      return toExpense(row);
    },

    async list(userId: string, groupId: string, query: { limit: number; cursor?: string }) {
      const rows = await readGroupPage<ExpenseRow>(
        runRead,
        READS.expenses,
        { groupId, userId, limit: query.limit + 1 },
        timeIdAfter(query.cursor),
      );
      return pageOf(rows.map(toExpense), query.limit, (e) => [e.occurredAt, e.id]);
    },
  };
}

export type ExpensesService = ReturnType<typeof createExpensesService>;
