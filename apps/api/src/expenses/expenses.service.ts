import {
  type BalanceDelta,
  diffBalanceEffects,
  diffPairEffects,
  expenseBalanceEffect,
  expensePairEffect,
  type PairDelta,
} from '@tally/domain';
import type { EventType } from '@tally/events';
import { AppError, notFound } from '@tally/http-kit';
import { canonicalJson } from '@tally/idempotency';
import type { Knex } from 'knex';
import { assertCategory } from '../categories/categories.service';
import { isUniqueViolation } from '../db-errors';
import { pageOf } from '../http/cursor';
import { etagOf, ifMatchHolds } from '../http/reply';
import type { NewId } from '../ids';
import type { GroupChange } from '../ledger/group-change';
import type { WriteContext, WriteResult } from '../ledger/write-runner';
import { openExisting } from '../open-record';
import { createRunRead, READS, readGroupPage, readNamed, timeIdAfter } from '../read-queries';
import {
  EXPENSE_WRITES,
  type Expense,
  type ExpenseInput,
  type ExpensePatch,
  type ExpenseRow,
  type ExpenseWritten,
  type OccurrenceOrigin,
  partiesOf,
  prepare,
  sameContent,
  toExpense,
  touchedParties,
} from './expense-content';

export {
  checkExpenseInput,
  type Expense,
  type ExpenseInput,
  type ExpensePatch,
  type ExpenseWritten,
  type OccurrenceOrigin,
  searchColumnsOf,
  toExpense,
} from './expense-content';

/**
 * A PUT-create that lost the race for its client-chosen id: another request created it after this
 * one looked (the insert hits the primary key). Run again, the PUT finds the expense and takes the
 * replace path: a no-op `200` for the same body, `412`/`422` as for any existing expense.
 */
export const lostCreateRace = (error: unknown): boolean => isUniqueViolation(error, 'expenses_pkey');
const preconditionFailed = () =>
  new AppError('precondition_failed', 412, 'The expense has changed since you read it.');

