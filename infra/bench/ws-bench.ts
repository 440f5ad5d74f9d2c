/**
 * The WebSocket part of `npm run bench` (issue #10): N connections on one server spread over G
 * groups, for Tally's gateway, a bare `ws` + Redis pub/sub server and a Socket.IO + Redis pub/sub
 * server, in the same run, each measured the same way:
 *
 * - accept: from the first connection attempt until all N are open and subscribed (clients in
 *   `ws-clients.ts` child processes, so the load generator is not what is measured), and the
 *   server's CPU per accepted connection;
 * - RSS per idle subscribed connection: the server's settled RSS after, minus before, over N;
 * - CPU per delivery: the server's CPU (user + system, /proc) from the first write until every
 *   connection has every message, over the messages delivered;
 * - delivery latency from the write's acknowledgement (Tally: the API's 201; the baselines: Redis
 *   PUBLISH's reply) to receipt, p50 and p99 over every delivery; lost and duplicated messages.
 *
 * Writes are paced identically for all three, so queueing does not decide the comparison, and each
 * server first takes BENCH_WS_WARMUP_ROUNDS unmeasured writes per group, so none is measured cold.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { cpuMicros } from './cpu';
import {
  baselineGroups,
  CONCURRENCY,
  connectionToken,
  DELIVERY_DEADLINE_MS,
  freePort,
  GROUPS,
  type Group,
  INTERVAL_MS,
  NAMES,
  nodeFlagsOf,
  now,
  SYSTEMS,
  startClients,
  startServer,
  TOKENS_PER_CONNECTION,
  tallyGroups,
  WARMUP_ROUNDS,
  WRITES,
  type WsShape,
  wsShapes,
} from './ws-bench-setup';
import type { ClientKind, Command, Opened, Received, Target } from './ws-clients';

export { freePort, tallyBundle, type WsShape, wsShape, wsShapes } from './ws-bench-setup';

export type WsResult = {
  name: string;
  kind: ClientKind;
  /** The Node/V8 flags the server process ran with, as read from the process (its argv and NODE_OPTIONS). */
  nodeFlags: string[];
  connections: number;
  /** Subscribes the server answered `unavailable` that the client sent again (Tally only). */
  subscribeRetries: number;
  /** Server processes of this system the connections were spread over. */
  servers: number;
  failed: number;
  /** Seconds until every connection was open (handshake done). */
  handshakeSeconds: number;
  /** Seconds until every connection was open and subscribed. */
  acceptSeconds: number;
  acceptCpuMicrosPerConnection: number;
  rssPerConnectionKiB: number;
  deliveries: number;
  expected: number;
  lost: number;
  duplicated: number;
  cpuMicrosPerDelivery: number;
  /** Receipt minus write acknowledgement; a receipt before the ack counts as 0. */
  p50: number;
  p99: number;
  /** Receipt minus the moment the write was issued (includes the write's own processing). */
  p50FromIssue: number;
  p99FromIssue: number;
};

export type WsBenchOptions = {
  /** The Tally API that takes the writes (ROLE=api), and what the gateway needs to run beside it. */
  api: string;
  databaseUrl: string;
  redisUrl: string;
  jwtSecret: string;
  /** Children started here are added, so the caller stops them whatever happens. */
  children: ChildProcess[];
  waitFor(url: string): Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const rssKiB = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
};

/** The servers' summed RSS once it has settled: three readings 250 ms apart within 1% (at most 10 s). */
async function settledRssOf(pids: number[]): Promise<number> {
  const rss = () => pids.reduce((sum, pid) => sum + rssKiB(pid), 0);
  const readings = [rss()];
  const settled = () => {
    const last = readings.slice(-3);
    return last.length === 3 && Math.max(...last) - Math.min(...last) <= Math.max(...last) / 100;
  };
  const deadline = performance.now() + 10_000;
  while (!settled() && performance.now() < deadline) {
    await sleep(250);
    readings.push(rss());
  }
  return readings.at(-1) as number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/** Paces `writes` calls of `write`, one every INTERVAL_MS. */
async function paced(writes: number, write: (i: number) => Promise<void>): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < writes; i++) {
    const wait = start + i * INTERVAL_MS - performance.now();
    if (wait > 0) await sleep(wait);
    await write(i);
  }
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuMicros(pid), 0);

