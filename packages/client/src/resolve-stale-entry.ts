import canonicalize from 'canonicalize';
import { NotFoundError, PreconditionFailedError, type ProblemError } from './errors.js';
import type { HttpResponse } from './http-client.js';
import type { OutboxEntry, OutboxOperation, OutboxOperationType } from './outbox-types.js';
import { commentsPath, expensePath, recurringPath, settlementPath } from './request-of.js';
import type {
  Comment,
  Expense,
  ExpensePatch,
  Page,
  Problem,
  RecurringExpense,
  RecurringExpensePatch,
  RecurringExpenseRequest,
  Settlement,
  SettlementRequest,
} from './types.js';

/** What a resolution may find already there. */
type Current = Expense | Settlement | RecurringExpense | Comment;

/** What to do with a stale entry, decided from the server's current state. */
export type StaleDecision =
  /** The state already shows the write: settle it without sending. */
  | { action: 'found'; current: Current | undefined; summary: string }
  /** The write can no longer be made as meant: reject it without sending. */
  | { action: 'conflict'; error: ProblemError; summary: string }
  /** The write has not happened: send it again with a new key (and this `If-Match`). */
  | { action: 'resent'; ifMatch: string | undefined; summary: string };

/** The reads a resolution makes (see `CurrentStateReader`). */
export type StaleReads = {
  /** GET of a resource: the body and ETag, or undefined for 404. */
  read<T>(path: string): Promise<HttpResponse<T> | undefined>;
  /** A settlement of the entry's group this user made since the entry, equal to `body`, not yet claimed. */
  claimSettlement(entry: OutboxEntry, body: SettlementRequest): Promise<Settlement | undefined>;
  /** A recurring expense of the entry's group this user made since the entry, equal to `body`, not yet claimed. */
  claimRecurring(entry: OutboxEntry, body: RecurringExpenseRequest): Promise<RecurringExpense | undefined>;
};

type OperationOf<T extends OutboxOperationType> = Extract<OutboxOperation, { type: T }>;
type Handler<O extends OutboxOperation> = (
  operation: O,
  entry: OutboxEntry,
  reads: StaleReads,
) => Promise<StaleDecision>;

const found = (current: Current | undefined, summary: string): StaleDecision => ({
  action: 'found',
  current,
  summary,
});
const resend = (ifMatch: string | undefined, summary: string): StaleDecision => ({
  action: 'resent',
  ifMatch,
  summary,
});

/** A problem made on the device: the server never said it, but the app handles it like one it did. */
function localProblem(status: number, code: Problem['code'], detail: string): Problem {
  return { type: `/problems/${code.replace(/_/g, '-')}`, title: detail, status, code, detail };
}

function gone(detail: string): StaleDecision {
  return {
    action: 'conflict',
    error: new NotFoundError(localProblem(404, 'not_found', detail)),
    summary: detail,
  };
}

function changed(detail: string): StaleDecision {
  const problem = localProblem(412, 'precondition_failed', detail);
  return { action: 'conflict', error: new PreconditionFailedError(problem), summary: detail };
}

/**
 * Whether the expense already shows every field of an edit. Undecidable fields count as different:
 * the edit is then sent again, which the server treats as a no-op when nothing differs.
 */
function showsEdit(expense: Expense, edit: ExpensePatch, replace: boolean): boolean {
  // Key order is the server's business: only the content of a split or of the payers counts.
  const same = (a: unknown, b: unknown) => canonicalize(a) === canonicalize(b);
  if (edit.description !== undefined && edit.description !== expense.description) return false;
  if (edit.category !== undefined ? edit.category !== expense.category : replace && expense.category !== null)
    return false;
  if (edit.amount !== undefined && edit.amount !== expense.amount) return false;
  if (edit.currency !== undefined && edit.currency !== expense.currency) return false;
  if (edit.occurredAt !== undefined && Date.parse(edit.occurredAt) !== Date.parse(expense.occurredAt))
    return false;
  if (edit.split !== undefined && !same(edit.split, expense.split)) return false;
  if (edit.paidBy !== undefined) {
    const payers =
      typeof edit.paidBy === 'string' ? [{ userId: edit.paidBy, amount: expense.amount }] : edit.paidBy;
    const byUser = (list: { userId: string; amount: number }[]) =>
      [...list].sort((a, b) => (a.userId < b.userId ? -1 : 1));
    if (!same(byUser(payers), byUser(expense.paidBy))) return false;
  }
  return true;
}