export function createExpensesService(deps: { knex: Knex; newId: NewId }) {
  const { newId } = deps;

  /**
   * Applies a balance change (nets and original debts) and announces it: the money event carries
   * the balances after it.
   */
  function recordChange(
    change: GroupChange,
    userId: string,
    type: EventType,
    expense: Expense,
    deltas: BalanceDelta[],
    pairs: PairDelta[],
    extra: Record<string, unknown> = {},
  ) {
    change.applyDeltas(deltas);
    change.applyPairs(pairs);
    return change.commit(type, userId, { expense, ...extra }, { withBalances: true });
  }

  function insert(
    change: GroupChange,
    userId: string,
    id: string,
    input: ExpenseInput,
    origin?: OccurrenceOrigin,
  ): WriteResult<ExpenseWritten> {
    const { group } = change;
    const now = new Date();
    const prepared = prepare(input, group, now.toISOString());
    const parties = partiesOf({ paidBy: input.paidBy, split: prepared.split });
    change.assertMembers(parties);
    change.assertOnePersonEach(parties);
    change.write(EXPENSE_WRITES.insert(id, prepared, userId, now, origin));
    const expense: Expense = {
      id,
      groupId: group.id,
      ...prepared,
      createdBy: userId,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      version: 1,
      recurringId: origin?.recurringId ?? null,
    };
    change.countRecord(expense.currency, 1);
    // An occurrence's event says which schedule and which of its dates it is (API.md §6a).
    const extra = origin
      ? { recurring: { id: origin.recurringId, occurrenceDate: origin.occurrenceDate } }
      : {};
    const event = recordChange(
      change,
      userId,
      'expense.created',
      expense,
      expenseBalanceEffect(expense),
      expensePairEffect(expense),
      extra,
    );
    return { value: { expense, created: true }, events: [event] };
  }

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
    // New parties, and everyone whose balance the change moves, named where the request names them.
    const known = new Set(partiesOf(current).map((p) => p.userId));
    const nextParties = partiesOf({ paidBy: input.paidBy, split: next.split });
    change.assertMembers([
      ...nextParties.filter((p) => !known.has(p.userId)),
      ...touchedParties(deltas, nextParties, partiesOf(current)),
    ]);
    // One person, one share, in the lists the change sets anew (a stored list stays as written).
    change.assertOnePersonEach([
      ...(canonicalJson(next.paidBy) === canonicalJson(current.paidBy)
        ? []
        : nextParties.filter((p) => p.path.startsWith('paidBy'))),
      ...(canonicalJson(next.split) === canonicalJson(current.split)
        ? []
        : nextParties.filter((p) => p.path.startsWith('split'))),
    ]);
    const now = new Date();
    const version = current.version + 1;
    change.write(EXPENSE_WRITES.replace(row.id, next, now, version));
    if (next.currency !== current.currency) {
      change.countRecord(current.currency, -1);
      change.countRecord(next.currency, 1);
    }
    const expense: Expense = { ...current, ...next, updatedAt: now.toISOString(), version };
    const pairs = diffPairEffects(expensePairEffect(current), expensePairEffect(next));
    const event = recordChange(change, userId, 'expense.updated', expense, deltas, pairs);
    return { value: { expense, created: false }, events: [event] };
  }

  return {
    /**
     * An occurrence of a recurring expense (API.md §6a), staged on `change` like any created
     * expense (the same rows, balances and `expense.created` event), with its schedule and date.
     * `createdBy` is the schedule's author; the caller decided the split among current members.
     */
    createOccurrence(
      change: GroupChange,
      createdBy: string,
      id: string,
      input: ExpenseInput,
      origin: OccurrenceOrigin,
    ): WriteResult<Expense> {
      const { value, events } = insert(change, createdBy, id, input, origin);
      return { value: value.expense, events };
    },

    /** An expense at a given id staged on `change` (an imported row, API.md §6b), like any created one. */
    createImported(
      change: GroupChange,
      createdBy: string,
      id: string,
      input: ExpenseInput,
    ): WriteResult<Expense> {
      const { value, events } = insert(change, createdBy, id, input);
      return { value: value.expense, events };
    },

    async create(ctx: WriteContext, userId: string, input: ExpenseInput): Promise<WriteResult<Expense>> {
      const change = await ctx.open(input.groupId, userId);
      await assertCategory(ctx, change, input.categoryId);
      const { value, events } = insert(change, userId, newId('exp'), input);
      return { value: value.expense, events };
    },

    /**
     * A copy of a live expense as a new one in its group (API.md §4): the same description,
     * category, amount, currency, payers and split, dated `occurredAt` (by default now), its
     * people checked as for any new expense.
     */
    async duplicate(
      ctx: WriteContext,
      userId: string,
      expenseId: string,
      overrides: { occurredAt?: string; description?: string },
    ): Promise<WriteResult<Expense>> {
      const { change, row } = await openExisting<ExpenseRow>(ctx, 'expenses', expenseId, userId, {
        live: true,
      });
      const source = toExpense(row);
      const { value, events } = insert(change, userId, newId('exp'), {
        groupId: source.groupId,
        description: overrides.description ?? source.description,
        category: source.category,
        // A live expense's category is one of the group's (deleting or merging a category moves its expenses).
        categoryId: source.categoryId,
        amount: source.amount,
        currency: source.currency,
        paidBy: source.paidBy,
        split: source.split,
        ...(overrides.occurredAt ? { occurredAt: overrides.occurredAt } : {}),
      });
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
      const found = await ctx.openRecord<ExpenseRow>('expenses', expenseId, userId, () => notFound('Group'));
      if (!found) {
        if (ifMatch !== undefined) throw preconditionFailed();
        const change = await ctx.open(input.groupId, userId);
        await assertCategory(ctx, change, input.categoryId);
        return insert(change, userId, expenseId, input);
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
      if ((input.categoryId ?? null) !== (row.category_id ?? null)) {
        await assertCategory(ctx, change, input.categoryId);
      }
      return replace(change, userId, row, rest);
    },

    async patch(
      ctx: WriteContext,
      userId: string,
      expenseId: string,
      patch: ExpensePatch,
      ifMatch: string | undefined,
    ): Promise<WriteResult<Expense>> {
      const { change, row } = await openExisting<ExpenseRow>(ctx, 'expenses', expenseId, userId, {
        live: true,
      });
      if (!ifMatchHolds(ifMatch, etagOf(row.version))) throw preconditionFailed();
      const current = toExpense(row);
      if (patch.categoryId !== undefined && patch.categoryId !== current.categoryId) {
        await assertCategory(ctx, change, patch.categoryId);
      }
      const onlyPayer = current.paidBy.length === 1 ? current.paidBy[0] : undefined;
      // A single payer keeps paying the whole amount when only the amount changes.
      const paidBy =
        patch.paidBy ?? (patch.amount !== undefined && onlyPayer ? onlyPayer.userId : current.paidBy);
      const { value, events } = replace(change, userId, row, {
        description: patch.description ?? current.description,
        category: patch.category === undefined ? current.category : patch.category,
        categoryId: patch.categoryId === undefined ? current.categoryId : patch.categoryId,
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
      const { change, row } = await openExisting<ExpenseRow>(ctx, 'expenses', expenseId, userId);
      if (row.deleted_at) return { value: undefined, events: [] };
      if (!ifMatchHolds(ifMatch, etagOf(row.version))) throw preconditionFailed();
      const current = toExpense(row);
      const deltas = diffBalanceEffects(expenseBalanceEffect(current), []);
      change.assertMembers(touchedParties(deltas, partiesOf(current)));
      const now = new Date();
      const version = current.version + 1;
      change.write(EXPENSE_WRITES.remove(row.id, now, version));
      change.write(EXPENSE_WRITES.removeReceipt(row.id));
      change.countRecord(current.currency, -1);
      const expense = { ...current, updatedAt: now.toISOString(), version };
      const pairs = diffPairEffects(expensePairEffect(current), []);
      const event = recordChange(change, userId, 'expense.deleted', expense, deltas, pairs, {
        deletedAt: now.toISOString(),
      });
      return { value: undefined, events: [event] };
    },

    async restore(ctx: WriteContext, userId: string, expenseId: string): Promise<WriteResult<Expense>> {
      const { change, row } = await openExisting<ExpenseRow>(ctx, 'expenses', expenseId, userId);
      const current = toExpense(row);
      if (!row.deleted_at) return { value: current, events: [] };
      const deltas = expenseBalanceEffect(current);
      change.assertMembers(partiesOf(current));
      const now = new Date();
      const version = current.version + 1;
      change.write(EXPENSE_WRITES.restore(row.id, now, version));
      change.countRecord(current.currency, 1);
      const expense = { ...current, updatedAt: now.toISOString(), version };
      const pairs = expensePairEffect(current);
      const event = recordChange(change, userId, 'expense.created', expense, deltas, pairs, {
        restored: true,
      });
      return { value: expense, events: [event] };
    },

    /**
     * One statement; an expense in a group the caller is not in is as unknown as any other id.
     * `db`: where the request's reads go (read-routing.ts); the primary by default.
     */
    async get(userId: string, expenseId: string, db: Knex = deps.knex): Promise<Expense> {
      const [row] = await readNamed<ExpenseRow>(createRunRead(db), READS.expense(expenseId, userId));
      if (!row) throw notFound('Expense');
      return toExpense(row);
    },

    async list(
      userId: string,
      groupId: string,
      query: { limit: number; cursor?: string },
      db: Knex = deps.knex,
    ) {
      const rows = await readGroupPage<ExpenseRow>(
        createRunRead(db),
        READS.expenses,
        { groupId, userId, limit: query.limit + 1 },
        timeIdAfter(query.cursor, 'expense'),
      );
      return pageOf(rows.map(toExpense), query.limit, (e) => [e.occurredAt, e.id]);
    },
  };
}

export type ExpensesService = ReturnType<typeof createExpensesService>;
