/**
 * Throwaway PostgreSQL and Redis servers for the tests (services.ts says when one is started):
 * found among the installed binaries, started on a free port in a temporary directory, deleted by
 * `stop()`, taken down and brought back by `down()`/`up()`.
 *
 * Running as root: initdb and postgres refuse to run as root. In that case the throwaway cluster is
 * created and run as the `postgres` OS user (created by the Debian `postgresql` package), through
 * `runuser -u postgres --` (or `su postgres -s /bin/sh -c` where runuser is missing), in a temporary
 * directory chowned to that user. redis-server has no such restriction and runs as the current user.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './free-port';
import { probePostgres, probeRedis } from './service-probes';
import type { ThrowawayService } from './services';
import { errorMessage, until } from './until';

export { freePort };

const execFileAsync = promisify(execFile);

// ---------------------------------------------------------------------------------------------------------
// Small process helpers

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(name: string, extraDirs: string[] = []): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...extraDirs].filter(Boolean);
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** How to run a PostgreSQL binary: directly, or as the `postgres` user when we are root. */
export type Runner = {
  command(file: string, args: string[]): [string, string[]];
  /** Hands a directory we created to the user that runs the server. */
  adopt(dir: string): void;
  description: string;
};

export function postgresRunner(): Runner {
  if (!isRoot()) {
    return { command: (file, args) => [file, args], adopt: () => {}, description: 'the current user' };
  }
  let uid: number;
  let gid: number;
  try {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  } catch {
    throw new Error(
      'Running as root, and initdb/postgres refuse to run as root, but there is no "postgres" OS user to ' +
        'run them as. Install the Debian package `postgresql` (apt-get install -y postgresql), which creates ' +
        'it, or run the tests as a non-root user, or point TEST_DATABASE_URL at a running server.',
    );
  }
  const runuser = findOnPath('runuser', ['/usr/sbin', '/sbin']);
  const su = findOnPath('su', ['/usr/bin', '/bin']);
  if (!runuser && !su)
    throw new Error('Running as root, but neither runuser nor su is available to drop to postgres.');
  return {
    command: (file, args) =>
      runuser
        ? [runuser, ['-u', 'postgres', '--', file, ...args]]
        : [su!, ['postgres', '-s', '/bin/sh', '-c', [file, ...args].map(shellQuote).join(' ')]],
    adopt: (dir) => chownSync(dir, uid, gid),
    description: 'the postgres user (we are root)',
  };
}

// ---------------------------------------------------------------------------------------------------------
// PostgreSQL

const PG_PACKAGE_HINT =
  'Install the Debian package `postgresql` (apt-get install -y postgresql), or set TEST_DATABASE_URL to a ' +
  'running server, or TALLY_PG_BINDIR to the directory holding initdb and pg_ctl.';

/** The directory holding initdb, pg_ctl and postgres. Prefers the newest Debian /usr/lib/postgresql/<ver>. */
export function findPostgresBinDir(): string {
  const hasAll = (dir: string) =>
    ['initdb', 'pg_ctl', 'postgres'].every((b) => isExecutable(path.join(dir, b)));
  const candidates: string[] = [];
  if (process.env.TALLY_PG_BINDIR) candidates.push(process.env.TALLY_PG_BINDIR);
  try {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    for (const version of versions) candidates.push(path.join('/usr/lib/postgresql', version, 'bin'));
  } catch {
    // not a Debian layout
  }
  const pgConfig = findOnPath('pg_config');
  if (pgConfig) {
    try {
      candidates.push(execFileSync(pgConfig, ['--bindir'], { encoding: 'utf8' }).trim());
    } catch {
      // ignore
    }
  }
  const initdb = findOnPath('initdb');
  if (initdb) candidates.push(path.dirname(initdb));
  const found = candidates.find(hasAll);
  if (!found) {
    throw new Error(
      `Cannot start a throwaway PostgreSQL: initdb/pg_ctl/postgres not found. ${PG_PACKAGE_HINT}`,
    );
  }
  return found;
}

