import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';

export type DatabaseOptions = {
  /** PostgreSQL URL; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string | undefined;
  /** Where the embedded database lives. */
  dataDir: string;
  /** @default 10 */
  poolMax?: number;
};

/** Opens (lazily) the system of record: a real PostgreSQL server, or embedded PGlite. */
export function createKnex(options: DatabaseOptions): Knex {
  if (options.databaseUrl) {
    return knexFactory({
      client: 'pg',
      connection: options.databaseUrl,
      pool: { min: 0, max: options.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
    });
  }
  const filename = path.resolve(options.dataDir, 'pg');
  mkdirSync(filename, { recursive: true });
  return knexFactory({
    client: ClientPgLite as unknown as typeof knexFactory.Client,
    dialect: 'postgres',
    connection: { filename },
  } as Knex.Config);
}

/** Whether a knex instance talks to the embedded database (single connection, single process). */
export function isEmbedded(knex: Knex): boolean {
  return knex.client.config.client !== 'pg';
}