async function measure(
  kind: ClientKind,
  groups: Group[],
  options: WsBenchOptions,
  shape: WsShape,
): Promise<WsResult> {
  const CONNECTIONS = shape.connections;
  const ports: number[] = [];
  const servers: ChildProcess[] = [];
  for (let s = 0; s < shape.servers; s++) {
    const port = await freePort();
    // Started one at a time: freePort's port is only free until a server takes it.
    const server = startServer(kind, port, options, CONNECTIONS);
    options.children.push(server);
    servers.push(server);
    ports.push(port);
    await options.waitFor(
      kind === 'tally' ? `http://127.0.0.1:${port}/healthz` : `http://127.0.0.1:${port}/`,
    );
  }
  const pids = servers.map((server) => server.pid as number);
  try {
    const nodeFlags = nodeFlagsOf(pids[0] as number);
    const clients = await startClients(options.children, shape.clientProcesses);
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    const url = urls[0] as string;
    const shares: Target[][] = clients.map(() => []);
    for (let i = 0; i < CONNECTIONS; i++) {
      const group = i % groups.length;
      const g = groups[group] as Group;
      const token =
        kind === 'tally' && TOKENS_PER_CONNECTION && g.userId
          ? await connectionToken(options.jwtSecret, g.userId, i)
          : g.token;
      // Connection i goes to server i mod S (a sticky balancer spreading by connection), so each
      // group has connections on every server when G and S are coprime (50 and 3).
      (shares[i % clients.length] as Target[]).push({
        group,
        groupId: g.id,
        token,
        server: i % urls.length,
      });
    }
    const localAddresses = Array.from({ length: shape.sourceAddresses }, (_, i) => `127.0.0.${i + 1}`);

    // ---- accept: every connection open and subscribed --------------------------------------------
    const rssBefore = await settledRssOf(pids);
    const cpuBeforeAccept = cpuOf(pids);
    const started = now();
    const opened = await Promise.all(
      clients.map((c, i) =>
        c.ask<Opened>({
          cmd: 'open',
          kind,
          urls,
          targets: shares[i] as Target[],
          concurrency: CONCURRENCY,
          localAddresses,
        }),
      ),
    );
    const acceptSeconds = (Math.max(...opened.map((o) => o.subscribedAt)) - started) / 1000;
    const handshakeSeconds = (Math.max(...opened.map((o) => o.handshakesDoneAt)) - started) / 1000;
    const acceptCpu = cpuOf(pids) - cpuBeforeAccept;
    const failed = opened.reduce((sum, o) => sum + o.failed, 0);
    const rssIdle = await settledRssOf(pids);
    if (process.env.BENCH_WS_DEBUG && kind === 'tally') {
      const text = await (await fetch(`${url}/metrics`)).text();
      const spaces = text
        .split('\n')
        .filter((l) => /^nodejs_heap_(space_size_total|size_total|external)/.test(l));
      process.stdout.write(
        `  [tally] idle: RSS ${rssIdle} KiB (before ${rssBefore})\n    ${spaces.join('\n    ')}\n`,
      );
    }

    // ---- warm-up: unmeasured writes, delivered and then forgotten ---------------------------------
    if (WARMUP_ROUNDS > 0) {
      const warm: Record<number, number> = {};
      await paced(WARMUP_ROUNDS * groups.length, async (i) => {
        const group = i % groups.length;
        await (groups[group] as Group).write(WRITES + i);
        warm[group] = (warm[group] ?? 0) + 1;
      });
      await Promise.all(
        clients.map((c) => c.ask({ cmd: 'await', expected: warm, deadlineMs: DELIVERY_DEADLINE_MS })),
      );
      await Promise.all(clients.map((c) => c.ask({ cmd: 'reset' })));
    }

    // ---- fan-out: paced writes until every connection has every message ---------------------------
    const cpuBeforeWrites = cpuOf(pids);
    const sent = new Map<string, { group: number; issuedAt: number; ackAt: number }>();
    const perGroup: Record<number, number> = {};
    await paced(WRITES, async (i) => {
      const group = i % groups.length;
      const { key, issuedAt, ackAt } = await (groups[group] as Group).write(i);
      sent.set(key, { group, issuedAt, ackAt });
      perGroup[group] = (perGroup[group] ?? 0) + 1;
    });
    await Promise.all(
      clients.map((c) => c.ask({ cmd: 'await', expected: perGroup, deadlineMs: DELIVERY_DEADLINE_MS })),
    );
    // CPU until every connection has every message (or the deadline): the flush below is not a delivery.
    const writeCpu = cpuOf(pids) - cpuBeforeWrites;
    const received = await Promise.all(
      clients.map((c) => c.ask<Received>({ cmd: 'flush', deadlineMs: DELIVERY_DEADLINE_MS })),
    );
    for (const c of clients) c.child.send({ cmd: 'close' } satisfies Command);

    const fromAck: number[] = [];
    const fromIssue: number[] = [];
    let duplicated = 0;
    for (const r of received) {
      duplicated += r.duplicated;
      for (const [key, times] of Object.entries(r.receipts)) {
        const info = sent.get(key);
        if (!info) continue;
        for (const at of times) {
          fromAck.push(Math.max(0, at - info.ackAt));
          fromIssue.push(at - info.issuedAt);
        }
      }
    }
    fromAck.sort((a, b) => a - b);
    fromIssue.sort((a, b) => a - b);
    if (process.env.BENCH_WS_DEBUG) debugLatencies(kind, received, sent, fromAck);
    const connectionsOf = (group: number) =>
      Math.floor(CONNECTIONS / groups.length) + (group < CONNECTIONS % groups.length ? 1 : 0);
    let expected = 0;
    for (const info of sent.values()) expected += connectionsOf(info.group);
    const deliveries = fromAck.length;
    return {
      name: NAMES[kind],
      kind,
      nodeFlags,
      connections: CONNECTIONS,
      servers: shape.servers,
      subscribeRetries: opened.reduce((sum, o) => sum + o.subscribeRetries, 0),
      failed,
      handshakeSeconds,
      acceptSeconds,
      acceptCpuMicrosPerConnection: acceptCpu / CONNECTIONS,
      rssPerConnectionKiB: (rssIdle - rssBefore) / CONNECTIONS,
      deliveries,
      expected,
      lost: expected - deliveries,
      duplicated,
      cpuMicrosPerDelivery: deliveries > 0 ? writeCpu / deliveries : Number.NaN,
      p50: percentile(fromAck, 50),
      p99: percentile(fromAck, 99),
      p50FromIssue: percentile(fromIssue, 50),
      p99FromIssue: percentile(fromIssue, 99),
    };
  } finally {
    await Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            if (server.exitCode !== null) return resolve();
            server.once('exit', () => resolve());
            server.kill('SIGTERM');
          }),
      ),
    );
    // Let the clients' sockets go before the next server is measured.
    await sleep(1000);
  }
}

