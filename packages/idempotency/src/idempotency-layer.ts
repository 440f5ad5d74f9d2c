import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { DurableRecord, DurableRecords } from './durable-records';
import { scopeOf } from './fingerprint';
import type { IdempotencyStore, LeaseOwner, Publication } from './idempotency-store';
import { createLeaseRenewer } from './lease-renewer';
import type { OnIgnoredError } from './liveness';
import { fromStored, type Reply, stripReplayHeader, toStored } from './stored-reply';

export type { Reply } from './stored-reply';

/** A keyed request: its scope (user, key, canonical path) and `fingerprintOf(method, body)`. */
export type KeyedRequest = { userId: string; key: string; path: string; fingerprint: string };

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
  registry?: Registry;
  logger?: Logger;
  /** Errors the layer carries on after (a lease it could not free, a completion it could not record). */
  onIgnoredError?: OnIgnoredError;
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
 * A key this request holds: what its write records, and what the layer needs to finish with it.
 * `storeUp` is false when the store could not be reached: the write then runs on the durable record
 * alone (its unique key still stops a second effect), and nothing is kept in the store.
 */
export type Lease = {
  readonly request: KeyedRequest;
  readonly scope: string;
  readonly fingerprint: string;
  readonly owner: LeaseOwner;
  readonly expiresAt: Date;
  readonly storeUp: boolean;
};

/** What `claim` found: a recorded answer to replay, or the key, ours to run. */
export type Claimed = { replay: Reply; lease?: undefined } | { lease: Lease; replay?: undefined };

/**
 * Who published a keyed write's events: its completion, in the same round trip (`completion`);
 * nobody yet, so the writer publishes them (`nobody`); or nobody knows, because the completion
 * failed on its way (`unknown`): the outbox relay republishes whatever stays unmarked.
 */
export type PublishedBy = 'completion' | 'nobody' | 'unknown';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Exactly-once execution of keyed writes (API.md §7), as the steps a write route takes in order:
 * `claim` the key (taking it over from a dead process, or waiting briefly for a live one, or
 * replaying its recorded answer); then the route's write carries `record(lease, reply)` in its own
 * statement (or `replayDurable` when a live record already held the key); then `complete` records the
 * answer in the store and, where the store can, publishes the write's events in the same round trip.
 * A write that fails without an answer to record `release`s the key.
 */
