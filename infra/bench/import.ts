/**
 * A Splitwise import at size (API.md §6b), for docs/CAPACITY.md#imports: one `ROLE=all` process (from
 * the sources, `tsx`), on the embedded database (PGlite in a data directory of its own) and on
 * PostgreSQL (a database of its own and the Redis the tests use), imports the largest file allowed:
 *
 * - `created`: a generated export (test/support/splitwise-export.ts) of `BENCH_IMPORT_ROWS` rows,
 *   then the same key again (a replay: a lookup), then the same file with a new key (every row found
 *   present);
 * - `refused`: as many rows that are all refused (their nets do not add up), then the same key again.
 *
 * While each runs, an unrelated request (`GET /v1/me`) is sent again and again; the report has its
 * p99 and the server's event-loop delay (`perf_hooks.monitorEventLoopDelay`, through
 * infra/bench/event-loop-probe.ts), each also over a quiet baseline, plus the answer's size and the
 * server's peak RSS.
 *
 *   npm run bench:import
 *
 * Environment: BENCH_IMPORT_ROWS (10000), BENCH_IMPORT_DATABASES (`embedded,postgres`),
 * BENCH_IMPORT_KINDS (`created,refused`). The machine's cores are shared by everything: the delays
 * are the machine's too (the baseline shows how much).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { splitwiseExport } from '../../test/support/splitwise-export';
import { createBenchDatabase, waitFor, writeResults } from './bench-setup';

const ROOT = path.resolve(__dirname, '../..');
const ROWS = Number(process.env['BENCH_IMPORT_ROWS'] ?? 10_000);
const DATABASES = (process.env['BENCH_IMPORT_DATABASES'] ?? 'embedded,postgres').split(',');
const KINDS = (process.env['BENCH_IMPORT_KINDS'] ?? 'created,refused').split(',');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
};

/** A file of `rows` rows of three people, each refused (the nets add up to 1.00). */
function refusedExport(rows: number) {
  const lines = ['Date,Description,Category,Cost,Currency,Ada Lovelace,Bob Smith,Carol Jones'];
  for (let i = 0; i < rows; i++) lines.push(`2024-01-01,Refused ${i},General,10.00,EUR,5.00,-4.00,0.00`);
  return { csv: `${lines.join('\r\n')}\r\n`, people: ['Ada Lovelace', 'Bob Smith', 'Carol Jones'] };
}

type Server = { api: string; child: ChildProcess; eventLoopFile: string; stop(): Promise<void> };

