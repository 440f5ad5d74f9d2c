import { acquireTimeoutOf } from '@tally/db';
import type { Knex } from 'knex';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import {
  type NamedStatement,
  type PgClient,
  type PipelineError,
  type Row,
  sendOne,
  sendPipeline,
  withPgClient,
} from './pg-internals';

/** One write's statement, as the write runner sends it: a named (prepared) statement and its values. */
export type BatchStatement = NamedStatement & {
  /** The group it writes: a batch sends its statements in group order (see `createStatementBatcher`). */
  groupId: string;
};

type Pending = {
  statement: BatchStatement;
  resolve: (rows: Row[]) => void;
  reject: (error: unknown) => void;
  /** When it queued (`performance.now()`): a statement that waits longer than a connection may is let go. */
  queuedAt: number;
  /**
   * The statement of the same group this one was decided after (its state is what that one leaves):
   * it goes in the same batch, after it, or once that one's batch is back, never alongside it in
   * another batch (it would wait for that batch's row lock and see the group as it was before).
   */
  after: Ticket | undefined;
  ticket: Ticket;
};

/**
 * A queued statement, as the caller holds it: what a later statement of the same group names as
 * the one it comes `after`, and whether that one is still to go, on its way, or back.
 */
export type Ticket = { stage: 'queued' | 'sent' | 'settled' };

/**
 * What a statement that waited longer than the pool's acquire timeout for a batch to take it fails
 * with: the error knex gives when no pooled connection becomes free in time (`KnexTimeoutError`), so
 * that the caller answers it as it does pool exhaustion (`503 unavailable`).
 */
class QueueTimeoutError extends Error {
  override name = 'KnexTimeoutError';
}

/** The most writes one batch carries; more wait for the next. */
export const MAX_BATCH = 64;
/**
 * Batches a process keeps in flight at once. More than one, so that a batch waiting for a row lock
 * (a group another process holds) does not stop every other write of the process behind it: the
 * next batch goes meanwhile, on another pooled connection.
 */
export const BATCHES_IN_FLIGHT = 2;

/** Why a batch of two or more statements committed nothing, as `write_batches_failed_total` counts it. */
export type BatchFailure =
  | 'pool_exhausted'
  | 'connection_lost'
  | 'lock_timeout'
  | 'statement_timeout'
  | 'statement_error';

/** What `error`, from taking a connection or from a pipeline, says about the batch that met it. */
export function batchFailureOf(error: unknown): BatchFailure {
  const e = error as { name?: string; code?: string; message?: string } | null;
  if (e?.name === 'KnexTimeoutError') return 'pool_exhausted';
  if (e?.code === '55P03') return 'lock_timeout';
  if (e?.code === '57014') return 'statement_timeout';
  // admin_shutdown and friends (57P01–57P03, e.g. `pg_terminate_backend`), connection_exception
  // (08…), or pg's own errors of a connection that ended or broke (they carry no SQLSTATE).
  // A server turned read-only (25006: a demoted primary) committed nothing and never will: like a
  // lost connection, every write answers 503 and the pool finds the new primary.
  if (/^(57P0|08|25006$)/.test(e?.code ?? '')) return 'connection_lost';
  if (e?.code === undefined && /connection|terminat|queryable|socket|ECONN|EPIPE/i.test(e?.message ?? ''))
    return 'connection_lost';
  return 'statement_error';
}

/**
 * Group commit. Writes' statements go to PostgreSQL together: while `BATCHES_IN_FLIGHT` batches
 * are in flight, the statements that arrive queue; when one returns, the whole queue goes as the
 * next batch, in one round trip and one commit (`sendPipeline`). No timer: a statement that finds a
 * free slot goes at once, alone, exactly as it would without batching, so a quiet server is never
 * taxed. Each slot holds at most one pooled connection: group commit never holds more than
 * `BATCHES_IN_FLIGHT` of the pool, retries included (see `sendBatch`).
 *
 * Each statement keeps its own guard, rows, event and durable record, and gets its own rows back.
 * A batch sends its statements in group-id order (a group's own in the order they queued), so that
 * two processes' batches take the groups' row locks in the same order and cannot deadlock on them.
 * Several statements of one group may share a batch: each names the one it was decided `after`
 * (the write runner decides a group's next write on the state its previous one will leave), and
 * goes in that one's batch, after it, or waits until that batch is back (`Pending.after`).
 */
