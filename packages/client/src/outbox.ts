import { CurrentStateReader } from './current-state-reader.js';
import { Emitter } from './emitter.js';
import { TallyError } from './errors.js';
import { OutboxJournal } from './outbox-journal.js';
import type { OutboxDeps, OutboxListeners, OutboxOptions } from './outbox-options.js';
import { OutboxScheduler } from './outbox-scheduler.js';
import { copy, OutboxSender } from './outbox-sender.js';
import { MemoryOutboxStorage } from './outbox-storage.js';
import type { OutboxEntry, OutboxOperation, OutboxResolution, OutboxSettled } from './outbox-types.js';
import { requestOf } from './request-of.js';
import type { RetryPolicy } from './retry-policy.js';
import type {
  ExpensePatch,
  ExpenseRequest,
  GroupEvent,
  RecurringExpensePatch,
  RecurringExpenseRequest,
  SettlementRequest,
} from './types.js';
import { ulidFactory } from './ulid.js';

export type {
  OutboxDeps,
  OutboxListeners,
  OutboxOptions,
  OutboxPaused,
  OutboxRejection,
} from './outbox-options.js';

/** Client-chosen expense ids (API.md §4). */
const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
function ifMatchOf(options: { ifMatch?: string }): { ifMatch?: string } {
  return options.ifMatch ? { ifMatch: options.ifMatch } : {};
}

/**
 * A durable outbox of money writes. Each write is stored first (operation, body, `Idempotency-Key`,
 * client-chosen id, creation time) and sent after; it leaves the outbox only with a final answer: a
 * 2xx, or a 4xx that is the operation's own outcome (surfaced through `onRejected`). Network errors,
 * timeouts, `429` and `5xx` are retried with the client's backoff and `Retry-After`, for as long as it
 * takes; a write made offline goes out when the network returns. The writes of one group go out one
 * at a time, in the order they were made; groups drain independently.
 *
 * Expenses are created with `PUT /v1/expenses/{id}` at an id made on the device (a ULID), so even a
 * resend after the server has forgotten the key cannot create a second expense. Any other entry first
 * sent longer ago than the key retention minus a margin is not resent blindly: the outbox reads the
 * current state and resolves it (see {@link OutboxResolution}).
 *
 * This class is the write API and the outbox's state. What an attempt makes of its answer lives in
 * `OutboxSender`, what is stored in `OutboxJournal`, when an entry is sent in `OutboxScheduler`, the
 * request it becomes in `requestOf`, and what becomes of a stale entry in `resolveStaleEntry`.
 */
export class Outbox {
  /** Resolves when the stored entries are loaded (writes made before wait for it). */
  readonly ready: Promise<void>;
  private readonly options: OutboxOptions;
  private readonly now: () => number;
  private readonly newKey: () => string;
  private readonly newUlid: () => string;
  private readonly journal: OutboxJournal;
  private readonly scheduler: OutboxScheduler;
  private readonly sender: OutboxSender;
  private idleWaiters: (() => void)[] = [];
  private readonly listeners = new Emitter<OutboxListeners>((error, type) => {
    if (type !== 'error') this.emit('error', error);
  });

  constructor(deps: OutboxDeps, options: OutboxOptions = {}) {
    this.options = options;
    this.now = deps.now ?? Date.now;
    this.newKey = deps.newKey;
    this.newUlid = ulidFactory(this.now);
    const policy: RetryPolicy = { ...deps.http.policy, ...options.retry, maxAttempts: 1 };
    this.journal = new OutboxJournal(options.storage ?? new MemoryOutboxStorage());
    this.sender = new OutboxSender({
      http: deps.http,
      policy,
      now: this.now,
      newKey: this.newKey,
      journal: this.journal,
      currentState: new CurrentStateReader(deps.http, policy, options.clockSkewMs ?? 600_000),
      options,
      emit: (type, ...args) => this.emit(type, ...args),
      pause: () => this.scheduler.pause(),
      settled: (live, settled) => {
        this.emit('settled', settled);
        for (const resolve of live.waiters) resolve(settled);
        this.checkIdle();
        if (this.journal.size === 0) this.emit('idle');
      },
    });
    this.scheduler = new OutboxScheduler({
      journal: this.journal,
      attempt: (head) => this.sender.attempt(head),
      policy,
      random: deps.random ?? Math.random,
      sleep: deps.sleep,
      onRetry: (head, delayMs) =>
        this.emit('retry', {
          entry: copy(head.entry),
          attempt: head.failures,
          delayMs,
          error: head.lastError,
        }),
      onError: (error) => this.emit('error', error),
    });
    this.ready = this.journal.load();
    // Reported through `ready` (and every write); not an unhandled rejection meanwhile.
    this.ready.catch(() => {});
  }

