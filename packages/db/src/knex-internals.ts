import type { Knex } from 'knex';
import type { ClientConfig, Client as PgClient } from 'pg';
import type { DatabaseUrl } from './database-url';
import { createHostConnector } from './multi-host';

/**
 * The only file that reaches past knex's public API (knex 3.3.0, pinned exactly in
 * `packages/db/package.json`; `knex-internals.test.ts` fails loudly when an upgrade changes any of it).
 *
 * Why: the hot reads (`GET` expense, balances, the lists: `createRunRead` in the API) send a `pg`
 * named statement straight on a pooled connection. Through `knex.raw(…).options({ name })` the same
 * statement cost about 25 µs more per query on the 2-core CI machine (knex's builder, runner and
 * events), which the hot lane's budget does not have. Statements that share a session (the
 * scheduler's advisory-lock claims, the migration lock, a change's locked transaction) hold one
 * connection through `takePooledConnection`. A multi-host DATABASE_URL needs knex's `pg` dialect
 * opening a connection its own way (`MultiHostPg` below; `multi-host.test.ts` fails when knex stops
 * opening connections through it). Everything else goes through knex's public API.
 */

/** A connection of knex's pool, as `pg` (and PGlite) give it: only what Tally calls. */
export type PooledConnection = {
  query(
    query: { name: string; text: string; values: unknown[] } | string,
    values?: unknown[],
  ): Promise<{ rows: unknown[] }>;
};

type Internals = {
  config: { client?: unknown; pool?: { max?: number }; acquireConnectionTimeout?: number };
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  destroyRawConnection(connection: unknown): Promise<unknown>;
};

const internalsOf = (knex: Knex) => knex.client as Internals;

/** Whether `knex` talks to a PostgreSQL server through `pg` (not the embedded PGlite). */
export const isPgServer = (knex: Knex): boolean =>
  // A stand-in knex (an app built without a database, e.g. to list its routes) has no client.
  (internalsOf(knex) as Partial<Internals> | undefined)?.config?.client === 'pg';

/** knex's own `pg` dialect, the class `client: 'pg'` stands for. */
type PgDialect = new (
  config: Knex.Config,
) => {
  connectionSettings: ClientConfig;
  driver: { Client: new (config: ClientConfig) => PgClient };
};
const KnexPgDialect = require('knex/lib/dialects/postgres/index.js') as PgDialect;

/**
 * knex's `pg` client for a multi-host `DATABASE_URL` (`multi-host.ts`). knex opens each pooled
 * connection in `_acquireOnlyConnection` (one `pg` client on the configured host, with the two
 * listeners below); here that tries the URL's hosts instead. A connection flagged
 * `__knex__disposed` (knex's own flag: an `error` or `end` of the connection, or here a read-only
 * or shutting-down server) is destroyed by the pool's validation before it is lent again.
 */
class MultiHostPg extends KnexPgDialect {
  readonly #connector;

  constructor(config: Knex.Config & { multiHost: { url: DatabaseUrl; connectTimeoutMs: number } }) {
    super(config);
    // knex's 'pg' client in all but how a connection is opened: what reads the config (isPgServer)
    // sees it as one.
    (this as unknown as { config: Knex.Config }).config.client = 'pg';
    this.#connector = createHostConnector(
      config.multiHost.url,
      this.connectionSettings,
      config.multiHost.connectTimeoutMs,
      dispose,
    );
  }

  _acquireOnlyConnection(): Promise<PgClient> {
    return this.#connector.connect(async (settings) => {
      const client = new this.driver.Client(settings);
      client.on('error', (error) => dispose(client, error));
      client.on('end', () => dispose(client, 'Connection ended unexpectedly'));
      await client.connect();
      return client;
    });
  }
}

function dispose(client: PgClient, reason: unknown): void {
  (client as { __knex__disposed?: unknown }).__knex__disposed = reason;
}