export function createIdempotencyLayer(options: IdempotencyLayerOptions) {
  const { store, durable, logger } = options;
  const leaseMs = options.leaseMs ?? 10_000;
  const waitMs = options.inProgressWaitMs ?? 2000;
  const ttlMs = options.ttlSeconds * 1000;
  const ignored: OnIgnoredError =
    options.onIgnoredError ?? ((reason, err, context) => logger?.warn({ err, reason, ...context }, reason));
  const outcomes = new Counter({
    name: 'idempotency_outcomes_total',
    help:
      'Keyed writes by outcome: executed, replayed, durable_replay, reused, in_progress, waited, ' +
      'taken_over, lease_lost, store_unavailable, released',
    labelNames: ['outcome'] as const,
    registers: options.registry ? [options.registry] : [],
  });
  const fault = options.faultPoint ?? (() => {});
  const renewer = createLeaseRenewer({
    store,
    leaseMs,
    onLost: () => outcomes.inc({ outcome: 'lease_lost' }),
    onError: (error) => ignored('lease_renewal', error),
  });
  /** Durable replays, by lease: their answers are recorded in the store without the replay header. */
  const replayedLeases = new WeakSet<Lease>();

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
  ): Promise<Reply | undefined> {
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
        return fromStored(entry.response);
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

  return {
    /**
     * Step 1 of a keyed write: the key, or the answer already recorded for it.
     * @throws IdempotencyConflict `reused` (another request's key) or `in_progress` (a live owner did not finish in time)
     */
    async claim(request: KeyedRequest): Promise<Claimed> {
      const { fingerprint } = request;
      const scope = scopeOf(request.userId, request.key, request.path);
      const owner: LeaseOwner = { token: randomUUID(), processId: options.processId };
      let storeUp = true;
      try {
        const replay = await claimOrWait(scope, fingerprint, owner);
        if (replay) return { replay };
      } catch (error) {
        if (error instanceof IdempotencyConflict) throw error;
        storeUp = false;
        outcomes.inc({ outcome: 'store_unavailable' });
        logger?.warn({ err: error }, 'idempotency store unavailable; using the durable record alone');
      }
      fault('after-claim');
      if (storeUp) renewer.hold(scope, owner.token);
      const expiresAt = new Date(Date.now() + ttlMs);
      return { lease: { request, scope, fingerprint, owner, expiresAt, storeUp } };
    },

    /**
     * The durable record of `reply`, for the statement that writes it: asked for just before that
     * statement goes out (the `before-commit` fault point).
     */
    record(lease: Lease, reply: Reply): DurableRecord {
      fault('before-commit');
      const { request } = lease;
      return {
        userId: request.userId,
        key: request.key,
        path: request.path,
        fingerprint: lease.fingerprint,
        response: toStored(reply),
        expiresAt: lease.expiresAt,
        replyBody: reply.body,
      };
    },

    /** The answer a live durable record holds for the key (the write found it and changed nothing). */
    async replayDurable(lease: Lease): Promise<Reply> {
      const { request } = lease;
      const found = await durable.find(request.userId, request.key, request.path);
      if (!found) throw new Error('durable idempotency record vanished while replaying');
      if (found.fingerprint !== lease.fingerprint) throw reused();
      outcomes.inc({ outcome: 'durable_replay' });
      replayedLeases.add(lease);
      return fromStored(found.response);
    },

    /**
     * The last step: the answer, recorded in the store for replays; the write's events
     * (`publicationsOf`, asked for only when the store can publish them) go out in the same round
     * trip. Never throws: a failure here leaves the durable record to answer retries.
     */
    async complete(
      lease: Lease,
      reply: Reply,
      publicationsOf: () => readonly Publication[],
    ): Promise<PublishedBy> {
      renewer.drop(lease.owner.token);
      const replayed = replayedLeases.has(lease);
      if (!replayed) {
        fault('after-commit');
        outcomes.inc({ outcome: 'executed' });
      }
      if (!lease.storeUp) return 'nobody';
      const stored = toStored(replayed ? stripReplayHeader(reply) : reply);
      const ttl = Math.max(1, lease.expiresAt.getTime() - Date.now());
      const publications = store.completeAndPublish ? publicationsOf() : [];
      const withEvents = publications.length > 0;
      try {
        const completed = withEvents
          ? await store.completeAndPublish!(
              lease.scope,
              lease.owner.token,
              lease.fingerprint,
              stored,
              ttl,
              publications,
            )
          : await store.complete(lease.scope, lease.owner.token, lease.fingerprint, stored, ttl);
        if (!completed) {
          outcomes.inc({ outcome: 'lease_lost' });
          logger?.warn(
            { path: lease.request.path },
            'idempotency lease was taken over; the durable record stands',
          );
        }
        return withEvents ? 'completion' : 'nobody';
      } catch (error) {
        ignored('idempotency_completion', error, { path: lease.request.path });
        return withEvents ? 'unknown' : 'nobody';
      }
    },

    /** The write failed without an answer to record: the key is unseen again, for a retry. */
    async release(lease: Lease): Promise<void> {
      renewer.drop(lease.owner.token);
      if (!lease.storeUp) return;
      outcomes.inc({ outcome: 'released' });
      try {
        await store.release(lease.scope, lease.owner.token);
      } catch (error) {
        // The key stays blocked until its lease runs out (`leaseMs`), or sooner if this process dies.
        ignored('lease_release', error, { path: lease.request.path });
      }
    },
  };
}

export type IdempotencyLayer = ReturnType<typeof createIdempotencyLayer>;
