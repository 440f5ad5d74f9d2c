/**
 * `npm run bench:profile`: a CPU profile of Tally (ROLE=all, from dist/) under the bench's keyed-POST
 * load, and the functions that took the most samples. The profile (.cpuprofile) is written to
 * bench-results/ for Chrome DevTools or speedscope. Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS
 * (32), BENCH_GROUPS (8), PROFILE_TOP (30), PROFILE_SCENARIO (`keyed`; or `replay`, one recorded key sent
 * again and again, `get`, GET /v1/expenses/{id}, `balances`, GET …/balances), PROFILE_NODE_FLAGS (more
 * flags for Tally's node, space-separated), PROFILE_PERF=1 (no V8 profile, which costs CPU of its own:
 * Tally runs with `--perf-basic-prof` for `perf record -g -p <pid>`, and only the CPU figures print),
 * PROFILE_DB_SETTINGS (`name=value,…` set on the run's database, e.g. plan_cache_mode=force_generic_plan).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { ensureBuilt } from '../fleet/ensure-built';
import { createBenchDatabase, resultPath, spawnBenchServer } from './bench-setup';
import { cpuByPidOfTree, cpuOfTreeSince, cpuTimes, postmasterPid } from './cpu';
import { type BenchUser, keyedExpenseLoad, signUpWithGroups, waitUntilHealthy } from './keyed-load';

const ROOT = path.resolve(__dirname, '../..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 8);
const TOP = Number(process.env.PROFILE_TOP ?? 30);
const SCENARIO = process.env.PROFILE_SCENARIO ?? 'keyed';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples: number[] };

/** Self samples per function, and per top-level bucket (file or package), as shares of all samples. */
function summarise(profile: Profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const fns = new Map<string, number>();
  const buckets = new Map<string, number>();
  for (const [id, count] of self) {
    const { callFrame } = byId.get(id) as ProfileNode;
    const file = callFrame.url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    const name = `${callFrame.functionName || '(anonymous)'} ${file ? `${file}:${callFrame.lineNumber + 1}` : ''}`;
    fns.set(name, (fns.get(name) ?? 0) + count);
    const bucket = pkg ?? (file ? file.split('/').slice(0, 2).join('/') : callFrame.functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + count);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
      .join('\n');
  return `${total} samples\n\nBy function (self):\n${top(fns, TOP)}\n\nBy package or file (self):\n${top(buckets, 15)}\n`;
}

/** The load of PROFILE_SCENARIO against a started Tally. */
async function scenarioLoad(api: string, user: BenchUser) {
  if (SCENARIO === 'keyed') {
    return keyedExpenseLoad(api, user, {
      keyPrefix: 'profile',
      connections: CONNECTIONS,
      duration: DURATION,
    });
  }
  const body = JSON.stringify({
    groupId: user.groups[0],
    description: 'Dinner',
    amount: 90000,
    paidBy: user.userId,
    split: { type: 'equal', between: [user.userId] },
  });
  const headers = { ...user.auth, 'idempotency-key': 'profile-replay' };
  const recorded = await fetch(`${api}/v1/expenses`, { method: 'POST', headers, body });
  const expenseId = ((await recorded.json()) as { id: string }).id;
  const options: Record<string, autocannon.Options> = {
    replay: { url: `${api}/v1/expenses`, method: 'POST', headers, body },
    get: { url: `${api}/v1/expenses/${expenseId}`, headers: user.auth },
    balances: { url: `${api}/v1/groups/${user.groups[0]}/balances`, headers: user.auth },
  };
  const chosen = options[SCENARIO];
  if (!chosen) throw new Error(`PROFILE_SCENARIO must be keyed, ${Object.keys(options).join(', ')}`);
  return autocannon({ connections: CONNECTIONS, duration: DURATION, ...chosen });
}

async function main() {
  // PROFILE_DB_SETTINGS="name=value,…": database-level settings to try (e.g. plan_cache_mode=force_generic_plan).
  const settings = (process.env.PROFILE_DB_SETTINGS ?? '')
    .split(',')
    .filter(Boolean)
    .map((setting) => setting.split('=') as [string, string]);
  const db = await createBenchDatabase('tally_profile', settings);
  const redis = await ensureRedis();
  const outDir = resultPath('profile');
  mkdirSync(outDir, { recursive: true });
  const port = await freePort();
  const child = spawnBenchServer(
    [
      ...(process.env.PROFILE_PERF ? ['--perf-basic-prof'] : ['--cpu-prof', `--cpu-prof-dir=${outDir}`]),
      ...(process.env.PROFILE_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      '--enable-source-maps',
      ensureBuilt(),
    ],
    'profile',
    {
      ROLE: 'all',
      PORT: String(port),
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
    },
  );
  const api = `http://127.0.0.1:${port}`;
  try {
    await waitUntilHealthy(api);
    const user = await signUpWithGroups(api, 'profile', GROUPS);
    const before = cpuTimes(child.pid as number);
    const postmaster = await postmasterPid((sql) => db.admin.query(sql));
    const pgBefore = cpuByPidOfTree(postmaster);
    const result = await scenarioLoad(api, user);
    const after = cpuTimes(child.pid as number);
    // Other databases' backends (other tests or benches on the same server) are left out.
    const others = await db.admin.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname is not null and datname <> $1',
      [db.name],
    );
    const pgCpu = cpuOfTreeSince(postmaster, pgBefore, new Set(others.rows.map((row) => row.pid)));
    const per = (v: number) => (v / result['2xx']).toFixed(0);
    process.stdout.write(
      `${SCENARIO} under profile: ${(result['2xx'] / result.duration).toFixed(0)} 2xx/s, CPU per request ${per(after.user - before.user)} µs user + ${per(after.system - before.system)} µs system; PostgreSQL ${per(pgCpu)} µs\n\n`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await redis.stop();
    await db.drop();
  }
  if (process.env.PROFILE_PERF) return;
  const file = readdirSync(outDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${outDir}`);
  const profile = JSON.parse(readFileSync(path.join(outDir, file), 'utf8')) as Profile;
  process.stdout.write(summarise(profile));
  process.stdout.write(`\nprofile: ${path.relative(ROOT, path.join(outDir, file))}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`profile failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
