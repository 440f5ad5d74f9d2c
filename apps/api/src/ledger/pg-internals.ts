/**
 * The one place the write path touches `pg`'s private internals, for speed: group commit sends
 * several named statements in ONE round trip and ONE implicit transaction (`sendPipeline`), which
 * `pg`'s public `Client#query` cannot do. It relies on, in `pg` (version pinned exactly in
 * apps/api/package.json; `pg-internals.test.ts` fails loudly when an upgrade changes any of it):
 * - `pg/lib/utils` `prepareValue`: how a `Query` turns a value (Date, Buffer, array, JSON) into text;
 * - the "submittable" protocol a `Client` drives (`submit(connection)`, `handleRowDescription`, …),
 *   as `pg-cursor` uses it;
 * - the connection's `parse`/`bind`/`describe`/`execute`/`sync` messages, its `stream`, its
 *   `parseComplete` event, and `parsedStatements`, the names it has prepared (shared with `Query`,
 *   so that a named statement is parsed once per connection whichever of the two sent it first).
 */
import { withPooledConnection } from '@tally/db';
import type { Knex } from 'knex';
import pg from 'pg';

export const PG_VERSION_RELIED_ON = '8.23.1';

/** pg's own value preparation (Dates, Buffers, arrays, JSON): what a `Query` binds with. */
export const prepareValue = (require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown })
  .prepareValue;

/** A named statement and its values, as a pipeline sends it. */
export type NamedStatement = { name: string; text: string; values: readonly unknown[] };

export type Row = Record<string, unknown>;

/** The low-level `pg` connection a submittable query is handed (the parts used here). */
export type WireConnection = {
  parsedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(message: { text: string; name: string; types: number[] }): void;
  bind(message: {
    portal: string;
    statement: string;
    values: readonly unknown[];
    valueMapper: (value: unknown) => unknown;
  }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  on(event: 'parseComplete', listener: () => void): void;
  removeListener(event: 'parseComplete', listener: () => void): void;
};

/** A pooled `pg.Client`. */
export type PgClient = pg.Client;

/**
 * Runs `use` on a `pg` client of knex's pool (@tally/db's adapter: the pool's size and acquire
 * timeout bound it like any query). PostgreSQL only: under knex's `pg` dialect a pooled connection
 * is a `pg.Client`.
 */
export const withPgClient = <T>(knex: Knex, use: (client: PgClient) => Promise<T>): Promise<T> =>
  withPooledConnection(knex, (connection) => use(connection as unknown as PgClient));

/** A pipeline's error: which statement raised it (`failedAt`; undefined when none was running). */
export type PipelineError = Error & { failedAt?: number };

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
  private readonly parsing: NamedStatement[] = [];
  private connection: WireConnection | undefined;
  private done = false;

  constructor(
    private readonly statements: readonly NamedStatement[],
    readonly callback: (error: PipelineError | null) => void,
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

  handleError(error: PipelineError): void {
    // The statement that was running when it came (none: the connection failed after the last one).
    if (this.current < this.statements.length) error.failedAt = this.current;
    this.finish(error);
  }

  handleReadyForQuery(): void {
    this.finish(null);
  }

  private finish(error: PipelineError | null): void {
    if (this.done) return;
    this.done = true;
    this.connection?.removeListener('parseComplete', this.onParseComplete);
    this.callback(error);
  }
}

/** Sends one named statement on `client` with pg's public API: its rows, or its error. */
export async function sendOne(client: PgClient, statement: NamedStatement): Promise<Row[]> {
  const result = await client.query<Row>({
    name: statement.name,
    text: statement.text,
    values: [...statement.values],
  });
  return result.rows;
}

/**
 * Sends `statements` on `client` as one pipeline (one round trip, one commit): each statement's
 * rows, or the first error (with `failedAt`), in which case none of them took effect.
 */
export function sendPipeline(client: PgClient, statements: readonly NamedStatement[]): Promise<Row[][]> {
  return new Promise<Row[][]>((resolve, reject) => {
    const pipeline = new Pipeline(statements, (error) => (error ? reject(error) : resolve(pipeline.results)));
    (client as unknown as { query(submittable: Pipeline): void }).query(pipeline);
  });
}
