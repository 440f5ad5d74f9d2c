/** The options, listeners and dependencies of an {@link Outbox}: what an app configures and hears. */
import type { ProblemError, UnauthenticatedError } from './errors.js';
import type { HttpClient, Sleep } from './http-client.js';
import type { Outbox } from './outbox.js';
import type { OutboxEntry, OutboxResolution, OutboxSettled, OutboxStorage } from './outbox-types.js';
import type { RetryPolicy } from './retry-policy.js';

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

/**
 * Why the outbox stopped draining, a union on `reason` (so `error` and its `code` narrow):
 * `unauthenticated`: a `401` the refresh could not cure (no session yet, or the session is over).
 * The next session (`login`, `register`, `setSession`) or `wake()` resumes it.
 */
export type OutboxPaused = { reason: 'unauthenticated'; error: UnauthenticatedError };

/** Listeners of {@link Outbox.on}. */
export type OutboxListeners = {
  /** An entry left the outbox: one event per entry, after its removal is durable. */
  settled: (settled: OutboxSettled) => void;
  /** An attempt of an entry is about to be sent (`attempt` counts from 1 in this process). */
  sending: (info: { entry: OutboxEntry; attempt: number }) => void;
  /** An attempt failed in a way that is not final; the entry is tried again after `delayMs`. */
  retry: (info: { entry: OutboxEntry; attempt: number; delayMs: number; error: unknown }) => void;
  /** Draining stopped until `wake()` (or a new session): see {@link OutboxPaused}. */
  paused: (info: OutboxPaused) => void;
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
