import type { Sleep } from './http-client.js';
import type { LiveEntry, OutboxJournal } from './outbox-journal.js';
import { type RetryPolicy, retryDelay } from './retry-policy.js';

/** What one attempt at a group's head entry came to. */
export type Step = 'done' | 'retry' | 'pause';

export type OutboxSchedulerDeps = {
  journal: OutboxJournal;
  /** Sends (or resolves) the head entry once; its own failures come back as a step, not a throw. */
  attempt: (head: LiveEntry) => Promise<Step>;
  policy: RetryPolicy;
  random: () => number;
  sleep: Sleep;
  /** A backoff wait is about to start. */
  onRetry: (head: LiveEntry, delayMs: number) => void;
  /** A group's drain failed outside an attempt (a bug, or a throwing callback). */
  onError: (error: unknown) => void;
};

type OnlineTarget = {
  addEventListener?: (type: string, listener: () => void) => void;
  removeEventListener?: (type: string, listener: () => void) => void;
};

/**
 * When the outbox sends: one worker per group, so a group's writes go out one at a time in the order
 * they were made while groups drain independently (a rejected or slow group never holds up another).
 * A failed attempt waits out the client's backoff (and `Retry-After`) before the next; `wake()` cuts
 * every wait short, because it means the network or the session just came back.
 */
export class OutboxScheduler {
  private running = false;
  /** Set by an attempt that found the session over; only `wake()` ends it. */
  private paused = false;
  private readonly workers = new Map<string, Promise<void>>();
  /** Waits between rounds of attempts. */
  private readonly sleepers = new Set<AbortController>();
  private removeOnline: (() => void) | undefined;

  private readonly deps: OutboxSchedulerDeps;

  constructor(deps: OutboxSchedulerDeps) {
    this.deps = deps;
  }

  /**
   * Starts draining every group.
   * @param listenOnline also wake on the browser's `online` event
   * @returns false when it was already running
   */
  start(listenOnline: boolean): boolean {
    if (this.running) return false;
    this.running = true;
    const target = globalThis as unknown as OnlineTarget;
    if (listenOnline && typeof target.addEventListener === 'function') {
      const onOnline = () => this.wake();
      target.addEventListener('online', onOnline);
      this.removeOnline = () => target.removeEventListener?.('online', onOnline);
    }
    this.kickAll();
    return true;
  }

  /** Stops after the attempts in flight; resolves when every group has stopped. */
  async stop(): Promise<void> {
    this.running = false;
    this.removeOnline?.();
    this.removeOnline = undefined;
    this.cutSleeps();
    await Promise.all([...this.workers.values()]);
  }

  /** Tries every entry again now, with a fresh backoff, and ends a pause. */
  wake(): void {
    this.paused = false;
    for (const live of this.deps.journal.list()) {
      live.failures = 0;
      live.retryAfterMs = undefined;
    }
    this.cutSleeps();
    this.kickAll();
  }

  /** Stops every group after its current attempt, until `wake()`. */
  pause(): void {
    this.paused = true;
  }

  /** Makes sure the group is draining (a no-op while it is, or while stopped or paused). */
  kick(groupId: string): void {
    if (!this.running || this.paused || this.workers.has(groupId)) return;
    const worker = this.drain(groupId)
      .catch((error: unknown) => this.deps.onError(error))
      .finally(() => {
        this.workers.delete(groupId);
        // An entry made while the worker was finishing has no worker of its own yet.
        if (this.running && !this.paused && this.deps.journal.head(groupId)) this.kick(groupId);
      });
    this.workers.set(groupId, worker);
  }

  private kickAll(): void {
    for (const groupId of this.deps.journal.groupIds()) this.kick(groupId);
  }

  private cutSleeps(): void {
    for (const sleeper of this.sleepers) sleeper.abort();
    this.sleepers.clear();
  }

  /** Sends the group's entries one at a time, in order, until none is left (or draining stops). */
  private async drain(groupId: string): Promise<void> {
    for (;;) {
      if (!this.running || this.paused) return;
      const head = this.deps.journal.head(groupId);
      if (!head) return;
      try {
        await head.durable;
      } catch {
        continue; // never stored: the journal dropped it again
      }
      const step = await this.deps.attempt(head);
      if (step === 'pause') return;
      if (step === 'retry') await this.backoff(head);
    }
  }

  private async backoff(head: LiveEntry): Promise<void> {
    const delayMs = retryDelay(head.failures, head.retryAfterMs, this.deps.policy, this.deps.random);
    this.deps.onRetry(head, delayMs);
    const sleeper = new AbortController();
    this.sleepers.add(sleeper);
    try {
      await this.deps.sleep(delayMs, sleeper.signal);
    } catch {
      // woken early
    } finally {
      this.sleepers.delete(sleeper);
    }
  }
}