/** An edit (replace or patch) is resent only onto the version it was made against. */
const resolveEdit: Handler<OperationOf<'expense.replace' | 'expense.patch'>> = async (op, _entry, reads) => {
  const current = await reads.read<Expense>(expensePath(op.expenseId));
  if (!current) {
    return gone(
      `expense ${op.expenseId} is gone (deleted, or no longer visible): the edit was not sent again`,
    );
  }
  if (showsEdit(current.data, op.body, op.type === 'expense.replace')) {
    return found(current.data, `expense ${op.expenseId} already shows the edit`);
  }
  if (op.ifMatch && op.ifMatch !== current.etag) {
    return changed(
      `expense ${op.expenseId} changed since the edit was made (now ${current.etag}, the edit expected ${op.ifMatch}): not sent again`,
    );
  }
  const ifMatch = op.ifMatch ?? current.etag;
  return resend(
    ifMatch,
    `expense ${op.expenseId} does not show the edit: sent again with If-Match ${ifMatch}`,
  );
};

/** Whether the recurring expense already shows every field of a patch (key order aside). */
function showsRecurringEdit(current: RecurringExpense, edit: RecurringExpensePatch): boolean {
  const same = (a: unknown, b: unknown) => canonicalize(a) === canonicalize(b);
  const template = current.expense as unknown as Record<string, unknown>;
  const schedule = current.schedule as unknown as Record<string, unknown>;
  return (
    Object.entries(edit.expense ?? {}).every(([field, value]) =>
      same(template[field] ?? null, value ?? null),
    ) &&
    Object.entries(edit.schedule ?? {}).every(([field, value]) =>
      same(schedule[field] ?? null, value ?? null),
    )
  );
}

