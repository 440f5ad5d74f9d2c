import type { Knex } from 'knex';
import pg from 'pg';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { RunRead } from '../read-queries';

// pg's own value preparation (Dates, Buffers, arrays, JSON): what a `Query` binds with.
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown };

/** One write's statement, as the write runner sends it: a named (prepared) statement and its values. */
export type BatchStatement = {
  name: string;
  text: string;
  values: unknown[];
  /** The group it writes: a batch sends its statements in group order (see `createStatementBatcher`). */
  groupId: string;
};

type Row = Record<string, unknown>;

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

/** The low-level `pg` connection a submittable query is handed (the parts used here). */
type WireConnection = {
  parsedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(message: { text: string; name: string; types: number[] }): void;
  bind(message: {
    portal: string;
    statement: string;
    values: unknown[];
    valueMapper: (value: unknown) => unknown;
  }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  on(event: 'parseComplete', listener: () => void): void;
  removeListener(event: 'parseComplete', listener: () => void): void;
};

type Field = { name: string; dataTypeID: number; format: string | number };

/**
 * Several statements sent in ONE round trip and ONE transaction: for each, Parse (unless this
 * connection has it already), Bind, Describe, Execute; then a single Sync. PostgreSQL runs them in
 * order in one implicit transaction that commits at the Sync: one commit (one WAL flush) for all.
 * An error in any of them undoes all of them (PostgreSQL skips to the Sync); the callback gets it.
 * A `pg` "submittable" (as pg-cursor is): the client hands it the connection and the messages.
 */
class Pipeline {
  readonly results: Row[][];
  private current = 0;
  private parsers: Array<(value: string) => unknown> = [];
  private fields: Field[] = [];
  /** Statements this pipeline parses, in the order their ParseComplete comes back. */
  private readonly parsing: BatchStatement[] = [];
  private connection: WireConnection | undefined;
  private done = false;

  constructor(
    private readonly statements: readonly BatchStatement[],
    readonly callback: (error: Error | null) => void,
  ) {
    this.results = statements.map(() => []);
  }

  private readonly onParseComplete = () => {
    const parsed = this.parsing.shift();
    if (parsed && this.connection) this.connection.parsedStatements[parsed.name] = parsed.text;
  };

  submit(connection: WireConnection): Error | null {
    for (const statement of this.statements) {
      const known = connection.parsedStatements[statement.name];
      if (known !== undefined && known !== statement.text)
        return new Error(`statement ${statement.name} was prepared with another text`);
    }
    this.connection = connection;
    const parsedHere = new Set<string>();
    connection.on('parseComplete', this.onParseComplete);
    connection.stream.cork?.();
    try {
      for (const statement of this.statements) {
        if (connection.parsedStatements[statement.name] === undefined && !parsedHere.has(statement.name)) {
          connection.parse({ text: statement.text, name: statement.name, types: [] });
          this.parsing.push(statement);
          parsedHere.add(statement.name);
        }
        connection.bind({
          portal: '',
          statement: statement.name,
          values: statement.values,
          valueMapper: prepareValue,
        });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      }
    } finally {
      connection.sync();
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: Field[] }): void {
    this.fields = message.fields;
    this.parsers = message.fields.map((field) =>
      pg.types.getTypeParser(
        field.dataTypeID,
        field.format === 'binary' || field.format === 1 ? 'binary' : 'text',
      ),
    );
  }

  handleDataRow(message: { fields: Array<string | null> }): void {
    const row: Row = {};
    message.fields.forEach((value, i) => {
      const field = this.fields[i] as Field;
      row[field.name] = value === null ? null : (this.parsers[i] as (value: string) => unknown)(value);
    });
    this.results[this.current]?.push(row);
  }

  handleCommandComplete(): void {
    this.current++;
  }

  handleEmptyQuery(): void {
    this.current++;
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(): void {}

  handleCopyData(): void {}

  handleError(error: Error): void {
    this.finish(error);
  }

  handleReadyForQuery(): void {
    this.finish(null);
  }

  private finish(error: Error | null): void {
    if (this.done) return;
    this.done = true;
    this.connection?.removeListener('parseComplete', this.onParseComplete);
    this.callback(error);
  }
}

/** The most writes one batch carries; more wait for the next. */
export const MAX_BATCH = 64;
/**
 * Batches a process keeps in flight at once. More than one, so that a batch waiting for a row lock
 * (a group another process holds) does not stop every other write of the process behind it: the
 * next batch goes meanwhile, on another pooled connection.
 */
export const BATCHES_IN_FLIGHT = 2;

/** Tests only: while set, no batch leaves (see `holdBatchesForTest`). */
let testHold: Promise<void> | undefined;
/** Tests only: statements queued while the hold is on. */
let heldStatements = 0;

/**
 * For tests, in the test's own process (no configuration or request can reach it): until
 * `release()`, statements queue in their batchers instead of going out, so a test puts chosen writes
 * into ONE batch deterministically; `queued()` counts the statements queued meanwhile.
 */
export function holdBatchesForTest(): { release(): void; queued(): number } {
  let release = () => {};
  heldStatements = 0;
  testHold = new Promise<void>((resolve) => {
    release = () => {
      testHold = undefined;
      resolve();
    };
  });
  return { release, queued: () => heldStatements };
}

/**
 * Group commit. Writes' statements go to PostgreSQL together: while `BATCHES_IN_FLIGHT` batches
 * are in flight, the statements that arrive queue; when one returns, the whole queue goes as the
 * next batch, in one round trip and one commit (`Pipeline`). No timer: a statement that finds a
 * free slot goes at once, alone, exactly as it would without batching, so a quiet server is never
 * taxed.
 *
 * Each statement keeps its own guard, rows, event and durable record, and gets its own rows back.
 * When any statement of a batch raises (a live durable record, `TY001`; a constraint; a deadlock),
 * PostgreSQL undoes the whole batch: then every statement of it is sent again alone, at once,
 * each getting its own outcome, so one failing write costs the others one retry and no more.
 *
 * A batch sends its statements in group-id order (a group's own in the order they queued), so that
 * two processes' batches take the groups' row locks in the same order and cannot deadlock on them.
 * Several statements of one group may share a batch: each names the one it was decided `after`
 * (the write runner decides a group's next write on the state its previous one will leave), and
 * goes in that one's batch, after it, or waits until that batch is back (`Pending.after`).
 */
export function createStatementBatcher(deps: {
  knex: Knex;
  /** Sends one statement alone (a lone statement, and the retry after a batch failed). */
  runRead: RunRead;
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
  const sizes = new Histogram({
    name: 'write_batch_size',
    help: 'Writes per group-commit batch (one round trip, one commit); 1 is a write that went alone',
    buckets: [1, 2, 4, 8, 16, 32, 64],
    registers,
  });
  const retried = new Counter({
    name: 'write_batches_retried_total',
    help: 'Group-commit batches undone by one statement’s error, whose writes were then sent again one by one',
    registers,
  });
  const expiredTotal = new Counter({
    name: 'write_statements_expired_total',
    help: 'Write statements that waited in the group-commit queue longer than the pool acquire timeout (answered 503 unavailable): every batch slot busy, or the group’s previous write still on its way',
    registers,
  });
  const queue: Pending[] = [];
  /** Batches in flight (each sends the queue, then the queue that built up meanwhile, and so on). */
  let inFlight = 0;
  const queueTimeoutMs =
    deps.queueTimeoutMs ??
    (deps.knex.client.config as { acquireConnectionTimeout?: number }).acquireConnectionTimeout ??
    60_000;
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

  const alone = (pending: Pending): Promise<void> => {
    pending.ticket.stage = 'sent';
    return deps
      .runRead<Row>({ name: pending.statement.name, text: pending.statement.text }, pending.statement.values)
      .then(pending.resolve, pending.reject);
  };

  /** After a batch was undone: each statement alone, a group's one after another (in queue order). */
  async function eachAlone(batch: Pending[]): Promise<void> {
    const byGroup = new Map<string, Pending[]>();
    for (const pending of batch) {
      const lane = byGroup.get(pending.statement.groupId);
      if (lane) lane.push(pending);
      else byGroup.set(pending.statement.groupId, [pending]);
    }
    await Promise.all(
      [...byGroup.values()].map(async (lane) => {
        for (const pending of lane) await alone(pending);
      }),
    );
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

  async function together(batch: Pending[]): Promise<void> {
    batch.sort((a, b) =>
      a.statement.groupId < b.statement.groupId ? -1 : a.statement.groupId > b.statement.groupId ? 1 : 0,
    );
    const connection = (await deps.knex.client.acquireConnection()) as {
      query(submittable: Pipeline): unknown;
    };
    let results: Row[][];
    try {
      results = await new Promise<Row[][]>((resolve, reject) => {
        const pipeline = new Pipeline(
          batch.map((p) => p.statement),
          (error) => (error ? reject(error) : resolve(pipeline.results)),
        );
        connection.query(pipeline);
      });
    } finally {
      await deps.knex.client.releaseConnection(connection);
    }
    for (const [i, pending] of batch.entries()) pending.resolve(results[i] as Row[]);
  }

  async function flush(): Promise<void> {
    inFlight++;
    try {
      while (testHold !== undefined) await testHold;
      while (queue.length > 0) {
        const batch = nextBatch();
        // Everything queued waits for a batch on its way: that batch's return sends it.
        if (batch.length === 0) break;
        sizes.observe(batch.length);
        if (batch.length === 1) {
          await alone(batch[0] as Pending);
          continue;
        }
        try {
          await together(batch);
        } catch {
          // Nothing of the batch committed: each statement again, alone, for its own outcome.
          retried.inc();
          void eachAlone(batch);
        }
      }
    } finally {
      inFlight--;
    }
  }

  /** A statement is back: the statements queued after it may go, if a slot is free. */
  const settled = (ticket: Ticket) => {
    ticket.stage = 'settled';
    if (queue.length > 0 && inFlight < maxInFlight) void flush();
  };

  function enqueue(statement: BatchStatement, after?: Ticket): { ticket: Ticket; rows: Promise<Row[]> } {
    const ticket: Ticket = { stage: 'queued' };
    const rows = new Promise<Row[]>((resolve, reject) => {
      queue.push({
        statement,
        resolve: (result) => {
          settled(ticket);
          resolve(result);
        },
        reject: (error) => {
          settled(ticket);
          reject(error);
        },
        queuedAt: performance.now(),
        after: after?.stage === 'settled' ? undefined : after,
        ticket,
      });
      if (testHold !== undefined) heldStatements++;
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
