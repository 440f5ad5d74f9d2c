import {
  createAnnouncer,
  createAuthRecordsSweeper,
  createEcbRatesProvider,
  createGroupGate,
  createIdMaker,
  createKeyFailures,
  createLoadShedder,
  createLoginThrottle,
  createRateLimits,
  createRecurringScheduler,
  createWebhookDispatcher,
  createWriteRunner,
} from '@tally/api';
import { createPartitionMaintainer } from '@tally/db';
import { createRelay, type EventBus, publicationOf, shardedPublicationOf } from '@tally/events';
import type { IgnoredErrors } from '@tally/http-kit';
import {
  createDurableRecords,
  createIdempotencyLayer,
  createMemoryIdempotencyStore,
  createMemoryLiveness,
  createRedisIdempotencyStore,
  createRedisLiveness,
  type FaultPoint,
} from '@tally/idempotency';
import type { Cluster, Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config';
import { testSwitches } from './test-switches';

export type ApiPartsDeps = {
  knex: Knex;
  redis: Redis | Cluster | undefined;
  isCluster: boolean;
  bus: EventBus;
  registry: Registry;
  logger: Logger;
  ignoredErrors: IgnoredErrors;
};

/** Test-only fault injection: SIGKILL this process the first time a keyed write reaches `point`. */
function killAt(point: FaultPoint) {
  return (reached: FaultPoint) => {
    if (reached === point) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * The API half of a process, built bottom-up: the outbox relay and the announcer (every write's
 * one publish path), then the idempotency layer (Redis or in-memory store, this process's liveness
 * mark, the durable records), the partition maintainer, rate limits, the per-group write gate and
 * the load shedder.
 */
export function createApiParts(config: Config, deps: ApiPartsDeps) {
  const { knex, redis, bus, registry, logger, ignoredErrors } = deps;
  // Fault injection and the test clock: only under NODE_ENV=test (ignored with a warning otherwise).
  const switches = testSwitches(config, logger);

  const relay = createRelay({ knex, bus, logger, registry, onIgnoredError: ignoredErrors });
  relay.start();
  // Webhooks (API.md §12): every API process sends them from the event log (no leader, no Redis);
  // a write of this process wakes its dispatcher at once, a hint only (the log is what it reads).
  const webhooks = createWebhookDispatcher({
    knex,
    pollMs: config.webhookPollMs,
    concurrency: config.webhookConcurrency,
    leaseMs: Math.max(config.webhookLeaseMs, config.webhookTimeoutMs + 1000),
    retryDelaysMs: config.webhookRetryDelaysMs.split(',').map(Number),
    send: {
      allowPrivate: config.webhookAllowPrivateAddresses,
      timeoutMs: config.webhookTimeoutMs,
      maxResponseBytes: 64 * 1024,
    },
    registry,
    onIgnoredError: ignoredErrors,
  });
  const published = createAnnouncer({
    bus,
    // On a cluster the notifications go to the groups' sharded channels.
    publicationOf: deps.isCluster ? shardedPublicationOf : publicationOf,
    markPublished: relay.markPublished,
    onPublishFailed: (error, eventId) => ignoredErrors('event_publish', error, { eventId }),
  });
  const announcer: typeof published = {
    publications: published.publications,
    announce(events, publishedBy) {
      published.announce(events, publishedBy);
      if (events.length > 0) webhooks.poke(events.map((event) => event.groupId));
    },
  };

  const memoryLiveness = redis ? undefined : createMemoryLiveness();
  const memoryStore = memoryLiveness
    ? createMemoryIdempotencyStore({ isAlive: memoryLiveness.isAlive })
    : undefined;
  const store = redis ? createRedisIdempotencyStore({ redis }) : memoryStore!;
  // This process's liveness mark (`idem:alive:<processId>`, one heartbeat timer): its leases can be
  // taken over as soon as the mark lapses. The first beat goes out on this connection before any
  // claim of this process does.
  const liveness = redis
    ? createRedisLiveness({ redis, logger, onIgnoredError: ignoredErrors })
    : memoryLiveness!.process();
  void liveness.start();
  const idempotency = createIdempotencyLayer({
    store,
    durable: createDurableRecords({ knex }),
    ttlSeconds: config.idempotencyTtlSeconds,
    leaseMs: config.idempotencyLeaseSeconds * 1000,
    processId: liveness.processId,
    inProgressWaitMs: config.idempotencyInProgressWaitMs,
    registry,
    logger,
    onIgnoredError: ignoredErrors,
    faultPoint: switches.faultPoint ? killAt(switches.faultPoint as FaultPoint) : undefined,
  });

  // Bounded tables: partitions of events and idempotency records created ahead and dropped whole once
  // past retention, now and every 10 minutes, by one API process at a time (an advisory lock).
  const partitions = createPartitionMaintainer({
    knex,
    logger,
    eventRetentionDays: config.eventRetentionDays,
    idempotencyTtlSeconds: config.idempotencyTtlSeconds,
    onIgnoredError: ignoredErrors,
  });
  const partitionsReady = partitions.start();
  // Bounded tables too: ended sessions, expired refresh tokens and spent reset tokens are deleted
  // after their retention (API.md §2.3), in slices, now and every 10 minutes, one process at a time.
  const authRecords = createAuthRecordsSweeper({ knex, logger, onIgnoredError: ignoredErrors });
  void authRecords.start();
  const rateLimits = createRateLimits({
    redis,
    pointsPerMinute: config.rateLimitPerMinute,
    authPointsPerMinute: config.authRateLimitPerMinute,
    registry,
    logger,
    ignoredErrors,
  });
  // Login attempts per account and per client IP (API.md §2), shared through Redis like the budgets.
  const loginThrottle = createLoginThrottle({
    redis,
    accountFreeFailures: config.loginThrottleAccountFreeFailures,
    ipFreeFailures: config.loginThrottleIpFreeFailures,
    firstDelaySeconds: config.loginThrottleFirstDelaySeconds,
    maxDelaySeconds: config.loginThrottleMaxDelaySeconds,
    decaySeconds: config.loginThrottleDecaySeconds,
    registry,
    logger,
    ignoredErrors,
  });
  // Failed API-key attempts per client IP (API.md §2.6), shared through Redis like the login throttle.
  const apiKeyFailures = createKeyFailures({
    redis,
    freeFailures: config.apiKeyFailuresPerIp,
    windowSeconds: config.apiKeyFailureWindowSeconds,
    registry,
    logger,
    ignoredErrors,
  });
  // Writes to one hot group queue here, not in the connection pool (MAX_WRITES_WAITING_PER_GROUP).
  const groupGate = createGroupGate({
    maxWaiting: config.maxWritesWaitingPerGroup,
    waitTimeoutMs: config.dbPoolAcquireTimeoutMs,
    registry,
  });
  // One write runner for the process: the API's writes and the recurring occurrences share its group
  // commit, state cache and metrics (write_batch_size…), and its statement names on the shared pool.
  const writes = createWriteRunner({
    knex,
    newId: createIdMaker(),
    groupGate,
    onIgnoredError: ignoredErrors,
    registry,
  });
  // Recurring expenses: every API process creates the due occurrences (no leader), once the
  // partitions their events go to exist. The test clock offset is honoured only under NODE_ENV=test.
  const clockOffsetMs = switches.clockOffsetMs;
  const recurring = createRecurringScheduler({
    knex,
    announcer,
    groupGate,
    writes,
    pollMs: config.recurringPollMs,
    now: () => new Date(Date.now() + clockOffsetMs),
    onIgnoredError: ignoredErrors,
  });
  // (A failed partition maintenance fails the start-up itself, in start.ts.)
  partitionsReady.then(
    () => {
      recurring.start();
      webhooks.start();
    },
    () => {},
  );
  const loadShedder = createLoadShedder({
    maxInFlight: config.maxInFlight,
    maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    registry,
  });

  // Outside exchange rates for converted balances: fetched on first use, never at boot (a process
  // must start while the ECB is unreachable).
  const ratesProvider =
    config.fxProvider === 'ecb'
      ? createEcbRatesProvider({
          url: config.fxEcbUrl,
          cacheSeconds: config.fxCacheSeconds,
          timeoutMs: config.fxFetchTimeoutMs,
          onError: (error) => ignoredErrors('fx_rates_fetch', error, { url: config.fxEcbUrl }),
        })
      : undefined;

  return {
    /** Resolves once the partitions writes need exist (before the first request). */
    partitionsReady,
    announcer,
    idempotency,
    rateLimits,
    loginThrottle,
    apiKeyFailures,
    loadShedder,
    groupGate,
    writes,
    ratesProvider,
    async stop() {
      await recurring.stop();
      await webhooks.stop();
      loadShedder.stop();
      await partitions.stop();
      await authRecords.stop();
      memoryStore?.close();
      await relay.stop();
      await liveness.stop();
    },
  };
}

export type ApiParts = ReturnType<typeof createApiParts>;
