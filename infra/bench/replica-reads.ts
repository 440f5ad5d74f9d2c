/**
 * What a read replica buys (issue 32): two `ROLE=api` processes (the production bundle) on one
 * throwaway primary with a hot standby (test/support/pg-cluster.ts, asynchronous), one reading on
 * the primary only, one with `DATABASE_READ_URL` on the standby. The same read load (autocannon,
 * `GET /v1/groups/{id}/balances` and `GET /v1/expenses/{id}` alternately) goes to each in turn,
 * `BENCH_ROUNDS` times, in one run: no replica; the replica; the replica with an `X-Min-Seq` the
 * replica has reached (what the SDK sends after its own writes: the check and the read in one
 * read-only transaction). Prints 2xx/s, p50 and p99, the CPU of the primary's and of the standby's
 * PostgreSQL processes per read, and where the reads were served (`db_reads_total`).
 *
 *   flock /tmp/tally-bench.lock node --import tsx infra/bench/replica-reads.ts
 *
 * Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (32), BENCH_ROUNDS (2), REDIS_URL
 * (redis://127.0.0.1:6379). Everything shares the machine's cores: on one machine a replica moves
 * the reads' database CPU to another process, not to another machine, so the primary's CPU per read
 * is the figure that says what one replica takes off the primary.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { type PgNode, startPgCluster } from '../../test/support/pg-cluster';
import { freePort } from '../../test/support/server-process';
import { ensureBuilt } from '../fleet/ensure-built';
import { runBench, spawnBenchServer } from './bench-setup';
import { cpuByPidOfCommand } from './cpu';
import { expenseBodyOf, signUpWithGroups, waitUntilHealthy } from './keyed-load';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const GROUPS = 8;
const EXPENSES_PER_GROUP = 20;

type Mode = 'primary only' | 'replica' | 'replica, X-Min-Seq';
type Phase = {
  mode: Mode;
  perSecond: number;
  p50: number;
  p99: number;
  primaryUs: number;
  standbyUs: number;
};

/** The pids of a node's PostgreSQL processes: its postmaster and every process it started. */
function pidsOf(node: PgNode): Set<number> {
  const postmaster = Number(readFileSync(path.join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = new Set([postmaster]);
  for (const pid of cpuByPidOfCommand('postgres').keys()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) pids.add(pid);
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

/** Starts counting the CPU of `node`'s processes; the call it returns gives the µs spent since (new backends included). */
function nodeCpu(node: PgNode) {
  const before = cpuByPidOfCommand('postgres');
  return () => {
    const mine = pidsOf(node);
    const all = cpuByPidOfCommand('postgres');
    const spent = new Map([...before].filter(([pid]) => mine.has(pid)));
    let total = 0;
    for (const [pid, now] of all) if (mine.has(pid)) total += now - (spent.get(pid) ?? 0);
    return total;
  };
}

runBench('replica-reads', async () => {
  const cluster = await startPgCluster();
  await cluster.setSynchronous(false);
  await cluster.query('create database tally');
  const primaryUrl = cluster.urlOf(cluster.primary(), 'tally');
  const standbyUrl = cluster.urlOf(cluster.standby(), 'tally');
  const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const [portA, portB] = [await freePort(), await freePort()];
  const bundle = ensureBuilt();
  const primaryOnly = spawnBenchServer([bundle], 'replica-reads-a', {
    ROLE: 'api',
    PORT: String(portA),
    DATABASE_URL: primaryUrl,
    REDIS_URL: redis,
  });
  const withReplica = spawnBenchServer([bundle], 'replica-reads-b', {
    ROLE: 'api',
    PORT: String(portB),
    DATABASE_URL: primaryUrl,
    DATABASE_READ_URL: standbyUrl,
    REDIS_URL: redis,
  });
  const apiA = `http://127.0.0.1:${portA}`;
  const apiB = `http://127.0.0.1:${portB}`;
  try {
    await Promise.all([waitUntilHealthy(apiA), waitUntilHealthy(apiB)]);
    const user = await signUpWithGroups(apiA, 'replicareads', GROUPS);
    const bodyOf = expenseBodyOf(user.userId);
    const expenseIds: string[] = [];
    let minSeq = '';
    for (const groupId of user.groups) {
      for (let i = 0; i < EXPENSES_PER_GROUP; i++) {
        const res = await fetch(`${apiA}/v1/expenses`, {
          method: 'POST',
          headers: { ...user.auth, 'idempotency-key': `seed-${groupId}-${i}` },
          body: bodyOf(groupId),
        });
        expenseIds.push(((await res.json()) as { id: string }).id);
        minSeq = res.headers.get('x-seq') ?? minSeq;
      }
    }
    // The standby has every seeded row before the reads start.
    const standby = new Client({ connectionString: standbyUrl });
    await standby.connect();
    for (;;) {
      const { rows } = await standby.query<{ n: number }>('select count(*)::int as n from expenses');
      if (rows[0]?.n === expenseIds.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await standby.end();

    const paths = [
      ...user.groups.map((g) => `/v1/groups/${g}/balances`),
      ...expenseIds.slice(0, 40).map((id) => `/v1/expenses/${id}`),
    ];
    const served = async (api: string) => {
      const text = await (await fetch(`${api}/metrics`)).text();
      return Object.fromEntries(
        [...text.matchAll(/^db_reads_total\{served_by="([a-z_]+)"\} (\d+)/gm)].map((m) => [
          m[1],
          Number(m[2]),
        ]),
      ) as Record<string, number>;
    };
    const load = (api: string, headers: Record<string, string>, seconds: number) => {
      let n = 0;
      return autocannon({
        url: api,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length] as string, headers }),
          },
        ],
      });
    };
    const plain = { authorization: user.auth['authorization'] as string };
    const modes: [Mode, string, Record<string, string>][] = [
      ['primary only', apiA, plain],
      ['replica', apiB, plain],
      ['replica, X-Min-Seq', apiB, { ...plain, 'x-min-seq': minSeq }],
    ];
    for (const [, api, headers] of modes) await load(api, headers, 2);
    const phases: Phase[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [mode, api, headers] of modes) {
        const primaryCpu = nodeCpu(cluster.primary());
        const standbyCpu = nodeCpu(cluster.standby());
        const before = await served(api);
        const result = await load(api, headers, DURATION);
        const reads = result['2xx'];
        const phase: Phase = {
          mode,
          perSecond: Math.round(reads / result.duration),
          p50: result.latency.p50,
          p99: result.latency.p99,
          primaryUs: primaryCpu() / Math.max(1, reads),
          standbyUs: standbyCpu() / Math.max(1, reads),
        };
        const after = await served(api);
        const where = Object.entries(after)
          .map(([by, n]) => `${by} ${n - (before[by] ?? 0)}`)
          .join(', ');
        phases.push(phase);
        process.stdout.write(
          `round ${round}, ${mode}: ${phase.perSecond} 2xx/s, p50 ${phase.p50} ms, p99 ${phase.p99} ms, ${result.non2xx} non-2xx; PostgreSQL CPU per read: primary ${phase.primaryUs.toFixed(0)} µs, standby ${phase.standbyUs.toFixed(0)} µs; served: ${where}\n`,
        );
      }
    }
    const base = phases.filter((p) => p.mode === 'primary only');
    const mean = (of: Phase[], pick: (p: Phase) => number) =>
      of.reduce((sum, p) => sum + pick(p), 0) / of.length;
    for (const [mode] of modes) {
      const of = phases.filter((p) => p.mode === mode);
      process.stdout.write(
        `${mode} (mean of ${of.length}): ${Math.round(mean(of, (p) => p.perSecond))} 2xx/s (${(mean(of, (p) => p.perSecond) / mean(base, (p) => p.perSecond)).toFixed(2)}× primary only), p99 ${mean(of, (p) => p.p99).toFixed(1)} ms, primary ${mean(of, (p) => p.primaryUs).toFixed(0)} µs and standby ${mean(of, (p) => p.standbyUs).toFixed(0)} µs of PostgreSQL CPU per read\n`,
      );
    }
  } finally {
    for (const child of [primaryOnly, withReplica]) child.kill('SIGTERM');
    await Promise.all(
      [primaryOnly, withReplica].map((child) => new Promise((resolve) => child.once('exit', resolve))),
    );
    await cluster.stop();
  }
});
