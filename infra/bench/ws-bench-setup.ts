/**
 * What a WebSocket bench run sets up: its settings (BENCH_WS_*), the shapes of a run, the signed
 * tokens, the client and server processes and their Node flags, and the groups written to (Tally's,
 * through its API, or the baselines' channels). ws-bench.ts measures and prints.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { SignJWT } from 'jose';
import { freePort } from '../../test/support/free-port';
import { ensureBuilt } from '../fleet/ensure-built';
import { NODE_FLAGS_BY_ROLE } from '../fleet/node-flags';
import type { WsBenchOptions } from './ws-bench';
import type { ClientKind, Command } from './ws-clients';
import { channelOf, ioBroadcast } from './ws-socketio-server';

export { freePort };

const ROOT = path.resolve(__dirname, '../..');

/** The time in ms, finer than Date.now(): sends and receipts of every process compare on it. */
export const now = () => performance.timeOrigin + performance.now();

const env = process.env;
export const GROUPS = Number(env.BENCH_WS_GROUPS ?? 50);
export const WRITES = Number(env.BENCH_WS_WRITES ?? 200);
export const INTERVAL_MS = Number(env.BENCH_WS_INTERVAL_MS ?? 20);
/** Unmeasured writes first, this many per group, so that no server is measured while cold. */
export const WARMUP_ROUNDS = Number(env.BENCH_WS_WARMUP_ROUNDS ?? 2);
/** Connections each client process opens at once. */
export const CONCURRENCY = Number(env.BENCH_WS_CONCURRENCY ?? 100);
/**
 * A process here may hold at most 20,000 descriptors (`ulimit -Hn`, not raisable): a client process
 * holds at most this many sockets, so 50,000 connections take five of them.
 */
export const MAX_SOCKETS_PER_CLIENT_PROCESS = 12_000;

/**
 * One shape of the WebSocket run: N connections spread by connection over S server processes of
 * each system (as a sticky load balancer would: connection i to server i mod S), all fed by one
 * Redis, opened by client processes of at most MAX_SOCKETS_PER_CLIENT_PROCESS sockets each.
 */
export type WsShape = {
  connections: number;
  servers: number;
  clientProcesses: number;
  /** Source addresses 127.0.0.1..N for the clients (ephemeral ports are per source address). */
  sourceAddresses: number;
};

/** A shape from its connections and servers, with enough client processes and source addresses. */
export function wsShape(connections: number, servers = 1): WsShape {
  return {
    connections,
    servers,
    clientProcesses: Math.max(
      Number(env.BENCH_WS_CLIENT_PROCESSES ?? 2),
      Math.ceil(connections / MAX_SOCKETS_PER_CLIENT_PROCESS),
    ),
    sourceAddresses: Math.max(Number(env.BENCH_WS_SOURCE_ADDRESSES ?? 4), Math.ceil(connections / 5_000)),
  };
}

/**
 * The shapes to run: BENCH_WS_SHAPES as `connections x servers` pairs (`50000x3,19000x1`), or one
 * shape of BENCH_WS_CONNECTIONS (10,000) over BENCH_WS_SERVERS (1).
 */
export function wsShapes(): WsShape[] {
  if (env.BENCH_WS_SHAPES)
    return env.BENCH_WS_SHAPES.split(',').map((pair) => {
      const [connections, servers] = pair.split('x').map(Number);
      return wsShape(connections as number, servers ?? 1);
    });
  return [wsShape(Number(env.BENCH_WS_CONNECTIONS ?? 10_000), Number(env.BENCH_WS_SERVERS ?? 1))];
}
/** Which servers to measure, in order (comma-separated tally, bare, socketio). */
export const SYSTEMS = (env.BENCH_WS_SYSTEMS ?? 'bare,socketio,tally').split(',') as ClientKind[];
/** A directory: the Tally gateway runs with `--cpu-prof` and writes its profile there. */
export const CPU_PROF_DIR = env.BENCH_WS_CPU_PROF;
/** After the last write: how long deliveries still due are waited for; what is missing then is lost. */
export const DELIVERY_DEADLINE_MS = 15_000;
/** Baseline messages are padded to the size of a Tally `event` frame, so the wire cost is comparable. */
export const BASELINE_PAD = 760;

/** The server bundle Tally runs from: BENCH_TALLY_BUNDLE, or this tree's dist/ (built if stale). */
export const tallyBundle = (): string =>
  env.BENCH_TALLY_BUNDLE ? path.resolve(env.BENCH_TALLY_BUNDLE) : ensureBuilt();

/**
 * Tally's connections each get an access token of their own (its owner's, with its own `jti`), as
 * 10,000 devices would: no cache of verified tokens turns 10,000 verifications into 50. With
 * BENCH_WS_TOKENS=group every connection of a group uses the owner's one token.
 */
export const TOKENS_PER_CONNECTION: boolean = env.BENCH_WS_TOKENS !== 'group';

export const signingKeys = new Map<string, KeyObject>();

export async function connectionToken(secret: string, userId: string, n: number): Promise<string> {
  let key = signingKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    signingKeys.set(secret, key);
  }
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer('tally')
    .setAudience('tally')
    .setJti(`bench-${n}`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);
}

export const NAMES: Record<ClientKind, string> = {
  tally: 'Tally gateway',
  bare: 'bare ws + Redis pub/sub',
  socketio: 'Socket.IO + Redis adapter',
};

/** A client process and a way to ask it something and await its answer. */
export type ClientProcess = {
  child: ChildProcess;
  ask<T>(command: Command): Promise<T>;
};

