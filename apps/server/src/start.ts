import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createAccessTokens,
  createApp,
  createGroupGate,
  createLoadShedder,
  createProbesApp,
  createRateLimits,
  createReadiness,
} from '@tally/api';
import { createKnex, createPartitionMaintainer, isEmbedded, migrateLatest } from '@tally/db';
import {
  createEventLog,
  createInProcessBus,
  createMemoryPresenceStore,
  createRedisBus,
  createRedisPresenceStore,
  createRelay,
  createShardedRedisBus,
  createShardedSubscriber,
  type EventBus,
  eventMessage,
  type GroupEvent,
  publicationOf,
  type Relay,
  shardedPublicationOf,
} from '@tally/events';
import { createGateway } from '@tally/gateway';
import { AppError, problemResponseText } from '@tally/http-kit';
import {
  type Announcer,
  createDurableRecords,
  createIdempotencyLayer,
  createMemoryIdempotencyStore,
  createMemoryLiveness,
  createRedisIdempotencyStore,
  createRedisLiveness,
  type FaultPoint,
  type IdempotencyStore,
  type MemoryLiveness,
} from '@tally/idempotency';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Config, RedisClusterConfig } from './config';
import { resolveJwtSecret } from './jwt-secret';
import { createLogger } from './logger';

export type RunningServer = {
  url: string;
  port: number;
  knex: Knex;
  logger: Logger;
  /** Drains and stops: readiness fails, new requests get 503, in-flight ones finish, connections close. */
  stop(): Promise<void>;
};

