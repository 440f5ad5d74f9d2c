import type { ProblemError } from './errors.js';
import type {
  Comment,
  Expense,
  ExpensePatch,
  ExpenseRequest,
  GroupEvent,
  HttpMethod,
  RecurringExpense,
  RecurringExpensePatch,
  RecurringExpenseRequest,
  Settlement,
  SettlementRequest,
} from './types.js';

/** One money write the outbox holds until the server has given it a final answer. */
export type OutboxOperation =
  /** `PUT /v1/expenses/{expenseId}` creating the expense at an id made on the device. */
  | { type: 'expense.create'; expenseId: string; body: ExpenseRequest }
  /** `PUT /v1/expenses/{expenseId}` replacing an existing expense. */
  | { type: 'expense.replace'; expenseId: string; body: ExpenseRequest; ifMatch?: string }
  /** `PATCH /v1/expenses/{expenseId}`. */
  | { type: 'expense.patch'; expenseId: string; body: ExpensePatch; ifMatch?: string }
  /** `DELETE /v1/expenses/{expenseId}`. */
  | { type: 'expense.delete'; expenseId: string; ifMatch?: string }
  /** `POST /v1/expenses/{expenseId}/restore`. */
  | { type: 'expense.restore'; expenseId: string }
  /** `POST /v1/settlements` (the server chooses the id). */
  | { type: 'settlement.create'; body: SettlementRequest }
  /** `DELETE /v1/settlements/{settlementId}`. */
  | { type: 'settlement.delete'; settlementId: string }
  /** `POST /v1/groups/{groupId}/recurring` (the server chooses the id). */
  | { type: 'recurring.create'; groupId: string; body: RecurringExpenseRequest }
  /** `PATCH /v1/recurring/{recurringId}`. */
  | { type: 'recurring.patch'; recurringId: string; body: RecurringExpensePatch; ifMatch?: string }
  /** `DELETE /v1/recurring/{recurringId}`. */
  | { type: 'recurring.delete'; recurringId: string; ifMatch?: string }
  /** `POST /v1/expenses/{id}/comments` or `POST /v1/settlements/{id}/comments` (the server chooses the id). */
  | { type: 'comment.create'; target: 'expense' | 'settlement'; targetId: string; text: string }
  /** `DELETE /v1/comments/{commentId}`. */
  | { type: 'comment.delete'; commentId: string };

export type OutboxOperationType = OutboxOperation['type'];

/**
 * What a stale entry's resolution did: an entry first sent longer ago than the server keeps
 * `Idempotency-Key`s (minus a margin) is not resent blindly. The outbox reads the current state first.
 */
export type OutboxResolution = {
  /** How long ago the entry was first sent, in milliseconds. */
  ageMs: number;
  /**
   * - `found`: the state already shows the write (e.g. the expense exists, the delete happened); nothing sent;
   * - `resent`: the write had not happened, or has to be made again: sent with a new key (and `If-Match`
   *   of the state just read), and this is its answer;
   * - `conflict`: the resource changed since the write was made (its `If-Match` no longer holds), or it
   *   is gone: surfaced through `onRejected`, not sent.
   */
  action: 'found' | 'resent' | 'conflict';
  /** One sentence saying what was found and done, for logs and the UI. */
  summary: string;
  /** The keys the entry carried before the resolution gave it a new one. */
  previousKeys?: string[];
};

/** One stored write, as the storage adapters keep it (plain JSON). */
export type OutboxEntry = {
  /** The entry's own id: a ULID made on the device. */
  id: string;
  /** Order of creation on this device; the entries of one group are sent in this order. */
  seq: number;
  groupId: string;
  operation: OutboxOperation;
  /** The request it becomes (for a stale entry, after the resolution). */
  method: HttpMethod;
  path: string;
  /** The `If-Match` it carries, if any (for a stale entry, the one its resolution chose). */
  ifMatch?: string;
  /** The key every attempt carries (a new one only after a stale entry's resolution). */
  idempotencyKey: string;
  /** When the write was made (RFC 3339). */
  createdAt: string;
  /** When it was first sent (RFC 3339), stored before the request leaves; absent until then. */
  sentAt?: string;
  /** Set when a stale entry was resolved and resent with a new key (see {@link OutboxResolution}). */
  resolution?: OutboxResolution;
  /** Whatever the app attached to the write (JSON), e.g. its own local record id. */
  meta?: unknown;
};

/** How an entry left the outbox. */
export type OutboxOutcome =
  /** The server answered the entry's request with a 2xx (possibly a replay of an earlier attempt's answer). */
  | {
      type: 'applied';
      status: number;
      /** The response body: the `Expense` or `Settlement` (undefined for 204). */
      data: Expense | Settlement | RecurringExpense | Comment | undefined;
      etag: string | undefined;
      /** `Idempotent-Replayed: true`: an earlier attempt had already been executed. */
      replayed: boolean;
      /** Set when this was the resend of a stale entry. */
      resolution?: OutboxResolution;
    }
  /**
   * A final 4xx that is the operation's own outcome (`404`, `412`, `422`, …), or a stale entry's
   * conflict. Always also passed to `onRejected` first.
   */
  | { type: 'rejected'; error: ProblemError; resolution?: OutboxResolution }
  /** A stale entry whose effect the current state already shows; nothing was sent again. */
  | {
      type: 'found';
      current: Expense | Settlement | RecurringExpense | Comment | undefined;
      resolution: OutboxResolution;
    }
  /** A realtime event showed the entry's effect (same id) before its answer arrived. */
  | { type: 'observed'; event: GroupEvent }
  /** The app removed the entry itself (`discard`), unsent or without waiting for an answer. */
  | { type: 'discarded' };

export type OutboxSettled = { entry: OutboxEntry; outcome: OutboxOutcome };

/**
 * Where the outbox keeps its entries. Every method resolves only once the change is durable (an entry
 * put is on disk before it is sent; an entry is removed only after its final answer). One storage
 * belongs to one outbox (one process, one signed-in user).
 */
export interface OutboxStorage {
  /** Every stored entry, in any order. */
  load(): Promise<OutboxEntry[]>;
  /** Stores the entry, or replaces the one with its `id`. */
  put(entry: OutboxEntry): Promise<void>;
  /** Removes the entry with this id (a no-op when there is none). */
  remove(id: string): Promise<void>;
}