/** One handler per operation type: how to tell from the current state whether the write happened. */
const HANDLERS: { [T in OutboxOperationType]: Handler<OperationOf<T>> } = {
  // The expense id was made on the device, so its existence is proof of the create.
  'expense.create': async (op, _entry, reads) => {
    const current = await reads.read<Expense>(expensePath(op.expenseId));
    if (current) return found(current.data, `expense ${op.expenseId} exists: the create had been applied`);
    return resend(undefined, `expense ${op.expenseId} not found: created now`);
  },
  'expense.replace': resolveEdit,
  'expense.patch': resolveEdit,
  'expense.delete': async (op, _entry, reads) => {
    const current = await reads.read<Expense>(expensePath(op.expenseId));
    if (!current) return found(undefined, `expense ${op.expenseId} is already deleted (or gone)`);
    if (op.ifMatch && op.ifMatch !== current.etag) {
      return changed(
        `expense ${op.expenseId} changed since the delete was made (now ${current.etag}, the delete expected ${op.ifMatch}): not deleted`,
      );
    }
    const ifMatch = op.ifMatch ?? current.etag;
    return resend(ifMatch, `expense ${op.expenseId} is still there: deleted now with If-Match ${ifMatch}`);
  },
  'expense.restore': async (op, _entry, reads) => {
    const current = await reads.read<Expense>(expensePath(op.expenseId));
    if (current) return found(current.data, `expense ${op.expenseId} is live: the restore had been applied`);
    return resend(undefined, `expense ${op.expenseId} is deleted: restore sent again`);
  },
  'settlement.delete': async (op, _entry, reads) => {
    const current = await reads.read<Settlement>(settlementPath(op.settlementId));
    if (!current) return found(undefined, `settlement ${op.settlementId} is already deleted (or gone)`);
    return resend(undefined, `settlement ${op.settlementId} is still there: deleted now`);
  },
  // The server chose the id, so the create can only be recognised by its content.
  'recurring.create': async (op, entry, reads) => {
    const match = await reads.claimRecurring(entry, op.body);
    if (match) {
      return found(
        match,
        `recurring expense ${match.id} made by this user matches: the create had been applied`,
      );
    }
    return resend(
      undefined,
      'no matching recurring expense by this user since the write was made: sent again',
    );
  },
  'recurring.patch': async (op, _entry, reads) => {
    const current = await reads.read<RecurringExpense>(recurringPath(op.recurringId));
    if (!current) {
      return gone(
        `recurring expense ${op.recurringId} is gone (deleted, or no longer visible): the edit was not sent again`,
      );
    }
    if (showsRecurringEdit(current.data, op.body)) {
      return found(current.data, `recurring expense ${op.recurringId} already shows the edit`);
    }
    if (op.ifMatch && op.ifMatch !== current.etag) {
      return changed(
        `recurring expense ${op.recurringId} changed since the edit was made (now ${current.etag}, the edit expected ${op.ifMatch}): not sent again`,
      );
    }
    const ifMatch = op.ifMatch ?? current.etag;
    return resend(
      ifMatch,
      `recurring expense ${op.recurringId} does not show the edit: sent again with If-Match ${ifMatch}`,
    );
  },
  'recurring.delete': async (op, _entry, reads) => {
    const current = await reads.read<RecurringExpense>(recurringPath(op.recurringId));
    if (!current) return found(undefined, `recurring expense ${op.recurringId} is already deleted (or gone)`);
    if (op.ifMatch && op.ifMatch !== current.etag) {
      return changed(
        `recurring expense ${op.recurringId} changed since the delete was made (now ${current.etag}, the delete expected ${op.ifMatch}): not deleted`,
      );
    }
    const ifMatch = op.ifMatch ?? current.etag;
    return resend(
      ifMatch,
      `recurring expense ${op.recurringId} is still there: stopped now with If-Match ${ifMatch}`,
    );
  },
  // The server chose the id: a comment on the target with the same text, made since the write was
  // first sent, is taken as this one (API.md §5.2; at most the first 2,000 comments are read).
  'comment.create': async (op, entry, reads) => {
    const since = Date.parse(entry.sentAt ?? entry.createdAt) - 60_000;
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const current = await reads.read<Page<Comment>>(`${commentsPath(op.target, op.targetId)}${query}`);
      if (!current) {
        return gone(
          `the ${op.target} ${op.targetId} is gone (deleted, or no longer visible): the comment was not sent again`,
        );
      }
      const match = current.data.data.find((c) => c.text === op.text && Date.parse(c.createdAt) >= since);
      if (match)
        return found(match, `comment ${match.id} with the same text exists: the create had been applied`);
      cursor = current.data.nextCursor;
      if (!cursor) break;
    }
    return resend(
      undefined,
      `no comment with this text on ${op.target} ${op.targetId} since the write was made: sent again`,
    );
  },
  // Deleting a deleted comment is 204 again: sending it again is safe.
  'comment.delete': async (op) =>
    resend(undefined, `comment ${op.commentId}: delete sent again (a no-op if it was applied)`),
  'settlement.create': async (op, entry, reads) => {
    const match = await reads.claimSettlement(entry, op.body);
    if (match) {
      return found(match, `settlement ${match.id} made by this user matches: the create had been applied`);
    }
    return resend(undefined, 'no matching settlement by this user since the write was made: sent again');
  },
};

/**
 * Decides what becomes of an entry first sent longer ago than the server keeps its key: resending it
 * blindly could apply it twice (the server no longer remembers the first attempt), so the current state
 * is read first. See `OutboxResolution` for what each decision means to the app.
 */
export function resolveStaleEntry(entry: OutboxEntry, reads: StaleReads): Promise<StaleDecision> {
  const handler = HANDLERS[entry.operation.type] as Handler<OutboxOperation>;
  return handler(entry.operation, entry, reads);
}
