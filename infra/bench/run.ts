/**
 * `npm run bench`: throughput and latency of Tally against bare baselines measured in the same run.
 * Everything runs on this machine: servers as child processes, load from autocannon in this one.
 * Figures vary with the machine's load; the ratios are what to compare between runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createSecretKey } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { SignJWT } from 'jose';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { ensureBuilt } from '../fleet/ensure-built';
import { createBenchDatabase, waitFor, writeResults } from './bench-setup';
import { cpuByPidOfTree, cpuMicros, cpuOfTreeSince, postmasterPid } from './cpu';
import { expenseBodyOf, keyedPostOptions } from './keyed-load';
import { runWsBench, type WsBenchOptions, type WsResult } from './ws-bench';

const ROOT = path.resolve(__dirname, '../..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Keyed writes are spread over this many groups (one group serialises its writes by design). */
const GROUPS = Number(process.env.BENCH_GROUPS ?? 8);
/** The second shape of the keyed writes (issue 23): more connections over more groups. */
const WIDE_CONNECTIONS = Number(process.env.BENCH_WIDE_CONNECTIONS ?? 128);
const WIDE_GROUPS = Number(process.env.BENCH_WIDE_GROUPS ?? 64);
/** BENCH_QUICK=1: leaves out the hot group and the 10,000-expense balances (no long seeding): for A/B runs. */
const QUICK = process.env.BENCH_QUICK === '1';
/** Alternating rounds per comparison (BENCH_SECONDS split between them): 1 runs each target once. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const PEER_SECRET = 'peer-secret-peer-secret-peer-secret-0000';

/** The processes whose CPU is PostgreSQL's and Redis's share: the bench's own servers only (set in main). */
const servers = {
  postmaster: 0,
  redis: 0,
  /** The backends (and autovacuum workers) of each database of the server, from pg_stat_activity. */
  backends: async (): Promise<{ ours: number[]; others: number[] }> => ({ ours: [], others: [] }),
};

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
  /**
   * CPU time per 2xx response of the PostgreSQL server the bench uses: its postmaster and every
   * process under it (backends included), not other clusters on the machine, and not the backends of
   * the server's other databases (other tests and benches sharing the server).
   */
  postgresCpuMicrosPerRequest: number;
  /**
   * The part of `postgresCpuMicrosPerRequest` spent by the bench database's own backends: the
   * statements and their commits, without the server's shared processes (WAL writer, checkpointer,
   * background writer), whose work on a shared server is mostly its neighbours'. Per request, a fixed
   * background rate weighs more on a slower target: this is the figure the targets compare.
   */
  postgresBackendCpuMicrosPerRequest: number;
  /** CPU time of the bench's redis-server process per 2xx response (shared with whoever else uses it). */
  redisCpuMicrosPerRequest: number;
  /** Autocannon connections of the scenario. */
  connections: number;
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

/** One autocannon run of a target and the CPU its processes spent meanwhile. */
type Round = {
  total: number;
  ok: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpu: number;
  pgCpu: number;
  pgBackendCpu: number;
  redisCpu: number;
};

type Load = Pick<Round, 'total' | 'ok' | 'seconds' | 'p50' | 'p99' | 'errors' | 'non2xx'>;

