/**
 * A real, throwaway Redis Cluster on this machine: `masters` primaries with `replicasPerMaster`
 * replicas each, one `redis-server --cluster-enabled yes` child process per node on free ports
 * (client port and cluster bus port both chosen free, `--cluster-port`), no persistence, in a
 * temporary directory, joined by `redis-cli --cluster create … --cluster-replicas N --cluster-yes`.
 *
 *   const cluster = await startRedisCluster({ replicasPerMaster: 1, nodeTimeoutMs: 1000 });
 *   process.env.REDIS_CLUSTER_NODES = cluster.nodes;         // "127.0.0.1:p1,127.0.0.1:p2,…"
 *   await cluster.kill(await cluster.masterOfSlot(slot));     // SIGKILL one primary
 *   await cluster.waitHealthy();                              // its replica took over
 *   await cluster.stop();                                     // in afterAll
 *
 * The jest global setup starts one (3 primaries, no replicas: the contract suites need a cluster,
 * not failover) and publishes it as TEST_REDIS_CLUSTER_NODES, unless that variable already names a
 * running cluster. A test that kills nodes starts one of its own.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { findRedisServer, freePort, onExit, tail } from './services';
import { errorMessage, until } from './until';

const execFileAsync = promisify(execFile);

export type ClusterNodeInfo = {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** The primary a replica follows. */
  masterId: string | undefined;
  /** Slot ranges a primary serves, inclusive. */
  slots: [number, number][];
  /** Flagged `fail` or `fail?`, or its link is down, as seen from the node asked. */
  failing: boolean;
};

export type RedisCluster = {
  /** `127.0.0.1:port,…` of every node: what REDIS_CLUSTER_NODES takes. */
  nodes: string;
  ports: number[];
  /** True when `stop()` tears down a cluster this process started. */
  ephemeral: boolean;
  stop(): Promise<void>;
};

export type ThrowawayRedisCluster = RedisCluster & {
  ephemeral: true;
  /** The topology as a live node sees it (CLUSTER NODES). */
  topology(): Promise<ClusterNodeInfo[]>;
  /** The port of the live primary serving `slot`. */
  masterOfSlot(slot: number): Promise<number>;
  /** SIGKILLs the node on `port` (no persistence: its data is gone). */
  kill(port: number): Promise<void>;
  /** Starts a killed node again on its port, with its node id (it rejoins, as a replica if it was failed over). */
  restart(port: number): Promise<void>;
  /**
   * Resolves once every slot is served by a primary that is up and not flagged failing, and every
   * running node reports `cluster_state:ok`; with `replicas`, also once every primary has that many
   * replicas whose replication link is up (so that a primary may be killed and failed over).
   */
  waitHealthy(options?: { replicas?: number; timeoutMs?: number }): Promise<void>;
  /** A connection to the node on `port` alone (not a cluster client). */
  node(port: number): Redis;
};

export type ClusterOptions = {
  masters?: number;
  replicasPerMaster?: number;
  /** `cluster-node-timeout`: how long a primary may be unreachable before its replica is promoted. */
  nodeTimeoutMs?: number;
};

type NodeProcess = { port: number; busPort: number; dir: string; child: ChildProcess | undefined };

const isRunning = (proc: ChildProcess | undefined): proc is ChildProcess =>
  proc !== undefined && proc.exitCode === null && proc.signalCode === null;

/** Parses CLUSTER NODES. */
export function parseClusterNodes(text: string): ClusterNodeInfo[] {
  return text
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id = '', address = '', flags = '', master = '-', , , , link = '', ...slotFields] = line
        .trim()
        .split(' ');
      const flagList = flags.split(',');
      const port = Number(address.split('@')[0]?.split(':').at(-1));
      const slots: [number, number][] = [];
      for (const field of slotFields) {
        if (field.startsWith('[')) continue; // a slot being migrated or imported
        const [from, to] = field.split('-').map(Number);
        if (from !== undefined) slots.push([from, to ?? from]);
      }
      return {
        id,
        port,
        role: flagList.includes('master') ? 'master' : 'replica',
        masterId: master === '-' ? undefined : master,
        slots,
        failing:
          flagList.includes('fail') ||
          flagList.includes('fail?') ||
          flagList.includes('noaddr') ||
          link !== 'connected',
      } satisfies ClusterNodeInfo;
    });
}

