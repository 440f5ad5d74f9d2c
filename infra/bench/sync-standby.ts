/**
 * What a synchronous standby costs a keyed write (issue 32): one `ROLE=api` process (the production
 * bundle) on a throwaway primary and standby (test/support/pg-cluster.ts, fsync on), reached through
 * the multi-host DATABASE_URL, under autocannon's keyed `POST /v1/expenses` spread over
 * `BENCH_GROUPS` groups; the same load with the standby asynchronous (`synchronous_standby_names`
 * empty: a commit waits for the primary's own WAL flush) and synchronous (it also waits for the
 * standby's flush), alternating, `BENCH_ROUNDS` times each, in one run. Prints 2xx/s, p50 and p99,
 * and writes per group-commit batch (write_batch_size from /metrics), per phase and per mode.
 *
 *   flock /tmp/tally-bench.lock node --import tsx infra/bench/sync-standby.ts
 *
 * Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (32), BENCH_GROUPS (16), BENCH_ROUNDS (2),
 * REDIS_URL (redis://127.0.0.1:6379). Everything shares the machine's cores.
 */

import { startPgCluster } from '../../test/support/pg-cluster';
import { freePort } from '../../test/support/server-process';
import { ensureBuilt } from '../fleet/ensure-built';
import { runBench, spawnBenchServer } from './bench-setup';
import { keyedExpenseLoad, signUpWithGroups, waitUntilHealthy } from './keyed-load';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

type Phase = {
  mode: 'async' | 'sync';
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  perBatch: number;
};

runBench('sync-standby', async () => {
  const cluster = await startPgCluster();
  await cluster.query('create database tally');
  const port = await freePort();
  const child = spawnBenchServer([ensureBuilt()], 'sync-standby', {
    ROLE: 'api',
    PORT: String(port),
    DATABASE_URL: cluster.multiHostUrl('tally'),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
  const api = `http://127.0.0.1:${port}`;
  const batches = async () => {
    const metrics = await (await fetch(`${api}/metrics`)).text();
    const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? 0);
    return { sum: metric('write_batch_size_sum'), count: metric('write_batch_size_count') };
  };
  try {
    await waitUntilHealthy(api);
    const user = await signUpWithGroups(api, 'syncstandby', GROUPS);
    const run = async (label: string, seconds: number) => {
      const before = await batches();
      const result = await keyedExpenseLoad(api, user, {
        keyPrefix: `${label}-${Date.now()}`,
        connections: CONNECTIONS,
        duration: seconds,
      });
      const after = await batches();
      return { result, perBatch: (after.sum - before.sum) / Math.max(1, after.count - before.count) };
    };
    await run('warm-up', 3);
    const phases: Phase[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const mode of ['async', 'sync'] as const) {
        await cluster.setSynchronous(mode === 'sync');
        const { result, perBatch } = await run(`${mode}-${round}`, DURATION);
        const phase = {
          mode,
          perSecond: Math.round(result['2xx'] / result.duration),
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          perBatch,
        };
        phases.push(phase);
        process.stdout.write(
          `round ${round}, standby ${mode}: ${phase.perSecond} 2xx/s, p50 ${phase.p50} ms, p99 ${phase.p99} ms, ${phase.non2xx} non-2xx, ${perBatch.toFixed(2)} writes per batch\n`,
        );
      }
    }
    for (const mode of ['async', 'sync'] as const) {
      const of = phases.filter((p) => p.mode === mode);
      const mean = (pick: (p: Phase) => number) => of.reduce((sum, p) => sum + pick(p), 0) / of.length;
      process.stdout.write(
        `standby ${mode} (mean of ${of.length}): ${Math.round(mean((p) => p.perSecond))} 2xx/s, p99 ${mean((p) => p.p99).toFixed(1)} ms, ${mean((p) => p.perBatch).toFixed(2)} writes per batch\n`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await cluster.stop();
  }
});