async function autocannonLoad(options: autocannon.Options, duration: number): Promise<Load> {
  const result = await autocannon({ connections: CONNECTIONS, ...options, duration });
  return {
    total: result.requests.total,
    ok: result['2xx'],
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * One sequential client (latency at rest): the request of `options` (its `setupRequest` applied) sent
 * with fetch over a kept-alive connection, the next when the last has answered, each timed with
 * `performance.now()`; autocannon reports whole milliseconds, too coarse for a quiet server.
 */
async function sequentialLoad(options: autocannon.Options, duration: number): Promise<Load> {
  const template = options.requests?.[0];
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + duration * 1000;
  while (performance.now() < end) {
    let request = {
      method: template?.method ?? options.method ?? 'GET',
      headers: (template?.headers ?? options.headers ?? {}) as Record<string, string>,
      body: (template?.body ?? options.body) as string | undefined,
    };
    const setup = template?.setupRequest as
      | ((req: typeof request, context: object) => typeof request)
      | undefined;
    if (setup) request = { ...request, ...setup(request, {}) };
    const t0 = performance.now();
    try {
      const res = await fetch(options.url, request);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status >= 200 && res.status < 300) ok++;
      else non2xx++;
    } catch {
      errors++;
    }
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.floor(q * (latencies.length - 1))] ?? Number.NaN;
  return {
    total: latencies.length,
    ok,
    seconds: (performance.now() - started) / 1000,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    non2xx,
  };
}

async function measure(pid: number, options: autocannon.Options, duration: number): Promise<Round> {
  const cpuBefore = cpuMicros(pid);
  const backendsBefore = await servers.backends();
  const pgBefore = cpuByPidOfTree(servers.postmaster);
  const redisBefore = cpuByPidOfTree(servers.redis);
  const result =
    options.connections === 1
      ? await sequentialLoad(options, duration)
      : await autocannonLoad(options, duration);
  const cpu = cpuMicros(pid) - cpuBefore;
  const backendsAfter = await servers.backends();
  const pgAfter = cpuByPidOfTree(servers.postmaster);
  const others = new Set([...backendsBefore.others, ...backendsAfter.others]);
  const ours = new Set([...backendsBefore.ours, ...backendsAfter.ours]);
  let pgCpu = 0;
  let pgBackendCpu = 0;
  for (const [pid, micros] of pgAfter) {
    const spent = micros - (pgBefore.get(pid) ?? 0);
    if (!others.has(pid)) pgCpu += spent;
    if (ours.has(pid)) pgBackendCpu += spent;
  }
  return {
    ...result,
    cpu,
    pgCpu,
    pgBackendCpu,
    redisCpu: cpuOfTreeSince(servers.redis, redisBefore),
  };
}

/** A target of a comparison: where its figures go in `results`, its label, its process, its load. */
type Entry = { key: string; name: string; pid: number; options: autocannon.Options };

/**
 * Runs the targets compared with one another in BENCH_ROUNDS alternating rounds of BENCH_SECONDS /
 * BENCH_ROUNDS each (round 1 in the given order, round 2 reversed, …), so a burst of the shared
 * machine's load lands on all of them rather than on one. Throughput and CPU are summed over the
 * rounds; p50 and p99 are the mean of the rounds'.
 */
async function compare(results: Record<string, Result>, entries: Entry[]): Promise<void> {
  const rounds = new Map<string, Round[]>(entries.map((e) => [e.key, []]));
  const seconds = Math.max(1, Math.round(DURATION / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? entries : [...entries].reverse();
    for (const entry of order) rounds.get(entry.key)?.push(await measure(entry.pid, entry.options, seconds));
  }
  for (const entry of entries) {
    const runs = rounds.get(entry.key) as Round[];
    const sum = (f: (r: Round) => number) => runs.reduce((total, r) => total + f(r), 0);
    const ok = sum((r) => r.ok);
    const per = (micros: number) => (ok > 0 ? micros / ok : Number.NaN);
    const r: Result = {
      name: entry.name,
      rps: sum((r) => r.total) / sum((r) => r.seconds),
      okRps: ok / sum((r) => r.seconds),
      ok,
      p50: sum((r) => r.p50) / runs.length,
      p99: sum((r) => r.p99) / runs.length,
      errors: sum((r) => r.errors),
      non2xx: sum((r) => r.non2xx),
      cpuMicrosPerRequest: per(sum((r) => r.cpu)),
      postgresCpuMicrosPerRequest: per(sum((r) => r.pgCpu)),
      postgresBackendCpuMicrosPerRequest: per(sum((r) => r.pgBackendCpu)),
      redisCpuMicrosPerRequest: per(sum((r) => r.redisCpu)),
      connections: entry.options.connections ?? CONNECTIONS,
    };
    results[entry.key] = r;
    process.stdout.write(
      `  ${entry.name.padEnd(58)} ${r.rps.toFixed(0).padStart(7)} req/s (2xx ${r.okRps.toFixed(0).padStart(5)})  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  CPU ${r.cpuMicrosPerRequest.toFixed(0).padStart(5)} µs/2xx (PostgreSQL ${r.postgresCpuMicrosPerRequest.toFixed(0)}, its backends ${r.postgresBackendCpuMicrosPerRequest.toFixed(0)}, Redis ${r.redisCpuMicrosPerRequest.toFixed(0)})  errors ${r.errors}  non-2xx ${r.non2xx}\n`,
    );
  }
}

/** The pid of the redis-server at `url` (`INFO server`'s process_id): its CPU is Redis's share. */
async function redisServerPid(url: string): Promise<number> {
  const client = new Redis(url);
  try {
    const info = await client.info('server');
    return Number(/process_id:(\d+)/.exec(info)?.[1]);
  } finally {
    client.disconnect();
  }
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

/**
 * The side-by-side table: each Tally scenario against its bare baseline and, for the keyed write and
 * the replay, the same-guarantees peer (infra/bench/peer-server.ts) of the same run.
 */
function printTable(r: Record<string, Result | undefined>) {
  const rows: [string, string, string, string | undefined][] = [
    [`keyed POST, ${CONNECTIONS} conn / ${GROUPS} groups`, 'keyed', 'baseline', 'peerKeyed'],
    [
      `keyed POST, ${WIDE_CONNECTIONS} conn / ${WIDE_GROUPS} groups`,
      'keyedWide',
      'baselineWide',
      'peerKeyedWide',
    ],
    ['keyed POST, 1 sequential client', 'keyedSeq', 'baselineSeq', 'peerKeyedSeq'],
    ['keyed POST, one hot group (base: spread)', 'hotGroup', 'keyed', undefined],
    ['replay of a recorded key', 'replay', 'bareReplay', 'peerReplay'],
    ['GET /v1/expenses/{id}', 'getExpense', 'bareGet', undefined],
    ['GET …/balances (100 expenses)', 'balances100', 'bareGet', undefined],
    ['GET …/balances (10,000 expenses)', 'balances10k', 'bareGet', undefined],
  ];
  const cell = (v: number | undefined, w: number, digits = 0) =>
    (v !== undefined && Number.isFinite(v) ? v.toFixed(digits) : '-').padStart(w);
  const x = (a: number | undefined, b: number | undefined) =>
    `${a === undefined || b === undefined || b === 0 ? '-' : (a / b).toFixed(2)}x`.padStart(7);
  process.stdout.write(
    "\nSide by side (same run): 2xx responses/s; p50/p99 ms; CPU µs per 2xx of the server process and of the bench's PostgreSQL server: its bench database's backends ('PG backends'), and all its processes without other databases' backends ('PG all': the shared WAL writer, checkpointer etc. included, which also work for neighbours). base = bare express + pg/ioredis; peer = same-guarantees peer (Brandur Leach's design).\n",
  );
  process.stdout.write(
    `  ${'scenario'.padEnd(42)} ${'Tally/s'.padStart(7)} ${'base/s'.padStart(7)} ${'peer/s'.padStart(7)} ${'T/base'.padStart(7)} ${'T/peer'.padStart(7)}  ${'p50 T/b/p'.padStart(17)}  ${'p99 T/b/p'.padStart(17)}  ${'CPU T/b/p'.padStart(17)}  ${'PG backends T/b/p'.padStart(17)}  ${'PG all T/b/p'.padStart(17)}\n`,
  );
  for (const [label, tallyKey, baseKey, peerKey] of rows) {
    const t = r[tallyKey];
    const b = r[baseKey];
    const p = peerKey ? r[peerKey] : undefined;
    if (!t || !b) continue;
    const three = (f: (v: Result) => number, digits = 0) =>
      `${cell(f(t), 5, digits)}/${cell(f(b), 5, digits)}/${cell(p && f(p), 5, digits)}`;
    process.stdout.write(
      `  ${label.padEnd(42)} ${cell(t.okRps, 7)} ${cell(b.okRps, 7)} ${cell(p?.okRps, 7)} ${x(t.okRps, b.okRps)} ${x(t.okRps, p?.okRps)}  ${three((v) => v.p50, 1)}  ${three((v) => v.p99, 1)}  ${three((v) => v.cpuMicrosPerRequest)}  ${three((v) => v.postgresBackendCpuMicrosPerRequest)}  ${three((v) => v.postgresCpuMicrosPerRequest)}\n`,
    );
  }
}

type Target = { name: string; measured: number; target: string; met: boolean | undefined };

/** The ratios issue 23's targets name, each with its target and whether this run met it. */
function targetsOf(r: Record<string, Result | undefined>): Target[] {
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || b === 0 ? Number.NaN : a / b;
  const atLeast = (name: string, measured: number, min: number): Target => ({
    name,
    measured,
    target: `>= ${min}`,
    met: Number.isFinite(measured) ? measured >= min : undefined,
  });
  const atMost = (name: string, measured: number, max: number): Target => ({
    name,
    measured,
    target: `<= ${max}`,
    met: Number.isFinite(measured) ? measured <= max : undefined,
  });
  const shape = `${CONNECTIONS} conn / ${GROUPS} groups`;
  const wide = `${WIDE_CONNECTIONS} conn / ${WIDE_GROUPS} groups`;
  return [
    atLeast(`keyed POST / peer, ${shape}`, ratio(r['keyed']?.okRps, r['peerKeyed']?.okRps), 1.5),
    atLeast(`keyed POST / bare, ${shape}`, ratio(r['keyed']?.okRps, r['baseline']?.okRps), 0.6),
    atLeast(`keyed POST / bare, ${wide}`, ratio(r['keyedWide']?.okRps, r['baselineWide']?.okRps), 0.8),
    {
      name: `keyed POST / peer, ${wide}`,
      measured: ratio(r['keyedWide']?.okRps, r['peerKeyedWide']?.okRps),
      target: '',
      met: undefined,
    },
    atMost(
      `PostgreSQL backends' CPU per keyed write / bare, ${shape}`,
      ratio(
        r['keyed']?.postgresBackendCpuMicrosPerRequest,
        r['baseline']?.postgresBackendCpuMicrosPerRequest,
      ),
      2.5,
    ),
    atMost(
      `PostgreSQL backends' CPU per keyed write / bare, ${wide}`,
      ratio(
        r['keyedWide']?.postgresBackendCpuMicrosPerRequest,
        r['baselineWide']?.postgresBackendCpuMicrosPerRequest,
      ),
      2.5,
    ),
    {
      name: `PostgreSQL backends' CPU per keyed write / peer, ${shape}`,
      measured: ratio(
        r['keyed']?.postgresBackendCpuMicrosPerRequest,
        r['peerKeyed']?.postgresBackendCpuMicrosPerRequest,
      ),
      target: '',
      met: undefined,
    },
    atMost(`keyed POST p99 / bare, ${shape}`, ratio(r['keyed']?.p99, r['baseline']?.p99), 2),
    atMost(`keyed POST p99 / bare, ${wide}`, ratio(r['keyedWide']?.p99, r['baselineWide']?.p99), 2),
    {
      name: 'sequential keyed POST p50 / bare (target: no worse than before, compare between runs)',
      measured: ratio(r['keyedSeq']?.p50, r['baselineSeq']?.p50),
      target: '',
      met: undefined,
    },
    {
      name: 'sequential keyed POST p50 / peer',
      measured: ratio(r['keyedSeq']?.p50, r['peerKeyedSeq']?.p50),
      target: '',
      met: undefined,
    },
    atLeast('replay / bare (one Redis GET)', ratio(r['replay']?.okRps, r['bareReplay']?.okRps), 0.75),
    {
      name: 'replay / peer',
      measured: ratio(r['replay']?.okRps, r['peerReplay']?.okRps),
      target: '',
      met: undefined,
    },
    atLeast(
      'GET balances (100 expenses) / bare SELECT',
      ratio(r['balances100']?.okRps, r['bareGet']?.okRps),
      0.75,
    ),
    atLeast('GET expense / bare SELECT', ratio(r['getExpense']?.okRps, r['bareGet']?.okRps), 0.85),
  ];
}

function printTargets(targets: Target[]) {
  process.stdout.write('\nIssue 23 targets (ratios of the same run):\n');
  for (const t of targets)
    process.stdout.write(
      `  ${t.name.padEnd(86)} ${(Number.isFinite(t.measured) ? `${t.measured.toFixed(2)}x` : '-').padStart(7)} ${t.target.padStart(7)} ${t.met === undefined ? '' : t.met ? 'met' : 'NOT met'}\n`,
    );
}

async function main() {
  const db = await createBenchDatabase('tally_bench');
  const redis = await ensureRedis();
  const children: ChildProcess[] = [];
  const results: Record<string, Result> = {};
  try {
    servers.postmaster = await postmasterPid((sql) => db.admin.query(sql));
    servers.redis = await redisServerPid(redis.url);
    // Other engineers' tests and benches may use the same server: their backends are left out; the
    // server's shared processes (checkpointer, WAL writer, background writer) are counted.
    servers.backends = async () => {
      const { rows } = await db.admin.query<{ pid: number; ours: boolean }>(
        'select pid, datname = $1 as ours from pg_stat_activity where datname is not null',
        [db.name],
      );
      return {
        ours: rows.filter((r) => r.ours).map((r) => r.pid),
        others: rows.filter((r) => !r.ours).map((r) => r.pid),
      };
    };
    process.stdout.write(
      `Tally benchmark: ${DURATION}s per run, ${CONNECTIONS} connections over ${GROUPS} groups and ${WIDE_CONNECTIONS} over ${WIDE_GROUPS} for the keyed writes, ${os.cpus().length} CPUs; PostgreSQL's CPU: postmaster ${servers.postmaster} and its children but other databases' backends; Redis's: pid ${servers.redis}\n\n`,
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

    // ---- the same-guarantees peer: express + pg + ioredis, Brandur Leach's one transaction ---------
    const peerPort = await freePort();
    const peer = startProcess('infra/bench/peer-server.ts', {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      PORT: String(peerPort),
      PEER_JWT_SECRET: PEER_SECRET,
    });
    children.push(peer);
    const peerPid = peer.pid as number;
    const peerUrl = `http://127.0.0.1:${peerPort}`;
    // /readyz, not /healthz: a process still waiting for its database answers /healthz but 503s writes.
    await waitFor(`${api}/readyz`);
    await waitFor(`${peerUrl}/healthz`);
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
    /** Creates a group named `name` on `target` (Tally or the peer: the same route and body). */
    const newGroupAt = (target: string, headers: Record<string, string>) => async (name: string) =>
      (
        await json<{ id: string }>(
          await fetch(`${target}/v1/groups`, { method: 'POST', headers, body: JSON.stringify({ name }) }),
        )
      ).id;
    const newGroup = newGroupAt(api, auth);
    /** An expense of `payer`'s alone in `groupId`, as Tally and the peer both take it. */
    const expenseBody = expenseBodyOf(session.user.id);
    /** One count for every keyed load of the run: no two requests share a key. */
    const counter = { n: 0 };
    /** Keyed `POST /v1/expenses` to `target`, a fresh key per request, the group picked by request number. */
    const keyedPostTo =
      (target: string, headers: Record<string, string>, bodyOf: (groupId: string) => string) =>
      (pickGroup: (i: number) => string): autocannon.Options =>
        keyedPostOptions({ target, headers, bodyOf, pickGroup, counter, keyPrefix: `bench-${process.pid}` });
    const keyedPost = keyedPostTo(api, auth, expenseBody);

    // The peer's user: a token signed the way Tally signs its own (HS256), for a user id of the peer.
    const peerUser = `usr_peer_${process.pid}`;
    const peerToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(peerUser)
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(createSecretKey(Buffer.from(PEER_SECRET, 'utf8')));
    const peerAuth = { authorization: `Bearer ${peerToken}`, 'content-type': 'application/json' };
    const newPeerGroup = newGroupAt(peerUrl, peerAuth);
    const peerExpenseBody = expenseBodyOf(peerUser);
    const peerKeyedPost = keyedPostTo(peerUrl, peerAuth, peerExpenseBody);
    const bareInsert: autocannon.Options = {
      url: `${base}/rows`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Dinner', amount: 90000 }),
    };

    // ---- keyed POST: Tally and the peer vs the bare insert in a transaction, at two shapes and one
    // sequential client (latency at rest) ------------------------------------------------------------
    const groupsWith = (make: (name: string) => Promise<string>) => (count: number, label: string) =>
      Promise.all(Array.from({ length: count }, (_, i) => make(`${label} ${i}`)));
    const tallyGroups = groupsWith(newGroup);
    const peerGroups = groupsWith(newPeerGroup);
    const groups = await tallyGroups(GROUPS, 'bench');
    const wideGroups = await tallyGroups(WIDE_GROUPS, 'wide');
    const peerNarrow = await peerGroups(GROUPS, 'bench');
    const peerWide = await peerGroups(WIDE_GROUPS, 'wide');
    const roundRobin = (list: string[]) => (i: number) => list[i % list.length] as string;

    const wide = (options: autocannon.Options) => ({ ...options, connections: WIDE_CONNECTIONS });
    const sequential = (options: autocannon.Options) => ({ ...options, connections: 1 });
    const bareName = 'bare: express + pg, INSERT in a transaction';
    process.stdout.write(`Keyed writes, ${CONNECTIONS} connections, ${GROUPS} groups\n`);
    let batches = await batchSizes(api);
    await compare(results, [
      { key: 'baseline', name: bareName, pid: basePid, options: bareInsert },
      {
        key: 'keyed',
        name: `Tally: keyed POST /v1/expenses, ${GROUPS} groups`,
        pid: tallyPid,
        options: keyedPost(roundRobin(groups)),
      },
      {
        key: 'peerKeyed',
        name: `peer: keyed POST /v1/expenses, ${GROUPS} groups`,
        pid: peerPid,
        options: peerKeyedPost(roundRobin(peerNarrow)),
      },
    ]);
    printBatches(batches, await batchSizes(api));

    process.stdout.write(`Keyed writes, ${WIDE_CONNECTIONS} connections, ${WIDE_GROUPS} groups\n`);
    batches = await batchSizes(api);
    await compare(results, [
      { key: 'baselineWide', name: bareName, pid: basePid, options: wide(bareInsert) },
      {
        key: 'keyedWide',
        name: `Tally: keyed POST /v1/expenses, ${WIDE_GROUPS} groups`,
        pid: tallyPid,
        options: wide(keyedPost(roundRobin(wideGroups))),
      },
      {
        key: 'peerKeyedWide',
        name: `peer: keyed POST /v1/expenses, ${WIDE_GROUPS} groups`,
        pid: peerPid,
        options: wide(peerKeyedPost(roundRobin(peerWide))),
      },
    ]);
    printBatches(batches, await batchSizes(api));

    process.stdout.write('Keyed writes, one sequential client (latency at rest)\n');
    batches = await batchSizes(api);
    await compare(results, [
      { key: 'baselineSeq', name: bareName, pid: basePid, options: sequential(bareInsert) },
      {
        key: 'keyedSeq',
        name: 'Tally: keyed POST /v1/expenses, sequential',
        pid: tallyPid,
        options: sequential(keyedPost(roundRobin(groups))),
      },
      {
        key: 'peerKeyedSeq',
        name: 'peer: keyed POST /v1/expenses, sequential',
        pid: peerPid,
        options: sequential(peerKeyedPost(roundRobin(peerNarrow))),
      },
    ]);
    printBatches(batches, await batchSizes(api));

    // One hot group: every connection writes to the same group, which serialises its writes.
    if (!QUICK) {
      const hot = await newGroup('hot');
      await compare(results, [
        {
          key: 'hotGroup',
          name: 'Tally: keyed POST /v1/expenses, one hot group',
          pid: tallyPid,
          options: keyedPost(() => hot),
        },
      ]);
    }

    // ---- replay of a recorded key: Tally, the peer (its key row in PostgreSQL), one Redis GET ------
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
    const peerReplayBody = peerExpenseBody(peerNarrow[0] as string);
    await json(
      await fetch(`${peerUrl}/v1/expenses`, {
        method: 'POST',
        headers: { ...peerAuth, 'idempotency-key': replayKey },
        body: peerReplayBody,
      }),
    );
    await compare(results, [
      {
        key: 'bareReplay',
        name: 'bare: answer from one Redis GET',
        pid: basePid,
        options: {
          url: `${base}/replay`,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': replayKey },
          body: replayBody,
        },
      },
      {
        key: 'replay',
        name: 'Tally: replay of a recorded key',
        pid: tallyPid,
        options: {
          url: `${api}/v1/expenses`,
          method: 'POST',
          headers: { ...auth, 'idempotency-key': replayKey },
          body: replayBody,
        },
      },
      {
        key: 'peerReplay',
        name: 'peer: replay of a recorded key (SELECT of the key row)',
        pid: peerPid,
        options: {
          url: `${peerUrl}/v1/expenses`,
          method: 'POST',
          headers: { ...peerAuth, 'idempotency-key': replayKey },
          body: peerReplayBody,
        },
      },
    ]);

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
    await compare(results, [
      {
        key: 'bareGet',
        name: 'bare: one PostgreSQL SELECT by primary key',
        pid: basePid,
        options: { url: `${base}/rows/1` },
      },
      {
        key: 'getExpense',
        name: 'Tally: GET /v1/expenses/{id}',
        pid: tallyPid,
        options: { url: `${api}/v1/expenses/${expenseId}`, headers: auth },
      },
      {
        key: 'balances100',
        name: 'Tally: GET balances, 100 expenses',
        pid: tallyPid,
        options: { url: `${api}/v1/groups/${small}/balances`, headers: auth },
      },
      ...(QUICK
        ? []
        : [
            {
              key: 'balances10k',
              name: 'Tally: GET balances, 10,000 expenses',
              pid: tallyPid,
              options: { url: `${api}/v1/groups/${large}/balances`, headers: auth },
            },
          ]),
    ]);

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
      keyedVsPeer: ratio(r['keyed']?.okRps, r['peerKeyed']?.okRps),
      keyedWideVsBaseline: ratio(r['keyedWide']?.okRps, r['baselineWide']?.okRps),
      keyedWideVsPeer: ratio(r['keyedWide']?.okRps, r['peerKeyedWide']?.okRps),
      keyedPostgresCpuVsBaseline: ratio(
        r['keyed']?.postgresCpuMicrosPerRequest,
        r['baseline']?.postgresCpuMicrosPerRequest,
      ),
      keyedPostgresBackendCpuVsBaseline: ratio(
        r['keyed']?.postgresBackendCpuMicrosPerRequest,
        r['baseline']?.postgresBackendCpuMicrosPerRequest,
      ),
      keyedSequentialP50Ms: {
        tally: r['keyedSeq']?.p50,
        bare: r['baselineSeq']?.p50,
        peer: r['peerKeyedSeq']?.p50,
      },
      keyedSequentialP99Ms: {
        tally: r['keyedSeq']?.p99,
        bare: r['baselineSeq']?.p99,
        peer: r['peerKeyedSeq']?.p99,
      },
      replayVsPeer: ratio(r['replay']?.okRps, r['peerReplay']?.okRps),
    };
    const targets = targetsOf(r);
    printTable(r);
    process.stdout.write(
      `\n  API CPU per keyed write / bare insert      ${summary.keyedCpuVsBaseline.toFixed(2)}x\n`,
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
    printTargets(targets);
    writeResults('bench', {
      durationSeconds: DURATION,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      groups: GROUPS,
      wideConnections: WIDE_CONNECTIONS,
      wideGroups: WIDE_GROUPS,
      postgresCpu: `postmaster ${servers.postmaster} and its children, other databases' backends left out`,
      results,
      summary,
      targets,
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