async function info(client: Redis, section: string): Promise<Record<string, string>> {
  const text = section === 'cluster' ? await client.cluster('INFO') : await client.info(section);
  const fields: Record<string, string> = {};
  for (const line of String(text).split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields[line.slice(0, at)] = line.slice(at + 1).trim();
  }
  return fields;
}

export async function startRedisCluster(options: ClusterOptions = {}): Promise<ThrowawayRedisCluster> {
  const masters = options.masters ?? 3;
  const replicasPerMaster = options.replicasPerMaster ?? 0;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 2000;
  const binary = findRedisServer();
  const cli = path.join(path.dirname(binary), 'redis-cli');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tally-redis-cluster-'));
  const procs: NodeProcess[] = [];
  const clients = new Map<number, Redis>();

  const killAllSync = () => {
    for (const proc of procs) if (isRunning(proc.child)) proc.child.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  };
  const forget = onExit(killAllSync);

  const node = (port: number): Redis => {
    let client = clients.get(port);
    if (!client) {
      client = new Redis({
        host: '127.0.0.1',
        port,
        lazyConnect: true,
        enableOfflineQueue: true,
        maxRetriesPerRequest: 0,
        connectTimeout: 1000,
        retryStrategy: () => 100,
      });
      client.on('error', () => {});
      clients.set(port, client);
    }
    return client;
  };

  const launch = async (proc: NodeProcess): Promise<void> => {
    let exited: string | undefined;
    const logFile = path.join(proc.dir, 'redis.log');
    // biome-ignore format: one flag per line
    const args = [
      '--port', String(proc.port),
      '--cluster-port', String(proc.busPort),
      '--bind', '127.0.0.1',
      '--cluster-enabled', 'yes',
      '--cluster-config-file', path.join(proc.dir, 'nodes.conf'),
      '--cluster-node-timeout', String(nodeTimeoutMs),
      '--save', '',
      '--appendonly', 'no',
      '--daemonize', 'no',
      '--dir', proc.dir,
      '--logfile', logFile,
    ];
    const child = spawn(binary, args, { cwd: proc.dir, stdio: 'ignore' });
    proc.child = child;
    child.unref(); // never keeps the test runner alive; stop() or the exit hook kills it
    child.on('error', (error) => {
      exited = errorMessage(error);
    });
    child.on('exit', (code, signal) => {
      exited = `redis-server exited (${signal ?? `code ${code}`})`;
    });
    try {
      await until(
        async () => {
          const probe = new Redis({
            host: '127.0.0.1',
            port: proc.port,
            lazyConnect: true,
            maxRetriesPerRequest: 0,
            enableOfflineQueue: false,
            retryStrategy: () => null,
          });
          probe.on('error', () => {});
          try {
            await probe.connect();
            await probe.ping();
          } finally {
            probe.disconnect();
          }
        },
        { what: `cluster node on port ${proc.port}`, intervalMs: 200, abort: () => exited },
      );
    } catch (error) {
      if (isRunning(child)) child.kill('SIGKILL');
      throw new Error(`${errorMessage(error)}\n--- redis.log ---\n${tail(logFile)}`);
    }
  };

  const stopNode = async (proc: NodeProcess, signal: NodeJS.Signals) => {
    const child = proc.child;
    if (!isRunning(child)) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };

  const live = () => procs.filter((proc) => isRunning(proc.child));

  const topology = async (): Promise<ClusterNodeInfo[]> => {
    let last: unknown;
    for (const proc of live()) {
      try {
        return parseClusterNodes(String(await node(proc.port).cluster('NODES')));
      } catch (error) {
        last = error;
      }
    }
    throw new Error(`no cluster node answers CLUSTER NODES: ${errorMessage(last)}`);
  };

  const waitHealthy = async (wait: { replicas?: number; timeoutMs?: number } = {}) => {
    const replicas = wait.replicas ?? 0;
    /** Throws what is not healthy yet. */
    const healthy = async () => {
      const running = new Set(live().map((proc) => proc.port));
      for (const port of running) {
        const state = (await info(node(port), 'cluster'))['cluster_state'];
        if (state !== 'ok') throw new Error(`node ${port}: cluster_state:${state}`);
      }
      const nodes = await topology();
      let covered = 0;
      for (const master of nodes.filter((n) => n.role === 'master' && n.slots.length > 0)) {
        if (master.failing || !running.has(master.port))
          throw new Error(`primary ${master.port} is down and still serves slots`);
        for (const [from, to] of master.slots) covered += to - from + 1;
        const followers = nodes.filter((n) => n.masterId === master.id && !n.failing && running.has(n.port));
        if (followers.length < replicas)
          throw new Error(`primary ${master.port} has ${followers.length} of ${replicas} replicas`);
        for (const follower of followers.slice(0, replicas)) {
          const link = (await info(node(follower.port), 'replication'))['master_link_status'];
          if (link !== 'up') throw new Error(`replica ${follower.port}: master_link_status:${link}`);
        }
      }
      if (covered !== 16384) throw new Error(`${covered} of 16384 slots served`);
    };
    await until(healthy, { what: 'the Redis Cluster', timeoutMs: wait.timeoutMs, intervalMs: 200 });
  };

  const stop = async () => {
    forget();
    for (const client of clients.values()) client.disconnect();
    clients.clear();
    try {
      await Promise.all(procs.map((proc) => stopNode(proc, 'SIGTERM')));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  };

  try {
    const count = masters * (1 + replicasPerMaster);
    const taken = new Set<number>();
    const pick = async () => {
      for (;;) {
        const port = await freePort();
        if (!taken.has(port)) {
          taken.add(port);
          return port;
        }
      }
    };
    for (let i = 0; i < count; i++) {
      const port = await pick();
      const dir = path.join(tmp, String(port));
      mkdirSync(dir);
      procs.push({ port, busPort: await pick(), dir, child: undefined });
    }
    await Promise.all(procs.map(launch));
    try {
      await execFileAsync(
        cli,
        [
          '--cluster',
          'create',
          ...procs.map((proc) => `127.0.0.1:${proc.port}`),
          '--cluster-replicas',
          String(replicasPerMaster),
          '--cluster-yes',
        ],
        { timeout: 60_000 },
      );
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      throw new Error(
        `redis-cli --cluster create failed: ${errorMessage(error)}\n${e.stdout ?? ''}${e.stderr ?? ''}`,
      );
    }
    await waitHealthy({ replicas: replicasPerMaster });
  } catch (error) {
    for (const client of clients.values()) client.disconnect();
    forget();
    killAllSync();
    throw error;
  }

  const byPort = (port: number) => {
    const proc = procs.find((p) => p.port === port);
    if (!proc) throw new Error(`no cluster node on port ${port}`);
    return proc;
  };

  return {
    nodes: procs.map((proc) => `127.0.0.1:${proc.port}`).join(','),
    ports: procs.map((proc) => proc.port),
    ephemeral: true,
    topology,
    async masterOfSlot(slot) {
      const nodes = await topology();
      const master = nodes.find(
        (n) => n.role === 'master' && !n.failing && n.slots.some(([from, to]) => slot >= from && slot <= to),
      );
      if (!master) throw new Error(`no live primary serves slot ${slot}`);
      return master.port;
    },
    async kill(port) {
      const proc = byPort(port);
      clients.get(port)?.disconnect();
      clients.delete(port);
      await stopNode(proc, 'SIGKILL');
    },
    async restart(port) {
      const proc = byPort(port);
      if (!isRunning(proc.child)) await launch(proc);
    },
    waitHealthy,
    node,
    stop,
  };
}

/**
 * The cluster the tests share: the one TEST_REDIS_CLUSTER_NODES names (it must answer), else a
 * throwaway one of 3 primaries without replicas.
 */
export async function ensureRedisCluster(): Promise<RedisCluster> {
  const explicit = process.env.TEST_REDIS_CLUSTER_NODES;
  if (explicit) {
    const [host = '127.0.0.1', port = '0'] = (explicit.split(',')[0] ?? '').trim().split(':');
    const probe = new Redis({ host, port: Number(port), lazyConnect: true, maxRetriesPerRequest: 0 });
    probe.on('error', () => {});
    try {
      await probe.connect();
      const state = (await info(probe, 'cluster'))['cluster_state'];
      if (state !== 'ok') throw new Error(`cluster_state:${state}`);
    } catch (error) {
      throw new Error(
        `TEST_REDIS_CLUSTER_NODES=${explicit} does not answer as a healthy cluster: ${errorMessage(error)}`,
      );
    } finally {
      probe.disconnect();
    }
    return {
      nodes: explicit,
      ports: explicit.split(',').map((entry) => Number(entry.split(':').at(-1))),
      ephemeral: false,
      stop: async () => {},
    };
  }
  return startRedisCluster({ masters: 3, replicasPerMaster: 0 });
}