  // ---- writes ---------------------------------------------------------------------------------------

  /**
   * Stores an expense create; resolves once it is durable (not when it is sent). The expense gets an
   * id made here (`exp_` + a ULID) unless `expenseId` is given; show it in the UI right away.
   */
  async createExpense(
    body: ExpenseRequest,
    options: { expenseId?: string; meta?: unknown } = {},
  ): Promise<OutboxEntry & { expenseId: string }> {
    const expenseId = options.expenseId ?? `exp_${this.newUlid()}`;
    if (!CLIENT_ID.test(expenseId)) throw new TallyError(`expenseId must match ${CLIENT_ID}`);
    const entry = await this.enqueue(
      body.groupId,
      { type: 'expense.create', expenseId, body: copy(body) },
      options.meta,
    );
    return { ...entry, expenseId };
  }

  /** Stores a full replacement of an existing expense (`PUT`). */
  replaceExpense(
    expenseId: string,
    body: ExpenseRequest,
    options: { ifMatch?: string; meta?: unknown } = {},
  ): Promise<OutboxEntry> {
    return this.enqueue(
      body.groupId,
      { type: 'expense.replace', expenseId, body: copy(body), ...ifMatchOf(options) },
      options.meta,
    );
  }

  /** Stores an edit of some fields (`PATCH`). `expense` is the expense (or `{ id, groupId }`). */
  patchExpense(
    expense: { id: string; groupId: string },
    patch: ExpensePatch,
    options: { ifMatch?: string; meta?: unknown } = {},
  ): Promise<OutboxEntry> {
    return this.enqueue(
      expense.groupId,
      { type: 'expense.patch', expenseId: expense.id, body: copy(patch), ...ifMatchOf(options) },
      options.meta,
    );
  }

  /** Stores a delete of an expense. */
  deleteExpense(
    expense: { id: string; groupId: string },
    options: { ifMatch?: string; meta?: unknown } = {},
  ): Promise<OutboxEntry> {
    return this.enqueue(
      expense.groupId,
      { type: 'expense.delete', expenseId: expense.id, ...ifMatchOf(options) },
      options.meta,
    );
  }

  /** Stores the restore of a deleted expense. */
  restoreExpense(expense: { id: string; groupId: string }, options: { meta?: unknown } = {}) {
    return this.enqueue(expense.groupId, { type: 'expense.restore', expenseId: expense.id }, options.meta);
  }

  /** Stores a settlement create (`POST /v1/settlements`; the server chooses its id). */
  createSettlement(body: SettlementRequest, options: { meta?: unknown } = {}): Promise<OutboxEntry> {
    return this.enqueue(body.groupId, { type: 'settlement.create', body: copy(body) }, options.meta);
  }

  /**
   * Stores a comment (API.md §5.2) on an expense or a settlement of `target.groupId`; the server
   * chooses its id. A stale entry is recognised by a comment with the same text on the target.
   */
  createComment(
    target: { groupId: string } & ({ expenseId: string } | { settlementId: string }),
    text: string,
    options: { meta?: unknown } = {},
  ): Promise<OutboxEntry> {
    const [type, targetId] =
      'expenseId' in target
        ? (['expense', target.expenseId] as const)
        : (['settlement', target.settlementId] as const);
    return this.enqueue(
      target.groupId,
      { type: 'comment.create', target: type, targetId, text },
      options.meta,
    );
  }

  /** Stores the delete of a comment (its author's). */
  deleteComment(
    comment: { id: string; groupId: string },
    options: { meta?: unknown } = {},
  ): Promise<OutboxEntry> {
    return this.enqueue(comment.groupId, { type: 'comment.delete', commentId: comment.id }, options.meta);
  }

  /** Stores the delete (undo) of a settlement. */
  deleteSettlement(settlement: { id: string; groupId: string }, options: { meta?: unknown } = {}) {
    return this.enqueue(
      settlement.groupId,
      { type: 'settlement.delete', settlementId: settlement.id },
      options.meta,
    );
  }

  /** Stores a recurring expense's create (`POST /v1/groups/{groupId}/recurring`; the server chooses its id). */
  createRecurring(
    groupId: string,
    body: RecurringExpenseRequest,
    options: { meta?: unknown } = {},
  ): Promise<OutboxEntry> {
    return this.enqueue(groupId, { type: 'recurring.create', groupId, body: copy(body) }, options.meta);
  }

