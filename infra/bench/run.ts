/**
 * `npm run bench`: throughput and latency of Tally against bare baselines measured in the same run.
 * Everything runs on this machine: servers as child processes, load from autocannon in this one.
 * Figures vary with the machine's load; the ratios are what to compare between runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createSecretKey } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { SignJWT } from 'jose';
import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { ensureBuilt } from '../fleet/ensure-built';
import {
  BENCH_JWT_SECRET,
  benchServerEnv,
  createBenchDatabase,
  runBench,
  stopBench,
  waitFor,
  writeResults,
} from './bench-setup';
import { postmasterPid } from './cpu';
import { expenseBodyOf, keyedPostOptions } from './keyed-load';
import {
  batchSizes,
  CONNECTIONS,
  compare,
  DURATION,
  GROUPS,
  PEER_SECRET,
  QUICK,
  type Result,
  ROUNDS,
  redisServerPid,
  servers,
  WIDE_CONNECTIONS,
  WIDE_GROUPS,
} from './run-measure';
import { printBatches, printTable, printTargets, targetsOf } from './run-report';
import { runWsBench, type WsBenchOptions, type WsResult } from './ws-bench';

const ROOT = path.resolve(__dirname, '../..');

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

async function json<T>(res: Response): Promise<T> {
  if (res.status >= 300) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
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
      ...benchServerEnv('bench'),
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
      jwtSecret: BENCH_JWT_SECRET,
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
    await stopBench(children, redis, db);
  }
}

runBench('bench', main);
