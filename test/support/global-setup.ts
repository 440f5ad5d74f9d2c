/**
 * Jest global setup of the integration project: finds or starts PostgreSQL and Redis (see services.ts),
 * and publishes their URLs to the test workers, both in the environment (TEST_DATABASE_URL,
 * TEST_REDIS_URL, TALLY_TEST_RUN_ID) and in a JSON file under os.tmpdir() named by
 * TALLY_TEST_SERVICES_FILE. The stop handles stay on globalThis for global-teardown.ts.
 */
import { writeFileSync } from 'node:fs';
import { ensureRedisCluster, type RedisCluster } from './redis-cluster';
import { newRunId, RUN_ID_ENV, SERVICES_FILE_ENV, servicesFilePath, type TestServices } from './run-info';
import { ensurePostgres, ensureRedis, type RunningService, redactUrl } from './services';

export type GlobalState = {
  runId: string;
  servicesFile: string;
  postgres: RunningService;
  redis: RunningService;
  /** The Redis Cluster the cluster runs of the suites share (TEST_REDIS_CLUSTER_NODES). */
  redisCluster: RedisCluster;
  /** The environment before setup changed it, restored by teardown (so that watch mode starts afresh). */
  savedEnv: Record<string, string | undefined>;
};

const STATE_KEY = Symbol.for('tally.test.globalState');

export function setGlobalState(state: GlobalState | undefined): void {
  (globalThis as Record<symbol, unknown>)[STATE_KEY] = state;
}

export function getGlobalState(): GlobalState | undefined {
  return (globalThis as Record<symbol, unknown>)[STATE_KEY] as GlobalState | undefined;
}

/** Refuses any database whose name does not say it is for tests: the suites create and drop databases. */
export function assertTestDatabase(url: string): void {
  let name: string;
  try {
    name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  } catch {
    throw new Error(`Refusing to run tests: the database URL ${redactUrl(url)} is not a postgres:// URL.`);
  }
  if (!/test/i.test(name)) {
    throw new Error(
      `Refusing to run tests against database "${name}" (${redactUrl(url)}): its name must contain "test". ` +
        'Set TEST_DATABASE_URL to a test database.',
    );
  }
}

export default async function globalSetup(): Promise<void> {
  const runId = newRunId();
  // The cluster (about 2 s to start and join) comes up while the other two are found.
  const clustering = ensureRedisCluster();
  clustering.catch(() => {});
  let postgres: RunningService | undefined;
  let redis: RunningService;
  let redisCluster: RedisCluster;
  try {
    postgres = await ensurePostgres();
    assertTestDatabase(postgres.url);
    redis = await ensureRedis();
    redisCluster = await clustering;
  } catch (error) {
    await postgres?.stop();
    await clustering.then((cluster) => cluster.stop()).catch(() => {});
    throw error;
  }

  const servicesFile = servicesFilePath();
  const services: TestServices = {
    databaseUrl: postgres.url,
    redisUrl: redis.url,
    redisClusterNodes: redisCluster.nodes,
    runId,
    pid: process.pid,
  };
  writeFileSync(servicesFile, `${JSON.stringify(services, null, 2)}\n`, { mode: 0o600 });

  const exported: Record<string, string> = {
    TEST_DATABASE_URL: postgres.url,
    TEST_REDIS_URL: redis.url,
    TEST_REDIS_CLUSTER_NODES: redisCluster.nodes,
    [RUN_ID_ENV]: runId,
    [SERVICES_FILE_ENV]: servicesFile,
  };
  const savedEnv: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(exported)) {
    savedEnv[name] = process.env[name];
    process.env[name] = value;
  }
  setGlobalState({ runId, servicesFile, postgres, redis, redisCluster, savedEnv });

  for (const [what, service] of [
    ['PostgreSQL', postgres],
    ['Redis', redis],
  ] as const) {
    if (service.ephemeral)
      process.stderr.write(`\n[tally tests] started a throwaway ${what} at ${service.url}\n`);
  }
  if (redisCluster.ephemeral)
    process.stderr.write(`[tally tests] started a throwaway Redis Cluster at ${redisCluster.nodes}\n`);
}
