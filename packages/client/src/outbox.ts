import {
  NotFoundError,
  PreconditionFailedError,
  ProblemError,
  RetryExhaustedError,
  TallyError,
  UnauthenticatedError,
} from './errors';
import type { HttpClient, HttpResponse, Sleep } from './http-client';
import { MemoryOutboxStorage } from './outbox-storage';
import type {
  OutboxEntry,
  OutboxOperation,
  OutboxOutcome,
  OutboxResolution,
  OutboxSettled,
  OutboxStorage,
} from './outbox-types';
import { type RetryPolicy, retryDelay } from './retry-policy';
import type {
  Expense,
  ExpensePatch,
  ExpenseRequest,
  GroupEvent,
  HttpMethod,
  Page,
  Problem,
  Settlement,
  SettlementRequest,
  User,
} from './types';
import { ulidFactory } from './ulid';

/** What `onRejected` gets: the entry and the final answer that took it out of the outbox. */
export type OutboxRejection = {
  entry: OutboxEntry;
  /** `PreconditionFailedError` (412), `NotFoundError` (404), `ValidationFailedError`, `SplitMismatchError`, `NotAMemberError` (422), … */
  error: ProblemError;
  /** Set when a stale entry was resolved (its `action` is `conflict`, or its resend was refused). */
  resolution?: OutboxResolution;
};

export type OutboxOptions = {
  /**
   * Where entries are kept: `fileOutbox(path)` (Node), `indexedDbOutbox()` (browsers),
   * `asyncStorageOutbox(AsyncStorage)` (React Native), or your own {@link OutboxStorage}.
   * @default a MemoryOutboxStorage (entries do not survive the process)
   */
  storage?: OutboxStorage;
  /**
   * Called with every entry refused for good (`412`, `404`, `422`, any final 4xx of the operation, or a
   * stale entry's conflict) before it leaves the outbox. Awaited; if the app is killed before the
   * entry is removed, the entry is sent again and the server replays the same answer, so the callback
   * runs again (at least once per rejected entry).
   */
  onRejected?: (rejection: OutboxRejection) => void | Promise<void>;
  /**
   * The server's `IDEMPOTENCY_TTL_SECONDS`: how long it keeps a key's answer.
   * @default 86400
   */
  idempotencyTtlSeconds?: number;
  /**
   * An entry first sent longer ago than `idempotencyTtlSeconds - staleMarginSeconds` is not resent with
   * its key: the outbox reads the current state and resolves it (see {@link OutboxResolution}).
   * @default 3600, or a quarter of the retention when that is less
   */
  staleMarginSeconds?: number;
  /**
   * A stale settlement create is looked for among the group's settlements made by this user from its
   * creation time minus this allowance (the device's and the server's clocks may differ).
   * @default 600000 (10 minutes)
   */
  clockSkewMs?: number;
  /**
   * The backoff between rounds of attempts (`baseDelayMs`, `maxDelayMs`) and each attempt's time limit
   * (`attemptTimeoutMs`); `Retry-After` is always honoured. Entries are retried until they get a final
   * answer (network errors, timeouts, `429`, `5xx` are never final), with the wait capped at `maxDelayMs`.
   * @default the client's retry policy
   */
  retry?: Partial<Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'attemptTimeoutMs'>>;
  /**
   * Start draining as soon as the client is made (entries left by an earlier run first).
   * @default true
   */
  autoStart?: boolean;
  /**
   * Retry at once when the browser says the network is back (`online` on `globalThis`). In React
   * Native call `outbox.wake()` from NetInfo instead.
   * @default true
   */
  listenOnline?: boolean;
};

/** Listeners of {@link Outbox.on}. */
export type OutboxListeners = {
  /** An entry left the outbox: one event per entry, after its removal is durable. */
  settled: (settled: OutboxSettled) => void;
  /** An attempt of an entry is about to be sent (`attempt` counts from 1 in this process). */
  sending: (info: { entry: OutboxEntry; attempt: number }) => void;
  /** An attempt failed in a way that is not final; the entry is tried again after `delayMs`. */
  retry: (info: { entry: OutboxEntry; attempt: number; delayMs: number; error: unknown }) => void;
  /** Draining stopped until `wake()` (or a new session): the session is over. */
  paused: (info: { reason: 'unauthenticated'; error: TallyError }) => void;
  /** The outbox is empty. */
  idle: () => void;
  /** Something went wrong outside a request: a storage failure, a throwing callback or listener. */
  error: (error: unknown) => void;
};

