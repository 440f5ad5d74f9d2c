import type { Knex } from 'knex';
import * as initial from './migrations/001-initial';

type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

/** Migrations are imported, not discovered on disk, so they run the same under tsx, jest and a bundle. */
const MIGRATIONS: ReadonlyArray<[string, Migration]> = [['001-initial', initial]];

const migrationSource: Knex.MigrationSource<[string, Migration]> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};

/** An arbitrary constant shared by every Tally process: the advisory lock that serialises migrations. */
const MIGRATION_LOCK_ID = 7_340_211;

/**
 * Brings the schema up to date. On a PostgreSQL server several pods may start at once, so the run
 * holds a session advisory lock: the others wait for it and then find nothing to do, instead of
 * failing on knex's own lock table. PGlite is single-connection and single-process: no lock needed.
 */
export async function migrateLatest(knex: Knex, options: { useAdvisoryLock?: boolean } = {}): Promise<void> {
  const useLock = options.useAdvisoryLock ?? knex.client.config.client === 'pg';
  if (!useLock) {
    await knex.migrate.latest({ migrationSource });
    return;
  }
  const connection = await knex.client.acquireConnection();
  try {
    await knex.raw('select pg_advisory_lock(?)', [MIGRATION_LOCK_ID]).connection(connection);
    try {
      await knex.migrate.latest({ migrationSource });
    } finally {
      await knex.raw('select pg_advisory_unlock(?)', [MIGRATION_LOCK_ID]).connection(connection);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
