import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import { DurableRecordExists, type DurableRecords, durableRecordValues } from './durable-records';
import { fingerprintOf, scopeOf } from './fingerprint';
import type { IdempotencyStore, LeaseOwner, Publication, StoredResponse } from './idempotency-store';
import { createLeaseRenewer } from './lease-renewer';
import { fromStored, type Reply, stripReplayHeader, toStored } from './stored-reply';

export type { Reply } from './stored-reply';

/**
 * How the durable idempotency record joins the write: folded into the writer's one statement
 * (`values`, the values of `durableRecordInsertSql` for the reply; when the insert finds a live
 * record holding the key, the writer's statement undoes itself and the writer throws
 * `DurableRecordExists`), or, for a write that changed nothing, by itself (`insert`, which throws
 * `DurableRecordExists` likewise). The writer calls `written` just before the statement that
 * carries the record goes out: an operation that answers without that call is refused
 * (`UnprotectedWrite`). After the commit the writer offers the write's events to `announce`: when it
 * takes them (true), they go out with the completion record, in one round trip; when not (false),
 * the writer announces them itself.
 */
export type TransactionHook = {
  values(reply: Reply): unknown[];
  insert(reply: Reply): Promise<void>;
  written(): void;
  announce?(events: readonly unknown[]): boolean;
};

/**
 * How the layer announces a committed write's events along with its completion (a store with
 * `completeAndPublish`). A failed publish never fails the write: `published` is simply not told,
 * and the outbox relay republishes what stays unmarked.
 */
export type Announcer = {
  publications(events: readonly unknown[]): Publication[];
  /** They went out: mark them, so the relay leaves them alone. */
  published(events: readonly unknown[]): void;
  /** The writer's own announcement, for events taken whose completion never comes (the write threw after its commit). */
  fallback(events: readonly unknown[]): void;
};

export type KeyedRequest = { userId: string; key: string; method: string; path: string; body: unknown };

export type LayerOutcome = { reply: Reply; replayed: boolean };

/** Named instants in a keyed write where a test may kill the process (see `faultPoint`). */
export type FaultPoint = 'after-claim' | 'before-commit' | 'after-commit';

export type IdempotencyLayerOptions = {
  store: IdempotencyStore;
  durable: DurableRecords;
  ttlSeconds: number;
  /** The process every lease names: its liveness mark decides whether a retry may take a lease over. */
  processId: string;
  /** In-flight lease; renewed once a write has outlived a third of it. @default 10000 */
  leaseMs?: number;
  /**
   * How long a request whose key a live process holds waits for that outcome (replaying it if it
   * comes) before answering `409 in_progress`; 0 answers at once. @default 2000
   */
  inProgressWaitMs?: number;
  /** Announces a keyed write's events with its completion; absent, writers announce their own. */
  announcer?: Announcer;
  registry?: Registry;
  logger?: Logger;
  /** Test-only fault injection; production wiring leaves it undefined. */
  faultPoint?: (point: FaultPoint) => void;
};

export class IdempotencyConflict extends Error {
  constructor(
    readonly kind: 'in_progress' | 'reused',
    message: string,
  ) {
    super(message);
    this.name = 'IdempotencyConflict';
  }
}

/**
 * A keyed operation answered without its durable record having been written: a bug in the route,
 * refused (a 500, counted as `unprotected`) rather than answered without exactly-once protection.
 */