/** What the outbox needs of the client it belongs to. */
export type OutboxDeps = {
  http: HttpClient;
  now?: () => number;
  random?: () => number;
  sleep: Sleep;
  newKey: () => string;
};

/** An entry as the outbox holds it in memory. */
type Live = {
  entry: OutboxEntry;
  /** The first `put`; the entry is sent only after it. */
  durable: Promise<void>;
  settled: boolean;
  /** Failed attempts in a row in this process (for the backoff). */
  failures: number;
  retryAfterMs: number | undefined;
  /** Why the last attempt failed. */
  lastError: unknown;
  waiters: ((settled: OutboxSettled) => void)[];
};

type Step = 'done' | 'retry' | 'pause';

/** Client-chosen expense ids (API.md §4). */
const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
/** Answers that say nothing about the operation itself: tried again, never final. */
const NOT_FINAL = new Set(['unauthenticated', 'rate_limited', 'idempotency_key_in_progress', 'http_error']);

const expensePath = (id: string) => `/v1/expenses/${encodeURIComponent(id)}`;
const settlementPath = (id: string) => `/v1/settlements/${encodeURIComponent(id)}`;
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The request an operation becomes. */
export function requestOf(operation: OutboxOperation): {
  method: HttpMethod;
  path: string;
  body?: unknown;
  ifMatch?: string;
} {
  switch (operation.type) {
    case 'expense.create':
      return { method: 'PUT', path: expensePath(operation.expenseId), body: operation.body };
    case 'expense.replace':
      return {
        method: 'PUT',
        path: expensePath(operation.expenseId),
        body: operation.body,
        ...(operation.ifMatch ? { ifMatch: operation.ifMatch } : {}),
      };
    case 'expense.patch':
      return {
        method: 'PATCH',
        path: expensePath(operation.expenseId),
        body: operation.body,
        ...(operation.ifMatch ? { ifMatch: operation.ifMatch } : {}),
      };
    case 'expense.delete':
      return {
        method: 'DELETE',
        path: expensePath(operation.expenseId),
        ...(operation.ifMatch ? { ifMatch: operation.ifMatch } : {}),
      };
    case 'expense.restore':
      return { method: 'POST', path: `${expensePath(operation.expenseId)}/restore` };
    case 'settlement.create':
      return { method: 'POST', path: '/v1/settlements', body: operation.body };
    case 'settlement.delete':
      return { method: 'DELETE', path: settlementPath(operation.settlementId) };
  }
}

/** A final 4xx that is the operation's own outcome (the server records those with the key). */
function isFinal(error: ProblemError): boolean {
  return error.status >= 400 && error.status < 500 && !NOT_FINAL.has(error.code);
}

/** Key-order-independent JSON, for comparing what was asked with what the server holds. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Whether the expense already shows every field of an edit. Undecidable fields count as different:
 * the edit is then sent again, which the server treats as a no-op when nothing differs.
 */
