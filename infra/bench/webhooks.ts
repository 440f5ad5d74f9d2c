/**
 * `npm run bench:webhooks`: webhook delivery (API.md §12) under the keyed-write load of `npm run
 * bench`, on one Tally process as production runs it (`dist/server.js`, `ROLE=all`) with its own
 * PostgreSQL database and a throwaway Redis, the receiver a plain HTTP server in this process.
 *
 * 1,000 groups (two users of 500: `groupsPerUser`), keyed `POST /v1/expenses` round-robin over all of
 * them (BENCH_CONNECTIONS, 32, split between the users) for BENCH_SECONDS (10) a phase. BENCH_ROUNDS
 * (4) rounds of two phases, in alternating order: without endpoints, and with 100 endpoints
 * (BENCH_ENDPOINTS; one on every tenth group, created just before the phase, deleted after it). Reports, per phase, the keyed
 * writes' 2xx/s and p99, and with endpoints: deliveries made and expected (the hooked groups' new
 * events), deliveries/s, lag from the event's commit (`occurredAt`) to the receiver's `2xx` (p50,
 * p99, max), and how long after the load the last delivery came (the drain). Then the write rate
 * with endpoints over the rate without, from the same run.
 *
 *   flock /tmp/tally-bench.lock npm run bench:webhooks
 */
import autocannon from 'autocannon';
import { Client } from 'pg';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { startWebhookReceiver } from '../../test/support/webhook-receiver';
import { ensureBuilt } from '../fleet/ensure-built';
import { createBenchDatabase, runBench, spawnBenchServer, writeResults } from './bench-setup';
import { backendsCpu, cpuMicros } from './cpu';
import {
  type BenchUser,
  expenseBodyOf,
  keyedPostOptions,
  signUpWithGroups,
  waitUntilHealthy,
} from './keyed-load';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
/** `BENCH_ENDPOINTS=0` is the control: both phases without endpoints (what the order alone costs). */
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 100);
const GROUPS_PER_USER = 500;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);

type Phase = {
  endpoints: number;
  /** CPU per keyed write of the Tally process and of its PostgreSQL backends (deliveries included). */
  apiCpuPerWriteUs: number;
  pgCpuPerWriteUs: number;
  /** The second phase of a round (with the endpoints, unless the control). */
  hooked?: boolean;
  writesPerSecond: number;
  writeP99Ms: number;
  non2xx: number;
  deliveries?: number;
  expected?: number;
  deliveriesPerSecond?: number;
  lagP50Ms?: number;
  lagP99Ms?: number;
  lagMaxMs?: number;
  drainMs?: number;
};

