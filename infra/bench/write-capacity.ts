/**
 * Where a keyed write's CPU goes, for docs/CAPACITY.md#capacity-arithmetic: one `ROLE=api` process
 * (from the sources, `tsx`) on a throwaway Redis Cluster (3 primaries, test/support/redis-cluster.ts) and a database of
 * its own on the PostgreSQL the tests use, under autocannon's keyed `POST /v1/expenses` spread over
 * `BENCH_GROUPS` groups. Reports 2xx/s and CPU µs per write of the API process, of the PostgreSQL
 * backends serving it (pg_stat_activity of its database, /proc/<pid>/stat), and of the Redis
 * primaries (INFO cpu): the per-core arithmetic of "how many writes per process, per PostgreSQL
 * primary, per Redis shard" starts from these.
 *
 *   flock /tmp/tally-bench.lock node --import tsx infra/bench/write-capacity.ts
 *
 * Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (32), BENCH_GROUPS (8). Everything shares the
 * machine's cores, so the rate is the machine's, not a process's ceiling; the CPU per write is the
 * figure to scale from.
 */
import { Redis } from 'ioredis';
import { startRedisCluster } from '../../test/support/redis-cluster';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { createBenchDatabase, spawnBenchServer } from './bench-setup';
import { backendsCpu, cpuMicros } from './cpu';
import { keyedExpenseLoad, signUpWithGroups, waitUntilHealthy } from './keyed-load';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 8);
/** `BENCH_REDIS=single`: a throwaway single Redis (REDIS_URL) instead of the cluster, for comparison. */
const SINGLE = process.env.BENCH_REDIS === 'single';

async function main() {
  const db = await createBenchDatabase('tally_capacity');
  const cluster = SINGLE ? undefined : await startRedisCluster({ masters: 3 });
  const single = SINGLE ? await ensureRedis({ ephemeral: true }) : undefined;
  const singleClient = single ? new Redis(single.url) : undefined;
  const port = await freePort();
  const child = spawnBenchServer(['--import', 'tsx', 'apps/server/src/main.ts'], 'capacity', {
    ROLE: 'api',
    PORT: String(port),
    DATABASE_URL: db.url,
    ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodes } : { REDIS_URL: single?.url ?? '' }),
  });
  const api = `http://127.0.0.1:${port}`;
  /** CPU µs so far of every PostgreSQL backend connected to the bench's database. */
  const backends = () => backendsCpu(db.admin, db.name);
  const redisCpu = async () => {
    let total = 0;
    for (const client of cluster
      ? cluster.ports.map((port) => cluster.node(port))
      : [singleClient as Redis]) {
      const text = await client.info('cpu');
      for (const name of ['used_cpu_sys', 'used_cpu_user'])
        total += Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0) * 1e6;
    }
    return total;
  };
  try {
    await waitUntilHealthy(api);
    const user = await signUpWithGroups(api, 'capacity', GROUPS);
    // Round trips: PostgreSQL transactions (a batch is one, so is each statement sent alone) and Redis commands.
    const pgTransactions = async () => {
      await new Promise((r) => setTimeout(r, 1500)); // backends report their counts at most once a second
      const { rows } = await db.admin.query<{ n: string }>(
        'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
        [db.name],
      );
      return Number(rows[0]?.n ?? 0);
    };
    const redisCommands = async () => {
      let total = 0;
      for (const client of cluster
        ? cluster.ports.map((port) => cluster.node(port))
        : [singleClient as Redis])
        total += Number(/^total_commands_processed:(\d+)/m.exec(await client.info('stats'))?.[1] ?? 0);
      return total;
    };
    const transactionsBefore = await pgTransactions();
    const commandsBefore = await redisCommands();
    const apiBefore = cpuMicros(child.pid as number);
    const pgBefore = await backends();
    const redisBefore = await redisCpu();
    const result = await keyedExpenseLoad(api, user, {
      keyPrefix: 'capacity',
      connections: CONNECTIONS,
      duration: DURATION,
    });
    const apiCpu = cpuMicros(child.pid as number) - apiBefore;
    const pgAfter = await backends();
    let pgCpu = 0;
    for (const [pid, after] of pgAfter) pgCpu += after - (pgBefore.get(pid) ?? 0);
    const redis = (await redisCpu()) - redisBefore;
    const commands = (await redisCommands()) - commandsBefore;
    const transactions = (await pgTransactions()) - transactionsBefore;
    if (process.env.BENCH_COMMANDSTATS === '1' && singleClient)
      process.stdout.write(`${await singleClient.info('commandstats')}\n`);
    const writes = result['2xx'];
    // Group commit: writes per batch (write_batch_size's sum over its count), from the process's /metrics.
    const metrics = await (await fetch(`${api}/metrics`)).text();
    const metric = (name: string) =>
      Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN);
    const perBatch = metric('write_batch_size_sum') / metric('write_batch_size_count');
    const per = (micros: number) => Math.round(micros / writes).toLocaleString('en');
    process.stdout.write(
      `keyed POST /v1/expenses on ${cluster ? 'a Redis Cluster' : 'one Redis'}: ${Math.round(writes / result.duration)} 2xx/s ` +
        `(${writes} in ${result.duration} s, ${result.non2xx} non-2xx, p99 ${result.latency.p99} ms); CPU per write: ` +
        `API process ${per(apiCpu)} µs, PostgreSQL backends ${per(pgCpu)} µs (${pgAfter.size} backends), ` +
        `Redis ${cluster ? 'primaries' : 'server'} ${per(redis)} µs; ${perBatch.toFixed(2)} writes per batch; per write: ${(transactions / writes).toFixed(2)} PostgreSQL transactions, ${(commands / writes).toFixed(2)} Redis commands\n`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    singleClient?.disconnect();
    await cluster?.stop();
    await single?.stop();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`write-capacity failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