function showsEdit(expense: Expense, edit: ExpensePatch, replace: boolean): boolean {
  const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
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

/** A problem made on the device, for a stale entry's conflict. */
function localProblem(status: number, code: Problem['code'], detail: string): Problem {
  return { type: `/problems/${code.replace(/_/g, '-')}`, title: detail, status, code, detail };
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
 */
export class Outbox {
  /** Resolves when the stored entries are loaded (writes made before wait for it). */
  readonly ready: Promise<void>;
  private readonly storage: OutboxStorage;
  private readonly http: HttpClient;
  private readonly options: OutboxOptions;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly sleep: Sleep;
  private readonly newKey: () => string;
  private readonly newUlid: () => string;
  private readonly policy: RetryPolicy;
  /** Unsettled entries, in `seq` order. */
  private entries: Live[] = [];
  private nextSeq = 1;
  private running = false;
  private paused: { reason: 'unauthenticated'; error: TallyError } | undefined;
  private readonly workers = new Map<string, Promise<void>>();
  /** Waits between rounds of attempts; `wake()` cuts them short. */
  private readonly sleepers = new Set<AbortController>();
  private idleWaiters: (() => void)[] = [];
  /** Settlements a stale entry's resolution already took as its own. */
  private readonly claimedSettlements = new Set<string>();
  private me: Promise<string> | undefined;
  private removeOnline: (() => void) | undefined;
  private readonly listeners: { [K in keyof OutboxListeners]: Set<OutboxListeners[K]> } = {
    settled: new Set(),
    sending: new Set(),
    retry: new Set(),
    paused: new Set(),
    idle: new Set(),
    error: new Set(),
  };

  constructor(deps: OutboxDeps, options: OutboxOptions = {}) {
    this.http = deps.http;
    this.options = options;
    this.storage = options.storage ?? new MemoryOutboxStorage();
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.sleep = deps.sleep;
    this.newKey = deps.newKey;
    this.newUlid = ulidFactory(this.now);
    this.policy = { ...deps.http.policy, ...options.retry, maxAttempts: 1 };
    this.ready = this.load();
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

  /** Stores the delete (undo) of a settlement. */
  deleteSettlement(settlement: { id: string; groupId: string }, options: { meta?: unknown } = {}) {
    return this.enqueue(
      settlement.groupId,
      { type: 'settlement.delete', settlementId: settlement.id },
      options.meta,
    );
  }

  // ---- state and control ----------------------------------------------------------------------------

  /** The entries still in the outbox, oldest first (copies); only those of `groupId` when given. */
  pending(groupId?: string): OutboxEntry[] {
    return this.entries
      .filter((live) => groupId === undefined || live.entry.groupId === groupId)
      .map((live) => copy(live.entry));
  }

  /** Starts draining (done by the client itself unless `autoStart: false`). */
  async start(): Promise<void> {
    await this.ready;
    if (this.running) return;
    this.running = true;
    const target = globalThis as unknown as {
      addEventListener?: (type: string, listener: () => void) => void;
      removeEventListener?: (type: string, listener: () => void) => void;
    };
    if (this.options.listenOnline !== false && typeof target.addEventListener === 'function') {
      const onOnline = () => this.wake();
      target.addEventListener('online', onOnline);
      this.removeOnline = () => target.removeEventListener?.('online', onOnline);
    }
    this.kickAll();
    this.checkIdle();
  }

  /** Stops draining after the attempts in flight; the entries stay. Resolves when every group has stopped. */
  async stop(): Promise<void> {
    this.running = false;
    this.removeOnline?.();
    this.removeOnline = undefined;
    this.cutSleeps();
    await Promise.all([...this.workers.values()]);
  }

  /**
   * Tries every entry again now: the network is back, the app came to the foreground, the user signed
   * in again. Resets the backoff and ends a pause.
   */
  wake(): void {
    this.paused = undefined;
    for (const live of this.entries) {
      live.failures = 0;
      live.retryAfterMs = undefined;
    }
    this.cutSleeps();
    this.kickAll();
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
    const live = this.entries.find((l) => l.entry.id === entryId);
    if (!live) return Promise.resolve(undefined);
    return new Promise((resolve) => live.waiters.push(resolve));
  }

  /**
   * Removes an entry without waiting for its answer (reported as `discarded`). If it was already sent
   * it may have taken effect.
   * @returns false when the entry is not in the outbox
   */
  async discard(entryId: string): Promise<boolean> {
    const live = this.entries.find((l) => l.entry.id === entryId);
    if (!live) return false;
    await live.durable.catch(() => {});
    await this.settle(live, { type: 'discarded' });
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
    const live = this.entries.find(
      (l) =>
        !l.settled &&
        l.entry.sentAt !== undefined &&
        l.entry.operation.type === 'expense.create' &&
        l.entry.operation.expenseId === id,
    );
    if (!live) return false;
    void this.settle(live, { type: 'observed', event });
    return true;
  }

  /** Calls `observe` with every event a realtime client delivers; returns the function that stops it. */
  attach(realtime: { on(type: 'event', listener: (event: GroupEvent) => void): () => void }): () => void {
    return realtime.on('event', (event) => {
      this.observe(event);
    });
  }

  on<K extends keyof OutboxListeners>(type: K, listener: OutboxListeners[K]): () => void {
    const set = this.listeners[type] as Set<OutboxListeners[K]>;
    set.add(listener);
    return () => set.delete(listener);
  }

  // ---- internals ------------------------------------------------------------------------------------

  private async load(): Promise<void> {
    const stored = await this.storage.load();
    stored.sort((a, b) => a.seq - b.seq);
    this.entries = stored.map((entry) => this.live(entry, Promise.resolve()));
    this.nextSeq = (stored[stored.length - 1]?.seq ?? 0) + 1;
  }

  private live(entry: OutboxEntry, durable: Promise<void>): Live {
    return {
      entry,
      durable,
      settled: false,
      failures: 0,
      retryAfterMs: undefined,
      lastError: undefined,
      waiters: [],
    };
  }

  private async enqueue(groupId: string, operation: OutboxOperation, meta: unknown): Promise<OutboxEntry> {
    if (typeof groupId !== 'string' || groupId === '') throw new TallyError('a write needs its groupId');
    await this.ready;
    const { method, path, ifMatch } = requestOf(operation);
    const entry: OutboxEntry = {
      id: this.newUlid(),
      seq: this.nextSeq++,
      groupId,
      operation,
      method,
      path,
      ...(ifMatch ? { ifMatch } : {}),
      idempotencyKey: this.newKey(),
      createdAt: new Date(this.now()).toISOString(),
      ...(meta === undefined ? {} : { meta: copy(meta) }),
    };
    const live = this.live(entry, this.storage.put(entry));
    this.entries.push(live); // seq order: seqs are taken in call order, after `ready`
    try {
      await live.durable;
    } catch (error) {
      this.entries = this.entries.filter((l) => l !== live);
      throw error;
    }
    this.kick(groupId);
    return copy(entry);
  }

  private emit<K extends keyof OutboxListeners>(type: K, ...args: Parameters<OutboxListeners[K]>): void {
    for (const listener of this.listeners[type]) {
      try {
        (listener as (...a: Parameters<OutboxListeners[K]>) => void)(...args);
      } catch (error) {
        if (type !== 'error') this.emit('error', error);
      }
    }
  }

  private headOf(groupId: string): Live | undefined {
    return this.entries.find((l) => l.entry.groupId === groupId && !l.settled);
  }

  private kickAll(): void {
    for (const groupId of new Set(this.entries.map((l) => l.entry.groupId))) this.kick(groupId);
  }

  private kick(groupId: string): void {
    if (!this.running || this.paused || this.workers.has(groupId)) return;
    const worker = this.drainGroup(groupId)
      .catch((error: unknown) => this.emit('error', error))
      .finally(() => {
        this.workers.delete(groupId);
        if (this.running && !this.paused && this.headOf(groupId)) this.kick(groupId);
      });
    this.workers.set(groupId, worker);
  }

  private cutSleeps(): void {
    for (const sleeper of this.sleepers) sleeper.abort();
    this.sleepers.clear();
  }

  private checkIdle(): void {
    if (this.entries.length > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Sends the group's entries one at a time, in order, until none is left (or draining stops). */
  private async drainGroup(groupId: string): Promise<void> {
    for (;;) {
      if (!this.running || this.paused) return;
      const head = this.headOf(groupId);
      if (!head) return;
      try {
        await head.durable;
      } catch {
        continue; // never stored: `enqueue` threw and removed it
      }
      let step: Step;
      try {
        step = await this.step(head);
      } catch (error) {
        step = await this.failed(head, error);
      }
      if (step === 'pause') return;
      if (step === 'retry') await this.backoff(head);
    }
  }

  private async step(head: Live): Promise<Step> {
    if (head.settled) return 'done';
    const sentAt = head.entry.sentAt === undefined ? undefined : Date.parse(head.entry.sentAt);
    const ttl = this.options.idempotencyTtlSeconds ?? 86_400;
    const margin = this.options.staleMarginSeconds ?? Math.min(3600, ttl / 4);
    if (sentAt !== undefined && this.now() - sentAt > (ttl - margin) * 1000) {
      return this.resolveStale(head, this.now() - sentAt);
    }
    return this.send(head);
  }

  private async persist(head: Live): Promise<void> {
    if (!head.settled) await this.storage.put(head.entry);
  }

  private async send(head: Live): Promise<Step> {
    const { entry } = head;
    if (entry.sentAt === undefined) {
      entry.sentAt = new Date(this.now()).toISOString();
      await this.persist(head);
    }
    const { method, body } = requestOf(entry.operation);
    this.emit('sending', { entry: copy(entry), attempt: head.failures + 1 });
    const res = await this.http.request<Expense | Settlement | undefined>({
      method,
      path: entry.path,
      ...(body === undefined ? {} : { body }),
      ...(entry.ifMatch ? { headers: { 'If-Match': entry.ifMatch } } : {}),
      idempotencyKey: entry.idempotencyKey,
      retry: this.policy,
    });
    await this.settle(head, {
      type: 'applied',
      status: res.status,
      data: res.data,
      etag: res.etag,
      replayed: res.replayed,
      ...(entry.resolution ? { resolution: entry.resolution } : {}),
    });
    return 'done';
  }

  /** An attempt (or a read) failed: final, a pause, or worth another round. */
  private async failed(head: Live, error: unknown): Promise<Step> {
    if (head.settled) return 'done';
    const cause = error instanceof RetryExhaustedError ? error.lastError : error;
    if (cause instanceof UnauthenticatedError) {
      this.paused = { reason: 'unauthenticated', error: cause };
      this.emit('paused', this.paused);
      return 'pause';
    }
    if (cause instanceof ProblemError && isFinal(cause)) {
      await this.reject(head, cause, head.entry.resolution);
      return 'done';
    }
    if (!(cause instanceof TallyError)) this.emit('error', cause); // storage, or a bug
    head.failures++;
    head.lastError = cause;
    head.retryAfterMs = cause instanceof ProblemError ? cause.retryAfterMs : undefined;
    return 'retry';
  }

  private async backoff(head: Live): Promise<void> {
    const delayMs = retryDelay(head.failures, head.retryAfterMs, this.policy, this.random);
    this.emit('retry', { entry: copy(head.entry), attempt: head.failures, delayMs, error: head.lastError });
    const sleeper = new AbortController();
    this.sleepers.add(sleeper);
    try {
      await this.sleep(delayMs, sleeper.signal);
    } catch {
      // woken early
    } finally {
      this.sleepers.delete(sleeper);
    }
  }

  private async reject(head: Live, error: ProblemError, resolution: OutboxResolution | undefined) {
    try {
      await this.options.onRejected?.({
        entry: copy(head.entry),
        error,
        ...(resolution ? { resolution } : {}),
      });
    } catch (callbackError) {
      this.emit('error', callbackError);
    }
    await this.settle(head, { type: 'rejected', error, ...(resolution ? { resolution } : {}) });
  }

  private async settle(live: Live, outcome: OutboxOutcome): Promise<void> {
    if (live.settled) return;
    live.settled = true;
    this.entries = this.entries.filter((l) => l !== live);
    try {
      await this.storage.remove(live.entry.id);
    } catch (error) {
      // Still in storage: sent again after a restart, and answered from the key's record.
      this.emit('error', error);
    }
    const settled: OutboxSettled = { entry: copy(live.entry), outcome };
    this.emit('settled', settled);
    for (const resolve of live.waiters) resolve(settled);
    this.checkIdle();
    if (this.entries.length === 0) this.emit('idle');
  }

  // ---- stale entries ----------------------------------------------------------------------------------

  /** GET of a resource: the body and ETag, or undefined for 404. */
  private async read<T>(path: string): Promise<HttpResponse<T> | undefined> {
    try {
      return await this.http.request<T>({ method: 'GET', path, retry: this.policy });
    } catch (error) {
      const cause = error instanceof RetryExhaustedError ? error.lastError : error;
      if (cause instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  private async resolveStale(head: Live, ageMs: number): Promise<Step> {
    const op = head.entry.operation;
    const found = (current: Expense | Settlement | undefined, summary: string) =>
      this.settle(head, { type: 'found', current, resolution: { ageMs, action: 'found', summary } }).then(
        () => 'done' as const,
      );
    const conflict = async (error: ProblemError, summary: string): Promise<Step> => {
      await this.reject(head, error, { ageMs, action: 'conflict', summary });
      return 'done';
    };
    const resend = async (ifMatch: string | undefined, summary: string): Promise<Step> => {
      const { entry } = head;
      entry.resolution = {
        ageMs,
        action: 'resent',
        summary,
        previousKeys: [...(entry.resolution?.previousKeys ?? []), entry.idempotencyKey],
      };
      entry.idempotencyKey = this.newKey();
      entry.sentAt = new Date(this.now()).toISOString();
      if (ifMatch) entry.ifMatch = ifMatch;
      else delete entry.ifMatch;
      await this.persist(head);
      return this.send(head);
    };

    switch (op.type) {
      case 'expense.create': {
        const current = await this.read<Expense>(expensePath(op.expenseId));
        if (current)
          return found(current.data, `expense ${op.expenseId} exists: the create had been applied`);
        return resend(undefined, `expense ${op.expenseId} not found: created now`);
      }
      case 'expense.replace':
      case 'expense.patch': {
        const current = await this.read<Expense>(expensePath(op.expenseId));
        if (!current) {
          const detail = `expense ${op.expenseId} is gone (deleted, or no longer visible): the edit was not sent again`;
          return conflict(new NotFoundError(localProblem(404, 'not_found', detail)), detail);
        }
        if (showsEdit(current.data, op.body, op.type === 'expense.replace')) {
          return found(current.data, `expense ${op.expenseId} already shows the edit`);
        }
        if (op.ifMatch && op.ifMatch !== current.etag) {
          const detail = `expense ${op.expenseId} changed since the edit was made (now ${current.etag}, the edit expected ${op.ifMatch}): not sent again`;
          return conflict(
            new PreconditionFailedError(localProblem(412, 'precondition_failed', detail)),
            detail,
          );
        }
        return resend(
          op.ifMatch ?? current.etag,
          `expense ${op.expenseId} does not show the edit: sent again with If-Match ${op.ifMatch ?? current.etag}`,
        );
      }
      case 'expense.delete': {
        const current = await this.read<Expense>(expensePath(op.expenseId));
        if (!current) return found(undefined, `expense ${op.expenseId} is already deleted (or gone)`);
        if (op.ifMatch && op.ifMatch !== current.etag) {
          const detail = `expense ${op.expenseId} changed since the delete was made (now ${current.etag}, the delete expected ${op.ifMatch}): not deleted`;
          return conflict(
            new PreconditionFailedError(localProblem(412, 'precondition_failed', detail)),
            detail,
          );
        }
        return resend(
          op.ifMatch ?? current.etag,
          `expense ${op.expenseId} is still there: deleted now with If-Match ${op.ifMatch ?? current.etag}`,
        );
      }
      case 'expense.restore': {
        const current = await this.read<Expense>(expensePath(op.expenseId));
        if (current)
          return found(current.data, `expense ${op.expenseId} is live: the restore had been applied`);
        return resend(undefined, `expense ${op.expenseId} is deleted: restore sent again`);
      }
      case 'settlement.delete': {
        const current = await this.read<Settlement>(settlementPath(op.settlementId));
        if (!current) return found(undefined, `settlement ${op.settlementId} is already deleted (or gone)`);
        return resend(undefined, `settlement ${op.settlementId} is still there: deleted now`);
      }
      case 'settlement.create': {
        const match = await this.findSettlement(head.entry, op.body);
        if (match) {
          this.claimedSettlements.add(match.id);
          return found(
            match,
            `settlement ${match.id} made by this user matches: the create had been applied`,
          );
        }
        return resend(undefined, 'no matching settlement by this user since the write was made: sent again');
      }
    }
  }

  private whoAmI(): Promise<string> {
    this.me ??= this.http.request<User>({ method: 'GET', path: '/v1/me', retry: this.policy }).then(
      (res) => res.data.id,
      (error: unknown) => {
        this.me = undefined;
        throw error;
      },
    );
    return this.me;
  }

  /** A settlement of the group this user made since the entry was created, equal to the body, not yet claimed. */
  private async findSettlement(entry: OutboxEntry, body: SettlementRequest): Promise<Settlement | undefined> {
    const me = await this.whoAmI();
    const since = Date.parse(entry.createdAt) - (this.options.clockSkewMs ?? 600_000);
    let cursor: string | undefined;
    do {
      const page = await this.http.request<Page<Settlement>>({
        method: 'GET',
        path: `/v1/groups/${encodeURIComponent(entry.groupId)}/settlements`,
        query: { limit: 100, cursor },
        retry: this.policy,
      });
      for (const s of page.data.data) {
        if (Date.parse(s.createdAt) < since) return undefined; // newest first: nothing older can match
        if (
          s.createdBy === me &&
          s.fromUserId === body.fromUserId &&
          s.toUserId === body.toUserId &&
          s.amount === body.amount &&
          (body.currency === undefined || s.currency === body.currency) &&
          s.note === (body.note ?? '') &&
          !this.claimedSettlements.has(s.id)
        ) {
          return s;
        }
      }
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return undefined;
  }
}

function ifMatchOf(options: { ifMatch?: string }): { ifMatch?: string } {
  return options.ifMatch ? { ifMatch: options.ifMatch } : {};
}
