/**
 * Tally's image (localhost/tally:local, `npm run image:base && npm run image`), started with podman as
 * production runs it (infra/image/podman.ts: uid 1000, read-only root filesystem with tmpfs /tmp and
 * DATA_DIR, no capabilities, the role's NODE_OPTIONS) against the test PostgreSQL and Redis on the host:
 * the migration Job's command, then every ROLE with the image's one command, /readyz, the gateway's V8
 * flag, and SIGTERM drains within the Deployments' grace period. test/k8s/manifests-*.test.ts check that
 * k8s/ asks for the same.
 *
 * Skipped, saying so, when podman or the image is missing, or when .ci/run found that podman cannot
 * run here (TALLY_IMAGE_SKIP, the reason). With CI=true and podman present, or TALLY_IMAGE_REQUIRED=1
 * (.ci/run, which builds the image before the tests), a missing image fails instead.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  hasPodman,
  imageExists,
  LOCAL_TAG,
  PRODUCTION_RUN,
  podman,
  productionRunArgs,
} from '../../infra/image/podman';
import { currentRunId, databasePrefix } from '../support/run-info';
import { freePort } from '../support/server-process';
import { createDatabase, databaseUrl, dropDatabase, redisUrl } from '../support/test-database';
import { TEST_JWT_SECRET } from '../support/test-server';
import { until } from '../support/until';

const ROOT = path.resolve(__dirname, '../..');
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const required = process.env.TALLY_IMAGE_REQUIRED === '1';
const podmanThere = hasPodman();
const missing = process.env.TALLY_IMAGE_SKIP
  ? `.ci/run: ${process.env.TALLY_IMAGE_SKIP}`
  : !podmanThere
    ? 'podman is not installed (apt-get install -y podman runc mmdebstrap)'
    : !imageExists(LOCAL_TAG)
      ? `there is no image ${LOCAL_TAG} (npm run image:base && npm run image)`
      : undefined;
// In CI a machine with podman must have built the image: no silent skip there.
const skip = missing !== undefined && !((inCi || required) && podmanThere && !process.env.TALLY_IMAGE_SKIP);
if (skip) process.stderr.write(`test/image/image.test.ts SKIPPED: ${missing}\n`);

type Role = 'api' | 'gateway' | 'all';
type Container = { name: string; child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** The Deployment's grace period minus its preStop sleep: what SIGTERM has before the SIGKILL. */
function drainBudgetSeconds(file: string): number {
  const doc = parseAllDocuments(readFileSync(path.join(ROOT, 'k8s/base', file), 'utf8'))[0]?.toJSON() as {
    spec: {
      template: {
        spec: {
          terminationGracePeriodSeconds: number;
          containers: { lifecycle: { preStop: { exec: { command: string[] } } } }[];
        };
      };
    };
  };
  const pod = doc.spec.template.spec;
  return pod.terminationGracePeriodSeconds - Number(pod.containers[0]?.lifecycle.preStop.exec.command[1]);
}