  /** Stores a change of a recurring expense (`PATCH`). `recurring` is it (or `{ id, groupId }`). */
  patchRecurring(
    recurring: { id: string; groupId: string },
    patch: RecurringExpensePatch,
    options: { ifMatch?: string; meta?: unknown } = {},
  ): Promise<OutboxEntry> {
    return this.enqueue(
      recurring.groupId,
      { type: 'recurring.patch', recurringId: recurring.id, body: copy(patch), ...ifMatchOf(options) },
      options.meta,
    );
  }

  /** Stores the stop (`DELETE`) of a recurring expense. */
  deleteRecurring(
    recurring: { id: string; groupId: string },
    options: { ifMatch?: string; meta?: unknown } = {},
  ): Promise<OutboxEntry> {
    return this.enqueue(
      recurring.groupId,
      { type: 'recurring.delete', recurringId: recurring.id, ...ifMatchOf(options) },
      options.meta,
    );
  }

  // ---- state and control ----------------------------------------------------------------------------

  /** The entries still in the outbox, oldest first (copies); only those of `groupId` when given. */
  pending(groupId?: string): OutboxEntry[] {
    return this.journal.list(groupId).map((live) => copy(live.entry));
  }

  /** Starts draining (done by the client itself unless `autoStart: false`). */
  async start(): Promise<void> {
    await this.ready;
    if (!this.scheduler.start(this.options.listenOnline !== false)) return;
    this.checkIdle();
  }

  /** Stops draining after the attempts in flight; the entries stay. Resolves when every group has stopped. */
  stop(): Promise<void> {
    return this.scheduler.stop();
  }

  /**
   * Tries every entry again now: the network is back, the app came to the foreground, the user signed
   * in again. Resets the backoff and ends a pause.
   */
  wake(): void {
    this.scheduler.wake();
  }

  /** Resolves when the outbox is empty (after loading what is stored). */
  async whenIdle(): Promise<void> {
    await this.ready;
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.checkIdle();
    });
  }

  /** Resolves when the entry leaves the outbox (undefined when it is not in it). */
  whenSettled(entryId: string): Promise<OutboxSettled | undefined> {
    const live = this.journal.find((l) => l.entry.id === entryId);
    if (!live) return Promise.resolve(undefined);
    return new Promise((resolve) => live.waiters.push(resolve));
  }

  /**
   * Removes an entry without waiting for its answer (reported as `discarded`). If it was already sent
   * it may have taken effect.
   * @returns false when the entry is not in the outbox
   */
  async discard(entryId: string): Promise<boolean> {
    const live = this.journal.find((l) => l.entry.id === entryId);
    if (!live) return false;
    await live.durable.catch(() => {});
    await this.sender.settle(live, { type: 'discarded' });
    return true;
  }

  /**
   * Feeds a realtime event to the outbox: an `expense.created` for an expense whose create is still in
   * the outbox settles that entry (`observed`), so the app never shows the expense twice. Returns true
   * when it settled an entry. `attach(realtime)` does this for every event.
   */
  observe(event: GroupEvent): boolean {
    if (event.type !== 'expense.created' || event.data.restored) return false;
    const id = event.data.expense.id;
    const live = this.journal.find(
      (l) =>
        !l.settled &&
        l.entry.sentAt !== undefined &&
        l.entry.operation.type === 'expense.create' &&
        l.entry.operation.expenseId === id,
    );
    if (!live) return false;
    void this.sender.settle(live, { type: 'observed', event });
    return true;
  }

  /** Calls `observe` with every event a realtime client delivers; returns the function that stops it. */
  attach(realtime: { on(type: 'event', listener: (event: GroupEvent) => void): () => void }): () => void {
    return realtime.on('event', (event) => {
      this.observe(event);
    });
  }

  on<K extends keyof OutboxListeners>(type: K, listener: OutboxListeners[K]): () => void {
    return this.listeners.on(type, listener);
  }

  // ---- internals ------------------------------------------------------------------------------------

  private async enqueue(groupId: string, operation: OutboxOperation, meta: unknown): Promise<OutboxEntry> {
    if (typeof groupId !== 'string' || groupId === '') throw new TallyError('a write needs its groupId');
    await this.ready;
    const { method, path, ifMatch } = requestOf(operation);
    const live = await this.journal.append((seq) => ({
      id: this.newUlid(),
      seq,
      groupId,
      operation,
      method,
      path,
      ...(ifMatch ? { ifMatch } : {}),
      idempotencyKey: this.newKey(),
      createdAt: new Date(this.now()).toISOString(),
      ...(meta === undefined ? {} : { meta: copy(meta) }),
    }));
    this.scheduler.kick(groupId);
    return copy(live.entry);
  }

  private emit<K extends keyof OutboxListeners>(type: K, ...args: Parameters<OutboxListeners[K]>): void {
    this.listeners.emit(type, ...args);
  }

  private checkIdle(): void {
    if (this.journal.size > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
