/**
 * A PostgreSQL primary and a synchronous standby from Debian's binaries, for failover tests:
 *
 *   const cluster = await startPgCluster();        // afterAll: await cluster.stop()
 *   const url = cluster.multiHostUrl('tally');      // postgres://postgres@127.0.0.1:p1,127.0.0.1:p2/tally?…
 *   await cluster.killPrimary();                   // SIGKILL of the primary's postmaster and backends
 *   await cluster.promote();                        // pg_ctl promote of the standby
 *   await cluster.rejoin();                         // the old primary: pg_rewind, back as a standby
 *
 * Two data directories in one temporary directory owned by the `postgres` OS user (initdb and
 * postgres refuse to run as root: see throwaway-servers.ts), each server on a free port. fsync stays
 * on and `synchronous_commit` at its default (`on`): a commit is acknowledged once the standby has
 * flushed it too, which is what the failover test relies on. Only start-up is made cheap (small
 * `shared_buffers`, `initdb --no-sync`).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import {
  findPostgresBinDir,
  freePort,
  makeTempDir,
  onExit,
  postgresRunner,
  run,
  tail,
} from './throwaway-servers';
import { errorMessage, until } from './until';

export type PgNode = {
  /** `a` or `b`: also its `cluster_name`, the standby's name in `synchronous_standby_names`. */
  name: string;
  port: number;
  dataDir: string;
  logFile: string;
};

