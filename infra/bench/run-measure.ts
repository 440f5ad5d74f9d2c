/**
 * `npm run bench`'s settings (environment variables) and its measurement: a target's load (autocannon,
 * or one sequential client), the CPU its processes spend meanwhile, and the alternating rounds of a
 * comparison. What it prints of the results is in run-report.ts.
 */
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { cpuByPidOfTree, cpuMicros, cpuOfTreeSince } from './cpu';

export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Keyed writes are spread over this many groups (one group serialises its writes by design). */
export const GROUPS = Number(process.env.BENCH_GROUPS ?? 8);
/** The second shape of the keyed writes (issue 23): more connections over more groups. */
export const WIDE_CONNECTIONS = Number(process.env.BENCH_WIDE_CONNECTIONS ?? 128);
export const WIDE_GROUPS = Number(process.env.BENCH_WIDE_GROUPS ?? 64);
/** BENCH_QUICK=1: leaves out the hot group and the 10,000-expense balances (no long seeding): for A/B runs. */
export const QUICK = process.env.BENCH_QUICK === '1';
/** Alternating rounds per comparison (BENCH_SECONDS split between them): 1 runs each target once. */
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
export const PEER_SECRET = 'peer-secret-peer-secret-peer-secret-0000';

/** The processes whose CPU is PostgreSQL's and Redis's share: the bench's own servers only (set in main). */
export const servers = {
  postmaster: 0,
  redis: 0,
  /** The backends (and autovacuum workers) of each database of the server, from pg_stat_activity. */
  backends: async (): Promise<{ ours: number[]; others: number[] }> => ({ ours: [], others: [] }),
};

export type Result = {
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

/** One autocannon run of a target and the CPU its processes spent meanwhile. */
export type Round = {
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

export type Load = Pick<Round, 'total' | 'ok' | 'seconds' | 'p50' | 'p99' | 'errors' | 'non2xx'>;

export async function autocannonLoad(options: autocannon.Options, duration: number): Promise<Load> {
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
export async function sequentialLoad(options: autocannon.Options, duration: number): Promise<Load> {
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

export async function measure(pid: number, options: autocannon.Options, duration: number): Promise<Round> {
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
export type Entry = { key: string; name: string; pid: number; options: autocannon.Options };

/**
 * Runs the targets compared with one another in BENCH_ROUNDS alternating rounds of BENCH_SECONDS /
 * BENCH_ROUNDS each (round 1 in the given order, round 2 reversed, …), so a burst of the shared
 * machine's load lands on all of them rather than on one. Throughput and CPU are summed over the
 * rounds; p50 and p99 are the mean of the rounds'.
 */
export async function compare(results: Record<string, Result>, entries: Entry[]): Promise<void> {
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
export async function redisServerPid(url: string): Promise<number> {
  const client = new Redis(url);
  try {
    const info = await client.info('server');
    return Number(/process_id:(\d+)/.exec(info)?.[1]);
  } finally {
    client.disconnect();
  }
}

/** The group-commit histogram's totals (`write_batch_size` on `/metrics`): writes and batches so far. */
export async function batchSizes(api: string): Promise<{ writes: number; batches: number }> {
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
