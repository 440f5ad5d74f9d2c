/**
 * What an attempt at an outbox entry makes of its answer. The entry is sent, or, when it was first
 * sent longer ago than the server keeps its key, resolved from the current state (and perhaps sent
 * again under a new key); then it is settled, rejected (`onRejected`), paused on or tried again. The
 * {@link Outbox} holds the writes and their state; its scheduler calls `attempt` with each group's head.
 */
import type { CurrentStateReader } from './current-state-reader.js';
import { ProblemError, RetryExhaustedError, TallyError, UnauthenticatedError } from './errors.js';
import type { HttpClient } from './http-client.js';
import type { LiveEntry, OutboxJournal } from './outbox-journal.js';
import type { OutboxListeners, OutboxOptions } from './outbox-options.js';
import type { Step } from './outbox-scheduler.js';
import type { OutboxOutcome, OutboxResolution, OutboxSettled } from './outbox-types.js';
import { requestOf } from './request-of.js';
import { resolveStaleEntry, type StaleDecision } from './resolve-stale-entry.js';
import type { RetryPolicy } from './retry-policy.js';

/** Answers that say nothing about the operation itself: tried again, never final. */
const NOT_FINAL = new Set(['unauthenticated', 'rate_limited', 'idempotency_key_in_progress', 'http_error']);

/** A deep copy of a plain value: what listeners and callbacks get of an entry. */
export const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A final 4xx that is the operation's own outcome (the server records those with the key). */
function isFinal(error: ProblemError): boolean {
  return error.status >= 400 && error.status < 500 && !NOT_FINAL.has(error.code);
}

/** What the sender needs of its outbox. */
export type OutboxSenderDeps = {
  http: HttpClient;
  policy: RetryPolicy;
  now: () => number;
  newKey: () => string;
  journal: OutboxJournal;
  currentState: CurrentStateReader;
  options: Pick<OutboxOptions, 'idempotencyTtlSeconds' | 'staleMarginSeconds' | 'onRejected'>;
  emit: <K extends keyof OutboxListeners>(type: K, ...args: Parameters<OutboxListeners[K]>) => void;
  /** Stops draining until `wake()` or a new session. */
  pause: () => void;
  /** An entry left the outbox (removed from storage, or its removal failed and was reported). */
  settled: (live: LiveEntry, settled: OutboxSettled) => void;
};

export class OutboxSender {
  private readonly deps: OutboxSenderDeps;

  constructor(deps: OutboxSenderDeps) {
    this.deps = deps;
  }

  /** One attempt at a group's head entry; what it came to tells the scheduler what to do next. */
  async attempt(head: LiveEntry): Promise<Step> {
    try {
      if (head.settled) return 'done';
      const ageMs =
        head.entry.sentAt === undefined ? undefined : this.deps.now() - Date.parse(head.entry.sentAt);
      const ttl = this.deps.options.idempotencyTtlSeconds ?? 86_400;
      const margin = this.deps.options.staleMarginSeconds ?? Math.min(3600, ttl / 4);
      if (ageMs !== undefined && ageMs > (ttl - margin) * 1000) {
        const decision = await resolveStaleEntry(head.entry, this.deps.currentState);
        return await this.resolveStale(head, ageMs, decision);
      }
      return await this.send(head);
    } catch (error) {
      return this.failed(head, error);
    }
  }

  private async send(head: LiveEntry): Promise<Step> {
    const { entry } = head;
    if (entry.sentAt === undefined) {
      entry.sentAt = new Date(this.deps.now()).toISOString();
      await this.deps.journal.save(head);
    }
    const { method, body } = requestOf(entry.operation);
    this.deps.emit('sending', { entry: copy(entry), attempt: head.failures + 1 });
    const res = await this.deps.http.request<Extract<OutboxOutcome, { type: 'applied' }>['data']>({
      method,
      path: entry.path,
      ...(body === undefined ? {} : { body }),
      ...(entry.ifMatch ? { headers: { 'If-Match': entry.ifMatch } } : {}),
      idempotencyKey: entry.idempotencyKey,
      retry: this.deps.policy,
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

  /** Carries out a stale entry's decision: settle it, reject it, or send it again under a new key. */
  private async resolveStale(head: LiveEntry, ageMs: number, decision: StaleDecision): Promise<Step> {
    const { action, summary } = decision;
    if (decision.action === 'found') {
      const resolution = { ageMs, action, summary };
      await this.settle(head, { type: 'found', current: decision.current, resolution });
      return 'done';
    }
    if (decision.action === 'conflict') {
      await this.reject(head, decision.error, { ageMs, action, summary });
      return 'done';
    }
    const { entry } = head;
    entry.resolution = {
      ageMs,
      action,
      summary,
      previousKeys: [...(entry.resolution?.previousKeys ?? []), entry.idempotencyKey],
    };
    // Decided on the state just read, the resend is a new operation with a key of its own (the server
    // may still hold the old key, with the old attempt's answer, until the margin runs out).
    entry.idempotencyKey = this.deps.newKey();
    entry.sentAt = new Date(this.deps.now()).toISOString();
    if (decision.ifMatch) entry.ifMatch = decision.ifMatch;
    else delete entry.ifMatch;
    await this.deps.journal.save(head);
    return this.send(head);
  }

  /** An attempt (or a read) failed: final, a pause, or worth another round. */
  private async failed(head: LiveEntry, error: unknown): Promise<Step> {
    if (head.settled) return 'done';
    const cause = error instanceof RetryExhaustedError ? error.lastError : error;
    if (cause instanceof UnauthenticatedError) {
      this.deps.pause();
      this.deps.emit('paused', { reason: 'unauthenticated', error: cause });
      return 'pause';
    }
    if (cause instanceof ProblemError && isFinal(cause)) {
      await this.reject(head, cause, head.entry.resolution);
      return 'done';
    }
    if (!(cause instanceof TallyError)) this.deps.emit('error', cause); // storage, or a bug
    head.failures++;
    head.lastError = cause;
    head.retryAfterMs = cause instanceof ProblemError ? cause.retryAfterMs : undefined;
    return 'retry';
  }

  private async reject(head: LiveEntry, error: ProblemError, resolution: OutboxResolution | undefined) {
    try {
      await this.deps.options.onRejected?.({
        entry: copy(head.entry),
        error,
        ...(resolution ? { resolution } : {}),
      });
    } catch (callbackError) {
      this.deps.emit('error', callbackError);
    }
    await this.settle(head, { type: 'rejected', error, ...(resolution ? { resolution } : {}) });
  }

  async settle(live: LiveEntry, outcome: OutboxOutcome): Promise<void> {
    if (live.settled) return;
    try {
      await this.deps.journal.remove(live);
    } catch (error) {
      // Still in storage: sent again after a restart, and answered from the key's record.
      this.deps.emit('error', error);
    }
    this.deps.settled(live, { entry: copy(live.entry), outcome });
  }
}
