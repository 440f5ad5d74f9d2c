import type { Knex } from 'knex';
import { type PgCluster, startPgCluster } from '../../../test/support/pg-cluster';
import { createKnex } from './create-knex';
import { isPgServer } from './knex-internals';
import { runSql, sql } from './sql';

/**
 * A multi-host DATABASE_URL against a real primary and standby (test/support/pg-cluster.ts): the
 * pool connects only to the server that takes writes, and finds the new one after a failover.
 */
let cluster: PgCluster;
let knex: Knex | undefined;

beforeAll(async () => {
  cluster = await startPgCluster();
}, 120_000);

afterEach(async () => {
  await knex?.destroy();
  knex = undefined;
});

afterAll(async () => {
  await cluster?.stop();
});

type Session = { pid: number; recovery: boolean; port: number };
const sessionOf = async (db: Knex) =>
  (
    await runSql<Session>(
      db,
      sql`select pg_backend_pid() as pid, pg_is_in_recovery() as recovery, inet_server_port() as port`,
    )
  )[0] as Session;

/** `hosts` in this order, read-write wanted, one pooled connection. */
function open(hosts: string, attrs = 'read-write'): Knex {
  knex = createKnex({
    databaseUrl: `postgres://postgres@${hosts}/postgres?target_session_attrs=${attrs}`,
    dataDir: '/nonexistent',
    poolMax: 1,
    acquireTimeoutMs: 3000,
  });
  return knex;
}
const hostOf = (node: { port: number }) => `127.0.0.1:${node.port}`;

it('connects to the primary whichever order the hosts are listed in; the standby with read-only', async () => {
  const primary = cluster.primary();
  const standby = cluster.standby();
  const db = open(`${hostOf(standby)},${hostOf(primary)}`);
  expect(isPgServer(db)).toBe(true);
  expect(await sessionOf(db)).toMatchObject({ recovery: false, port: primary.port });
  await db.destroy();
  const reader = open(`${hostOf(primary)},${hostOf(standby)}`, 'read-only');
  expect(await sessionOf(reader)).toMatchObject({ recovery: true, port: standby.port });
});

it('drops a pooled connection whose server turned read-only, and refuses to connect until one takes writes', async () => {
  const db = open(`${hostOf(cluster.standby())},${hostOf(cluster.primary())}`);
  await runSql(db, sql`create table if not exists notes (n int)`);
  const before = await sessionOf(db);
  await cluster.query('alter system set default_transaction_read_only = on');
  await cluster.query('select pg_reload_conf()');
  try {
    await expect(runSql(db, sql`insert into notes values (1)`)).rejects.toMatchObject({ code: '25006' });
    // The read-only connection is not lent again; a new one finds no host taking writes.
    await expect(sessionOf(db)).rejects.toMatchObject({ code: '57P03' });
  } finally {
    await cluster.query('alter system reset default_transaction_read_only');
    await cluster.query('select pg_reload_conf()');
  }
  const after = await sessionOf(db);
  expect(after.pid).not.toBe(before.pid);
  expect(after.recovery).toBe(false);
});

it('finds the promoted standby after the primary is killed, and no host in between', async () => {
  const db = open(cluster.multiHostUrl('postgres').replace(/^.*@|\/postgres.*$/g, ''));
  const old = cluster.primary();
  expect(await sessionOf(db)).toMatchObject({ port: old.port });
  await cluster.killPrimary();
  // The pooled session died with its server; a new one finds no host taking writes yet.
  await expect(sessionOf(db)).rejects.toThrow(/Connection terminated unexpectedly|postmaster exit/);
  await expect(sessionOf(db)).rejects.toMatchObject({
    code: '57P03',
    message: expect.stringMatching(/ECONNREFUSED[^;]*; .*in recovery/),
  });
  await cluster.promote();
  expect(await sessionOf(db)).toMatchObject({ recovery: false, port: cluster.primary().port });
});
