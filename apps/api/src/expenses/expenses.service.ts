import {
  type BalanceDelta,
  computeShares,
  DomainError,
  diffBalanceEffects,
  expenseBalanceEffect,
  expenseSearchText,
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
import type { NewId } from '../ids';
import { jsonColumn } from '../json-column';
import type { GroupRow } from '../ledger/group-access';
import type { GroupChange, Party } from '../ledger/group-change';
import { sql } from '../ledger/sql';
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
  /** The recurring expense (API.md §6a) this expense is an occurrence of; null for any other. */
  recurringId: string | null;
};

/** Where an occurrence of a recurring expense comes from: its schedule and its local date. */
export type OccurrenceOrigin = { recurringId: string; occurrenceDate: string };

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
  recurring_id?: string | null;
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
  recurringId: row.recurring_id ?? null,
});

/** An expense a write left, and whether the write created it (a PUT may create or replace). */
export type ExpenseWritten = { expense: Expense; created: boolean };

/** The money-relevant content of an expense, after validation against the domain rules. */
type Prepared = Pick<
  Expense,
  'description' | 'category' | 'amount' | 'currency' | 'paidBy' | 'occurredAt' | 'split' | 'shares'
>;

/** Runs a domain computation; a broken domain rule (shares that do not add up…) is a 422. */
function domainChecked<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof DomainError) {
      throw new AppError(
        error.code,
        422,
        error.message,
        error.errors.length > 0 ? { errors: error.errors } : {},
      );
    }
    throw error;
  }
}

/**
 * The rules an expense's body must satisfy on its own, whatever its group holds: payers and shares
 * add up to the amount. Checked before the request's key is claimed (a 422 here records nothing).
 */
export function checkExpenseInput(input: Pick<ExpenseInput, 'amount' | 'paidBy' | 'split'>): void {
  domainChecked(() => {
    normalizePayers(input.amount, input.paidBy);
    computeShares(input.amount, input.split);
  });
}

