/**
 * The primary and synchronous standby of `test/support/pg-cluster.ts`, without Tally: every commit
 * the primary acknowledged is on the standby it is promoted to, twice (the old primary rejoins
 * through pg_rewind in between).
 */
import { type PgCluster, startPgCluster } from '../support/pg-cluster';

let cluster: PgCluster;

beforeAll(async () => {
  cluster = await startPgCluster();
  await cluster.query('create table acked (n int primary key)');
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Commits `count` rows from `from` one by one, each acknowledged before the next. */
async function commitRows(from: number, count: number): Promise<void> {
  for (let n = from; n < from + count; n++) await cluster.query('insert into acked values ($1)', [n]);
}

const countRows = async () =>
  Number((await cluster.query<{ n: string }>('select count(*) as n from acked'))[0]?.n);

test('the standby is synchronous', async () => {
  const rows = await cluster.query<{ name: string; state: string }>(
    'select application_name as name, sync_state as state from pg_stat_replication',
  );
  expect(rows).toEqual([{ name: cluster.standby().name, state: 'sync' }]);
});

test('every acknowledged commit survives a SIGKILL of the primary and a promotion, both ways', async () => {
  const first = cluster.primary();
  await commitRows(0, 100);
  await cluster.killPrimary();
  await cluster.promote();
  expect(cluster.primary()).not.toBe(first);
  expect(await countRows()).toBe(100);

  await cluster.rejoin();
  const inRecovery = await cluster.query<{ r: boolean }>('select pg_is_in_recovery() as r', [], first);
  expect(inRecovery[0]?.r).toBe(true);
  await commitRows(100, 100);
  await cluster.killPrimary();
  await cluster.promote();
  expect(cluster.primary()).toBe(first);
  expect(await countRows()).toBe(200);
}, 120_000);
