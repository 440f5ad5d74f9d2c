/**
 * Real server processes for cross-process tests: `node --import tsx apps/server/src/main.ts` with
 * its own environment, so SIGKILL hits the server itself (no wrapper process in between).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TEST_JWT_SECRET } from './test-server';
import { errorMessage, until } from './until';

const ROOT = path.resolve(__dirname, '../..');

export type ServerProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote, for diagnostics. */
  output(): string;
  /** Resolves with the exit code or signal when the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server process (`NODE_ENV=test` unless `env` says otherwise) and waits until `/readyz`
 * answers 200 (the process listens, `/healthz` 200, while it still waits for its database), or only
 * `/healthz` with `waitFor: 'healthz'`.
 */
export async function spawnServer(
  env: Record<string, string>,
  options: {
    port?: number /** How long to wait for `/readyz`. @default 55000 */;
    bootTimeoutMs?: number;
    /** @default 'readyz' */
    waitFor?: 'readyz' | 'healthz';
  } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      JWT_SECRET: TEST_JWT_SECRET,
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_THROTTLE_ACCOUNT_FREE_FAILURES: '1000000',
      LOGIN_THROTTLE_IP_FREE_FAILURES: '1000000',
      // A loaded test machine is not an overloaded instance (see test-server.ts).
      MAX_EVENT_LOOP_DELAY_MS: '600000',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tally-proc-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const url = `http://127.0.0.1:${port}`;
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const probe = options.waitFor === 'healthz' ? 'healthz' : 'readyz';
  const healthy = async () => (await fetch(`${url}/${probe}`)).ok;
  try {
    await until(healthy, {
      what: `the server process to answer /${probe}`,
      intervalMs: 100,
      // A boot on embedded PGlite (its WebAssembly database opened and migrated) takes about 10 s on
      // this machine alone and three times that when other suites load both cores.
      timeoutMs: options.bootTimeoutMs ?? 55_000,
      abort: () => (ended ? 'it exited during start-up' : undefined),
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${errorMessage(error)}
${output}`);
  }
  return {
    url,
    port,
    child,
    output: () => output,
    exited,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