export type PgCluster = {
  nodes: readonly [PgNode, PgNode];
  /** The node that is (or was last made) the primary. */
  primary(): PgNode;
  /** The other node. */
  standby(): PgNode;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` of one node. */
  urlOf(node: PgNode, database?: string): string;
  /** Both nodes, primary first, in libpq's multi-host form with `target_session_attrs=read-write`. */
  multiHostUrl(database: string): string;
  /** SIGKILL of the primary's postmaster and every process it started: a machine gone at once. */
  killPrimary(): Promise<void>;
  /**
   * `pg_ctl promote` of the standby, waiting until it accepts writes; it becomes `primary()`.
   * `synchronous_standby_names` is cleared on it (its standby is dead), as CloudNativePG's and
   * Patroni's non-strict modes do, or every commit would wait for a standby that is not there.
   */
  promote(): Promise<void>;
  /**
   * The old primary (stopped or killed) back as a synchronous standby of the new one: `pg_rewind`
   * (with `-R`) from the primary, start, and `synchronous_standby_names` naming it again.
   */
  rejoin(): Promise<void>;
  /** `pg_ctl stop -m fast` of the primary, then start again (the standby reconnects to it). */
  restartPrimary(): Promise<void>;
  /**
   * Whether the primary waits for the standby at each commit (`synchronous_standby_names` naming it,
   * waiting until it streams as `sync`), or not (`''`: the standby still streams, asynchronously).
   */
  setSynchronous(on: boolean): Promise<void>;
  /** Runs `text` on the maintenance database of `node` (the primary by default). */
  query<R>(text: string, values?: unknown[], node?: PgNode): Promise<R[]>;
  /** Stops both servers (immediate) and deletes the directory. Safe to call more than once. */
  stop(): Promise<void>;
};

const READY_TIMEOUT_MS = 30_000;

/** The settings of both nodes (the standby inherits them through `pg_basebackup`). */
const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  'wal_level = replica',
  'max_wal_senders = 8',
  'hot_standby = on',
  // pg_rewind needs hint-bit changes WAL-logged (or data checksums) to rewind an old primary.
  'wal_log_hints = on',
  // Enough WAL kept for a rejoining node to catch up without a replication slot.
  'wal_keep_size = 256MB',
  'shared_buffers = 16MB',
  'max_connections = 60',
  // The tests fail over in seconds; the standby notices a dead primary quickly.
  'wal_receiver_timeout = 5s',
  'wal_retrieve_retry_interval = 500ms',
];

export async function startPgCluster(): Promise<PgCluster> {
  const binDir = findPostgresBinDir();
  const bin = (name: string) => path.join(binDir, name);
  const runner = postgresRunner();
  const tmp = makeTempDir('tally-pgha-', runner);
  const nodes = [
    { name: 'a', port: await freePort(), dataDir: path.join(tmp, 'a'), logFile: path.join(tmp, 'a.log') },
    { name: 'b', port: await freePort(), dataDir: path.join(tmp, 'b'), logFile: path.join(tmp, 'b.log') },
  ] as const;
  let primaryIndex = 0;
  const running = new Set<PgNode>();
  const primary = () => nodes[primaryIndex] as PgNode;
  const standby = () => nodes[1 - primaryIndex] as PgNode;
  const urlOf = (node: PgNode, database = 'postgres') =>
    `postgres://postgres@127.0.0.1:${node.port}/${database}`;

  const stopSync = () => {
    for (const node of running) killNode(node);
    running.clear();
    rmSync(tmp, { recursive: true, force: true });
  };
  const forget = onExit(stopSync);

  const withLog = async <T>(node: PgNode, step: Promise<T>): Promise<T> => {
    try {
      return await step;
    } catch (error) {
      throw new Error(`${errorMessage(error)}\n--- ${node.name}.log ---\n${tail(node.logFile)}`);
    }
  };
  const query = async <R>(text: string, values: unknown[] = [], node = primary()): Promise<R[]> => {
    const client = new Client({ connectionString: urlOf(node), connectionTimeoutMillis: 5000 });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query(text, values)).rows as R[];
    } finally {
      await client.end().catch(() => {});
    }
  };
  const startNode = async (node: PgNode) => {
    const options = `-p ${node.port} -k ${tmp} -c cluster_name=${node.name}`;
    await withLog(
      node,
      run(
        runner,
        bin('pg_ctl'),
        ['-D', node.dataDir, '-l', node.logFile, '-w', '-t', '60', '-o', options, 'start'],
        tmp,
      ),
    );
    running.add(node);
    await withLog(
      node,
      until(async () => (await query<{ one: number }>('select 1 as one', [], node))[0]?.one === 1, {
        what: `PostgreSQL ${node.name} on port ${node.port} to answer`,
        timeoutMs: READY_TIMEOUT_MS,
        intervalMs: 100,
      }),
    );
  };
  /** Names the current standby in the primary's `synchronous_standby_names`, and waits for it to be `sync`. */
  const requireStandby = async () => {
    const name = standby().name;
    await query(`alter system set synchronous_standby_names = '"${name}"'`);
    await query('select pg_reload_conf()');
    await withLog(
      standby(),
      until(
        async () =>
          (
            await query<{ state: string }>(
              'select sync_state as state from pg_stat_replication where application_name = $1',
              [name],
            )
          )[0]?.state === 'sync',
        { what: `standby ${name} to stream synchronously`, timeoutMs: READY_TIMEOUT_MS, intervalMs: 100 },
      ),
    );
  };

  const cluster: PgCluster = {
    nodes,
    primary,
    standby,
    urlOf,
    multiHostUrl: (database) =>
      `postgres://postgres@127.0.0.1:${primary().port},127.0.0.1:${standby().port}/${database}?target_session_attrs=read-write`,
    async killPrimary() {
      const node = primary();
      killNode(node);
      running.delete(node);
    },
    async promote() {
      const node = standby();
      await withLog(node, run(runner, bin('pg_ctl'), ['-D', node.dataDir, '-w', '-t', '60', 'promote'], tmp));
      await withLog(
        node,
        until(
          async () =>
            (await query<{ r: boolean }>('select pg_is_in_recovery() as r', [], node))[0]?.r === false,
          {
            what: `${node.name} to leave recovery`,
            timeoutMs: READY_TIMEOUT_MS,
            intervalMs: 50,
          },
        ),
      );
      primaryIndex = 1 - primaryIndex;
      await cluster.setSynchronous(false);
    },
    async rejoin() {
      const old = standby();
      if (running.has(old)) {
        await run(runner, bin('pg_ctl'), ['-D', old.dataDir, '-m', 'fast', '-w', 'stop'], tmp);
        running.delete(old);
      }
      // The new primary's timeline must be on disk before pg_rewind compares histories.
      await query('checkpoint');
      const source = `host=127.0.0.1 port=${primary().port} user=postgres dbname=postgres`;
      await withLog(
        old,
        run(runner, bin('pg_rewind'), ['-D', old.dataDir, `--source-server=${source}`, '-R'], tmp),
      );
      await startNode(old);
      await requireStandby();
    },
    async restartPrimary() {
      const node = primary();
      await withLog(node, run(runner, bin('pg_ctl'), ['-D', node.dataDir, '-m', 'fast', '-w', 'stop'], tmp));
      running.delete(node);
      await startNode(node);
    },
    async setSynchronous(on) {
      if (on) return requireStandby();
      await query("alter system set synchronous_standby_names = ''");
      await query('select pg_reload_conf()');
    },
    query,
    async stop() {
      forget();
      stopSync();
    },
  };

  try {
    const [a, b] = nodes;
    await run(
      runner,
      bin('initdb'),
      ['-D', a.dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
      tmp,
    );
    const conf = path.join(a.dataDir, 'postgresql.conf');
    // Appended as the postgres user: the file is theirs.
    await run(runner, '/bin/sh', ['-c', `printf '%s\\n' "$@" >> '${conf}'`, 'sh', ...SETTINGS], tmp);
    await startNode(a);
    await withLog(
      a,
      run(
        runner,
        bin('pg_basebackup'),
        [
          '-h',
          '127.0.0.1',
          '-p',
          String(a.port),
          '-U',
          'postgres',
          '-D',
          b.dataDir,
          '-R',
          '-X',
          'stream',
          '-c',
          'fast',
        ],
        tmp,
      ),
    );
    await startNode(b);
    await requireStandby();
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** SIGKILL of a node's postmaster, then of every process it had started (no clean shutdown of any). */
function killNode(node: PgNode): void {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  // Frozen first (the postmaster can fork no more, no backend can say goodbye to its client), then
  // killed: the clients see their connections reset, as when the machine goes.
  const signal = (victims: number[], name: NodeJS.Signals) => {
    for (const victim of victims) {
      try {
        process.kill(victim, name);
      } catch {
        // already gone
      }
    }
  };
  signal([pid], 'SIGSTOP');
  const all = [pid, ...childrenOf(pid)];
  signal(all, 'SIGSTOP');
  signal(all, 'SIGKILL');
  // Wait (briefly, synchronously) until the postmaster is gone, so a restart finds its port free.
  for (let i = 0; i < 200 && alive(pid); i++) execFileSync('sleep', ['0.01']);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids whose parent is `pid` (the postmaster's backends and workers), from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The fields after the command (which may hold spaces) in parentheses: state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