async function startServer(database: string): Promise<Server> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-bench-import-'));
  const eventLoopFile = path.join(dataDir, 'event-loop.json');
  const port = await freePort();
  const db = database === 'postgres' ? await createBenchDatabase('tally_import') : undefined;
  const redis = db ? await ensureRedis() : undefined;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      path.join(ROOT, 'infra/bench/event-loop-probe.ts'),
      'apps/server/src/main.ts',
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        PORT: String(port),
        ...(db && redis ? { DATABASE_URL: db.url, REDIS_URL: redis.url } : {}),
        JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
        RATE_LIMIT_PER_MINUTE: '1000000',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
        LOGIN_THROTTLE_IP_FREE_FAILURES: '1000000',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        BENCH_EVENT_LOOP_FILE: eventLoopFile,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const api = `http://127.0.0.1:${port}`;
  // PGlite's first boot (initdb, the migrations) takes a while.
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${api}/readyz`)).status === 200) break;
    } catch {
      // not yet
    }
    if (i > 1200) throw new Error(`${api} did not come up`);
    await sleep(100);
  }
  await waitFor(`${api}/healthz`);
  return {
    api,
    child,
    eventLoopFile,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await db?.drop();
      await redis?.stop?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A POST through `node:http`: a large import answers after minutes, past the 300 s `fetch` waits for
 * response headers.
 */
function postWithoutTimeout(url: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function register(api: string, name: string) {
  const res = await fetch(`${api}/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${name}-${Date.now()}@example.com`, name, password: 'bench-password-1' }),
  });
  const body = (await res.json()) as { user: { id: string }; accessToken: string };
  return { id: body.user.id, auth: { authorization: `Bearer ${body.accessToken}` } };
}

/**
 * Runs `work` while `GET /v1/me` is sent again and again: its latency, the server's event-loop delay
 * over the same time, and the server's peak RSS.
 */
async function measure<T>(server: Server, auth: Record<string, string>, work: () => Promise<T>) {
  const rss = () =>
    Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) / 1024;
  // A quiet second first: the delay of what went before is not counted.
  await sleep(1500);
  server.child.kill('SIGUSR2');
  await sleep(100);
  let done = false;
  let peak = rss();
  const me: number[] = [];
  /** Answers other than 200 (e.g. `503` when the process sheds load), and failed requests. */
  const failed: Record<string, number> = {};
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      const outcome = await fetch(`${server.api}/v1/me`, { headers: auth }).then(
        async (r) => {
          await r.arrayBuffer();
          return String(r.status);
        },
        (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code ?? error),
      );
      if (outcome === '200') me.push(performance.now() - started);
      else failed[outcome] = (failed[outcome] ?? 0) + 1;
      peak = Math.max(peak, rss());
      await sleep(10);
    }
  })();
  const started = performance.now();
  const value = await work();
  const seconds = +((performance.now() - started) / 1000).toFixed(2);
  done = true;
  await poller;
  server.child.kill('SIGUSR2');
  await sleep(200);
  const eventLoopMs = JSON.parse(readFileSync(server.eventLoopFile, 'utf8')) as Record<string, number>;
  return {
    value,
    seconds,
    eventLoopMs,
    me: { requests: me.length, p99Ms: percentile(me, 99), maxMs: percentile(me, 100), failed },
    peakRssMiB: Math.round(peak),
  };
}

async function benchDatabase(database: string) {
  const server = await startServer(database);
  try {
    const { api } = server;
    const [ada, bob, carol] = [
      await register(api, 'ada'),
      await register(api, 'bob'),
      await register(api, 'carol'),
    ];
    const json = { ...ada!.auth, 'content-type': 'application/json' };
    const ids = [ada!.id, bob!.id, carol!.id];
    const baseline = await measure(server, ada!.auth, () => sleep(3000));
    const runs = [];
    for (const kind of KINDS) {
      const group = (await (
        await fetch(`${api}/v1/groups`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ name: `Bench ${kind}`, currency: 'EUR' }),
        })
      ).json()) as { id: string };
      for (const member of [bob!, carol!]) {
        await fetch(`${api}/v1/groups/${group.id}/members`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ userId: member.id }),
        });
      }
      const file = kind === 'created' ? splitwiseExport(ROWS, { tag: `${database} ` }) : refusedExport(ROWS);
      const body = JSON.stringify({
        format: 'splitwise-csv',
        csv: file.csv,
        members: Object.fromEntries(file.people.map((p, i) => [p, ids[i]])),
      });
      const post = (key: string) => async () => {
        const res = await postWithoutTimeout(
          `${api}/v1/groups/${group.id}/imports`,
          {
            ...json,
            'idempotency-key': key,
          },
          body,
        );
        const text = res.text;
        const report = JSON.parse(text) as Record<string, unknown>;
        return {
          status: res.status,
          answerBytes: Buffer.byteLength(text),
          created: report['created'],
          existing: report['existing'],
          refusedCount: report['refusedCount'],
        };
      };
      const key = `bench-${kind}-${Date.now()}`;
      const steps: [string, () => Promise<unknown>][] = [
        ['first upload', post(key)],
        ['same key again (replay)', post(key)],
        ...(kind === 'created'
          ? [['same file, new key', post(`${key}-again`)] as [string, () => Promise<unknown>]]
          : []),
      ];
      for (const [label, step] of steps) {
        const run = await measure(server, ada!.auth, step);
        runs.push({ kind, label, ...run });
        console.log(JSON.stringify({ database, kind, label, ...run }));
      }
    }
    return { database, baseline: { ...baseline, value: undefined }, runs };
  } finally {
    await server.stop();
  }
}

async function main() {
  const results = [];
  for (const database of DATABASES) results.push(await benchDatabase(database));
  console.log(
    '\n| database | file | run | time | answer | event-loop delay p99 / max | GET /v1/me p99 / max (n) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const { database, baseline, runs } of results) {
    const row = (file: string, label: string, r: (typeof runs)[number] | typeof baseline, answer: string) =>
      console.log(
        `| ${database} | ${file} | ${label} | ${r.seconds} s | ${answer} | ${r.eventLoopMs['p99']} / ${r.eventLoopMs['max']} ms | ${r.me.p99Ms} / ${r.me.maxMs} ms (${r.me.requests}) |`,
      );
    row('—', 'quiet baseline', baseline, '—');
    for (const run of runs) {
      const v = run.value as { status: number; answerBytes: number };
      row(`${ROWS} ${run.kind}`, run.label, run, `${v.status}, ${v.answerBytes} B`);
    }
  }
  writeResults('import', { rows: ROWS, results });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
