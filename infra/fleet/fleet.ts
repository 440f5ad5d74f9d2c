/**
 * A local fleet: N API and M gateway processes behind HAProxy on one port, against PostgreSQL and
 * Redis (found, or started when absent). HTTP is balanced round robin with health checks on
 * /readyz; /v1/ws goes to the gateways with cookie affinity. Used by `npm run fleet`, the load
 * test and the chaos run.
 *
 * With `containers`, each member is a container of Tally's image instead of a child process (podman,
 * run as production runs it: infra/image/podman.ts), on the host network behind the same HAProxy;
 * `rollingUpdate(image)` replaces each container in turn with one of another image tag.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/support/server-process';
import { productionRunArgs, signalContainer } from '../image/podman';
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
  /** Container fleets: the image this member's container runs (or will run when started again). */
  image?: string;
  /** Container fleets: the name of the member's current container. */
  container?: string;
};

/** One stop of a member: from the signal until its process (or container) exited. */
export type Drain = { name: string; signal: 'SIGTERM' | 'SIGKILL'; ms: number; exitCode: number | null };

export type FleetOptions = {
  api: number;
  gateways: number;
  /** The public port HAProxy listens on. @default 8080 */
  port?: number;
  databaseUrl: string;
  redisUrl: string;
  /** Extra environment for every Tally process. */
  env?: Record<string, string>;
  /** Run each member as a container of this image (podman) instead of `node dist/server.js`. */
  containers?: { image: string };
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
  /**
   * Container fleets: replaces every member in turn with a container of `image` (SIGTERM, wait for
   * the drain, start the new one, wait for /readyz and for HAProxy to see it up).
   */
  rollingUpdate(image: string): Promise<void>;
  /** Every stop so far (restarts, rolls, kills), in order. */
  drains: Drain[];
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
  const containers = options.containers;
  // Members run the compiled bundle, as production does (built here when dist/ is missing or stale);
  // containers run the image's own.
  const bundle = containers ? undefined : ensureBuilt(log);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-fleet-'));
  const publicPort = options.port ?? 8080;
  const jwtSecret = options.env?.['JWT_SECRET'] ?? randomBytes(32).toString('hex');
  const members: FleetMember[] = [];
  const image = containers?.image;
  for (let i = 1; i <= options.api; i++)
    members.push({ name: `api${i}`, role: 'api', port: await freePort(), child: undefined, image });
  for (let i = 1; i <= options.gateways; i++) {
    members.push({ name: `gateway${i}`, role: 'gateway', port: await freePort(), child: undefined, image });
  }
  const drains: Drain[] = [];
  let launches = 0;

  const launchContainer = (member: FleetMember) => {
    // Unique per start: the previous container of this member may still be being removed.
    member.container = `tally-fleet-${process.pid}-${member.name}-${++launches}`;
    const args = productionRunArgs({
      name: member.container,
      image: member.image as string,
      role: member.role,
      env: {
        PORT: String(member.port),
        DATABASE_URL: options.databaseUrl,
        REDIS_URL: options.redisUrl,
        JWT_SECRET: jwtSecret,
        LOG_LEVEL: 'warn',
        SHUTDOWN_TIMEOUT_SECONDS: '10',
        ...options.env,
      },
    });
    // Attached: podman exits when the container does, with its status (and removes it, --rm).
    const child = spawn('podman', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) log(`[${member.name}] ${line}`);
    });
    member.child = child;
    return child;
  };
  const launch = (member: FleetMember) => {
    if (containers) return launchContainer(member);
    // The role's production flags (infra/fleet/node-flags.ts), as k8s/base runs it.
    const argv = [...NODE_FLAGS_BY_ROLE[member.role], '--enable-source-maps', bundle as string];
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
  /** Signals a member (its container's PID 1 for containers: podman's own process only relays). */
  const signal = (member: FleetMember, sig: 'SIGTERM' | 'SIGKILL') => {
    if (!member.child) return;
    if (containers && member.container) signalContainer(member.container, sig);
    else member.child.kill(sig);
  };
  /** Signals a member and waits until it exited; records how long that took. */
  const stopMember = async (member: FleetMember, sig: 'SIGTERM' | 'SIGKILL') => {
    const child = member.child;
    if (!child) return;
    const started = performance.now();
    signal(member, sig);
    await exited(child);
    drains.push({
      name: member.name,
      signal: sig,
      ms: performance.now() - started,
      exitCode: child.exitCode,
    });
  };

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
    for (const m of members) signal(m, 'SIGKILL');
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
  const restart = async (name: string, sig: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    const member = byName(name);
    await stopMember(member, sig);
    launch(member);
    await waitUntil(() => isReady(member.port), 60_000, `${name} ready again`);
    await waitUntil(() => haproxySees(statsSocket, name), 30_000, `HAProxy seeing ${name} up`);
  };

  return {
    url,
    members,
    async kill(name) {
      await stopMember(byName(name), 'SIGKILL');
    },
    restart,
    async rollingRestart() {
      for (const member of members) {
        log(`rolling restart: ${member.name}`);
        await restart(member.name, 'SIGTERM');
      }
    },
    async rollingUpdate(newImage) {
      if (!containers) throw new Error('rollingUpdate needs a container fleet');
      for (const member of members) {
        log(`rolling update: ${member.name} -> ${newImage}`);
        member.image = newImage;
        await restart(member.name, 'SIGTERM');
      }
    },
    drains,
    waitHealthy: (timeoutMs = 60_000) => proxy.waitAllUp(timeoutMs),
    async stop() {
      const lbStopped = proxy.stop();
      await Promise.all(
        members.map(async (m) => {
          if (!m.child) return;
          signal(m, 'SIGTERM');
          await exited(m.child);
        }),
      );
      await lbStopped;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
