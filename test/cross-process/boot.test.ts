import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../../infra/fleet/ensure-built';
import { freePort, type ServerProcess, spawnServer } from '../support/server-process';
import { ensurePostgres, type ThrowawayService } from '../support/services';
import { databaseUrl, redisUrl } from '../support/test-database';
import { TEST_JWT_SECRET } from '../support/test-server';
import { UNTIL_TIMEOUT_MS, until } from '../support/until';
import { registerUser, upgradeStatus } from './http';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Runs a server process (the production bundle, as spawnServer does) to its exit (one that should not
 * get far): its code, output and duration.
 */
async function runToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [ensureBuilt()], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(await freePort()),
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tally-boot-')),
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
  const timer = setTimeout(() => child.kill('SIGKILL'), UNTIL_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output, ms: Date.now() - started };
}

/** API.md §9 and OPERATIONS.md: a process that starts while PostgreSQL is down listens, waits and retries. */
describe('boot while PostgreSQL is unreachable', () => {
  let pg: ThrowawayService;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    pg = await ensurePostgres({ ephemeral: true });
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await pg.stop();
  });

  it('answers /healthz 200 and /readyz 503 while it retries, then becomes ready and serves a write', async () => {
    await pg.down();
    server = await spawnServer(
      { ROLE: 'all', DATABASE_URL: pg.url, REDIS_URL: redisUrl(), LOG_LEVEL: 'info' },
      { waitFor: 'healthz' },
    );
    const url = server.url;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', starting: true });
    const other = await fetch(`${url}/v1/groups`);
    expect(other.status).toBe(503);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(other.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await other.json()).toMatchObject({ code: 'unavailable', status: 503 });
    expect(await upgradeStatus(url)).toBe(503);
    // Every attempt is logged, with its number, the next delay and the error's code.
    await until(
      () => (server?.output().match(/database not reachable at start-up; retrying/g) ?? []).length >= 2,
      'two logged retries',
    );
    const attempt = server
      .output()
      .split('\n')
      .find((line) => line.includes('database not reachable at start-up'));
    expect(JSON.parse(attempt ?? '{}')).toMatchObject({
      level: 40,
      attempt: 1,
      nextDelayMs: expect.any(Number),
      code: 'ECONNREFUSED',
    });

    await pg.up();
    await until(async () => (await fetch(`${url}/readyz`)).status === 200, 'ready after PostgreSQL is back');
    const ada = await registerUser(url, 'Ada');
    const created = await fetch(`${url}/v1/groups`, {
      method: 'POST',
      headers: { ...ada.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Booted' }),
    });
    expect(created.status).toBe(201);
    expect(await upgradeStatus(url)).toBe(101);
  });

  it('exits 0 on SIGTERM while it waits for the database', async () => {
    await pg.down();
    const waiting = await spawnServer(
      { DATABASE_URL: pg.url, REDIS_URL: redisUrl() },
      { waitFor: 'healthz' },
    );
    await until(() => waiting.output().includes('retrying'), 'a retry');
    const started = Date.now();
    expect(await waiting.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(UNTIL_TIMEOUT_MS);
    await pg.up();
  });

  it('exits 1 once BOOT_DB_TIMEOUT_SECONDS is over, saying so', async () => {
    await pg.down();
    const run = await runToExit({
      DATABASE_URL: pg.url,
      REDIS_URL: redisUrl(),
      BOOT_DB_TIMEOUT_SECONDS: '1',
    });
    await pg.up();
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/giving up \(BOOT_DB_TIMEOUT_SECONDS\)/);
    expect(run.output).toMatch(/start-up failed/);
  });
});

describe('boot with an error no retry fixes', () => {
  it('exits 1 at once for a database that does not exist', async () => {
    const missing = new URL(databaseUrl());
    missing.pathname = '/tally_no_such_database';
    const run = await runToExit({ DATABASE_URL: missing.toString(), REDIS_URL: redisUrl() });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/does not exist/);
    expect(run.output).not.toMatch(/retrying/);
    // Well within the default BOOT_DB_TIMEOUT_SECONDS (300 s): no retries.
    expect(run.ms).toBeLessThan(UNTIL_TIMEOUT_MS);
  });
});
