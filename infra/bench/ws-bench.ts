/**
 * The WebSocket part of `npm run bench`: N connections on one gateway spread over G groups;
 * delivery latency from write acknowledgement to receipt, lost and duplicated messages, and RSS
 * per idle connection — for Tally's gateway and for a bare `ws` + Redis pub/sub baseline, in the
 * same run.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import WebSocket from 'ws';

export type WsResult = {
  name: string;
  connections: number;
  deliveries: number;
  expected: number;
  lost: number;
  duplicated: number;
  /** Receipt minus write acknowledgement; a receipt before the ack counts as 0. */
  p50: number;
  p99: number;
  /** Receipt minus the moment the write was issued (includes the write's own processing). */
  p50FromIssue: number;
  p99FromIssue: number;
  rssPerConnectionKiB: number;
};

/** Writes are paced identically for Tally and the baseline, so queueing does not decide the comparison. */
const INTERVAL_MS = Number(process.env.BENCH_WS_INTERVAL_MS ?? 20);

type Sent = { issuedAt: number; ackAt: number; group: number };

async function paced(writes: number, write: (i: number) => Promise<void>): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < writes; i++) {
    const due = start + i * INTERVAL_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await write(i);
  }
}

const rssKiB = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
};

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

async function openAll<T>(count: number, open: (i: number) => Promise<T>, parallel = 200): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await open(i);
      }
    }),
  );
  return out;
}

type Receiver = { ws: WebSocket; group: number; seen: Map<string, number> };

/** Polls `check` every 20 ms until it holds (true) or `deadlineMs` have passed (false). */
async function pollUntil(check: () => boolean, deadlineMs: number): Promise<boolean> {
  const deadline = performance.now() + deadlineMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** The server's RSS once it has settled: three readings 250 ms apart within 1% (at most 10 s). */
async function settledRss(pid: number): Promise<number> {
  const readings = [rssKiB(pid)];
  const settled = () => {
    const last = readings.slice(-3);
    return last.length === 3 && Math.max(...last) - Math.min(...last) <= Math.max(...last) / 100;
  };
  const deadline = performance.now() + 10_000;
  while (!settled() && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    readings.push(rssKiB(pid));
  }
  return readings.at(-1) as number;
}

/** After the last write: how long deliveries still due are waited for; what is missing then is lost. */
const DELIVERY_DEADLINE_MS = 10_000;

/**
 * Waits until every receiver has every message sent to its group (or the deadline), then until each
 * answers a WebSocket ping: whatever the server sent it before, duplicates included, has arrived.
 */
async function deliveriesDone(receivers: Receiver[], sentAt: Map<string, Sent>): Promise<void> {
  const perGroup = new Map<number, number>();
  for (const info of sentAt.values()) perGroup.set(info.group, (perGroup.get(info.group) ?? 0) + 1);
  const complete = (r: Receiver) => {
    let n = 0;
    for (const key of r.seen.keys()) if (sentAt.get(key)?.group === r.group) n++;
    return n === (perGroup.get(r.group) ?? 0);
  };
  let pending = receivers;
  await pollUntil(() => {
    pending = pending.filter((r) => !complete(r));
    return pending.length === 0;
  }, DELIVERY_DEADLINE_MS);
  const pong = (ws: WebSocket) =>
    new Promise<void>((resolve) => {
      if (ws.readyState !== WebSocket.OPEN) return resolve();
      const timer = setTimeout(resolve, DELIVERY_DEADLINE_MS);
      ws.once('pong', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.ping();
    });
  await Promise.all(receivers.map((r) => pong(r.ws)));
}

function summarize(
  name: string,
  receivers: Receiver[],
  sentAt: Map<string, Sent>,
  connections: number,
  rssBefore: number,
  rssIdle: number,
): WsResult {
  const latencies: number[] = [];
  const fromIssue: number[] = [];
  let deliveries = 0;
  let duplicated = 0;
  let expected = 0;
  for (const [, info] of sentAt) expected += receivers.filter((r) => r.group === info.group).length;
  for (const r of receivers) {
    for (const [key, count] of r.seen) {
      const info = sentAt.get(key);
      if (!info) continue;
      deliveries += 1;
      duplicated += count - 1;
    }
  }
  for (const r of receivers) {
    const times = (r as Receiver & { times?: Map<string, number> }).times;
    for (const [key, at] of times ?? []) {
      const info = sentAt.get(key);
      if (info) {
        latencies.push(Math.max(0, at - info.ackAt));
        fromIssue.push(at - info.issuedAt);
      }
    }
  }
  latencies.sort((a, b) => a - b);
  fromIssue.sort((a, b) => a - b);
  return {
    name,
    connections,
    deliveries,
    expected,
    lost: expected - deliveries,
    duplicated,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    p50FromIssue: percentile(fromIssue, 50),
    p99FromIssue: percentile(fromIssue, 99),
    rssPerConnectionKiB: (rssIdle - rssBefore) / connections,
  };
}

/** Tally: connections subscribe through the real protocol; writes go through the API. */
export async function benchTallyGateway(options: {
  gatewayUrl: string;
  gatewayPid: number;
  connections: number;
  groups: {
    id: string;
    token: string;
    post: () => Promise<{ id: string; issuedAt: number; ackAt: number }>;
  }[];
  writes: number;
}): Promise<WsResult> {
  const { connections, groups } = options;
  const rssBefore = await settledRss(options.gatewayPid);
  const receivers = await openAll(connections, async (i) => {
    const group = i % groups.length;
    const g = groups[group] as (typeof groups)[number];
    const ws = new WebSocket(`${options.gatewayUrl.replace(/^http/, 'ws')}/v1/ws`, {
      headers: { Authorization: `Bearer ${g.token}` },
      perMessageDeflate: false,
    });
    const r: Receiver & { times: Map<string, number> } = { ws, group, seen: new Map(), times: new Map() };
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as {
          type: string;
          event?: { data?: { expense?: { id: string } } };
        };
        if (m.type === 'welcome') ws.send(JSON.stringify({ type: 'subscribe', id: 's', groupId: g.id }));
        else if (m.type === 'subscribed') resolve();
        else if (m.type === 'event') {
          const key = m.event?.data?.expense?.id;
          if (key) {
            r.seen.set(key, (r.seen.get(key) ?? 0) + 1);
            if (!r.times.has(key)) r.times.set(key, performance.now());
          }
        }
      });
      ws.once('error', reject);
    });
    return r;
  });
  const rssIdle = await settledRss(options.gatewayPid);
  const sentAt = new Map<string, Sent>();
  await paced(options.writes, async (i) => {
    const group = i % groups.length;
    const { id, issuedAt, ackAt } = await (groups[group] as (typeof groups)[number]).post();
    sentAt.set(id, { issuedAt, ackAt, group });
  });
  await deliveriesDone(receivers, sentAt);
  for (const r of receivers) r.ws.terminate();
  return summarize('Tally gateway', receivers, sentAt, connections, rssBefore, rssIdle);
}

