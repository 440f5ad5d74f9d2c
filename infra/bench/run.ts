/**
 * `npm run bench`: throughput and latency of Tally against bare baselines measured in the same run.
 * Everything runs on this machine: servers as child processes, load from autocannon in this one.
 * Figures vary with the machine's load; the ratios are what to compare between runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { ensureBuilt } from '../fleet/ensure-built';
import { createBenchDatabase, waitFor, writeResults } from './bench-setup';
import { cpuByPidOfCommand, cpuMicros, cpuSpentSince } from './cpu';
import { runWsBench, type WsBenchOptions, type WsResult } from './ws-bench';

const ROOT = path.resolve(__dirname, '../..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Keyed writes are spread over this many groups (one group serialises its writes by design). */
const GROUPS = Number(process.env.BENCH_GROUPS ?? 8);
/** BENCH_QUICK=1: leaves out the hot group and the 10,000-expense balances (no long seeding): for A/B runs. */
const QUICK = process.env.BENCH_QUICK === '1';

type Result = {
  name: string;
  /** All responses per second (autocannon's average). */
  rps: number;
  /** 2xx responses per second: what the side-by-side ratios compare (a busy group sheds with 503). */
  okRps: number;
  ok: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time (user + system) of the server process per 2xx response, from /proc/<pid>/stat. */
  cpuMicrosPerRequest: number;
  /** CPU time of every PostgreSQL process (backends included) per 2xx response. */
  postgresCpuMicrosPerRequest: number;
  /** CPU time of every redis-server process per 2xx response. */
  redisCpuMicrosPerRequest: number;
};

