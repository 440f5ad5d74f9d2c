/**
 * Real server processes for cross-process tests, with their own environment, so SIGKILL hits the
 * server itself (no wrapper process in between): `node dist/server.js`, the bundle production runs
 * (built once per run, `ensureBuilt`), or with `entry: 'npm-start'` the sources through tsx, as
 * `npm start` runs them. The bundle starts in a fraction of the time: tsx compiles and resolves
 * every source file of the server at each start, and some fifty starts a run added up. On the
 * embedded default (no DATABASE_URL) the bundle opens a copy of a migrated database when .ci/run
 * made one (embedded-template.ts); `npm-start` starts from an empty DATA_DIR, as a user's first
 * start does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../../infra/fleet/ensure-built';
import { withEmbeddedTemplate } from './embedded-template';
import { freePort } from './free-port';
import { TEST_JWT_SECRET } from './test-server';
import { errorMessage, until } from './until';

export { freePort };

const ROOT = path.resolve(__dirname, '../..');

/**
 * Every server process started here and not yet exited. A test file's hooks end (or time out) with
 * them killed: one whose start outlasted its hook's timeout was still waited for and would outlive
 * the file, holding jest open.
 */
const living = new Set<ChildProcess>();
if (typeof afterAll === 'function') {
  afterAll(() => {
    for (const child of living) child.kill('SIGKILL');
  });
}

/** What `spawnServer` runs: the production bundle, or the sources as `npm start` does. */
export type ServerEntry = 'bundle' | 'npm-start';

const argsOf = (entry: ServerEntry): string[] =>
  entry === 'npm-start' ? ['--import', 'tsx', 'apps/server/src/main.ts'] : [ensureBuilt()];

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
    /** @default 'bundle' */
    entry?: ServerEntry;
  } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const entry = options.entry ?? 'bundle';
  const base = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    JWT_SECRET: TEST_JWT_SECRET,
  };
  const dataDir = env['DATA_DIR'] ?? mkdtempSync(path.join(os.tmpdir(), 'tally-proc-'));
  // On the embedded default, a copy of a migrated database when .ci/run made one (embedded-template.ts),
  // but for `npm-start`, which starts as a user's first `npm start` does, and a DATA_DIR that has one.
  if (env['DATABASE_URL'] === undefined && entry === 'bundle') withEmbeddedTemplate(dataDir);
  const child = spawn(process.execPath, argsOf(entry), {
    cwd: ROOT,
    env: {
      ...base,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_THROTTLE_ACCOUNT_FREE_FAILURES: '1000000',
      LOGIN_THROTTLE_IP_FREE_FAILURES: '1000000',
      // A loaded test machine is not an overloaded instance (see test-server.ts).
      MAX_EVENT_LOOP_DELAY_MS: '600000',
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  living.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      living.delete(child);
      resolve({ code, signal });
    });
  });
  const url = `http://127.0.0.1:${port}`;
  let ended: string | undefined;
  void exited.then(({ code, signal }) => {
    ended = signal ? `signal ${signal}` : `exit code ${code}`;
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
      abort: () => (ended ? `it exited during start-up (${ended})` : undefined),
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
