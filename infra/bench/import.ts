/**
 * A Splitwise import at size (API.md §6b), for docs/CAPACITY.md#imports: one `ROLE=all` process
 * (from the sources, `tsx`) on its own database and the Redis the tests use, imports a generated
 * export of `BENCH_IMPORT_ROWS` rows (test/support/splitwise-export.ts), then the same file again
 * (every row found present). Reports rows per second of each run and the server's RSS (from
 * /proc, sampled every 100 ms): before, and its peak during each run.
 *
 *   node --import tsx infra/bench/import.ts
 *
 * Environment: BENCH_IMPORT_ROWS (10000). The machine's cores are shared by everything, so the
 * rate is the machine's; the RSS is the process's own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { splitwiseExport } from '../../test/support/splitwise-export';
import { createBenchDatabase } from './bench-setup';
import { waitUntilHealthy } from './keyed-load';

const ROOT = path.resolve(__dirname, '../..');
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);

async function register(api: string, name: string) {
  const res = await fetch(`${api}/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${name}-${Date.now()}@example.com`, name, password: 'bench-password-1' }),
  });
  const body = (await res.json()) as { user: { id: string }; accessToken: string };
  return { id: body.user.id, auth: { authorization: `Bearer ${body.accessToken}` } };
}

async function main() {
  const db = await createBenchDatabase('tally_import');
  const redis = await ensureRedis();
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_THROTTLE_IP_FREE_FAILURES: '1000000',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tally-bench-import-')),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const api = `http://127.0.0.1:${port}`;
  const rss = () =>
    Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
  try {
    await waitUntilHealthy(api);
    const [ada, bob, carol] = [
      await register(api, 'ada'),
      await register(api, 'bob'),
      await register(api, 'carol'),
    ];
    const json = { ...ada!.auth, 'content-type': 'application/json' };
    const group = (await (
      await fetch(`${api}/v1/groups`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Bench', currency: 'EUR' }),
      })
    ).json()) as { id: string };
    for (const member of [bob!, carol!]) {
      await fetch(`${api}/v1/groups/${group.id}/members`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ userId: member.id }),
      });
    }
    const file = splitwiseExport(ROWS);
    const ids = [ada!.id, bob!.id, carol!.id];
    const body = JSON.stringify({
      format: 'splitwise-csv',
      csv: file.csv,
      members: Object.fromEntries(file.people.map((p, i) => [p, ids[i]])),
    });
    const run = async (label: string) => {
      let peak = rss();
      const sampler = setInterval(() => {
        peak = Math.max(peak, rss());
      }, 100);
      const started = performance.now();
      const res = await fetch(`${api}/v1/groups/${group.id}/imports`, {
        method: 'POST',
        headers: { ...json, 'idempotency-key': `bench-${label}-${Date.now()}` },
        body,
      });
      const report = (await res.json()) as { created: number; existing: number };
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      return {
        label,
        status: res.status,
        created: report.created,
        existing: report.existing,
        seconds: +seconds.toFixed(1),
        rowsPerSecond: Math.round(ROWS / seconds),
        peakRssMiB: Math.round(Math.max(peak, rss())),
      };
    };
    const before = Math.round(rss());
    const first = await run('first');
    const again = await run('again');
    console.log(
      JSON.stringify(
        {
          rows: ROWS,
          fileMiB: +(file.csv.length / 2 ** 20).toFixed(2),
          rssBeforeMiB: before,
          runs: [first, again],
        },
        null,
        2,
      ),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await db.drop();
    await redis.stop?.();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
