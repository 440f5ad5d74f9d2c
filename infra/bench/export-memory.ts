/**
 * The server's memory while it streams a group's CSV (API.md §11.1): a server process on a bench
 * database, a group seeded with 10,000 then 100,000 expenses, each export downloaded twice by a
 * slow reader (a chunk every 2 ms), the server's RSS sampled every 20 ms. Prints and writes the
 * figures; flat memory means the growth does not follow the row count.
 *
 *   node --import tsx infra/bench/export-memory.ts
 */
import knexFactory from 'knex';
import { downloadMeasuringRss, seedExpenses } from '../../test/support/export-load';
import { spawnServer } from '../../test/support/server-process';
import { uniqueEmail } from '../../test/support/test-server';
import { createBenchDatabase, writeResults } from './bench-setup';

const MiB = 2 ** 20;

async function main(): Promise<void> {
  const db = await createBenchDatabase('tally_bench_export');
  const server = await spawnServer({ DATABASE_URL: db.url, LOG_LEVEL: 'warn' });
  const knex = knexFactory({ client: 'pg', connection: db.url, pool: { min: 0, max: 2 } });
  try {
    const post = async (path: string, body: unknown, token?: string) =>
      (await (
        await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        })
      ).json()) as Record<string, unknown> & { id: string };
    const register = async (name: string) =>
      (await post('/v1/auth/register', {
        email: uniqueEmail(name),
        name,
        password: 'correct horse battery',
      })) as {
        id: string;
        user: { id: string };
        accessToken: string;
      };
    const ada = await register('Ada');
    const bob = await register('Bob');
    const group = await post('/v1/groups', { name: 'Bench', currency: 'USD' }, ada.accessToken);
    await post(`/v1/groups/${group.id}/members`, { userId: bob.user.id }, ada.accessToken);
    const url = `${server.url}/v1/groups/${group.id}/export.csv`;
    const auth = { Authorization: `Bearer ${ada.accessToken}` };
    const pid = server.child.pid as number;

    const results = [];
    let seeded = 0;
    for (const rows of [10_000, 100_000]) {
      // Seeded in one go per step, with ids after the ones already there.
      await knex.raw('delete from expenses where group_id = ?', [group.id]);
      await seedExpenses(knex, {
        groupId: group.id,
        payerId: ada.user.id,
        otherId: bob.user.id,
        count: rows,
      });
      seeded = rows;
      for (const run of [1, 2]) {
        const started = Date.now();
        const m = await downloadMeasuringRss(url, auth, pid);
        const line = {
          rows: seeded,
          run,
          fileMB: Number((m.bytes / 1e6).toFixed(1)),
          rssBeforeMiB: Math.round(m.rssBefore / MiB),
          rssPeakMiB: Math.round(m.rssPeak / MiB),
          growthMiB: Math.round((m.rssPeak - m.rssBefore) / MiB),
          seconds: Number(((Date.now() - started) / 1000).toFixed(1)),
        };
        console.log(JSON.stringify(line));
        results.push(line);
      }
    }
    writeResults('export-memory', results);
  } finally {
    await knex.destroy();
    await server.kill('SIGTERM');
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