/** BENCH_WS_DEBUG: the tail of the latency distribution and the writes it comes from. */
function debugLatencies(
  kind: ClientKind,
  received: Received[],
  sent: Map<string, { group: number; issuedAt: number; ackAt: number }>,
  sorted: number[],
): void {
  const start = Math.min(...[...sent.values()].map((s) => s.issuedAt));
  const perWrite = new Map<string, number[]>();
  for (const r of received)
    for (const [key, times] of Object.entries(r.receipts)) {
      const info = sent.get(key);
      if (!info) continue;
      const list = perWrite.get(key) ?? [];
      for (const at of times) list.push(at - info.ackAt);
      perWrite.set(key, list);
    }
  const rows = [...perWrite].map(([key, list]) => {
    list.sort((a, b) => a - b);
    const info = sent.get(key) as { issuedAt: number; ackAt: number };
    return {
      key,
      at: info.ackAt - start,
      ack: info.ackAt - info.issuedAt,
      min: list[0] ?? 0,
      max: list.at(-1) ?? 0,
    };
  });
  rows.sort((a, b) => b.max - a.max);
  const q = (p: number) => percentile(sorted, p).toFixed(1);
  process.stdout.write(
    `  [${kind}] p90 ${q(90)} p95 ${q(95)} p99 ${q(99)} p99.9 ${q(99.9)} max ${sorted.at(-1)?.toFixed(1)} ms; slowest writes (at ms, write ms, first, last):\n`,
  );
  for (const r of rows.slice(0, 8))
    process.stdout.write(
      `    at ${r.at.toFixed(0)}  write ${r.ack.toFixed(1)}  first ${r.min.toFixed(1)}  last ${r.max.toFixed(1)}\n`,
    );
}

