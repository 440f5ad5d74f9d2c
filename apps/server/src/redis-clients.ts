import {
  createInProcessBus,
  createRedisBus,
  createShardedRedisBus,
  createShardedSubscriber,
  type EventBus,
  type OnIgnoredError,
} from '@tally/events';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import type { Config, RedisClusterConfig } from './config';

/**
 * A process's Redis: one Redis (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES), never both
 * (config.ts), or none (the embedded default: the in-process bus). `redis` carries commands; a
 * gateway also holds ONE subscriber connection for all its groups (on a cluster, one per shard it
 * needs: sharded pub/sub); API processes only publish.
 */
export type RedisClients = {
  redis: Redis | Cluster | undefined;
  isCluster: boolean;
  bus: EventBus;
  close(): Promise<void>;
};

export async function connectRedisClients(
  config: Config,
  deps: { logger: Logger; subscribes: boolean; onIgnoredError: OnIgnoredError },
): Promise<RedisClients> {
  const { logger, subscribes, onIgnoredError } = deps;
  const cluster = config.redisCluster
    ? await readyOrLater(
        new Cluster(
          config.redisCluster.nodes.map((node) => ({ host: node.host, port: node.port })),
          redisClusterOptions(config.redisCluster),
        ),
        onIgnoredError,
      )
    : undefined;
  const single =
    !cluster && config.redisUrl
      ? await readyOrLater(new Redis(config.redisUrl, redisCommandOptions), onIgnoredError)
      : undefined;
  const subscriber =
    single && subscribes ? createSubscriber(config.redisUrl as string, onIgnoredError) : undefined;
  const sharded =
    cluster && config.redisCluster && subscribes
      ? createShardedSubscriber({
          cluster,
          redisOptions: clusterNodeOptions(config.redisCluster),
          logger,
          onIgnoredError,
        })
      : undefined;
  const bus: EventBus = cluster
    ? createShardedRedisBus({ publisher: cluster, subscriber: sharded, logger, onIgnoredError })
    : single
      ? createRedisBus({ publisher: single, subscriber, logger, onIgnoredError })
      : createInProcessBus();
  const redis = cluster ?? single;
  return {
    redis,
    isCluster: cluster !== undefined,
    bus,
    async close() {
      await bus.close();
      await sharded?.close();
      await Promise.all([subscriber, redis].map((client) => client && closeClient(client)));
    },
  };
}

/**
 * A client's end: `QUIT` when connected, so that what it sent is answered first; a client that is
 * not (Redis down, reconnecting) is dropped at once. A `QUIT` sent while disconnected would wait in
 * the offline queue behind the subscriber's queued (un)subscriptions, retried for ever: the process
 * could not stop while Redis was down.
 */
async function closeClient(client: Redis | Cluster): Promise<void> {
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  await client.quit().catch(() => client.disconnect());
}

/**
 * The command connection's options. Commands fail fast while Redis is unreachable (no offline queue,
 * one retry, a command timeout), so a Redis outage degrades requests instead of hanging them; the
 * client keeps reconnecting. Auto-pipelining sends the commands that concurrent requests issue in
 * one event-loop turn as one pipeline, one socket write (each command keeps its own timeout, and
 * with the connection down each still fails at once). Never on a subscriber connection.
 */
export const redisCommandOptions: RedisOptions = {
  enableAutoPipelining: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 2000,
  connectTimeout: 5000,
  retryStrategy: (times) => Math.min(times * 200, 2000),
};

/**
 * Boot does not wait for ever: without Redis the process still serves (readiness reports Redis down
 * but stays 200; keyed writes take the PostgreSQL path) and the client keeps reconnecting. Its
 * connection errors (one per reconnect attempt while Redis is down) are counted, not each logged.
 */
async function readyOrLater<C extends Redis | Cluster>(
  client: C,
  onIgnoredError: OnIgnoredError,
): Promise<C> {
  client.on('error', (err: Error) => onIgnoredError('redis_connection', err));
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5000);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return client;
}

/** A cluster node's connection options from REDIS_CLUSTER_NODES: credentials and TLS, the same for every node. */
function clusterNodeOptions(cluster: RedisClusterConfig): RedisOptions {
  return {
    ...(cluster.username ? { username: cluster.username } : {}),
    ...(cluster.password ? { password: cluster.password } : {}),
    ...(cluster.tls ? { tls: {} } : {}),
  };
}

/**
 * The cluster command client's options: the single node's fail-fast behaviour per node (no offline
 * queue, one retry, a command timeout, auto-pipelining per shard), redirections followed, and the
 * slot map refreshed every 2 s as well as on MOVED. The timer is needed: ioredis follows a MOVED
 * per command, but when an auto-pipeline to a failed-over shard gets several different MOVED
 * replies it neither follows nor refreshes, and would keep sending to the old primary.
 */
export function redisClusterOptions(cluster: RedisClusterConfig): ClusterOptions {
  return {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    slotsRefreshInterval: 2000,
    slotsRefreshTimeout: 1000,
    clusterRetryStrategy: (times) => Math.min(times * 200, 2000),
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    redisOptions: {
      ...clusterNodeOptions(cluster),
      maxRetriesPerRequest: 1,
      commandTimeout: 2000,
      connectTimeout: 5000,
    },
  };
}

/** The subscriber connection queues (re)subscriptions while disconnected and retries for ever. */
function createSubscriber(url: string, onIgnoredError: OnIgnoredError): Redis {
  const subscriber = new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  subscriber.on('error', (err) => onIgnoredError('redis_subscriber_connection', err));
  return subscriber;
}