/** knex's config for a multi-host URL: `config`'s `pg` settings shared by every host, the hosts and the per-host connect timeout. */
export function multiHostKnexConfig(
  config: Knex.Config,
  url: DatabaseUrl,
  connectTimeoutMs: number,
): Knex.Config {
  return { ...config, client: MultiHostPg, multiHost: { url, connectTimeoutMs } } as unknown as Knex.Config;
}

/** The pool's size as configured (PGlite: one connection). */
export const poolMaxOf = (knex: Knex): number =>
  isPgServer(knex) ? (internalsOf(knex).config.pool?.max ?? 1) : 1;

/** How long a query waits for a pooled connection, as configured (knex's default when absent). */
export const acquireTimeoutOf = (knex: Knex): number =>
  internalsOf(knex).config.acquireConnectionTimeout ?? 60_000;

/**
 * One connection of `knex`'s pool (its limits and acquire timeout apply as for any knex query), held
 * until `release`: for statements that must share a session (a transaction, session advisory locks).
 * `release(true)` closes a connection that may be broken or hold session state, instead of reusing it.
 */
export async function takePooledConnection(
  knex: Knex,
): Promise<{ connection: PooledConnection; release(broken?: boolean): Promise<void> }> {
  const client = internalsOf(knex);
  const connection = (await client.acquireConnection()) as PooledConnection;
  return {
    connection,
    async release(broken = false) {
      if (broken) await client.destroyRawConnection(connection).catch(() => {});
      await client.releaseConnection(connection);
    },
  };
}

/**
 * `knex` with every statement on `connection` (one of its pool's, held by the caller): `queryPooled`
 * and `runSql` (`raw`) on it run there, in order, as on one session. Anything else of knex (its
 * builder, a transaction) is refused, loudly: a read pinned to one server must not slip off it.
 */
export function pinnedTo(knex: Knex, connection: PooledConnection): Knex {
  const client = Object.create(internalsOf(knex), {
    acquireConnection: { value: () => Promise.resolve(connection) },
    releaseConnection: { value: () => Promise.resolve() },
  }) as Internals;
  const refused = (what: string) => () => {
    throw new Error(`${what} on a pinned connection: use runSql or a named statement`);
  };
  return new Proxy(knex, {
    get(target, property, receiver) {
      if (property === 'client') return client;
      // knex's own way to send one statement on a given connection (`Raw#connection`).
      if (property === 'raw')
        return (text: string, values: readonly unknown[]) =>
          target.raw(text, values as never).connection(connection);
      if (property === 'transaction' || property === 'transactionProvider') return refused('a transaction');
      return Reflect.get(target, property, receiver);
    },
    apply: refused("knex's query builder"),
  });
}

/** Runs `use` on one connection of `knex`'s pool and gives the connection back after it. */
export async function withPooledConnection<T>(
  knex: Knex,
  use: (connection: PooledConnection) => Promise<T>,
): Promise<T> {
  const { connection, release } = await takePooledConnection(knex);
  try {
    return await use(connection);
  } finally {
    await release();
  }
}

/**
 * One statement on a connection of `knex`'s pool, given back after it: what `withPooledConnection`
 * and `queryNamed` do together, in one function, for the hot reads (one `GET` is one of these).
 */
export async function queryPooled<R>(
  knex: Knex,
  statement: { name: string; text: string },
  values: unknown[],
): Promise<R[]> {
  const client = internalsOf(knex);
  const connection = (await client.acquireConnection()) as PooledConnection;
  try {
    return await queryNamed<R>(knex, connection, statement, values);
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * One statement on a pooled connection: a `pg` named (prepared) statement on PostgreSQL, parsed and
 * planned once per connection; PGlite has no named statements, there the text runs as it is.
 */
export async function queryNamed<R>(
  knex: Knex,
  connection: PooledConnection,
  statement: { name: string; text: string },
  values: unknown[],
): Promise<R[]> {
  const result = isPgServer(knex)
    ? await connection.query({ name: statement.name, text: statement.text, values })
    : await connection.query(statement.text, values);
  return result.rows as R[];
}