(skip ? describe.skip : describe)(`the image ${LOCAL_TAG}`, () => {
  const serverUrl = skip ? '' : databaseUrl();
  const name = `${databasePrefix(skip ? 'x' : currentRunId())}${randomBytes(4).toString('hex')}`;
  const started: Container[] = [];
  let env: Record<string, string> = {};

  const run = (role: Role, extraEnv: Record<string, string>, command: string[] = []): Container => {
    const container = `tally-image-test-${process.pid}-${role}-${randomBytes(3).toString('hex')}`;
    const args = [
      ...productionRunArgs({ name: container, image: LOCAL_TAG, role, env: { ...env, ...extraEnv } }),
      ...command,
    ];
    const child = spawn('podman', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // 'close': the exit status, and every line it wrote.
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const handle = { name: container, child, output: () => output, exited };
    started.push(handle);
    return handle;
  };

  const serve = async (role: Role) => {
    const port = await freePort();
    const container = run(role, { PORT: String(port) });
    const base = `http://127.0.0.1:${port}`;
    let ended: number | null | undefined;
    void container.exited.then((code) => {
      ended = code;
    });
    await until(async () => (await fetch(`${base}${PRODUCTION_RUN.readinessPath}`)).status === 200, {
      what: `${role} container: ${base}/readyz to answer 200`,
      intervalMs: 200,
      timeoutMs: 60_000,
      abort: () =>
        ended !== undefined
          ? `the container exited (${ended}) during start-up:\n${container.output()}`
          : undefined,
    });
    return { ...container, base };
  };

  /** A command in the running container, as its user. */
  const exec = (container: string, ...argv: string[]) => podman(['exec', container, ...argv]);

  beforeAll(async () => {
    if (missing) throw new Error(`the image test is required here (CI or .ci/run) but ${missing}`);
    await createDatabase(serverUrl, name);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl(),
      JWT_SECRET: TEST_JWT_SECRET,
      SHUTDOWN_TIMEOUT_SECONDS: '10',
      // Every test run registers from 127.0.0.1 against the shared Redis: no per-IP limits here.
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_THROTTLE_IP_FREE_FAILURES: '1000000',
    };
  });

  afterAll(async () => {
    for (const c of started) if (c.child.exitCode === null) podman(['rm', '--force', c.name]);
    await Promise.all(started.map((c) => c.exited));
    if (!skip) await dropDatabase(serverUrl, name);
  });

  it("migrates an empty database with the migration Job's command", async () => {
    const job = run('all', {}, ['node', '--enable-source-maps', 'dist/migrate.js']);
    expect(await job.exited).toBe(0);
    expect(job.output()).toContain('migrations are up to date');
  });

  it('serves every ROLE with the one command, as uid 1000 on a read-only root filesystem, and drains on SIGTERM within the grace period', async () => {
    const servers = await Promise.all(
      (['api', 'gateway', 'all'] as const).map(async (role) => ({ role, ...(await serve(role)) })),
    );
    for (const server of servers) {
      const ready = await fetch(`${server.base}/readyz`);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'up', redis: 'up' } });
      expect((await fetch(`${server.base}${PRODUCTION_RUN.livenessPath}`)).status).toBe(200);
      // PID 1 is node, running the image's command, as the image's user.
      expect(exec(server.name, 'id', '-u').stdout.trim()).toBe(String(PRODUCTION_RUN.uid));
      const cmdline = exec(server.name, 'cat', '/proc/1/cmdline').stdout.split('\0').filter(Boolean);
      expect(cmdline).toEqual(PRODUCTION_RUN.command);
      // Only /tmp and DATA_DIR are writable.
      expect(exec(server.name, 'touch', '/app/written').status).not.toBe(0);
      expect(exec(server.name, 'touch', '/usr/local/written').status).not.toBe(0);
      for (const dir of PRODUCTION_RUN.writable)
        expect(exec(server.name, 'touch', `${dir}/written`).status).toBe(0);
      // The role's NODE_OPTIONS reached node (the gateway's V8 flag; nothing for the others).
      const environ = exec(server.name, 'cat', '/proc/1/environ').stdout.split('\0');
      const nodeOptions = PRODUCTION_RUN.nodeOptions(server.role);
      expect(environ.filter((e) => e.startsWith('NODE_OPTIONS='))).toEqual(
        nodeOptions ? [`NODE_OPTIONS=${nodeOptions}`] : [],
      );
      expect(environ).toContain(`ROLE=${server.role}`);
    }
    // The API serves the API (register); the gateway does not.
    const api = servers.find((s) => s.role === 'api') as (typeof servers)[number];
    const gateway = servers.find((s) => s.role === 'gateway') as (typeof servers)[number];
    const register = (base: string) =>
      fetch(`${base}/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `image-${randomBytes(6).toString('hex')}@example.com`,
          name: 'Ada',
          password: 'correct horse battery',
        }),
      });
    expect((await register(api.base)).status).toBe(201);
    expect((await register(gateway.base)).status).toBe(404);

    // `podman stop --time N` sends SIGTERM and SIGKILLs after N seconds: N is what the Deployment leaves
    // after its preStop sleep. Exit status 0 (not 137) means the server drained and exited by itself.
    for (const server of servers) {
      const budget = drainBudgetSeconds(server.role === 'gateway' ? 'gateway.yaml' : 'api.yaml');
      podman(['stop', '--time', String(budget), server.name], (budget + 30) * 1000);
      expect([server.role, await server.exited]).toEqual([server.role, 0]);
      expect(server.output()).toContain('"msg":"draining"');
    }
  });
});
