/**
 * `npm run bench:heavy` (issue 30): what the heaviest requests the contract allows cost everyone
 * else. One `ROLE=all` Tally (from the sources) per store, the embedded default (PGlite, in-process
 * stores) and PostgreSQL with Redis; in each, an unrelated user reads `GET /v1/me` in a loop, one
 * request at a time, through three phases:
 *
 *   1. idle: nothing else runs (the bare baseline of this run);
 *   2. import: the largest allowed Splitwise import (`IMPORT_MAX_ROWS` rows, API.md §6b), until it answers;
 *   3. catch-up: a weekly schedule with the largest allowed backlog (`recurringBacklog`
 *      occurrences, API.md §6a), until the scheduler has created every occurrence.
 *
 * For each phase it prints the `GET /v1/me` p50/p99 and the server's event-loop delay p99 (prom-client's
 * `nodejs_eventloop_lag_p99_seconds`, from `perf_hooks.monitorEventLoopDelay`, reset at each scrape:
 * one scrape opens a phase, one closes it), and the ratios against the idle phase. Targets (issue
 * 30): event-loop delay p99 under 50 ms and `GET /v1/me` p99 under 100 ms during the heavy phases.
 *
 *   npm run bench:heavy                 # both stores
 *   BENCH_HEAVY_STORES=embedded npm run bench:heavy
 *
 * Environment: BENCH_HEAVY_STORES (`embedded,postgres`), BENCH_IDLE_SECONDS (5).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_IMPORT_MAX_ROWS } from '../../apps/api/src/imports/imports.routes';
import { RECURRING_LIMITS } from '../../apps/api/src/recurring/recurring.service';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { splitwiseExport } from '../../test/support/splitwise-export';
import { call, createBenchDatabase, percentile, writeResults } from './bench-setup';
import { waitUntilHealthy } from './keyed-load';

const ROOT = path.resolve(__dirname, '../..');
const STORES = (process.env.BENCH_HEAVY_STORES ?? 'embedded,postgres').split(',').map((s) => s.trim());
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0000';

type Phase = {
  phase: string;
  seconds: number;
  reads: number;
  readP50Ms: number;
  readP99Ms: number;
  /** Reads answered other than 200 (a 503 when the process sheds load). */
  readsNot200: number;
  eventLoopP99Ms: number;
};

async function eventLoopP99Ms(api: string): Promise<number> {
  const text = await (await fetch(`${api}/metrics`)).text();
  const match = /^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(text);
  if (!match) throw new Error('no nodejs_eventloop_lag_p99_seconds in /metrics');
  return Number(match[1]) * 1000;
}

/** Reads `GET /v1/me` one at a time until `done()` says so; the event-loop p99 over the same window. */
async function measure(
  api: string,
  auth: Record<string, string>,
  phase: string,
  done: () => Promise<boolean>,
): Promise<Phase> {
  await eventLoopP99Ms(api); // resets the histogram: the phase starts here
  const latencies: number[] = [];
  let not200 = 0;
  const started = performance.now();
  let lastCheck = 0;
  for (;;) {
    const t0 = performance.now();
    const res = await fetch(`${api}/v1/me`, { headers: auth });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    if (res.status !== 200) not200++;
    if (performance.now() - lastCheck >= 200) {
      lastCheck = performance.now();
      if (await done()) break;
    }
  }
  const eventLoop = await eventLoopP99Ms(api);
  latencies.sort((a, b) => a - b);
  return {
    phase,
    seconds: +((performance.now() - started) / 1000).toFixed(1),
    reads: latencies.length,
    readP50Ms: +percentile(latencies, 50).toFixed(1),
    readP99Ms: +percentile(latencies, 99).toFixed(1),
    readsNot200: not200,
    eventLoopP99Ms: +eventLoop.toFixed(1),
  };
}

async function register(api: string, name: string) {
  const body = await call(
    api,
    'POST',
    '/v1/auth/register',
    {},
    {
      email: `${name}-${Date.now()}@example.com`,
      name,
      password: `${name} bench password`,
    },
  );
  return {
    id: (body.user as { id: string }).id,
    auth: { authorization: `Bearer ${body.accessToken as string}` },
  };
}