/** The bare baseline: the same shape of load on `ws` + Redis pub/sub. */
export async function benchBareBaseline(options: {
  url: string;
  pid: number;
  redisUrl: string;
  connections: number;
  groupCount: number;
  writes: number;
}): Promise<WsResult> {
  const { connections, groupCount } = options;
  const rssBefore = await settledRss(options.pid);
  const receivers = await openAll(connections, async (i) => {
    const group = i % groupCount;
    const ws = new WebSocket(options.url.replace(/^http/, 'ws'), { perMessageDeflate: false });
    const r: Receiver & { times: Map<string, number> } = { ws, group, seen: new Map(), times: new Map() };
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => ws.send(JSON.stringify({ subscribe: `g${group}` })));
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as { type: string; id?: string };
        if (m.type === 'subscribed') resolve();
        else if (m.id) {
          r.seen.set(m.id, (r.seen.get(m.id) ?? 0) + 1);
          if (!r.times.has(m.id)) r.times.set(m.id, performance.now());
        }
      });
      ws.once('error', reject);
    });
    return r;
  });
  const rssIdle = await settledRss(options.pid);
  const publisher = new Redis(options.redisUrl);
  const sentAt = new Map<string, Sent>();
  await paced(options.writes, async (i) => {
    const group = i % groupCount;
    const id = `m${i}`;
    const issuedAt = performance.now();
    // A payload of the size of a Tally money event, so the wire cost is comparable.
    await publisher.publish(`bare:g${group}`, JSON.stringify({ type: 'event', id, pad: 'x'.repeat(900) }));
    sentAt.set(id, { issuedAt, ackAt: performance.now(), group });
  });
  await deliveriesDone(receivers, sentAt);
  for (const r of receivers) r.ws.terminate();
  await publisher.quit();
  return summarize('bare ws + Redis pub/sub', receivers, sentAt, connections, rssBefore, rssIdle);
}
