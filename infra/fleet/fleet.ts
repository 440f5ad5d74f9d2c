/**
 * A local fleet: N API and M gateway processes behind HAProxy on one port, against PostgreSQL and
 * Redis (found, or started when absent). HTTP is balanced round robin with health checks on
 * /readyz; /v1/ws goes to the gateways with cookie affinity. Used by `npm run fleet`, the load
 * test and the chaos run.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/support/server-process';

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
  stop(): Promise<void>;
};

export function findHaproxy(): string {
  for (const candidate of ['haproxy', '/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) {
    const found = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (found.status === 0) return candidate;
  }
  throw new Error(
    'HAProxy is not installed: install the Debian package `haproxy` (apt-get install -y haproxy).',
  );
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let ok = false;
    try {
      ok = await check();
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('HAProxy exited')) throw error;
    }
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const isReady = async (port: number) => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;

function haproxyConfig(port: number, members: FleetMember[], statsSocket: string): string {
  const apis = members.filter((m) => m.role === 'api');
  const gateways = members.filter((m) => m.role === 'gateway');
  return `global
  # Two file descriptors per proxied connection must fit under the usual 20000 limit.
  maxconn 8000
  stats socket ${statsSocket} mode 600 level admin

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout http-keep-alive 10s
  option redispatch 1
  retries 3
  # A draining or dead API process answers 503 (or drops the connection) without executing the
  # request; HAProxy resends it to another one. Safe for writes too: Tally's writes are keyed.
  retry-on conn-failure empty-response 503
  option http-buffer-request
  default-server inter 500ms fall 2 rise 2

frontend public
  bind 127.0.0.1:${port}
  option forwardfor
  acl websocket path_beg /v1/ws
  use_backend gateways if websocket
  default_backend apis

backend apis
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
${apis.map((m) => `  server ${m.name} 127.0.0.1:${m.port} check`).join('\n')}

backend gateways
  balance roundrobin
  # Sticky: a client that returns the cookie comes back to the same gateway.
  cookie TALLY_GW insert indirect nocache
  option httpchk GET /readyz
  http-check expect status 200
${gateways.map((m) => `  server ${m.name} 127.0.0.1:${m.port} check cookie ${m.name}`).join('\n')}
`;
}

/** Whether HAProxy currently routes to `server` (via its admin socket). */
async function haproxySees(statsSocket: string, server: string): Promise<boolean> {
  const output = await new Promise<string>((resolve, reject) => {
    const socket = net.createConnection(statsSocket);
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.write('show stat\n');
  });
  const line = output.split('\n').find((l) => l.split(',')[1] === server);
  return line?.split(',')[17]?.startsWith('UP') ?? false;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const haproxy = findHaproxy();
  const log = options.log ?? (() => {});
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
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
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

  const statsSocket = path.join(dir, 'haproxy.sock');
  // The first member boots alone so that it runs the migrations before the others start.
  const [first, ...rest] = members;
  if (first) {
    launch(first);
    await waitUntil(() => isReady(first.port), 60_000, `${first.name} ready`);
  }
  for (const member of rest) launch(member);
  await Promise.all(rest.map((m) => waitUntil(() => isReady(m.port), 60_000, `${m.name} ready`)));

  const configFile = path.join(dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(publicPort, members, statsSocket));
  const lb = spawn(haproxy, ['-db', '-f', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  lb.stderr?.on('data', (chunk: Buffer) => log(`[haproxy] ${chunk.toString().trim()}`));
  let lbExit: number | null | undefined;
  lb.once('exit', (code) => {
    lbExit = code;
  });
  await waitUntil(
    async () => {
      if (lbExit !== undefined) throw new Error(`HAProxy exited (${lbExit}); see its output above`);
      return (await Promise.all(members.map((m) => haproxySees(statsSocket, m.name)))).every(Boolean);
    },
    30_000,
    'HAProxy seeing every member up',
  );
  const url = `http://127.0.0.1:${publicPort}`;
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
    async stop() {
      lb.kill('SIGTERM');
      await Promise.all(
        members.map(async (m) => {
          if (!m.child) return;
          m.child.kill('SIGTERM');
          await exited(m.child);
        }),
      );
      await exited(lb);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