/** Makes a temporary directory that `runner`'s user can write to. */
export function makeTempDir(prefix: string, runner: Runner): string {
  const bases = [...new Set([os.tmpdir(), '/tmp'])];
  const problems: string[] = [];
  for (const base of bases) {
    let dir: string | undefined;
    try {
      dir = mkdtempSync(path.join(base, prefix));
      runner.adopt(dir);
      const [file, args] = runner.command('/bin/sh', ['-c', `test -w ${shellQuote(dir)}`]);
      execFileSync(file, args, { stdio: 'ignore' });
      return dir;
    } catch (error) {
      problems.push(`${base}: ${errorMessage(error)}`);
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error(`No temporary directory usable by ${runner.description}: ${problems.join('; ')}`);
}

export async function run(runner: Runner, file: string, args: string[], cwd: string): Promise<void> {
  const [command, commandArgs] = runner.command(file, args);
  try {
    await execFileAsync(command, commandArgs, { cwd, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${path.basename(file)} failed: ${errorMessage(error)}\n${e.stdout ?? ''}${e.stderr ?? ''}`.trimEnd(),
    );
  }
}

const exitCleanups = new Set<() => void>();
let exitHookInstalled = false;
/** Last-resort cleanup if the process exits without calling stop() (e.g. a crash after setup). */
export function onExit(cleanup: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const fn of exitCleanups) {
        try {
          fn();
        } catch {
          // best effort
        }
      }
    });
  }
  exitCleanups.add(cleanup);
  return () => exitCleanups.delete(cleanup);
}

export async function startEphemeralPostgres(): Promise<ThrowawayService> {
  const binDir = findPostgresBinDir();
  const runner = postgresRunner();
  const tmp = makeTempDir('tally-pg-', runner);
  const dataDir = path.join(tmp, 'data');
  const logFile = path.join(tmp, 'postgres.log');
  const pgCtl = path.join(binDir, 'pg_ctl');
  let started = false;

  const stopSync = () => {
    if (started) {
      const [command, args] = runner.command(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      execFileSync(command, args, { cwd: tmp, stdio: 'ignore' });
      started = false;
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  const forget = onExit(stopSync);

  try {
    await run(
      runner,
      path.join(binDir, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'],
      tmp,
    );

    let url: string | undefined;
    let serverOptions = '';
    for (let attempt = 1; !url; attempt++) {
      const port = await freePort();
      serverOptions = [
        `-p ${port}`,
        `-k ${shellQuote(tmp)}`,
        `-c listen_addresses=127.0.0.1`,
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=200',
      ].join(' ');
      try {
        await run(
          runner,
          pgCtl,
          ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions, 'start'],
          tmp,
        );
        started = true;
        url = `postgres://postgres@127.0.0.1:${port}`;
      } catch (error) {
        if (attempt >= 3) throw new Error(`${errorMessage(error)}\n--- postgres.log ---\n${tail(logFile)}`);
      }
    }

    const maintenanceUrl = `${url}/postgres`;
    const startArgs = ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions, 'start'];
    await until(() => probePostgres(maintenanceUrl), { what: 'throwaway PostgreSQL', intervalMs: 200 });
    const client = new Client({ connectionString: maintenanceUrl });
    await client.connect();
    try {
      await client.query('create database test');
    } finally {
      await client.end();
    }

    let stopped = false;
    return {
      url: `${url}/test`,
      ephemeral: true,
      async down() {
        if (!started) return;
        await run(runner, pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop'], tmp);
        started = false;
      },
      async up() {
        if (stopped) throw new Error('this throwaway PostgreSQL was stopped for good');
        if (started) return;
        try {
          await run(runner, pgCtl, startArgs, tmp);
        } catch (error) {
          throw new Error(`${errorMessage(error)}\n--- postgres.log ---\n${tail(logFile)}`);
        }
        started = true;
        await until(() => probePostgres(maintenanceUrl), { what: 'throwaway PostgreSQL', intervalMs: 200 });
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        forget();
        try {
          if (started) await run(runner, pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], tmp);
          started = false;
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    forget();
    try {
      stopSync();
    } catch {
      // keep the original error
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Redis

const REDIS_PACKAGE_HINT =
  'Install the Debian package `redis-server` (apt-get install -y redis-server), or set TEST_REDIS_URL to a ' +
  'running server.';

export function findRedisServer(): string {
  const found = findOnPath('redis-server', ['/usr/bin', '/usr/sbin', '/usr/local/bin']);
  if (!found)
    throw new Error(`Cannot start a throwaway Redis: redis-server not found. ${REDIS_PACKAGE_HINT}`);
  return found;
}

export async function startEphemeralRedis(): Promise<ThrowawayService> {
  const binary = findRedisServer();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tally-redis-'));
  const logFile = path.join(tmp, 'redis.log');
  let child: ChildProcess | undefined;
  const isRunning = (proc: ChildProcess | undefined): proc is ChildProcess =>
    proc !== undefined && proc.exitCode === null && proc.signalCode === null;

  const killSync = () => {
    if (isRunning(child)) child.kill('SIGKILL');
    rmSync(tmp, { recursive: true, force: true });
  };
  const forget = onExit(killSync);

  /** Starts redis-server on `port` and waits until it answers PING; kills it again if it does not. */
  const launch = async (port: number): Promise<string> => {
    let exited: string | undefined;
    // biome-ignore format: one flag per line
    const args = [
      '--port', String(port),
      '--bind', '127.0.0.1',
      '--save', '',
      '--appendonly', 'no',
      '--daemonize', 'no',
      '--dir', tmp,
      '--logfile', logFile,
    ];
    const proc = spawn(binary, args, { cwd: tmp, stdio: 'ignore' });
    child = proc;
    proc.unref(); // must never keep the test runner alive; stop() or the exit hook kills it
    proc.on('error', (error) => {
      exited = errorMessage(error);
    });
    proc.on('exit', (code, signal) => {
      exited = `redis-server exited (${signal ?? `code ${code}`})`;
    });
    const url = `redis://127.0.0.1:${port}`;
    try {
      await until(() => probeRedis(url, 1000), {
        what: 'throwaway Redis',
        intervalMs: 200,
        abort: () => exited,
      });
      return url;
    } catch (error) {
      if (isRunning(proc)) proc.kill('SIGKILL');
      throw new Error(`${errorMessage(error)}\n--- redis.log ---\n${tail(logFile)}`);
    }
  };
  const killed = async (proc: ChildProcess | undefined, signal: NodeJS.Signals) => {
    if (!isRunning(proc)) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };

  try {
    let url: string | undefined;
    let port = 0;
    for (let attempt = 1; !url; attempt++) {
      port = await freePort();
      try {
        url = await launch(port);
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }

    let stopped = false;
    return {
      url,
      ephemeral: true,
      down: () => killed(child, 'SIGKILL'),
      async up() {
        if (stopped) throw new Error('this throwaway Redis was stopped for good');
        if (!isRunning(child)) await launch(port);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        forget();
        try {
          await killed(child, 'SIGTERM');
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    forget();
    killSync();
    throw error;
  }
}
