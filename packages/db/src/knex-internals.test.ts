import { readFileSync } from 'node:fs';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createKnex } from './create-knex';
import { acquireTimeoutOf, isPgServer, poolMaxOf, queryNamed, withPooledConnection } from './knex-internals';
import { runSql, sql } from './sql';

/**
 * `knex-internals.ts` reaches into knex's `client` (its config, acquire and release). These fail
 * loudly when a knex upgrade moves any of it: read the adapter again before changing the pin.
 */
describe('knex internals adapter', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('runs on the knex version it was written for (pinned exactly)', () => {
    const pinned = JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')).dependencies.knex;
    const installed = JSON.parse(readFileSync(require.resolve('knex/package.json'), 'utf8')).version;
    expect(pinned).toBe('3.3.0');
    expect(installed).toBe(pinned);
  });

  it('reads the client, pool size and acquire timeout the pool was configured with', async () => {
    const knex = createKnex({
      databaseUrl: db.url,
      dataDir: '/nonexistent',
      poolMax: 3,
      acquireTimeoutMs: 1234,
    });
    try {
      expect(isPgServer(knex)).toBe(true);
      expect(poolMaxOf(knex)).toBe(3);
      expect(acquireTimeoutOf(knex)).toBe(1234);
    } finally {
      await knex.destroy();
    }
  });

  it('takes a pooled connection, runs a named statement on it and gives it back', async () => {
    const knex = createKnex({
      databaseUrl: db.url,
      dataDir: '/nonexistent',
      poolMax: 1,
      acquireTimeoutMs: 1000,
    });
    try {
      const statement = {
        name: 'knex_internals_test',
        text: 'select $1::int + 1 as n, pg_backend_pid() as pid',
      };
      const [first, second] = await withPooledConnection(knex, async (connection) => [
        ...(await queryNamed<{ n: number; pid: number }>(knex, connection, statement, [1])),
        ...(await queryNamed<{ n: number; pid: number }>(knex, connection, statement, [2])),
      ]);
      expect([first?.n, second?.n]).toEqual([2, 3]);
      // The statement was prepared on that connection, under its name.
      const prepared = await runSql<{ name: string }>(
        knex,
        sql`select name from pg_prepared_statements where name = ${statement.name}`,
      );
      expect(prepared).toEqual([{ name: statement.name }]);
      // The one connection went back to the pool: the query above got it (pool of one, 1 s timeout).
      const [{ pid } = { pid: 0 }] = await runSql<{ pid: number }>(knex, sql`select pg_backend_pid() as pid`);
      expect(pid).toBe(first?.pid);
    } finally {
      await knex.destroy();
    }
  });
});
