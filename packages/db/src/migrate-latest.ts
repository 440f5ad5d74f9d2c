import type { Knex } from 'knex';
import { isPgServer, takePooledConnection } from './knex-internals';
import * as initial from './migrations/001-initial';
import * as oneStatementWrites from './migrations/002-one-statement-writes';
import * as boundedTables from './migrations/003-bounded-tables';
import * as pendingMembers from './migrations/004-pending-members';
import * as recurring from './migrations/005-recurring';
import * as groupRates from './migrations/006-group-rates';
import * as activity from './migrations/007-activity';
import * as searchComments from './migrations/008-search-comments';
import * as accountDeletion from './migrations/009-account-deletion';
import * as imports from './migrations/010-imports';
import * as sessions from './migrations/011-sessions';
import * as passwordResets from './migrations/012-password-resets';
import * as oneCopy from './migrations/013-one-copy';
import * as importRefusals from './migrations/014-import-refusals';
import * as emailVerification from './migrations/015-email-verification';
import * as authCleanup from './migrations/016-auth-cleanup';
import * as bounds from './migrations/019-bounds';
import * as apiKeys from './migrations/020-api-keys';
import * as webhooks from './migrations/021-webhooks';
import * as notifications from './migrations/022-notifications';
import * as categories from './migrations/023-categories';
import * as receipts from './migrations/024-receipts';
import * as habits from './migrations/025-habits';
import * as recordHistory from './migrations/026-record-history';
import * as expenseTotals from './migrations/027-expense-totals';
import { runSql, type Sql, sql } from './sql';

type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

/** Migrations are imported, not discovered on disk, so they run the same under tsx, jest and a bundle. */
const MIGRATIONS: ReadonlyArray<[string, Migration]> = [
  ['001-initial', initial],
  ['002-one-statement-writes', oneStatementWrites],
  ['003-bounded-tables', boundedTables],
  ['004-pending-members', pendingMembers],
  ['005-recurring', recurring],
  ['006-group-rates', groupRates],
  ['007-activity', activity],
  ['008-search-comments', searchComments],
  ['009-account-deletion', accountDeletion],
  ['010-imports', imports],
  ['011-sessions', sessions],
  ['012-password-resets', passwordResets],
  ['013-one-copy', oneCopy],
  ['014-import-refusals', importRefusals],
  ['015-email-verification', emailVerification],
  ['016-auth-cleanup', authCleanup],
  ['019-bounds', bounds],
  ['020-api-keys', apiKeys],
  ['021-webhooks', webhooks],
  ['022-notifications', notifications],
  ['023-categories', categories],
  ['024-receipts', receipts],
  ['025-habits', habits],
  ['026-record-history', recordHistory],
  ['027-expense-totals', expenseTotals],
];

/**
 * Each migration runs in its own transaction without the per-connection request limits
 * (`createKnex` sets them): building an index on a large table may take longer than any request.
 */
const withoutRequestLimits =
  (step: (knex: Knex) => Promise<void>) =>
  async (knex: Knex): Promise<void> => {
    await runSql(
      knex,
      sql`select set_config('statement_timeout', '0', true), set_config('lock_timeout', '0', true)`,
    );
    await step(knex);
  };

const migrationSource: Knex.MigrationSource<[string, Migration]> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => ({
    ...migration,
    up: withoutRequestLimits(migration.up),
    down: withoutRequestLimits(migration.down),
  }),
};

/** An arbitrary constant shared by every Tally process: the advisory lock that serialises migrations. */
const MIGRATION_LOCK_ID = 7_340_211;

/**
 * Brings the schema up to date. On a PostgreSQL server several pods may start at once, so the run
 * holds a session advisory lock: the others wait for it and then find nothing to do, instead of
 * failing on knex's own lock table. PGlite is single-connection and single-process: no lock needed.
 */
export async function migrateLatest(knex: Knex, options: { useAdvisoryLock?: boolean } = {}): Promise<void> {
  const useLock = options.useAdvisoryLock ?? isPgServer(knex);
  if (!useLock) {
    await knex.migrate.latest({ migrationSource });
    return;
  }
  // The session lock is held by one connection while `migrate.latest` runs on others.
  const { connection, release } = await takePooledConnection(knex);
  const onSession = (statement: Sql) => connection.query(statement.text, [...statement.values]);
  try {
    // Another pod may hold the lock for as long as its migration takes: wait without the
    // connection's lock and statement timeouts, then give the connection back with them.
    await onSession(
      sql`select set_config('statement_timeout', '0', false), set_config('lock_timeout', '0', false)`,
    );
    await onSession(sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    try {
      await knex.migrate.latest({ migrationSource });
    } finally {
      await onSession(sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
      await onSession(sql`reset statement_timeout`);
      await onSession(sql`reset lock_timeout`);
    }
  } finally {
    await release();
  }
}

/**
 * Brings the schema to migration `name`: runs the ones up to and including it, or undoes the ones
 * after it. Without the advisory lock: for tests of a migration on a database that already has rows
 * of the schema before it (and of its `down`).
 */
export async function migrateTo(knex: Knex, name: string): Promise<void> {
  const index = MIGRATIONS.findIndex(([known]) => known === name);
  if (index < 0) throw new Error(`unknown migration ${name}`);
  for (;;) {
    const [done] = (await knex.migrate.list({ migrationSource })) as [{ name: string }[], unknown[]];
    if (done.length === index + 1) return;
    if (done.length <= index) await knex.migrate.up({ migrationSource });
    else await knex.migrate.down({ migrationSource });
  }
}