export async function startClients(children: ChildProcess[], count: number): Promise<ClientProcess[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const child = fork(path.join(__dirname, 'ws-clients.ts'), [], {
        cwd: ROOT,
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      await new Promise<void>((resolve, reject) => {
        child.once('message', () => resolve());
        child.once('exit', (code) => reject(new Error(`ws-clients exited with ${code}`)));
      });
      return {
        child,
        ask: <T>(command: Command) =>
          new Promise<T>((resolve) => {
            child.once('message', (m) => resolve(m as T));
            child.send(command);
          }),
      };
    }),
  );
}

/** BENCH_WS_NODE_FLAGS: V8/Node flags given to every server measured (all three alike). */
export const NODE_FLAGS = (env.BENCH_WS_NODE_FLAGS ?? '').split(' ').filter((flag) => flag.length > 0);
/**
 * Tally's gateway runs with the flags it runs with in production (`NODE_FLAGS_BY_ROLE.gateway`,
 * k8s/base/gateway.yaml); BENCH_WS_GATEWAY_FLAGS=0 runs it without them. The baselines get none.
 */
export const GATEWAY_FLAGS = env.BENCH_WS_GATEWAY_FLAGS === '0' ? [] : [...NODE_FLAGS_BY_ROLE.gateway];

/** The flags a running server was started with: its argv before the script, and its NODE_OPTIONS. */
export function nodeFlagsOf(pid: number): string[] {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(1);
    const script = argv.findIndex((arg) => arg.endsWith('.js') || arg.endsWith('.ts'));
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const options = environ.find((v) => v.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length);
    return [
      ...(script < 0 ? argv : argv.slice(0, script)),
      ...(options ? options.split(' ').filter(Boolean) : []),
    ];
  } catch {
    return ['(unknown)'];
  }
}

export function startServer(
  kind: ClientKind,
  port: number,
  options: WsBenchOptions,
  connections: number,
): ChildProcess {
  const common = { PATH: env.PATH ?? '', PORT: String(port), REDIS_URL: options.redisUrl };
  if (kind === 'tally') {
    const argv = [...GATEWAY_FLAGS, ...NODE_FLAGS, '--enable-source-maps', tallyBundle()];
    if (CPU_PROF_DIR) argv.unshift('--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`);
    return spawn(process.execPath, argv, {
      cwd: ROOT,
      env: {
        ...common,
        ROLE: 'gateway',
        DATABASE_URL: options.databaseUrl,
        JWT_SECRET: options.jwtSecret,
        // Every connection of a group is its owner's: beyond the per-user default of 20.
        WS_MAX_CONNECTIONS_PER_USER: String(connections),
        ...(env.BENCH_WS_HEARTBEAT_MS ? { WS_HEARTBEAT_MS: env.BENCH_WS_HEARTBEAT_MS } : {}),
        LOG_LEVEL: 'warn',
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tally-bench-')),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const script = kind === 'bare' ? 'ws-baseline-server.ts' : 'ws-socketio-server.ts';
  return spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', path.join(__dirname, script)], {
    cwd: ROOT,
    env: common,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export type Group = {
  id: string;
  token: string;
  /** The owner, whose connections these are (Tally only). */
  userId?: string;
  /** One write to the group; its wall-clock issue and acknowledgement times and its key. */
  write(i: number): Promise<{ key: string; issuedAt: number; ackAt: number }>;
};

export async function json<T>(res: Response): Promise<T> {
  if (res.status >= 300) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** G groups on the Tally API, each with its own owner, whose token its connections use. */
export async function tallyGroups(api: string): Promise<Group[]> {
  return Promise.all(
    Array.from({ length: GROUPS }, async (_, i) => {
      const owner = await json<{ user: { id: string }; accessToken: string }>(
        await fetch(`${api}/v1/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email: `ws-${i}-${Date.now()}@example.com`,
            name: `Owner ${i}`,
            password: 'bench password',
          }),
        }),
      );
      const headers = { authorization: `Bearer ${owner.accessToken}`, 'content-type': 'application/json' };
      const group = await json<{ id: string }>(
        await fetch(`${api}/v1/groups`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `ws ${i}` }),
        }),
      );
      return {
        id: group.id,
        token: owner.accessToken,
        userId: owner.user.id,
        async write(n: number) {
          const issuedAt = now();
          const res = await fetch(`${api}/v1/expenses`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': `ws-${group.id}-${n}` },
            body: JSON.stringify({
              groupId: group.id,
              description: 'Round',
              amount: 1200,
              paidBy: owner.user.id,
              split: { type: 'equal', between: [owner.user.id] },
            }),
          });
          const ackAt = now();
          return { key: (await json<{ id: string }>(res)).id, issuedAt, ackAt };
        },
      };
    }),
  );
}

/**
 * G groups of a baseline: a write is one Redis PUBLISH, on the group's channel (bare `ws`), or on the
 * Socket.IO adapter's channel as a Redis emitter would publish it (`ioBroadcast`).
 */
export function baselineGroups(kind: 'bare' | 'socketio', publisher: Redis): Group[] {
  return Array.from({ length: GROUPS }, (_, i) => ({
    id: `g${i}`,
    token: '',
    async write(n: number) {
      const key = `m${n}`;
      const issuedAt = now();
      const message = JSON.stringify({ type: 'event', id: key, pad: 'x'.repeat(BASELINE_PAD) });
      if (kind === 'bare') await publisher.publish(`bare:g${i}`, message);
      else await publisher.publish(channelOf('/'), ioBroadcast(`g${i}`, message));
      return { key, issuedAt, ackAt: now() };
    },
  }));
}

/** CPU (user + system) of all the servers of a system so far, µs. */