/** Wires one process by hand from its configuration (the composition root) and starts listening. */
export async function start(config: Config, overrides: { logger?: Logger } = {}): Promise<RunningServer> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const knex = createKnex({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.dbPoolMax,
    acquireTimeoutMs: config.dbPoolAcquireTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    lockTimeoutMs: config.dbLockTimeoutMs,
    idleInTransactionTimeoutMs: config.dbIdleInTransactionTimeoutMs,
  });
  await migrateLatest(knex);

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const tokens = createAccessTokens({
    secret: resolveJwtSecret(config.jwtSecret, config.dataDir),
    previousSecret: config.jwtSecretPrevious,
    ttlSeconds: config.accessTokenTtlSeconds,
  });

  // One Redis (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES), never both (config.ts).
  const cluster = config.redisCluster ? await connectRedisCluster(config.redisCluster, logger) : undefined;
  const single = !cluster && config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const redis: Redis | Cluster | undefined = cluster ?? single;
  const servesApi = config.role !== 'gateway';
  const servesWebSockets = config.role !== 'api';
  // A gateway holds ONE subscriber connection for all its groups (on a cluster, one per shard it
  // needs: sharded pub/sub); API processes only publish.
  const subscriber =
    single && servesWebSockets ? createSubscriber(config.redisUrl as string, logger) : undefined;
  const sharded =
    cluster && config.redisCluster && servesWebSockets
      ? createShardedSubscriber({ cluster, redisOptions: clusterNodeOptions(config.redisCluster), logger })
      : undefined;
  const bus: EventBus = cluster
    ? createShardedRedisBus({ publisher: cluster, subscriber: sharded })
    : single
      ? createRedisBus({ publisher: single, subscriber })
      : createInProcessBus();

  let draining = false;
  // Readiness needs PostgreSQL only: with Redis down every instance would fail alike, and keyed
  // writes stay exactly-once through the durable record (README "Decisions"). Redis is reported.
  const readiness = createReadiness({
    checks: [
      { name: 'database', required: true, ping: () => knex.raw('select 1') },
      ...(redis ? [{ name: 'redis', required: false, ping: () => redis.ping() }] : []),
    ],
    isDraining: () => draining,
    registry,
  });
  if (redis) {
    readiness.observe('redis', redis.status === 'ready' ? 'up' : 'down');
    redis.on('ready', () => readiness.observe('redis', 'up'));
    redis.on('close', () => readiness.observe('redis', 'down'));
  }
  const isReady = readiness.check;

  const api = servesApi ? createApiParts(config, { knex, redis, bus, registry, logger }) : undefined;
  // The partitions writes need exist before the first request (its first run; migrations made some).
  await api?.partitionsReady;
  const app = api
    ? createApp({
        knex,
        tokens,
        logger,
        registry,
        notify: api.notify,
        idempotency: api.idempotency,
        refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
        corsOrigins: config.corsOrigins,
        rateLimits: api.rateLimits,
        loadShedder: api.loadShedder.middleware,
        groupGate: api.groupGate,
        isDraining: () => draining,
        isReady,
      })
    : createProbesApp({ registry, logger, isReady });

  const gateway = servesWebSockets
    ? createGateway({
        eventLog: createEventLog({ knex }),
        tokens,
        bus,
        // On a cluster the group's presence set shares its sharded channel's slot (hash tag).
        presence: redis
          ? createRedisPresenceStore({ redis, hashTag: cluster !== undefined })
          : createMemoryPresenceStore(),
        logger,
        registry,
        heartbeatMs: config.wsHeartbeatMs,
        limits: {
          maxSubscriptionsPerConnection: config.wsMaxSubscriptionsPerConnection,
          maxMessagesPerSecond: config.wsMaxMessagesPerSecond,
          maxConnectionsPerUser: config.wsMaxConnectionsPerUser,
        },
        isDraining: () => draining,
      })
    : undefined;

  const server = http.createServer(app);
  // Requests Node cannot even parse (a malformed Content-Length, a bad request line) still get a
  // problem+json answer rather than a bare 400.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    socket.end(
      problemResponseText(
        new AppError('malformed_json', 400, 'The request could not be parsed.'),
        randomUUID(),
      ),
    );
  });
  if (gateway) {
    server.on('upgrade', (req, socket, head) => {
      gateway.handleUpgrade(req, socket, head).catch((err: unknown) => {
        logger.warn({ err }, 'websocket upgrade failed');
        socket.destroy();
      });
    });
  }
  // In-flight requests, so that a drain waits for them (not merely for their sockets) before the
  // database and Redis connections they use are closed.
  const inFlight = new Set<http.ServerResponse>();
  let settled: (() => void) | undefined;
  server.on('request', (_req, res: http.ServerResponse) => {
    if (draining && !res.headersSent) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) settled?.();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  logger.info(
    {
      port,
      role: config.role,
      embedded: isEmbedded(knex),
      redis: Boolean(redis),
      redisCluster: Boolean(cluster),
    },
    'listening',
  );

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    knex,
    logger,
    stop() {
      stopping ??= (async () => {
        draining = true;
        // WebSockets close with 1012 (service restart): clients reconnect elsewhere and resume.
        await gateway?.close();
        // Keep-alive connections close after their current response; idle ones close now. The
        // listener stays open while in-flight work finishes, so probes see /readyz answer 503 and
        // late requests get a 503 with Retry-After rather than a refused connection.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        server.closeIdleConnections();
        const drained = new Promise<void>((resolve) => {
          settled = resolve;
          if (inFlight.size === 0) resolve();
        });
        const timeout = new Promise<void>((resolve) =>
          setTimeout(resolve, config.shutdownTimeoutSeconds * 1000).unref(),
        );
        await Promise.race([drained, timeout]);
        server.close();
        server.closeAllConnections();
        await api?.stop();
        await bus.close();
        await sharded?.close();
        await subscriber?.quit().catch(() => subscriber.disconnect());
        await redis?.quit().catch(() => redis.disconnect());
        await knex.destroy();
      })();
      return stopping;
    },
  };
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

async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, redisCommandOptions);
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  // Boot does not wait for ever: without Redis the process still serves (readiness reports Redis
  // down but stays 200; keyed writes take the PostgreSQL path) and the client keeps reconnecting.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
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

async function connectRedisCluster(config: RedisClusterConfig, logger: Logger): Promise<Cluster> {
  const cluster = new Cluster(
    config.nodes.map((node) => ({ host: node.host, port: node.port })),
    redisClusterOptions(config),
  );
  cluster.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis cluster error'));
  // As for one Redis: boot waits up to 5 s, then goes on while the client keeps trying.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5000);
    cluster.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return cluster;
}

/** Test-only fault injection: SIGKILL this process the first time a keyed write reaches `point`. */
function killAt(point: FaultPoint) {
  return (reached: FaultPoint) => {
    if (reached === point) process.kill(process.pid, 'SIGKILL');
  };
}

