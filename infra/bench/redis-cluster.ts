/**
 * Events per second one Redis Cluster shard carries (docs/CAPACITY.md#redis-cluster): a throwaway
 * cluster of 3 primaries (test/support/redis-cluster.ts), then `redis-benchmark` against one primary:
 *
 *   - SPUBLISH of a notification-sized message to a group's sharded channel, with 0 and with 4
 *     subscriber connections (4 gateways following the group), unpipelined (50 clients) and pipelined
 *     (16 per round trip, as auto-pipelining batches a busy API process's publishes);
 *   - the same with cluster-wide PUBLISH, which every primary must forward to its own subscribers:
 *     the CPU the other two primaries spend meanwhile is read from INFO.
 *
 *   flock /tmp/tally-bench.lock node --import tsx infra/bench/redis-cluster.ts
 *
 * Prints one line per scenario. Numbers depend on the machine and its load (the subscribers, the
 * benchmark client and the servers share its cores).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { startRedisCluster } from '../../test/support/redis-cluster';
import { findRedisServer } from '../../test/support/services';

const execFileAsync = promisify(execFile);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200_000);
const MESSAGE = JSON.stringify({
  kind: 'event',
  groupId: 'grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC',
  seq: 123456,
  eventId: 'evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RD',
});

async function cpuSeconds(client: Redis): Promise<number> {
  const text = await client.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0);
  return field('used_cpu_sys') + field('used_cpu_user');
}

async function main() {
  const cli = path.join(path.dirname(findRedisServer()), 'redis-benchmark');
  const cluster = await startRedisCluster({ masters: 3 });
  try {
    const [port, ...others] = cluster.ports as [number, ...number[]];
    const node = cluster.node(port);
    // A group id whose slot this primary serves.
    const slots = (await cluster.topology()).find((n) => n.port === port)?.slots ?? [];
    let channel = '';
    for (let i = 0; ; i++) {
      channel = `tally:group:{grp_bench_${i}}`;
      const slot = Number(await node.cluster('KEYSLOT', channel));
      if (slots.some(([from, to]) => slot >= from && slot <= to)) break;
    }
    const run = async (label: string, command: string, subscribers: number, pipeline: number) => {
      const subs: Redis[] = [];
      let received = 0;
      for (let i = 0; i < subscribers; i++) {
        const sub = new Redis({ host: '127.0.0.1', port });
        sub.on('smessage', () => received++);
        sub.on('message', () => received++);
        if (command === 'SPUBLISH') await sub.ssubscribe(channel);
        else await sub.subscribe(channel);
        subs.push(sub);
      }
      const othersBefore = await Promise.all(others.map((p) => cpuSeconds(cluster.node(p))));
      const selfBefore = await cpuSeconds(node);
      const started = process.hrtime.bigint();
      const { stdout } = await execFileAsync(cli, [
        '-p',
        String(port),
        '-n',
        String(REQUESTS),
        '-c',
        '50',
        '-P',
        String(pipeline),
        '--csv',
        command,
        channel,
        MESSAGE,
      ]);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const self = (await cpuSeconds(node)) - selfBefore;
      const othersCpu = (await Promise.all(others.map((p) => cpuSeconds(cluster.node(p))))).map(
        (after, i) => after - (othersBefore[i] ?? 0),
      );
      // The command (with the message's JSON) is the first CSV field; the seven figures end the line.
      const figures = [...(stdout.trim().split('\n').at(-1) ?? '').matchAll(/"([\d.]+)"/g)].map((m) =>
        Number(m[1]),
      );
      const rps = figures.at(-7) ?? 0;
      const p99 = figures.at(-2) ?? 0;
      const deadline = Date.now() + 10_000;
      while (received < REQUESTS * subscribers && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      for (const sub of subs) sub.disconnect();
      const micros = (cpu: number) => ((cpu * 1e6) / REQUESTS).toFixed(1);
      process.stdout.write(
        `${label}: ${Math.round(rps).toLocaleString('en')} msg/s (p99 ${p99} ms), ` +
          `${received.toLocaleString('en')} delivered to ${subscribers} subscribers; CPU per message: ` +
          `this primary ${micros(self)} µs, each other primary ${othersCpu.map(micros).join(' / ')} µs ` +
          `(${seconds.toFixed(1)} s)\n`,
      );
    };
    for (const pipeline of [1, 16]) {
      await run(`SPUBLISH, 0 subscribers, pipeline ${pipeline}`, 'SPUBLISH', 0, pipeline);
      await run(`SPUBLISH, 4 subscribers, pipeline ${pipeline}`, 'SPUBLISH', 4, pipeline);
      await run(`PUBLISH (cluster-wide), 4 subscribers, pipeline ${pipeline}`, 'PUBLISH', 4, pipeline);
    }
  } finally {
    await cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