function prepare(
  input: Omit<ExpenseInput, 'groupId'>,
  group: GroupRow,
  fallbackOccurredAt: string,
): Prepared {
  return domainChecked(() => ({
    description: input.description,
    category: input.category ?? null,
    amount: input.amount,
    currency: input.currency ?? group.currency,
    paidBy: normalizePayers(input.amount, input.paidBy),
    occurredAt: input.occurredAt ? new Date(input.occurredAt).toISOString() : fallbackOccurredAt,
    split: input.split,
    shares: computeShares(input.amount, input.split),
  }));
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

/**
 * The users an expense names, each with the path that names them (API.md §1 `errors[].path`):
 * `paidBy` when it is one id, else `paidBy[i].userId`; `split.between[i]` (equal) or
 * `split.between[i].userId`.
 */
const partiesOf = (e: { paidBy: string | readonly Payer[]; split: SplitInput }): Party[] => [
  ...(typeof e.paidBy === 'string'
    ? [{ userId: e.paidBy, path: 'paidBy' }]
    : e.paidBy.map((p, i) => ({ userId: p.userId, path: `paidBy[${i}].userId` }))),
  ...userIdsOf(e.split).map((userId, i) => ({
    userId,
    path: e.split.type === 'equal' ? `split.between[${i}]` : `split.between[${i}].userId`,
  })),
];

/**
 * The parties whose balances `deltas` change, named where `first` names them (the request), else
 * where `fallback` does (the stored expense: a party the change drops).
 */
const touchedParties = (deltas: readonly BalanceDelta[], first: Party[], fallback: Party[] = []): Party[] =>
  [...new Set(deltas.map((d) => d.userId))].flatMap((userId) => {
    const named = first.filter((p) => p.userId === userId);
    if (named.length > 0) return named;
    const before = fallback.filter((p) => p.userId === userId);
    return before.length > 0 ? before : [{ userId, path: 'userId' }];
  });

/**
 * The columns the search and filters read (migration 008, API.md §5.1), derived from an expense's
 * content by every write of `description`, `category`, `paidBy` or `split`: the normalized search
 * text, the payers, and everyone involved (payers and the split's users), as text arrays.
 */
export function searchColumnsOf(p: Pick<Prepared, 'description' | 'category' | 'paidBy' | 'split'>) {
  const payers = [...new Set(p.paidBy.map((payer) => payer.userId))];
  return {
    searchText: expenseSearchText(p.description, p.category),
    payerIds: JSON.stringify(payers),
    involvedIds: JSON.stringify([...new Set([...payers, ...userIdsOf(p.split)])]),
  };
}

/** A JSON array of strings as a `text[]` value (the same on pg and PGlite, which serialize arrays differently). */
const textArray = (json: string) => sql`array(select jsonb_array_elements_text(${json}::jsonb))`;

/** The expense rows' writes, as parts of a change's one statement (`GroupChange.write`). */
const EXPENSE_WRITES = {
  insert: (id: string, p: Prepared, userId: string, now: Date, origin: OccurrenceOrigin | undefined) => {
    const search = searchColumnsOf(p);
    return sql`insert into expenses (id, group_id, description, category, amount, currency, paid_by, split, shares,
                              occurred_at, created_by, created_at, updated_at, version, recurring_id, occurrence_date,
                              search_text, payer_ids, involved_ids)
        select ${id}::text, guard.id, ${p.description}::text, ${p.category}::text, ${p.amount}::bigint,
               ${p.currency}::text, ${JSON.stringify(p.paidBy)}::jsonb, ${JSON.stringify(p.split)}::jsonb,
               ${JSON.stringify(p.shares)}::jsonb, ${p.occurredAt}::timestamptz, ${userId}::text,
               ${now}::timestamptz, ${now}::timestamptz, 1, ${origin?.recurringId ?? null}::text,
               ${origin?.occurrenceDate ?? null}::text, ${search.searchText}::text, ${textArray(search.payerIds)},
               ${textArray(search.involvedIds)} from guard`;
  },
  replace: (id: string, p: Prepared, now: Date, version: number) => {
    const search = searchColumnsOf(p);
    return sql`update expenses set description = ${p.description}::text, category = ${p.category}::text,
                            search_text = ${search.searchText}::text, payer_ids = ${textArray(search.payerIds)},
                            involved_ids = ${textArray(search.involvedIds)},
                            amount = ${p.amount}::bigint, currency = ${p.currency}::text,
                            paid_by = ${JSON.stringify(p.paidBy)}::jsonb, split = ${JSON.stringify(p.split)}::jsonb,
                            shares = ${JSON.stringify(p.shares)}::jsonb, occurred_at = ${p.occurredAt}::timestamptz,
                            updated_at = ${now}::timestamptz, version = ${version}::integer
          from guard where expenses.id = ${id}::text`;
  },
  remove: (id: string, now: Date, version: number) =>
    sql`update expenses set deleted_at = ${now}::timestamptz, updated_at = ${now}::timestamptz, version = ${version}::integer
          from guard where expenses.id = ${id}::text`,
  restore: (id: string, now: Date, version: number) =>
    sql`update expenses set deleted_at = null, updated_at = ${now}::timestamptz, version = ${version}::integer
          from guard where expenses.id = ${id}::text`,
};

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
      extra,
    );
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
    const event = recordChange(change, userId, 'expense.updated', expense, deltas);
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
      change.assertMembers(touchedParties(deltas, partiesOf(current)));
      const now = new Date();
      const version = current.version + 1;
      change.write(EXPENSE_WRITES.remove(row.id, now, version));
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
      change.write(EXPENSE_WRITES.restore(row.id, now, version));
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
        timeIdAfter(query.cursor, 'expense'),
      );
      return pageOf(rows.map(toExpense), query.limit, (e) => [e.occurredAt, e.id]);
    },
  };
}

export type ExpensesService = ReturnType<typeof createExpensesService>;
