/**
 * A local fleet: N API and M gateway processes behind HAProxy on one port, against PostgreSQL and
 * Redis (found, or started when absent). HTTP is balanced round robin with health checks on
 * /readyz; /v1/ws goes to the gateways with cookie affinity. Used by `npm run fleet`, the load
 * test and the chaos run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/support/server-process';
import { ensureBuilt } from './ensure-built';
import { findHaproxy, haproxySees, type RunningHaproxy, startHaproxy } from './haproxy';
import { NODE_FLAGS_BY_ROLE } from './node-flags';

export { findHaproxy } from './haproxy';

const ROOT = path.resolve(__dirname, '../..');

export type FleetMember = {
  name: string;
  role: 'api' | 'gateway';
  port: number;
  child: ChildProcess | undefined;
};

export type FleetOptions = {
  api: number;
  gateways: number;
  /** The public port HAProxy listens on. @default 8080 */
  port?: number;
  databaseUrl: string;
  redisUrl: string;
  /** Extra environment for every Tally process. */
  env?: Record<string, string>;
  log?: (line: string) => void;
};

export type Fleet = {
  url: string;
  members: FleetMember[];
  /** SIGKILL one member (it stays down until `restart`). */
  kill(name: string): Promise<void>;
  /** SIGTERM (graceful drain) or SIGKILL, then start it again and wait until HAProxy sees it up. */
  restart(name: string, signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Restarts every member in turn, gracefully, waiting for each to be healthy again. */
  rollingRestart(): Promise<void>;
  /** Resolves when HAProxy sees every member up (e.g. after a dependency came back). */
  waitHealthy(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
};

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let ok = false;
    try {
      ok = await check();
    } catch {
      // not up yet
    }
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const isReady = async (port: number) => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  findHaproxy(); // fail before starting anything when it is missing
  const log = options.log ?? (() => {});
  // Members run the compiled bundle, as production does (built here when dist/ is missing or stale).
  const bundle = ensureBuilt(log);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-fleet-'));
  const publicPort = options.port ?? 8080;
  const jwtSecret = options.env?.['JWT_SECRET'] ?? randomBytes(32).toString('hex');
  const members: FleetMember[] = [];
  for (let i = 1; i <= options.api; i++)
    members.push({ name: `api${i}`, role: 'api', port: await freePort(), child: undefined });
  for (let i = 1; i <= options.gateways; i++) {
    members.push({ name: `gateway${i}`, role: 'gateway', port: await freePort(), child: undefined });
  }

  const launch = (member: FleetMember) => {
    // The role's production flags (infra/fleet/node-flags.ts), as k8s/base runs it.
    const argv = [...NODE_FLAGS_BY_ROLE[member.role], '--enable-source-maps', bundle];
    const child = spawn(process.execPath, argv, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        ROLE: member.role,
        PORT: String(member.port),
        DATABASE_URL: options.databaseUrl,
        REDIS_URL: options.redisUrl,
        JWT_SECRET: jwtSecret,
        LOG_LEVEL: 'warn',
        DATA_DIR: path.join(dir, member.name),
        SHUTDOWN_TIMEOUT_SECONDS: '10',
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) log(`[${member.name}] ${line}`);
    });
    member.child = child;
    return child;
  };
  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let lb: RunningHaproxy | undefined;
  try {
    // The first member boots alone so that it runs the migrations before the others start.
    const [first, ...rest] = members;
    if (first) {
      launch(first);
      await waitUntil(() => isReady(first.port), 60_000, `${first.name} ready`);
    }
    for (const member of rest) launch(member);
    await Promise.all(rest.map((m) => waitUntil(() => isReady(m.port), 60_000, `${m.name} ready`)));
    lb = await startHaproxy({ port: publicPort, servers: members, dir, log });
    await lb.waitAllUp(30_000);
  } catch (error) {
    await lb?.stop();
    for (const m of members) m.child?.kill('SIGKILL');
    await Promise.all(members.map((m) => (m.child ? exited(m.child) : undefined)));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const proxy = lb;
  const statsSocket = proxy.statsSocket;
  const url = proxy.url;
  log(`fleet up: ${url} (${options.api} api, ${options.gateways} gateways)`);

  const byName = (name: string) => {
    const member = members.find((m) => m.name === name);
    if (!member) throw new Error(`no fleet member ${name}`);
    return member;
  };
  const restart = async (name: string, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const member = byName(name);
    if (member.child) {
      member.child.kill(signal);
      await exited(member.child);
    }
    launch(member);
    await waitUntil(() => isReady(member.port), 60_000, `${name} ready again`);
    await waitUntil(() => haproxySees(statsSocket, name), 30_000, `HAProxy seeing ${name} up`);
  };

  return {
    url,
    members,
    async kill(name) {
      const member = byName(name);
      member.child?.kill('SIGKILL');
      if (member.child) await exited(member.child);
    },
    restart,
    async rollingRestart() {
      for (const member of members) {
        log(`rolling restart: ${member.name}`);
        await restart(member.name, 'SIGTERM');
      }
    },
    waitHealthy: (timeoutMs = 60_000) => proxy.waitAllUp(timeoutMs),
    async stop() {
      const lbStopped = proxy.stop();
      await Promise.all(
        members.map(async (m) => {
          if (!m.child) return;
          m.child.kill('SIGTERM');
          await exited(m.child);
        }),
      );
      await lbStopped;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
