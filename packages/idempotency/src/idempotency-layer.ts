import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import { DurableRecordExists, type DurableRecords } from './durable-records';
import { fingerprintOf, scopeOf } from './fingerprint';
import type { IdempotencyStore, StoredResponse } from './idempotency-store';

/** A response as data, before it is sent. */
export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

/** A SQL statement with `?` placeholders, for a writer to fold into its own statement. */
export type SqlFragment = { sql: string; bindings: readonly unknown[] };

/**
 * How the durable idempotency record joins the write's transaction, just before commit: as a
 * statement of its own (`insert`), or folded into the writer's last statement (`statement`, an
 * `insert … returning` that returns no row when a live record already holds the key; the writer
 * then throws `DurableRecordExists`). `written` runs once the record is in (a test fault point).
 */
export type TransactionHook = {
  insert(trx: Knex.Transaction, reply: Reply): Promise<void>;
  statement(reply: Reply): SqlFragment;
  written(): void;
};

export type KeyedRequest = { userId: string; key: string; method: string; path: string; body: unknown };

export type LayerOutcome = { reply: Reply; replayed: boolean };

/** Named instants in a keyed write where a test may kill the process (see `faultPoint`). */
export type FaultPoint = 'after-claim' | 'before-commit' | 'after-commit';

export type IdempotencyLayerOptions = {
  store: IdempotencyStore;
  durable: DurableRecords;
  ttlSeconds: number;
  /** In-flight lease; renewed every third of it while the operation still runs. @default 10000 */
  leaseMs?: number;
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

const REPLAYED_HEADERS = ['Location', 'ETag', 'Content-Type'];

function toStored(reply: Reply): StoredResponse {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.headers?.[name];
    if (value !== undefined) headers[name] = value;
  }
  return { status: reply.status, headers, body: reply.body === undefined ? '' : JSON.stringify(reply.body) };
}

function fromStored(stored: StoredResponse): Reply {
  return {
    status: stored.status,
    headers: { ...stored.headers, 'Idempotent-Replayed': 'true' },
    body: stored.body === '' ? undefined : JSON.parse(stored.body),
  };
}

/**
 * Exactly-once execution of keyed writes (API.md §7, ARCHITECTURE "A money write, end to end"):
 * claim the key in the store, run the operation with a durable record joining its transaction,
 * then record the response in the store and release. If the store is unreachable, writes go
 * through the PostgreSQL path alone: the durable record's unique key still stops a second effect.
 */