/** The API half of a process: idempotency (Redis or in-memory store + durable records), the relay. */
function createApiParts(
  config: Config,
  deps: { knex: Knex; redis: Redis | Cluster | undefined; bus: EventBus; registry: Registry; logger: Logger },
) {
  const { knex, redis, bus, registry, logger } = deps;
  const memoryLiveness = redis ? undefined : createMemoryLiveness();
  const memoryStore = memoryLiveness
    ? createMemoryIdempotencyStore({ isAlive: memoryLiveness.isAlive })
    : undefined;
  const store: IdempotencyStore = redis
    ? createRedisIdempotencyStore({ redis })
    : (memoryStore as IdempotencyStore);
  // This process's liveness mark (`idem:alive:<processId>`, one heartbeat timer): its leases can be
  // taken over as soon as the mark lapses. The first beat goes out on this connection before any
  // claim of this process does.
  const liveness = redis ? createRedisLiveness({ redis }) : (memoryLiveness as MemoryLiveness).process();
  void liveness.start();
  const durable = createDurableRecords({ knex });
  const idempotency = createIdempotencyLayer({
    store,
    durable,
    ttlSeconds: config.idempotencyTtlSeconds,
    leaseMs: config.idempotencyLeaseSeconds * 1000,
    processId: liveness.processId,
    inProgressWaitMs: config.idempotencyInProgressWaitMs,
    // With Redis, a keyed write's events are published by its completion script: one round trip.
    // On a cluster, the notifications go to the groups' sharded channels, beside the completion.
    announcer: redis
      ? announcerFor(
          () => relay,
          () => notify,
          redis instanceof Cluster ? shardedPublicationOf : publicationOf,
        )
      : undefined,
    registry,
    logger,
    faultPoint: config.testFaultPoint ? killAt(config.testFaultPoint as FaultPoint) : undefined,
  });
  // Bounded tables: partitions of events and idempotency records created ahead and dropped whole once
  // past retention, now and every 10 minutes, by one API process at a time (an advisory lock).
  const partitions = createPartitionMaintainer({
    knex,
    logger,
    eventRetentionDays: config.eventRetentionDays,
    idempotencyTtlSeconds: config.idempotencyTtlSeconds,
  });
  const partitionsReady = partitions.start();
  const relay = createRelay({ knex, bus, logger, registry });
  relay.start();
  const rateLimits = createRateLimits({ redis, pointsPerMinute: config.rateLimitPerMinute, registry });
  // Writes to one hot group queue here, not in the connection pool (MAX_WRITES_WAITING_PER_GROUP).
  const groupGate = createGroupGate({
    maxWaiting: config.maxWritesWaitingPerGroup,
    waitTimeoutMs: config.dbPoolAcquireTimeoutMs,
    registry,
  });
  const loadShedder = createLoadShedder({
    maxInFlight: config.maxInFlight,
    maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    registry,
  });

  /** After commit: ring the doorbell; the relay covers a publish that fails. */
  const notify = (events: readonly GroupEvent[]) => {
    for (const event of events) {
      bus.publish(eventMessage(event)).then(
        () => relay.markPublished(event.id),
        (err: unknown) =>
          logger.warn({ err, eventId: event.id }, 'event publish failed; the relay will retry'),
      );
    }
  };
  return {
    partitionsReady,
    idempotency,
    notify,
    rateLimits,
    loadShedder,
    groupGate,
    async stop() {
      loadShedder.stop();
      await partitions.stop();
      memoryStore?.close();
      await relay.stop();
      await liveness.stop();
    },
  };
}

/** Publishes a keyed write's events with its completion record; marks them as `notify` would. */
function announcerFor(
  relay: () => Relay,
  notify: () => (events: readonly GroupEvent[]) => void,
  publication: typeof publicationOf,
): Announcer {
  const eventsOf = (events: readonly unknown[]) => events as readonly GroupEvent[];
  return {
    publications: (events) => eventsOf(events).map((event) => publication(eventMessage(event))),
    published: (events) => {
      for (const event of eventsOf(events)) relay().markPublished(event.id);
    },
    fallback: (events) => notify()(eventsOf(events)),
  };
}

/** The subscriber connection queues (re)subscriptions while disconnected and retries for ever. */
function createSubscriber(url: string, logger: Logger): Redis {
  const subscriber = new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  subscriber.on('error', (err) => logger.warn({ err: err.message }, 'redis subscriber error'));
  return subscriber;
}