/** Tally runs as in production, from dist/ (built first when missing or stale); baselines through tsx. */
function startProcess(script: string, env: Record<string, string>): ChildProcess {
  const argv = script === 'tally' ? ['--enable-source-maps', ensureBuilt()] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function load(name: string, pid: number, options: autocannon.Options): Promise<Result> {
  const cpuBefore = cpuMicros(pid);
  const pgBefore = cpuByPidOfCommand('postgres');
  const redisBefore = cpuByPidOfCommand('redis-server');
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  const cpu = cpuMicros(pid) - cpuBefore;
  const per = (micros: number) => (result['2xx'] > 0 ? micros / result['2xx'] : Number.NaN);
  const r: Result = {
    name,
    rps: result.requests.average,
    okRps: result['2xx'] / result.duration,
    ok: result['2xx'],
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMicrosPerRequest: per(cpu),
    postgresCpuMicrosPerRequest: per(cpuSpentSince('postgres', pgBefore)),
    redisCpuMicrosPerRequest: per(cpuSpentSince('redis-server', redisBefore)),
  };
  process.stdout.write(
    `  ${name.padEnd(50)} ${r.rps.toFixed(0).padStart(7)} req/s (2xx ${r.okRps.toFixed(0).padStart(5)})  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  CPU ${r.cpuMicrosPerRequest.toFixed(0).padStart(5)} µs/2xx (PostgreSQL ${r.postgresCpuMicrosPerRequest.toFixed(0)}, Redis ${r.redisCpuMicrosPerRequest.toFixed(0)})  errors ${r.errors}  non-2xx ${r.non2xx}\n`,
  );
  return r;
}

/** The group-commit histogram's totals (`write_batch_size` on `/metrics`): writes and batches so far. */
async function batchSizes(api: string): Promise<{ writes: number; batches: number }> {
  const text = await (await fetch(`${api}/metrics`)).text();
  const sample = (name: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${name} `))
        ?.split(' ')[1] ?? Number.NaN,
    );
  return { writes: sample('write_batch_size_sum'), batches: sample('write_batch_size_count') };
}

function printBatches(
  before: { writes: number; batches: number },
  after: { writes: number; batches: number },
) {
  const batches = after.batches - before.batches;
  const writes = after.writes - before.writes;
  if (!(batches > 0)) return;
  process.stdout.write(
    `  ${'  group commit: writes per batch (mean)'.padEnd(50)} ${(writes / batches).toFixed(2).padStart(7)} (${writes} writes in ${batches} batches)\n`,
  );
}

async function json<T>(res: Response): Promise<T> {
  if (res.status >= 300) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The side-by-side table of issue #10: each Tally scenario against its bare baseline of the same run. */
function printTable(r: Record<string, Result | undefined>) {
  const rows: [string, string, string, string][] = [
    ['keyed POST /v1/expenses', 'keyed', 'baseline', '>= 0.5'],
    ['keyed POST, one hot group (vs spread)', 'hotGroup', 'keyed', '>= 0.5'],
    ['replay of a recorded key', 'replay', 'bareReplay', '>= 0.8'],
    ['GET /v1/expenses/{id}', 'getExpense', 'bareGet', '>= 0.6'],
    ['GET …/balances (100 expenses)', 'balances100', 'bareGet', '>= 0.6'],
    ['GET …/balances (10,000 expenses)', 'balances10k', 'bareGet', ''],
  ];
  const cell = (v: number, w: number) => (Number.isFinite(v) ? v.toFixed(0) : '-').padStart(w);
  process.stdout.write(
    `\nSide by side (same run; 2xx responses/s, CPU µs of the server process and of PostgreSQL per 2xx response; the baseline of the hot group is Tally spread over ${GROUPS} groups):\n`,
  );
  process.stdout.write(
    `  ${'scenario'.padEnd(38)} ${'Tally req/s'.padStart(11)} ${'base req/s'.padStart(10)} ${'ratio'.padStart(6)} ${'target'.padStart(7)} ${'Tally CPU µs/req'.padStart(16)} ${'base CPU µs/req'.padStart(15)} ${'Tally PG µs/req'.padStart(15)} ${'base PG µs/req'.padStart(14)}\n`,
  );
  for (const [label, tallyKey, baseKey, target] of rows) {
    const t = r[tallyKey];
    const b = r[baseKey];
    if (!t || !b) continue;
    const x = b.okRps === 0 ? Number.NaN : t.okRps / b.okRps;
    process.stdout.write(
      `  ${label.padEnd(38)} ${cell(t.okRps, 11)} ${cell(b.okRps, 10)} ${`${x.toFixed(2)}x`.padStart(6)} ${target.padStart(7)} ${cell(t.cpuMicrosPerRequest, 16)} ${cell(b.cpuMicrosPerRequest, 15)} ${cell(t.postgresCpuMicrosPerRequest, 15)} ${cell(b.postgresCpuMicrosPerRequest, 14)}\n`,
    );
  }
}

async function main() {
  const db = await createBenchDatabase('tally_bench');
  const redis = await ensureRedis();
  const children: ChildProcess[] = [];
  const results: Record<string, Result> = {};
  try {
    process.stdout.write(
      `Tally benchmark: ${DURATION}s per run, ${CONNECTIONS} connections, keyed writes over ${GROUPS} groups, ${os.cpus().length} CPUs\n\n`,
    );

    // ---- the bare baselines: express + pg + ioredis, no validation, auth or idempotency -----------
    const basePort = await freePort();
    const baseline = startProcess('infra/bench/baseline-server.ts', {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      PORT: String(basePort),
    });
    children.push(baseline);
    const base = `http://127.0.0.1:${basePort}`;
    const basePid = baseline.pid as number;
    await waitFor(`${base}/rows/1`);

    // ---- Tally on PostgreSQL and Redis: ROLE=all by default (API and gateway in one process, as
    // issue #10 measured it), BENCH_ROLE=api for the API alone ---------------------------------------
    const apiPort = await freePort();
    const tally = startProcess('tally', {
      ROLE: process.env.BENCH_ROLE ?? 'all',
      PORT: String(apiPort),
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tally-bench-')),
      RATE_LIMIT_PER_MINUTE: '100000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
      LOGIN_THROTTLE_IP_FREE_FAILURES: '100000000',
    });
    children.push(tally);
    const tallyPid = tally.pid as number;
    const api = `http://127.0.0.1:${apiPort}`;
    await waitFor(`${api}/readyz`);
    const wsOptions: WsBenchOptions = {
      api,
      databaseUrl: db.url,
      redisUrl: redis.url,
      jwtSecret: 'bench-secret-bench-secret-bench-secret-0000',
      children,
      waitFor,
    };
    // BENCH_ONLY=ws: the WebSocket part alone (the API still takes its writes).
    if (process.env.BENCH_ONLY === 'ws') {
      const websockets = await runWsBench(wsOptions);
      writeResults('bench-ws', { websockets });
      return;
    }
    const session = await json<{ user: { id: string }; accessToken: string }>(
      await fetch(`${api}/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `bench-${Date.now()}@example.com`,
          name: 'Bench',
          password: 'bench password',
        }),
      }),
    );
    const auth = { authorization: `Bearer ${session.accessToken}`, 'content-type': 'application/json' };
    const newGroup = async (name: string) =>
      (
        await json<{ id: string }>(
          await fetch(`${api}/v1/groups`, { method: 'POST', headers: auth, body: JSON.stringify({ name }) }),
        )
      ).id;
    const expenseBody = (groupId: string) =>
      JSON.stringify({
        groupId,
        description: 'Dinner',
        amount: 90000,
        paidBy: session.user.id,
        split: { type: 'equal', between: [session.user.id] },
      });
    let n = 0;
    const keyedPost = (pickGroup: (i: number) => string): autocannon.Options => ({
      url: `${api}/v1/expenses`,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            n++;
            return {
              ...req,
              headers: { ...auth, 'idempotency-key': `bench-${process.pid}-${n}` },
              body: expenseBody(pickGroup(n)),
            };
          },
        },
      ],
    });

    // ---- keyed POST over GROUPS groups vs the bare insert in a transaction ------------------------
    process.stdout.write('Keyed writes\n');
    results['baseline'] = await load('bare: express + pg, INSERT in a transaction', basePid, {
      url: `${base}/rows`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Dinner', amount: 90000 }),
    });
    const groups = await Promise.all(Array.from({ length: GROUPS }, (_, i) => newGroup(`bench ${i}`)));
    const batchesBefore = await batchSizes(api);
    results['keyed'] = await load(
      `Tally: keyed POST /v1/expenses, ${GROUPS} groups`,
      tallyPid,
      keyedPost((i) => groups[i % groups.length] as string),
    );
    printBatches(batchesBefore, await batchSizes(api));
    // One hot group: every connection writes to the same group, which serialises its writes.
    if (!QUICK) {
      const hot = await newGroup('hot');
      const hotBefore = await batchSizes(api);
      results['hotGroup'] = await load(
        'Tally: keyed POST /v1/expenses, one hot group',
        tallyPid,
        keyedPost(() => hot),
      );
      printBatches(hotBefore, await batchSizes(api));
    }

    // ---- replay of a recorded key vs one Redis GET ------------------------------------------------
    process.stdout.write('Replay\n');
    const replayKey = `bench-replay-${process.pid}`;
    const replayBody = expenseBody(groups[0] as string);
    const recorded = await fetch(`${api}/v1/expenses`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': replayKey },
      body: replayBody,
    });
    const recordedText = await recorded.text();
    const expenseId = (JSON.parse(recordedText) as { id: string }).id;
    // The bare route answers the same bytes Tally recorded, from one GET.
    const redisClient = new Redis(redis.url);
    await redisClient.set(`bench:replay:${replayKey}`, recordedText);
    await redisClient.quit();
    results['bareReplay'] = await load('bare: answer from one Redis GET', basePid, {
      url: `${base}/replay`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': replayKey },
      body: replayBody,
    });
    results['replay'] = await load('Tally: replay of a recorded key', tallyPid, {
      url: `${api}/v1/expenses`,
      method: 'POST',
      headers: { ...auth, 'idempotency-key': replayKey },
      body: replayBody,
    });

    // ---- reads vs one SELECT by primary key; balances: 100 vs 10,000 expenses ---------------------
    process.stdout.write('Reads\n');
    const small = await newGroup('hundred');
    const large = await newGroup('ten thousand');
    const seed = async (groupId: string, count: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < count) {
            const i = next++;
            await json(
              await fetch(`${api}/v1/expenses`, {
                method: 'POST',
                headers: { ...auth, 'idempotency-key': `seed-${groupId}-${i}` },
                body: expenseBody(groupId),
              }),
            );
          }
        }),
      );
    };
    process.stdout.write('  (seeding 100 and 10,000 expenses…)\n');
    await seed(small, 100);
    if (!QUICK) await seed(large, 10_000);
    results['bareGet'] = await load('bare: one PostgreSQL SELECT by primary key', basePid, {
      url: `${base}/rows/1`,
    });
    results['getExpense'] = await load('Tally: GET /v1/expenses/{id}', tallyPid, {
      url: `${api}/v1/expenses/${expenseId}`,
      headers: auth,
    });
    results['balances100'] = await load('Tally: GET balances, 100 expenses', tallyPid, {
      url: `${api}/v1/groups/${small}/balances`,
      headers: auth,
    });
    if (!QUICK) {
      results['balances10k'] = await load('Tally: GET balances, 10,000 expenses', tallyPid, {
        url: `${api}/v1/groups/${large}/balances`,
        headers: auth,
      });
    }

    // ---- WebSockets: Tally's gateway, bare ws and Socket.IO at BENCH_WS_CONNECTIONS (ws-bench.ts) ------
    const wsResults: WsResult[] = [];
    if (process.env.BENCH_WS !== '0') wsResults.push(...(await runWsBench(wsOptions)));

    const ratio = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined || b === 0 ? Number.NaN : a / b;
    const r = results as Record<string, Result | undefined>;
    const summary = {
      keyedThroughputVsBaseline: ratio(r['keyed']?.okRps, r['baseline']?.okRps),
      keyedCpuVsBaseline: ratio(r['keyed']?.cpuMicrosPerRequest, r['baseline']?.cpuMicrosPerRequest),
      keyedP99VsBaseline: ratio(r['keyed']?.p99, r['baseline']?.p99),
      hotGroupVsSpread: ratio(r['hotGroup']?.okRps, r['keyed']?.okRps),
      hotGroupShedShare: ratio(
        r['hotGroup']?.non2xx,
        r['hotGroup'] && r['hotGroup'].non2xx + r['hotGroup'].ok,
      ),
      replayVsRedisGet: ratio(r['replay']?.okRps, r['bareReplay']?.okRps),
      replayThroughputVsFirstExecution: ratio(r['replay']?.rps, r['keyed']?.rps),
      getExpenseVsSelect: ratio(r['getExpense']?.okRps, r['bareGet']?.okRps),
      balancesVsSelect: ratio(r['balances100']?.okRps, r['bareGet']?.okRps),
      balances10kVs100Latency: ratio(
        r['balances10k'] && (r['balances10k'].p50 || 0.5),
        r['balances100'] && (r['balances100'].p50 || 0.5),
      ),
      balances10kVs100Throughput: ratio(r['balances10k']?.rps, r['balances100']?.rps),
    };
    printTable(r);
    process.stdout.write(
      `\n  CPU per keyed write / bare insert          ${summary.keyedCpuVsBaseline.toFixed(2)}x (target <= 2.5)\n`,
    );
    process.stdout.write(
      `  one hot group: share of non-2xx (503 busy) ${(summary.hotGroupShedShare * 100).toFixed(0)}% (MAX_WRITES_WAITING_PER_GROUP sheds beyond its queue)\n`,
    );
    process.stdout.write(
      `  keyed POST p99 / bare insert p99           ${summary.keyedP99VsBaseline.toFixed(2)}x\n`,
    );
    process.stdout.write(
      `  replay throughput / first execution        ${summary.replayThroughputVsFirstExecution.toFixed(2)}x\n`,
    );
    process.stdout.write(
      `  GET balances throughput, 10,000 / 100      ${summary.balances10kVs100Throughput.toFixed(2)}x (target ~ 1)\n`,
    );
    writeResults('bench', {
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      groups: GROUPS,
      results,
      summary,
      websockets: wsResults,
    });
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await redis.stop();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
