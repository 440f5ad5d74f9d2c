import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { parseDatabaseUrl } from './database-url';
import { isPgServer, multiHostKnexConfig } from './knex-internals';

export type DatabaseOptions = {
  /**
   * PostgreSQL URL, or several hosts in libpq's form (`postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write`:
   * `database-url.ts`); when absent the embedded PGlite database in `dataDir` is used.
   */
  databaseUrl?: string | undefined;
  /** Where the embedded database lives. */
  dataDir: string;
  /** Connections in the pool (PostgreSQL; PGlite has one). @default 10 */
  poolMax?: number;
  /** How long a query waits for a pooled connection before knex gives up (KnexTimeoutError; PostgreSQL). @default 3000 */
  acquireTimeoutMs?: number;
  /** PostgreSQL cancels a statement running longer than this (SQLSTATE 57014); 0 = no limit. @default 5000 */
  statementTimeoutMs?: number;
  /** PostgreSQL gives up waiting for a lock (a group's row lock) after this (55P03); 0 = no limit. @default 2000 */
  lockTimeoutMs?: number;
  /** PostgreSQL ends a session left idle inside a transaction this long (25P03); 0 = no limit. @default 10000 */
  idleInTransactionTimeoutMs?: number;
};

export const DATABASE_DEFAULTS = {
  poolMax: 10,
  acquireTimeoutMs: 3000,
  statementTimeoutMs: 5000,
  lockTimeoutMs: 2000,
  idleInTransactionTimeoutMs: 10_000,
} as const;

/** How long one host of a multi-host URL may take to accept a connection before the next is tried. */
const MULTI_HOST_CONNECT_TIMEOUT_MS = 1000;

/**
 * Opens (lazily) the system of record: a real PostgreSQL server, or embedded PGlite.
 *
 * On PostgreSQL every connection carries its limits as startup parameters (no extra round trip), so
 * no statement, lock wait or forgotten transaction can hold a request, or a pooled connection, for
 * ever. The limits do not apply to PGlite: it is one in-process connection with no other session
 * to wait for, and its first acquire opens the database, which takes seconds (knex's default 60 s
 * acquire timeout stays).
 */
export function createKnex(options: DatabaseOptions): Knex {
  if (options.databaseUrl) {
    const acquireTimeoutMs = options.acquireTimeoutMs ?? DATABASE_DEFAULTS.acquireTimeoutMs;
    const config: Knex.Config = {
      client: 'pg',
      connection: {
        connectionString: options.databaseUrl,
        // pg sends these in the startup packet; 0 is left out (the server's own setting applies).
        statement_timeout: options.statementTimeoutMs ?? DATABASE_DEFAULTS.statementTimeoutMs,
        lock_timeout: options.lockTimeoutMs ?? DATABASE_DEFAULTS.lockTimeoutMs,
        idle_in_transaction_session_timeout:
          options.idleInTransactionTimeoutMs ?? DATABASE_DEFAULTS.idleInTransactionTimeoutMs,
      } as Knex.PgConnectionConfig,
      pool: { min: 0, max: options.poolMax ?? DATABASE_DEFAULTS.poolMax },
      acquireConnectionTimeout: acquireTimeoutMs,
    };
    const url = parseDatabaseUrl(options.databaseUrl);
    // Several hosts (or a session kind asked for): Tally picks the host, as libpq would. A host
    // gone silent costs at most the connect timeout, so the next one is still tried within the
    // pool's acquire timeout.
    if (url.multiHost) {
      const connectTimeoutMs = Math.min(MULTI_HOST_CONNECT_TIMEOUT_MS, acquireTimeoutMs);
      return knexFactory(multiHostKnexConfig(config, url, connectTimeoutMs));
    }
    return knexFactory(config);
  }
  const filename = path.resolve(options.dataDir, 'pg');
  mkdirSync(filename, { recursive: true });
  return knexFactory({
    client: ClientPgLite as unknown as typeof knexFactory.Client,
    dialect: 'postgres',
    // pg_trgm indexes the expense search (migration 008); PGlite loads contrib extensions only
    // when asked, so the database is opened here rather than by knex-pglite from a file name.
    connection: { pglite: new PGlite(filename, { extensions: { pg_trgm } }) },
  } as Knex.Config);
}

/** Whether a knex instance talks to the embedded database (single connection, single process). */
export function isEmbedded(knex: Knex): boolean {
  return !isPgServer(knex);
}