async function startServer(
  store: string,
): Promise<{ api: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    JWT_SECRET,
    RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    RECURRING_POLL_MS: '250',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `tally-bench-heavy-${store}-`)),
  };
  const cleanups: (() => Promise<void>)[] = [];
  if (store === 'postgres') {
    const db = await createBenchDatabase('tally_bench_heavy');
    const redis = await ensureRedis();
    env.DATABASE_URL = db.url;
    env.REDIS_URL = redis.url;
    cleanups.push(
      () => db.drop(),
      () => redis.stop(),
    );
  } else if (store !== 'embedded') {
    throw new Error(`unknown store ${store} (embedded or postgres)`);
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const api = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(api);
  return {
    api,
    child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      for (const cleanup of cleanups) await cleanup().catch(() => {});
    },
  };
}

/** A Monday far enough back that a weekly schedule from it has `occurrences` past occurrences (and not one more). */
function weeklyStartFor(occurrences: number): string {
  const day = new Date();
  day.setUTCHours(0, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() - 7 * (occurrences - 1));
  return day.toISOString().slice(0, 10);
}

async function runStore(store: string): Promise<Phase[]> {
  const server = await startServer(store);
  const { api } = server;
  try {
    const [ada, bob, carol, dora] = [
      await register(api, 'ada'),
      await register(api, 'bob'),
      await register(api, 'carol'),
      await register(api, 'dora'),
    ];
    const group = (await call(api, 'POST', '/v1/groups', ada!.auth, { name: 'Heavy', currency: 'EUR' })) as {
      id: string;
    };
    for (const member of [bob!, carol!]) {
      await call(api, 'POST', `/v1/groups/${group.id}/members`, ada!.auth, { userId: member.id });
    }
    const ids = [ada!.id, bob!.id, carol!.id];
    const phases: Phase[] = [];
    const idleUntil = performance.now() + IDLE_SECONDS * 1000;
    phases.push(await measure(api, dora!.auth, 'idle', async () => performance.now() >= idleUntil));

    const file = splitwiseExport(DEFAULT_IMPORT_MAX_ROWS);
    let imported: { status: number; body: string } | undefined;
    const importing = fetch(`${api}/v1/groups/${group.id}/imports`, {
      method: 'POST',
      headers: { ...ada!.auth, 'content-type': 'application/json', 'idempotency-key': `heavy-${Date.now()}` },
      body: JSON.stringify({
        format: 'splitwise-csv',
        csv: file.csv,
        members: Object.fromEntries(file.people.map((person, i) => [person, ids[i]])),
      }),
    }).then(async (res) => {
      imported = { status: res.status, body: await res.text() };
    });
    phases.push(
      await measure(api, dora!.auth, `import (${DEFAULT_IMPORT_MAX_ROWS} rows)`, async () => !!imported),
    );
    await importing;
    if (imported!.status !== 201 && imported!.status !== 200) {
      throw new Error(`import answered ${imported!.status}: ${imported!.body.slice(0, 300)}`);
    }

    const schedule = (await call(
      api,
      'POST',
      `/v1/groups/${group.id}/recurring`,
      { ...ada!.auth, 'idempotency-key': `heavy-schedule-${Date.now()}` },
      {
        expense: {
          description: 'Weekly',
          amount: 3000,
          paidBy: ada!.id,
          split: { type: 'equal', between: ids },
        },
        schedule: {
          every: 'week',
          startsOn: weeklyStartFor(RECURRING_LIMITS.recurringBacklog),
          timeZone: 'UTC',
        },
      },
    )) as { id: string };
    const caughtUp = async () => {
      const read = await call(api, 'GET', `/v1/recurring/${schedule.id}`, ada!.auth);
      const next = read.nextOccurrence as string | null;
      return next === null || next > new Date().toISOString().slice(0, 10);
    };
    phases.push(
      await measure(api, dora!.auth, `catch-up (${RECURRING_LIMITS.recurringBacklog} occurrences)`, caughtUp),
    );
    return phases;
  } finally {
    await server.stop();
  }
}

async function main() {
  const results: Record<string, Phase[]> = {};
  for (const store of STORES) {
    results[store] = await runStore(store);
    const idle = results[store]![0]!;
    console.log(`\n${store}`);
    console.table(
      results[store]!.map((p) => ({
        ...p,
        'readP99 / idle': +(p.readP99Ms / idle.readP99Ms).toFixed(1),
        'eventLoopP99 / idle': +(p.eventLoopP99Ms / idle.eventLoopP99Ms).toFixed(1),
      })),
    );
  }
  console.log('targets: eventLoopP99Ms < 50 and readP99Ms < 100 in the heavy phases');
  writeResults('heavy-requests', results);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