export function createIdempotencyLayer(options: IdempotencyLayerOptions) {
  const { store, durable, logger } = options;
  const leaseMs = options.leaseMs ?? 10_000;
  const ttlMs = options.ttlSeconds * 1000;
  const outcomes = new Counter({
    name: 'idempotency_outcomes_total',
    help: 'Keyed writes by outcome: executed, replayed, durable_replay, reused, in_progress, lease_lost, store_unavailable, released',
    labelNames: ['outcome'] as const,
    registers: options.registry ? [options.registry] : [],
  });
  const fault = options.faultPoint ?? (() => {});

  async function replayDurable(request: KeyedRequest, fingerprint: string): Promise<Reply> {
    const record = await durable.find(request.userId, request.key, request.path);
    if (!record) throw new Error('durable idempotency record vanished while replaying');
    if (record.fingerprint !== fingerprint) {
      outcomes.inc({ outcome: 'reused' });
      throw new IdempotencyConflict('reused', 'This key was already used for a different request.');
    }
    outcomes.inc({ outcome: 'durable_replay' });
    return fromStored(record.response);
  }

  return {
    /**
     * @param operation the write; it must pass the hook to its transaction
     * @param recordableError turns an error the operation itself produced (its own 4xx) into a reply to record; undefined for anything else
     * @throws IdempotencyConflict for `409 in progress` / `409 reused`; any non-recordable error of the operation (the key is freed)
     */
    async execute(
      request: KeyedRequest,
      operation: (hook: TransactionHook) => Promise<Reply>,
      recordableError: (error: unknown) => Reply | undefined,
    ): Promise<LayerOutcome> {
      const fingerprint = fingerprintOf(request.method, request.body);
      const scope = scopeOf(request.userId, request.key, request.path);
      const owner = randomUUID();

      let storeUp = true;
      try {
        const claim = await store.claim(scope, fingerprint, owner, leaseMs);
        if (!claim.claimed) {
          const { entry } = claim;
          if (entry.fingerprint !== fingerprint) {
            outcomes.inc({ outcome: 'reused' });
            throw new IdempotencyConflict('reused', 'This key was already used for a different request.');
          }
          if (entry.state === 'in_progress') {
            outcomes.inc({ outcome: 'in_progress' });
            throw new IdempotencyConflict('in_progress', 'A request with this key is still being processed.');
          }
          outcomes.inc({ outcome: 'replayed' });
          return { reply: fromStored(entry.response), replayed: true };
        }
      } catch (error) {
        if (error instanceof IdempotencyConflict) throw error;
        storeUp = false;
        outcomes.inc({ outcome: 'store_unavailable' });
        logger?.warn({ err: error }, 'idempotency store unavailable; using the durable record alone');
      }
      fault('after-claim');

      const renew = storeUp
        ? setInterval(
            () => {
              store.extend(scope, owner, leaseMs).then(
                (held) => {
                  if (!held) outcomes.inc({ outcome: 'lease_lost' });
                },
                () => {},
              );
            },
            Math.max(1, Math.floor(leaseMs / 3)),
          )
        : undefined;
      renew?.unref();

      const expiresAt = new Date(Date.now() + ttlMs);
      const record = (reply: Reply) => ({
        userId: request.userId,
        key: request.key,
        path: request.path,
        fingerprint,
        response: toStored(reply),
        expiresAt,
      });

      let reply: Reply;
      let replayed = false;
      try {
        try {
          reply = await operation({
            insert: (trx, result) => durable.insertInTransaction(trx, record(result)),
            statement: (result) => durable.insertStatement(record(result)),
            written: () => fault('before-commit'),
          });
          fault('after-commit');
          outcomes.inc({ outcome: 'executed' });
        } catch (error) {
          if (error instanceof DurableRecordExists) {
            reply = await replayDurable(request, fingerprint);
            replayed = true;
          } else {
            const errorReply = recordableError(error);
            if (!errorReply) throw error;
            if (await durable.insert(record(errorReply))) {
              reply = errorReply;
              outcomes.inc({ outcome: 'executed' });
            } else {
              reply = await replayDurable(request, fingerprint);
              replayed = true;
            }
          }
        }
      } catch (error) {
        clearInterval(renew);
        if (storeUp) {
          outcomes.inc({ outcome: 'released' });
          await store.release(scope, owner).catch(() => false);
        }
        throw error;
      }
      clearInterval(renew);

      if (storeUp) {
        const remainingMs = Math.max(1, expiresAt.getTime() - Date.now());
        const completed = await store
          .complete(
            scope,
            owner,
            fingerprint,
            toStored(replayed ? stripReplayHeader(reply) : reply),
            remainingMs,
          )
          .catch((err: unknown) => {
            logger?.warn({ err }, 'could not record the response in the idempotency store');
            return true;
          });
        if (!completed) {
          outcomes.inc({ outcome: 'lease_lost' });
          logger?.warn({ path: request.path }, 'idempotency lease was taken over; the durable record stands');
        }
      }
      return { reply, replayed };
    },
  };
}

function stripReplayHeader(reply: Reply): Reply {
  const { 'Idempotent-Replayed': _replayed, ...headers } = reply.headers ?? {};
  return { ...reply, headers };
}

export type IdempotencyLayer = ReturnType<typeof createIdempotencyLayer>;