export class UnprotectedWrite extends Error {
  override name = 'UnprotectedWrite';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Exactly-once execution of keyed writes (API.md §7, ARCHITECTURE "A money write, end to end"):
 * claim the key in the store (taking it over from a dead process, or waiting briefly for a live
 * one), run the operation with a durable record joining its transaction, then record the response
 * in the store. If the store is unreachable, writes go through the PostgreSQL path alone: the
 * durable record's unique key still stops a second effect.
 */
export function createIdempotencyLayer(options: IdempotencyLayerOptions) {
  const { store, durable, logger } = options;
  const leaseMs = options.leaseMs ?? 10_000;
  const waitMs = options.inProgressWaitMs ?? 2000;
  const ttlMs = options.ttlSeconds * 1000;
  const outcomes = new Counter({
    name: 'idempotency_outcomes_total',
    help:
      'Keyed writes by outcome: executed, replayed, durable_replay, reused, in_progress, waited, ' +
      'taken_over, lease_lost, store_unavailable, released, unprotected',
    labelNames: ['outcome'] as const,
    registers: options.registry ? [options.registry] : [],
  });
  const fault = options.faultPoint ?? (() => {});
  const renewer = createLeaseRenewer({
    store,
    leaseMs,
    onLost: () => outcomes.inc({ outcome: 'lease_lost' }),
  });

  const reused = () => {
    outcomes.inc({ outcome: 'reused' });
    return new IdempotencyConflict('reused', 'This key was already used for a different request.');
  };

  /**
   * Claims the key, or settles the request from what holds it: a replay, `reused`, or, once a live
   * owner has not finished within `waitMs`, `in_progress`. Undefined when the key is ours to run.
   */
  async function claimOrWait(
    scope: string,
    fingerprint: string,
    owner: LeaseOwner,
  ): Promise<LayerOutcome | undefined> {
    const deadline = Date.now() + waitMs;
    let pauseMs = 20;
    let waiting = false;
    for (;;) {
      const claim = await store.claim(scope, fingerprint, owner, leaseMs);
      if (claim.claimed) {
        if (claim.tookOverFrom !== undefined) {
          outcomes.inc({ outcome: 'taken_over' });
          logger?.info(
            { deadProcess: claim.tookOverFrom },
            'took over the idempotency lease of a dead process',
          );
        }
        return undefined;
      }
      const { entry } = claim;
      if (entry.fingerprint !== fingerprint) throw reused();
      if (entry.state === 'completed') {
        outcomes.inc({ outcome: 'replayed' });
        return { reply: fromStored(entry.response), replayed: true };
      }
      const remainingMs = deadline - Date.now();
      if (remainingMs <= 0) {
        outcomes.inc({ outcome: 'in_progress' });
        throw new IdempotencyConflict('in_progress', 'A request with this key is still being processed.');
      }
      if (!waiting) outcomes.inc({ outcome: 'waited' });
      waiting = true;
      await sleep(Math.min(pauseMs, remainingMs));
      pauseMs = Math.min(pauseMs * 2, 200);
    }
  }

  async function replayDurable(request: KeyedRequest, fingerprint: string): Promise<LayerOutcome> {
    const record = await durable.find(request.userId, request.key, request.path);
    if (!record) throw new Error('durable idempotency record vanished while replaying');
    if (record.fingerprint !== fingerprint) throw reused();
    outcomes.inc({ outcome: 'durable_replay' });
    return { reply: fromStored(record.response), replayed: true };
  }

  /** Runs the operation with the durable record joining its transaction; replays a record already there. */
  async function run(
    request: KeyedRequest,
    fingerprint: string,
    expiresAt: Date,
    operation: (hook: TransactionHook) => Promise<Reply>,
    recordableError: (error: unknown) => Reply | undefined,
    announce: TransactionHook['announce'],
  ): Promise<LayerOutcome> {
    const record = (reply: Reply) => ({
      userId: request.userId,
      key: request.key,
      path: request.path,
      fingerprint,
      response: toStored(reply),
      expiresAt,
    });
    let written = false;
    let reply: Reply;
    try {
      reply = await operation({
        values: (result) => durableRecordValues(record(result)),
        insert: async (result) => {
          if (!(await durable.insert(record(result)))) throw new DurableRecordExists();
        },
        written: () => {
          written = true;
          fault('before-commit');
        },
        announce,
      });
    } catch (error) {
      if (error instanceof DurableRecordExists) return replayDurable(request, fingerprint);
      const errorReply = recordableError(error);
      if (!errorReply) throw error;
      if (!(await durable.insert(record(errorReply)))) return replayDurable(request, fingerprint);
      outcomes.inc({ outcome: 'executed' });
      return { reply: errorReply, replayed: false };
    }
    if (!written) {
      outcomes.inc({ outcome: 'unprotected' });
      throw new UnprotectedWrite(
        `${request.method} ${request.path} answered ${reply.status} without writing its durable idempotency record`,
      );
    }
    fault('after-commit');
    outcomes.inc({ outcome: 'executed' });
    return { reply, replayed: false };
  }

  /** Records the response; with events, publishes them in the same round trip. */
  async function complete(
    scope: string,
    token: string,
    fingerprint: string,
    stored: StoredResponse,
    ttl: number,
    events: readonly unknown[],
  ): Promise<boolean> {
    const { announcer } = options;
    if (events.length === 0 || !announcer || !store.completeAndPublish)
      return store.complete(scope, token, fingerprint, stored, ttl);
    const publications = announcer.publications(events);
    const completed = await store.completeAndPublish(scope, token, fingerprint, stored, ttl, publications);
    announcer.published(events);
    return completed;
  }

  return {
    /**
     * @param operation the write; it must pass the hook to its transaction (and so call `written`)
     * @param recordableError turns an error the operation itself produced (its own 4xx) into a reply to record; undefined for anything else
     * @throws IdempotencyConflict for `409 in progress` / `409 reused`; UnprotectedWrite when the operation answered without its durable record; any non-recordable error of the operation (the key is freed)
     */
    async execute(
      request: KeyedRequest,
      operation: (hook: TransactionHook) => Promise<Reply>,
      recordableError: (error: unknown) => Reply | undefined,
    ): Promise<LayerOutcome> {
      const fingerprint = fingerprintOf(request.method, request.body);
      const scope = scopeOf(request.userId, request.key, request.path);
      const owner: LeaseOwner = { token: randomUUID(), processId: options.processId };

      let storeUp = true;
      try {
        const settled = await claimOrWait(scope, fingerprint, owner);
        if (settled) return settled;
      } catch (error) {
        if (error instanceof IdempotencyConflict) throw error;
        storeUp = false;
        outcomes.inc({ outcome: 'store_unavailable' });
        logger?.warn({ err: error }, 'idempotency store unavailable; using the durable record alone');
      }
      fault('after-claim');

      const expiresAt = new Date(Date.now() + ttlMs);
      let outcome: LayerOutcome;
      // The committed write's events, when they are to go out with the completion.
      let events: readonly unknown[] = [];
      const announcer = storeUp && store.completeAndPublish ? options.announcer : undefined;
      const announce = (committed: readonly unknown[]) => {
        if (!announcer) return false;
        events = committed;
        return true;
      };
      if (storeUp) renewer.hold(scope, owner.token);
      try {
        outcome = await run(request, fingerprint, expiresAt, operation, recordableError, announce);
      } catch (error) {
        if (events.length > 0) announcer?.fallback(events);
        if (storeUp) {
          outcomes.inc({ outcome: 'released' });
          await store.release(scope, owner.token).catch(() => false);
        }
        throw error;
      } finally {
        renewer.drop(owner.token);
      }
      if (!storeUp) return outcome;

      const stored = toStored(outcome.replayed ? stripReplayHeader(outcome.reply) : outcome.reply);
      const remainingMs = Math.max(1, expiresAt.getTime() - Date.now());
      const completed = await complete(scope, owner.token, fingerprint, stored, remainingMs, events).catch(
        (err: unknown) => {
          logger?.warn({ err }, 'could not record the response in the idempotency store');
          return true;
        },
      );
      if (!completed) {
        outcomes.inc({ outcome: 'lease_lost' });
        logger?.warn({ path: request.path }, 'idempotency lease was taken over; the durable record stands');
      }
      return outcome;
    },
  };
}

export type IdempotencyLayer = ReturnType<typeof createIdempotencyLayer>;