export function createStatementBatcher(deps: {
  knex: Knex;
  registry?: Registry;
  maxBatch?: number;
  inFlight?: number;
  /**
   * How long a statement may wait in the queue (every batch slot busy, e.g. each waiting for a row
   * lock) before it fails as a pool acquire timeout does. @default the pool's acquire timeout
   */
  queueTimeoutMs?: number;
}) {
  const maxBatch = deps.maxBatch ?? MAX_BATCH;
  const maxInFlight = deps.inFlight ?? BATCHES_IN_FLIGHT;
  const registers = deps.registry ? [deps.registry] : [];
  const queue: Pending[] = [];
  /** Batches in flight (each sends the queue, then the queue that built up meanwhile, and so on). */
  let inFlight = 0;
  const sizes = new Histogram({
    name: 'write_batch_size',
    help: 'Writes per group-commit batch (one round trip, one commit); 1 is a write that went alone',
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers,
  });
  const failed = new Counter({
    name: 'write_batches_failed_total',
    help: 'Group-commit batches of two or more writes that committed nothing, by reason (pool_exhausted, connection_lost: every write answered 503; lock_timeout, statement_timeout: the write that met it answered 503, the others sent again; statement_error: every write sent again)',
    labelNames: ['reason'] as const,
    registers,
  });
  const retried = new Counter({
    name: 'write_batches_retried_total',
    help: 'Group-commit batches undone by one statement’s error, whose writes were then sent again one by one on the batch’s own connection',
    registers,
  });
  const resent = new Counter({
    name: 'write_statements_resent_total',
    help: 'Write statements sent again alone after their batch was undone',
    registers,
  });
  const expiredTotal = new Counter({
    name: 'write_statements_expired_total',
    help: 'Write statements that waited in the group-commit queue longer than the pool acquire timeout (answered 503 unavailable): every batch slot busy, or the group’s previous write still on its way',
    registers,
  });
  new Gauge({
    name: 'write_statements_queued',
    help: 'Write statements waiting in the group-commit queue for a batch to take them',
    registers,
    collect() {
      this.set(queue.length);
    },
  });
  new Gauge({
    name: 'write_batches_in_flight',
    help: `Group-commit batch slots busy (at most ${maxInFlight}), each holding or waiting for one pooled connection`,
    registers,
    collect() {
      this.set(inFlight);
    },
  });
  const queueTimeoutMs = deps.queueTimeoutMs ?? acquireTimeoutOf(deps.knex);
  /**
   * One timer for the whole queue, armed for its oldest statement: a statement that waited
   * `queueTimeoutMs` while every slot stayed busy fails like a pool acquire timeout (a write stuck
   * behind locks must not make the process's other writes hang: before group commit each waited
   * for a pooled connection, bounded by that timeout).
   */
  let expiry: NodeJS.Timeout | undefined;
  const armExpiry = () => {
    if (expiry !== undefined || queue.length === 0) return;
    const oldest = queue[0] as Pending;
    expiry = setTimeout(expire, Math.max(0, oldest.queuedAt + queueTimeoutMs - performance.now()));
    expiry.unref();
  };
  function expire(): void {
    expiry = undefined;
    const cutoff = performance.now() - queueTimeoutMs;
    // The statements queued longest, and those queued after one of them (built on the state it would
    // have left: they would only wait for its group again).
    const gone = new Set<Ticket>();
    const kept: Pending[] = [];
    const expired: Pending[] = [];
    for (const pending of queue) {
      if (pending.queuedAt <= cutoff || (pending.after !== undefined && gone.has(pending.after))) {
        gone.add(pending.ticket);
        expired.push(pending);
      } else kept.push(pending);
    }
    queue.length = 0;
    queue.push(...kept);
    if (expired.length > 0) expiredTotal.inc(expired.length);
    for (const pending of expired)
      pending.reject(new QueueTimeoutError('no batch took the statement in time'));
    armExpiry();
  }

  /**
   * The next batch: queued statements in order, up to `maxBatch`, but not one whose `after` is
   * still queued or on its way in another batch (it stays queued until that one is back).
   */
  function nextBatch(): Pending[] {
    const batch: Pending[] = [];
    const inBatch = new Set<Ticket>();
    const kept: Pending[] = [];
    for (const pending of queue) {
      const { after } = pending;
      if (batch.length < maxBatch && (!after || after.stage === 'settled' || inBatch.has(after))) {
        pending.ticket.stage = 'sent';
        inBatch.add(pending.ticket);
        batch.push(pending);
      } else kept.push(pending);
    }
    queue.length = 0;
    queue.push(...kept);
    return batch;
  }

  /**
   * After the batch was undone: each statement again, alone, in batch order (a group's one after
   * another), on the batch's own connection, so the retry holds no more of the pool than the batch
   * did; `skip` (the statement that met a lock or statement timeout) gets `error` instead: sent
   * again it would only wait as long once more. A connection lost on the way fails the rest with it.
   */
  async function eachAlone(client: PgClient, batch: Pending[], error: unknown, skip?: number): Promise<void> {
    retried.inc();
    let lost: unknown;
    for (const [i, pending] of batch.entries()) {
      if (i === skip || lost !== undefined) {
        pending.reject(lost ?? error);
        continue;
      }
      resent.inc();
      try {
        pending.resolve(await sendOne(client, pending.statement));
      } catch (again) {
        if (batchFailureOf(again) === 'connection_lost') lost = again;
        pending.reject(again);
      }
    }
  }

  /** What a batch that committed nothing does with its writes, by why (see `write_batches_failed_total`). */
  async function afterFailure(client: PgClient, batch: Pending[], error: PipelineError): Promise<void> {
    const reason = batchFailureOf(error);
    failed.inc({ reason });
    switch (reason) {
      case 'lock_timeout':
      case 'statement_timeout':
        return eachAlone(client, batch, error, error.failedAt);
      case 'statement_error':
        return eachAlone(client, batch, error);
      default:
        // The connection is gone (and the batch may have committed before it went: only a
        // client's retry with its Idempotency-Key can tell); or none was free (nothing was sent).
        for (const pending of batch) pending.reject(error);
    }
  }

  /**
   * Sends `batch` on one pooled connection: alone (pg's own named query), it gets its own outcome;
   * together (one pipeline: one round trip, one commit), each its own rows, or, when PostgreSQL
   * undid them all, `afterFailure`.
   * Never rejects: every statement of the batch is settled.
   */
  async function sendBatch(batch: Pending[]): Promise<void> {
    batch.sort((a, b) =>
      a.statement.groupId < b.statement.groupId ? -1 : a.statement.groupId > b.statement.groupId ? 1 : 0,
    );
    let acquired = false;
    try {
      await withPgClient(deps.knex, async (client) => {
        acquired = true;
        let results: Row[][];
        try {
          results =
            batch.length === 1
              ? [await sendOne(client, (batch[0] as Pending).statement)]
              : await sendPipeline(
                  client,
                  batch.map((p) => p.statement),
                );
        } catch (error) {
          if (batch.length === 1) (batch[0] as Pending).reject(error);
          else await afterFailure(client, batch, error as PipelineError);
          return;
        }
        for (const [i, pending] of batch.entries()) pending.resolve(results[i] as Row[]);
      });
    } catch (error) {
      // No pooled connection became free in time: nothing was sent.
      if (acquired) return;
      if (batch.length > 1) failed.inc({ reason: batchFailureOf(error) });
      for (const pending of batch) pending.reject(error);
    }
  }

  async function flush(): Promise<void> {
    inFlight++;
    try {
      while (queue.length > 0) {
        const batch = nextBatch();
        // Everything queued waits for a batch on its way: that batch's return sends it.
        if (batch.length === 0) break;
        sizes.observe(batch.length);
        await sendBatch(batch);
      }
    } finally {
      inFlight--;
    }
  }

  /** A statement is back: the statements queued after it may go, if a slot is free. */
  const settle = (ticket: Ticket) => {
    ticket.stage = 'settled';
    if (queue.length > 0 && inFlight < maxInFlight) void flush();
  };

  function enqueue(statement: BatchStatement, after?: Ticket): { ticket: Ticket; rows: Promise<Row[]> } {
    const ticket: Ticket = { stage: 'queued' };
    const rows = new Promise<Row[]>((resolve, reject) => {
      queue.push({
        statement,
        resolve: (result) => {
          settle(ticket);
          resolve(result);
        },
        reject: (error) => {
          settle(ticket);
          reject(error);
        },
        queuedAt: performance.now(),
        after: after?.stage === 'settled' ? undefined : after,
        ticket,
      });
      if (inFlight < maxInFlight) void flush();
      // What stays queued (every slot busy, or its group's previous statement on its way) may wait so long.
      armExpiry();
    });
    return { ticket, rows };
  }

  return {
    /** Sends `statement` with the next batch (at once when none is in flight): its rows, or its own error. */
    send(statement: BatchStatement): Promise<Row[]> {
      return enqueue(statement).rows;
    },
    /**
     * `send`, for a statement decided on the state `after`'s statement will leave: its ticket (for
     * the group's next statement to name) at once, and its rows when it is back.
     */
    enqueue,
  };
}

export type StatementBatcher = ReturnType<typeof createStatementBatcher>;
