/**
 * What an expense is, apart from how it is written: its types and row, the rules its content must
 * satisfy, the parties it names, the search columns derived from it, and its rows' writes as parts
 * of a group change's one statement.
 */

import { sql } from '@tally/db';
import {
  type BalanceDelta,
  computeShares,
  DomainError,
  expenseSearchText,
  normalizePayers,
  type Payer,
  type Share,
  type SplitInput,
  splitParties,
  userIdsOf,
} from '@tally/domain';
import { AppError } from '@tally/http-kit';
import { canonicalJson } from '@tally/idempotency';
import { toIso } from '../db-errors';
import { jsonColumn } from '../json-column';
import type { GroupRow } from '../ledger/group-access';
import type { Party } from '../ledger/group-change';

export type ExpenseInput = {
  groupId: string;
  description: string;
  category?: string | null;
  /** The expense's category (API.md §14): a default id or one of the group's own; null for none. */
  categoryId?: string | null;
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
  categoryId: string | null;
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

export type ExpenseRow = {
  id: string;
  group_id: string;
  description: string;
  category: string | null;
  category_id?: string | null;
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
  categoryId: row.category_id ?? null,
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
export type Prepared = Pick<
  Expense,
  | 'description'
  | 'category'
  | 'categoryId'
  | 'amount'
  | 'currency'
  | 'paidBy'
  | 'occurredAt'
  | 'split'
  | 'shares'
>;

/** Runs a domain computation; a broken domain rule (shares that do not add up…) is a 422. */
export function domainChecked<T>(compute: () => T): T {
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

export function prepare(
  input: Omit<ExpenseInput, 'groupId'>,
  group: GroupRow,
  fallbackOccurredAt: string,
): Prepared {
  return domainChecked(() => ({
    description: input.description,
    category: input.category ?? null,
    categoryId: input.categoryId ?? null,
    amount: input.amount,
    currency: input.currency ?? group.currency,
    paidBy: normalizePayers(input.amount, input.paidBy),
    occurredAt: input.occurredAt ? new Date(input.occurredAt).toISOString() : fallbackOccurredAt,
    split: input.split,
    shares: computeShares(input.amount, input.split),
  }));
}

export const contentOf = (p: Prepared) => [
  p.description,
  p.category,
  p.categoryId,
  p.amount,
  p.currency,
  p.paidBy,
  p.occurredAt,
  p.split,
  p.shares,
];

export const sameContent = (a: Prepared, b: Prepared): boolean =>
  canonicalJson(contentOf(a)) === canonicalJson(contentOf(b));

/**
 * The users an expense names, each with the path that names them (API.md §1 `errors[].path`):
 * `paidBy` when it is one id, else `paidBy[i].userId`; `split.between[i]` (equal) or
 * `split.between[i].userId`.
 */
export const partiesOf = (e: { paidBy: string | readonly Payer[]; split: SplitInput }): Party[] => [
  ...(typeof e.paidBy === 'string'
    ? [{ userId: e.paidBy, path: 'paidBy' }]
    : e.paidBy.map((p, i) => ({ userId: p.userId, path: `paidBy[${i}].userId` }))),
  ...splitParties(e.split, 'split'),
];

/**
 * The parties whose balances `deltas` change, named where `first` names them (the request), else
 * where `fallback` does (the stored expense: a party the change drops).
 */
export const touchedParties = (
  deltas: readonly BalanceDelta[],
  first: Party[],
  fallback: Party[] = [],
): Party[] =>
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
export const textArray = (json: string) => sql`array(select jsonb_array_elements_text(${json}::jsonb))`;

/** The expense rows' writes, as parts of a change's one statement (`GroupChange.write`). */
export const EXPENSE_WRITES = {
  insert: (id: string, p: Prepared, userId: string, now: Date, origin: OccurrenceOrigin | undefined) => {
    const search = searchColumnsOf(p);
    return sql`insert into expenses (id, group_id, description, category, category_id, amount, currency, paid_by, split, shares,
                              occurred_at, created_by, created_at, updated_at, version, recurring_id, occurrence_date,
                              search_text, payer_ids, involved_ids)
        select ${id}::text, guard.id, ${p.description}::text, ${p.category}::text, ${p.categoryId}::text, ${p.amount}::bigint,
               ${p.currency}::text, ${JSON.stringify(p.paidBy)}::jsonb, ${JSON.stringify(p.split)}::jsonb,
               ${JSON.stringify(p.shares)}::jsonb, ${p.occurredAt}::timestamptz, ${userId}::text,
               ${now}::timestamptz, ${now}::timestamptz, 1, ${origin?.recurringId ?? null}::text,
               ${origin?.occurrenceDate ?? null}::text, ${search.searchText}::text, ${textArray(search.payerIds)},
               ${textArray(search.involvedIds)} from guard`;
  },
  replace: (id: string, p: Prepared, now: Date, version: number) => {
    const search = searchColumnsOf(p);
    return sql`update expenses set description = ${p.description}::text, category = ${p.category}::text,
                            category_id = ${p.categoryId}::text,
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
  /** Its receipt's row goes with a deleted expense (API.md §16); the files once the write is done. */
  removeReceipt: (id: string) =>
    sql`delete from receipts using guard where receipts.expense_id = ${id}::text`,
  restore: (id: string, now: Date, version: number) =>
    sql`update expenses set deleted_at = null, updated_at = ${now}::timestamptz, version = ${version}::integer
          from guard where expenses.id = ${id}::text`,
};
