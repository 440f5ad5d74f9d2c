import { startRedisCluster } from './redis-cluster';
import { ensureRedis } from './services';

/** A throwaway Redis of a test file's own: the server environment that reaches it, and how to stop it. */
export type ThrowawayRedis = { env: Record<string, string>; stop(): Promise<void> };

/**
 * For `describe.each`: a file whose counters live in Redis (rate limits, login throttling) runs once
 * on a single Redis and once on a Redis Cluster, each its own and started for the file, so that
 * other files (every test process talks from 127.0.0.1) cannot spend its budgets.
 */
export const throwawayRedises: { redis: string; start(): Promise<ThrowawayRedis> }[] = [
  {
    redis: 'one Redis',
    start: async () => {
      const redis = await ensureRedis({ ephemeral: true });
      return { env: { REDIS_URL: redis.url }, stop: () => redis.stop() };
    },
  },
  {
    redis: 'a Redis Cluster',
    start: async () => {
      const cluster = await startRedisCluster({ masters: 3 });
      return { env: { REDIS_CLUSTER_NODES: cluster.nodes }, stop: () => cluster.stop() };
    },
  },
];
