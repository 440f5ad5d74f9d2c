/**
 * What the image, the migration Job, the fleet and the bench run: the bundles of `npm run build`
 * (dist/server.js, dist/migrate.js) started by plain `node`, with no TypeScript loader. Node 20
 * cannot load a .ts file, so a bundle that still needed one of the sources would fail here.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { currentRunId, databasePrefix } from '../support/run-info';
import { freePort } from '../support/server-process';
import { createDatabase, databaseUrl, dropDatabase, redisUrl } from '../support/test-database';
import { TEST_JWT_SECRET } from '../support/test-server';
import { until } from '../support/until';

const ROOT = path.resolve(__dirname, '../..');
const SERVER_BUNDLE = path.join(ROOT, 'dist/server.js');

type EnsureBuiltModule = typeof import('../../infra/fleet/ensure-built');
/** A fresh copy of the module: ensureBuilt() checks dist/ once per process (per module instance). */
function freshEnsureBuilt(): EnsureBuiltModule {
  let mod: EnsureBuiltModule | undefined;
  jest.isolateModules(() => {
    mod = require('../../infra/fleet/ensure-built') as EnsureBuiltModule;
  });
  return mod as EnsureBuiltModule;
}

type Exit = { code: number | null; output: string };
function run(argv: string[], env: Record<string, string>): { child: ChildProcess; exited: Promise<Exit> } {
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  return { child, exited };
}

async function waitReady(url: string, exited: Promise<Exit>): Promise<void> {
  let ended: Exit | undefined;
  void exited.then((exit) => {
    ended = exit;
  });
  await until(async () => (await fetch(`${url}/readyz`)).status === 200, {
    what: `${url}/readyz to answer 200`,
    intervalMs: 100,
    abort: () => (ended ? `the server exited during start-up:\n${ended.output}` : undefined),
  });
}

describe('the production build', () => {
  it('ensureBuilt() rebuilds a stale dist/ and returns the bundle node runs', () => {
    freshEnsureBuilt().ensureBuilt();
    // Older than every source: stale.
    const longAgo = new Date('2000-01-01T00:00:00Z');
    utimesSync(SERVER_BUNDLE, longAgo, longAgo);
    const { ensureBuilt, isStale } = freshEnsureBuilt();
    expect(isStale()).toBe(true);
    const before = Date.now();
    expect(ensureBuilt()).toBe('dist/server.js');
    // Replaced by a new build (mtimes can be a little coarser than Date.now()).
    expect(statSync(SERVER_BUNDLE).mtimeMs).toBeGreaterThan(before - 2_000);
  });

  describe('on PostgreSQL and Redis, started by plain node', () => {
    const serverUrl = databaseUrl();
    const name = `${databasePrefix(currentRunId())}${randomBytes(4).toString('hex')}`;
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl(),
      JWT_SECRET: TEST_JWT_SECRET,
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_THROTTLE_IP_FREE_FAILURES: '1000000',
    };

    beforeAll(async () => {
      freshEnsureBuilt().ensureBuilt();
      await createDatabase(serverUrl, name);
    });
    afterAll(() => dropDatabase(serverUrl, name));

    it('dist/migrate.js migrates an empty database, and dist/server.js serves it and drains on SIGTERM', async () => {
      const migrate = run(['--enable-source-maps', 'dist/migrate.js'], env);
      const migrated = await migrate.exited;
      expect(migrated).toEqual({ code: 0, output: 'migrations are up to date\n' });

      const port = await freePort();
      const server = run(['--enable-source-maps', 'dist/server.js'], {
        ...env,
        ROLE: 'api',
        PORT: String(port),
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'tally-dist-')),
      });
      const base = `http://127.0.0.1:${port}`;
      try {
        await waitReady(base, server.exited);
        const email = `dist-${randomBytes(6).toString('hex')}@example.com`;
        const res = await fetch(`${base}/v1/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, name: 'Ada', password: 'correct horse battery' }),
        });
        expect(res.status).toBe(201);
        expect(((await res.json()) as { user: { email: string } }).user.email).toBe(email);
        // The web app, prebuilt by `npm run build` into dist/web-app (no esbuild, no sources needed).
        const app = await fetch(`${base}/app/app.js`);
        expect([app.status, (await app.text()).includes('Tally web app')]).toEqual([200, true]);
      } finally {
        server.child.kill('SIGTERM');
      }
      expect((await server.exited).code).toBe(0);
    });
  });
});
