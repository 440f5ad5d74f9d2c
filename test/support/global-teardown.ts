/**
 * Jest global teardown of the integration project: drops the databases (and Redis keys) this run left
 * behind on servers that existed before the run, then stops the servers global setup started.
 */
import { rmSync } from 'node:fs';
import { getGlobalState, setGlobalState } from './global-setup';
import { redisPrefix } from './run-info';
import { deleteRedisKeys, dropRunDatabases } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const state = getGlobalState();
  if (!state) return;
  setGlobalState(undefined);
  const errors: unknown[] = [];
  const attempt = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (error) {
      errors.push(new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  // A throwaway server is deleted whole; only clean up after ourselves on a pre-existing one.
  if (!state.postgres.ephemeral) {
    await attempt('dropping leftover test databases', () =>
      dropRunDatabases(state.postgres.url, state.runId),
    );
  }
  if (!state.redis.ephemeral) {
    await attempt('deleting leftover Redis keys', () =>
      deleteRedisKeys(state.redis.url, `${redisPrefix(state.runId)}*`),
    );
  }
  await attempt('stopping PostgreSQL', () => state.postgres.stop());
  await attempt('stopping Redis', () => state.redis.stop());
  // A throwaway cluster goes whole; on one named by TEST_REDIS_CLUSTER_NODES the suites delete
  // their own keys (createTestRedisCluster).
  await attempt('stopping the Redis Cluster', () => state.redisCluster.stop());
  rmSync(state.servicesFile, { force: true });
  for (const [name, value] of Object.entries(state.savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }

  if (errors.length > 0) throw new AggregateError(errors, errors.map((e) => (e as Error).message).join('; '));
}