function print(results: WsResult[]): void {
  const f = (v: number, digits = 0, width = 8) =>
    (Number.isFinite(v) ? v.toFixed(digits) : '-').padStart(width);
  process.stdout.write(
    `  ${'server'.padEnd(26)} ${'accept s'.padStart(8)} ${'handshk s'.padStart(9)} ${'CPU µs/conn'.padStart(11)} ${'KiB/conn'.padStart(8)} ${'CPU µs/dlv'.padStart(10)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'p99 issue'.padStart(9)}  delivered / lost / dup / failed conns / subscribe retries\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `  ${r.name.padEnd(26)} ${f(r.acceptSeconds, 2)} ${f(r.handshakeSeconds, 2, 9)} ${f(r.acceptCpuMicrosPerConnection, 0, 11)} ${f(r.rssPerConnectionKiB, 1)} ${f(r.cpuMicrosPerDelivery, 1, 10)} ${f(r.p50, 1, 7)} ${f(r.p99, 1, 7)} ${f(r.p99FromIssue, 1, 9)}  ${r.deliveries}/${r.expected} / ${r.lost} / ${r.duplicated} / ${r.failed} / ${r.subscribeRetries}\n`,
    );
  }
  process.stdout.write('\n  Node flags each server ran with (argv and NODE_OPTIONS):\n');
  for (const r of results)
    process.stdout.write(
      `  ${r.name.padEnd(26)} ${r.nodeFlags.length > 0 ? r.nodeFlags.join(' ') : 'none'}\n`,
    );
  const by = (kind: ClientKind) => results.find((r) => r.kind === kind);
  const tally = by('tally');
  const bare = by('bare');
  const sio = by('socketio');
  if (!tally) return;
  const ratio = (a: number, b: number | undefined) =>
    b === undefined || b === 0 ? '     -' : `${(a / b).toFixed(2)}x`.padStart(6);
  process.stdout.write(
    `\n  Tally against the baselines of this run (${tally.connections} connections over ${tally.servers} server process(es) each):\n` +
      `  ${'measure'.padEnd(32)} ${'/ bare'.padStart(6)} ${'/ S.IO'.padStart(6)}  target\n` +
      `  ${'accept time'.padEnd(32)} ${ratio(tally.acceptSeconds, bare?.acceptSeconds)} ${ratio(tally.acceptSeconds, sio?.acceptSeconds)}  <= 2x bare\n` +
      `  ${'CPU per delivery'.padEnd(32)} ${ratio(tally.cpuMicrosPerDelivery, bare?.cpuMicrosPerDelivery)} ${ratio(tally.cpuMicrosPerDelivery, sio?.cpuMicrosPerDelivery)}  <= 1.3x bare\n` +
      `  ${'RSS per idle subscribed conn.'.padEnd(32)} ${ratio(tally.rssPerConnectionKiB, bare?.rssPerConnectionKiB)} ${ratio(tally.rssPerConnectionKiB, sio?.rssPerConnectionKiB)}  <= 8 KiB (${tally.rssPerConnectionKiB.toFixed(1)} KiB)\n` +
      `  ${'p99 delivery (from ack)'.padEnd(32)} ${ratio(tally.p99, bare?.p99)} ${ratio(tally.p99, sio?.p99)}  <= 1.2x bare, < 1x Socket.IO\n`,
  );
}

/**
 * Measures each server of BENCH_WS_SYSTEMS in turn, for each shape (`wsShapes()`: BENCH_WS_SHAPES,
 * or BENCH_WS_CONNECTIONS over BENCH_WS_SERVERS), and prints each shape's systems side by side.
 */
export async function runWsBench(
  options: WsBenchOptions,
  shapes: WsShape[] = wsShapes(),
): Promise<WsResult[]> {
  const publisher = new Redis(options.redisUrl);
  const all: WsResult[] = [];
  try {
    for (const shape of shapes) {
      process.stdout.write(
        `\nWebSockets: ${shape.connections} connections over ${shape.servers} server process(es) of each system, ${GROUPS} groups, ${WRITES} writes every ${INTERVAL_MS} ms, ${shape.clientProcesses} client processes (${CONCURRENCY} connecting at once each), ${shape.sourceAddresses} source addresses\n`,
      );
      const results: WsResult[] = [];
      for (const kind of SYSTEMS) {
        const groups = kind === 'tally' ? await tallyGroups(options.api) : baselineGroups(kind, publisher);
        const r = await measure(kind, groups, options, shape);
        results.push(r);
        process.stdout.write(
          `  measured ${r.name}: accept ${r.acceptSeconds.toFixed(2)} s, ${r.deliveries}/${r.expected} delivered\n`,
        );
      }
      process.stdout.write('\n');
      print(results);
      all.push(...results);
    }
  } finally {
    await publisher.quit();
  }
  return all;
}
