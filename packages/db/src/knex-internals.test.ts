import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createKnex } from './create-knex';
import {
  acquireTimeoutOf,
  isPgServer,
  pinnedTo,
  poolMaxOf,
  queryNamed,
  queryPooled,
  takePooledConnection,
  withPooledConnection,
} from './knex-internals';
import { runSql, sql } from './sql';

type Pid = { pid: number };

/**
 * `knex-internals.ts` reaches into knex's `client` (its config, acquire, release and destroy). These
 * fail loudly when a knex upgrade moves any of it: read the adapter again before changing the pin.
 */
describe('knex internals adapter', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** A pool of `poolMax` connections on the test database, destroyed after `use`. */
  async function withKnex(poolMax: number, use: (knex: Knex) => Promise<void>) {
    const knex = createKnex({
      databaseUrl: db.url,
      dataDir: '/nonexistent',
      poolMax,
      acquireTimeoutMs: 1234,
    });
    try {
      await use(knex);
    } finally {
      await knex.destroy();
    }
  }
  const pidOf = async (knex: Knex) => (await runSql<Pid>(knex, sql`select pg_backend_pid() as pid`))[0]?.pid;

  it('runs on the knex version it was written for (pinned exactly)', () => {
    const pinned = JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')).dependencies.knex;
    const installed = JSON.parse(readFileSync(require.resolve('knex/package.json'), 'utf8')).version;
    expect(pinned).toBe('3.3.0');
    expect(installed).toBe(pinned);
  });

  it('reads the client, pool size and acquire timeout the pool was configured with', () =>
    withKnex(3, async (knex) => {
      expect(isPgServer(knex)).toBe(true);
      expect(poolMaxOf(knex)).toBe(3);
      expect(acquireTimeoutOf(knex)).toBe(1234);
    }));

  it('takes a pooled connection, runs a named statement on it and gives it back', () =>
    withKnex(1, async (knex) => {
      const statement = {
        name: 'knex_internals_test',
        text: 'select $1::int + 1 as n, pg_backend_pid() as pid',
      };
      const [first, second] = await withPooledConnection(knex, async (connection) => [
        ...(await queryNamed<Pid & { n: number }>(knex, connection, statement, [1])),
        ...(await queryNamed<Pid & { n: number }>(knex, connection, statement, [2])),
      ]);
      expect([first?.n, second?.n]).toEqual([2, 3]);
      // Prepared on that connection under its name; the pool of one got the connection back.
      const prepared = await runSql<{ name: string }>(
        knex,
        sql`select name from pg_prepared_statements where name = ${statement.name}`,
      );
      expect(prepared).toEqual([{ name: statement.name }]);
      expect(await pidOf(knex)).toBe(first?.pid);
    }));

  it('pins queryPooled and runSql to one held connection, and refuses the rest of knex there', () =>
    withKnex(4, async (knex) => {
      const { connection, release } = await takePooledConnection(knex);
      try {
        const [held] = await queryNamed<Pid>(
          knex,
          connection,
          { name: 'pin_pid', text: 'select pg_backend_pid() as pid' },
          [],
        );
        const pinned = pinnedTo(knex, connection);
        // Several at once, as a route's reads may be: each on the held connection.
        const pids = await Promise.all([
          queryPooled<Pid>(pinned, { name: 'pin_pooled', text: 'select pg_backend_pid() as pid' }, []),
          runSql<Pid>(pinned, sql`select pg_backend_pid() as pid`),
          runSql<Pid>(pinned, sql`select pg_backend_pid() as pid`, 'pin_named'),
        ]);
        expect(pids.map(([row]) => row?.pid)).toEqual([held?.pid, held?.pid, held?.pid]);
        expect(() => pinned('anything')).toThrow(/pinned connection/);
        expect(() => pinned.transaction()).toThrow(/pinned connection/);
        // The pool still lends its other connections to everyone else.
        expect(await pidOf(knex)).not.toBe(held?.pid);
      } finally {
        await release();
      }
    }));

  it('runs one named statement on a pooled connection and gives it back (queryPooled, the hot reads)', () =>
    withKnex(1, async (knex) => {
      const statement = {
        name: 'knex_internals_pooled',
        text: 'select $1::int * 2 as n, pg_backend_pid() as pid',
      };
      const [first] = await queryPooled<Pid & { n: number }>(knex, statement, [21]);
      const [second] = await queryPooled<Pid & { n: number }>(knex, statement, [5]);
      expect([first?.n, second?.n]).toEqual([42, 10]);
      // A pool of one: the second read had the connection back, the same backend.
      expect(second?.pid).toBe(first?.pid);
      await expect(queryPooled(knex, { name: 'knex_internals_bad', text: 'select 1/0' }, [])).rejects.toThrow(
        /division by zero/,
      );
      expect(await pidOf(knex)).toBe(first?.pid);
    }));

  it('closes a connection given back as broken instead of reusing it', () =>
    withKnex(1, async (knex) => {
      const held = await takePooledConnection(knex);
      const [before] = (await held.connection.query('select pg_backend_pid() as pid')).rows as Pid[];
      await held.release(true);
      const after = await pidOf(knex);
      expect(after).toEqual(expect.any(Number));
      expect(after).not.toBe(before?.pid);
    }));
});