async function main() {
  const db = await createBenchDatabase('tally_webhooks');
  const redis = await ensureRedis({ ephemeral: true });
  const receiver = await startWebhookReceiver();
  const port = await freePort();
  const child = spawnBenchServer(['--enable-source-maps', ensureBuilt()], 'webhooks', {
    ROLE: 'all',
    PORT: String(port),
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    // The receiver is on this machine.
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  });
  const api = `http://127.0.0.1:${port}`;
  const pg = new Client({ connectionString: db.url });
  const phases: Phase[] = [];
  try {
    await waitUntilHealthy(api);
    await pg.connect();
    const users: BenchUser[] = [
      await signUpWithGroups(api, 'hooks-a', GROUPS_PER_USER),
      await signUpWithGroups(api, 'hooks-b', GROUPS_PER_USER),
    ];
    const counter = { n: 0 };
    /** The keyed load of `npm run bench`, over all 1,000 groups, half the connections each user. */
    /** CPU µs so far of the Tally process and of the PostgreSQL backends of its database. */
    const cpuNow = async () => ({
      api: cpuMicros(child.pid as number),
      backends: await backendsCpu(db.admin, db.name),
    });
    const load = async () => {
      const cpuBefore = await cpuNow();
      const results = await Promise.all(
        users.map((user, u) =>
          autocannon({
            ...keyedPostOptions({
              target: api,
              headers: user.auth,
              bodyOf: expenseBodyOf(user.userId),
              pickGroup: (n) => user.groups[n % user.groups.length] as string,
              counter,
              keyPrefix: `hooks-${u}-${Date.now()}`,
            }),
            connections: CONNECTIONS / 2,
            duration: DURATION,
          }),
        ),
      );
      const ok = results.reduce((sum, r) => sum + r['2xx'], 0);
      const cpuAfter = await cpuNow();
      let pgCpu = 0;
      for (const [pid, after] of cpuAfter.backends) pgCpu += after - (cpuBefore.backends.get(pid) ?? 0);
      return {
        writesPerSecond: Math.round(ok / DURATION),
        apiCpuPerWriteUs: Math.round((cpuAfter.api - cpuBefore.api) / ok),
        pgCpuPerWriteUs: Math.round(pgCpu / ok),
        writeP99Ms: Math.max(...results.map((r) => r.latency.p99)),
        non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
      };
    };
    const lastSeq = async (groupIds: string[]) => {
      const { rows } = await pg.query<{ id: string; last_seq: string }>(
        'select id, last_seq from groups where id = any($1)',
        [groupIds],
      );
      return new Map(rows.map((r) => [r.id, Number(r.last_seq)]));
    };

    /** A phase with the endpoints: made before, measured, deleted after. */
    const hookedPhase = async (round: number): Promise<void> => {
      // 100 endpoints, one on every tenth group, each its own path on the receiver.
      const hooked = users.flatMap((user) =>
        user.groups.filter((_g, i) => i % 10 === 0).map((groupId) => ({ user, groupId })),
      );
      const hooks: { user: BenchUser; groupId: string; id: string; path: string }[] = [];
      for (const [i, { user, groupId }] of hooked.slice(0, ENDPOINTS).entries()) {
        const path = `/r${round}-e${i}`;
        const res = await fetch(`${api}/v1/groups/${groupId}/webhooks`, {
          method: 'POST',
          headers: user.auth,
          body: JSON.stringify({ url: `${receiver.url}${path}` }),
        });
        if (res.status !== 201) throw new Error(`create webhook: ${res.status} ${await res.text()}`);
        hooks.push({ user, groupId, id: ((await res.json()) as { id: string }).id, path });
      }
      // Steady state: the process learns which groups have endpoints within 4 polls (2 s); until
      // then their deliveries wait for a poll rather than being woken by the write.
      await new Promise((r) => setTimeout(r, 2500));
      const before = await lastSeq(hooks.map((h) => h.groupId));
      const started = Date.now();
      const writes = await load();
      const loadEnded = Date.now();
      if (hooks.length === 0) {
        phases.push({ endpoints: 0, hooked: true, ...writes });
        return;
      }
      // Autocannon stops without waiting for the requests in flight: their writes commit after it.
      await new Promise((r) => setTimeout(r, 1000));
      const after = await lastSeq(hooks.map((h) => h.groupId));
      const expected = hooks.reduce(
        (sum, h) => sum + (after.get(h.groupId) ?? 0) - (before.get(h.groupId) ?? 0),
        0,
      );
      const paths = new Set(hooks.map((h) => h.path));
      const mine = () => receiver.received.filter((r) => paths.has(r.path));
      const deadline = Date.now() + 120_000;
      while (new Set(mine().map((r) => r.id)).size < expected && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const got = mine();
      const firsts = new Map<string, number>();
      for (const r of got) if (!firsts.has(r.id)) firsts.set(r.id, r.receivedAt - Date.parse(r.occurredAt));
      const lags = [...firsts.values()].sort((a, b) => a - b);
      const last = Math.max(...got.map((r) => r.receivedAt));
      phases.push({
        endpoints: hooks.length,
        hooked: true,
        ...writes,
        deliveries: firsts.size,
        expected,
        deliveriesPerSecond: Math.round(firsts.size / ((last - started) / 1000)),
        lagP50Ms: percentile(lags, 50),
        lagP99Ms: percentile(lags, 99),
        lagMaxMs: lags[lags.length - 1] ?? 0,
        drainMs: Math.max(0, last - loadEnded),
      });
      for (const h of hooks) {
        await fetch(`${api}/v1/groups/${h.groupId}/webhooks/${h.id}`, {
          method: 'DELETE',
          headers: h.user.auth,
        });
      }
    };
    // The order alternates between rounds, so that what a later phase pays for coming later (a
    // bigger database, another engineer's load) falls on both sides.
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 1) await hookedPhase(round);
      phases.push({ endpoints: 0, ...(await load()) });
      if (round % 2 === 0) await hookedPhase(round);
    }
    for (const p of phases) {
      const hooks =
        p.deliveries === undefined
          ? ''
          : `; ${p.deliveries}/${p.expected} deliveries, ${p.deliveriesPerSecond}/s, lag p50 ${p.lagP50Ms} ms p99 ${p.lagP99Ms} ms max ${p.lagMaxMs} ms, drained ${p.drainMs} ms after the load`;
      process.stdout.write(
        `${String(p.endpoints).padStart(3)} endpoints: keyed POST ${p.writesPerSecond} 2xx/s, p99 ${p.writeP99Ms} ms, ${p.non2xx} non-2xx, CPU per write: Tally ${p.apiCpuPerWriteUs} µs, PostgreSQL ${p.pgCpuPerWriteUs} µs${hooks}\n`,
      );
    }
    const mean = (list: Phase[]) => list.reduce((s, p) => s + p.writesPerSecond, 0) / list.length;
    const ratio = mean(phases.filter((p) => p.hooked)) / mean(phases.filter((p) => !p.hooked));
    process.stdout.write(`write rate with ${ENDPOINTS} endpoints / without: ${ratio.toFixed(3)}\n`);
    writeResults('webhooks', { durationSeconds: DURATION, connections: CONNECTIONS, phases, ratio });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await pg.end().catch(() => {});
    await receiver.close();
    await redis.stop();
    await db.drop();
  }
}

runBench('bench:webhooks', main);
