import {
  createAccessTokens,
  createApp,
  createBackgroundTasks,
  createLogMailer,
  createProbesApp,
  createReadiness,
  createSmtpMailer,
} from '@tally/api';
import { createKnex, type DatabaseOptions, isEmbedded, migrateLatest } from '@tally/db';
import {
  createEventLog,
  createMemoryPresenceStore,
  createRedisPresenceStore,
  sessionRevokedMessage,
  userRevokedMessage,
} from '@tally/events';
import { createGateway } from '@tally/gateway';
import { createIgnoredErrors } from '@tally/http-kit';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createApiParts } from './api-parts';
import { createBootGate, withDatabaseRetries } from './boot';
import type { Config } from './config';
import { listen } from './http-server';
import { resolveJwtSecret } from './jwt-secret';
import { createLogger } from './logger';
import { createNotificationsPart } from './notifications-part';
import { connectRedisClients } from './redis-clients';

export type RunningServer = {
  url: string;
  port: number;
  knex: Knex;
  logger: Logger;
  /** Drains and stops: readiness fails, new requests get 503, in-flight ones finish, connections close. */
  stop(): Promise<void>;
};

/**
 * The composition root: wires one process by hand from its configuration, bottom-up (every part is
 * built after what it uses), and starts listening. `role` decides the halves: `api` (the HTTP API),
 * `gateway` (the WebSocket gateway, with probes), or `all` (both, the embedded default).
 */
export async function start(
  config: Config,
  overrides: {
    logger?: Logger;
    /** Ends the wait for the database (SIGTERM during boot). */
    signal?: AbortSignal;
  } = {},
): Promise<RunningServer> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const servesApi = config.role !== 'gateway';
  const servesWebSockets = config.role !== 'api';

  // Listen first (API.md §9): /healthz 200, /readyz and everything else 503 until the process is built.
  let draining = false;
  const gate = createBootGate({ servesWebSockets });
  const server = await listen({
    app: gate.app,
    gateway: gate.upgrades,
    port: config.port,
    logger,
    isDraining: () => draining,
  });

  // The primary's pool and the replicas' (DATABASE_READ_URL) share their limits.
  const databaseOptions = (databaseUrl: string | undefined): DatabaseOptions => ({
    databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.dbPoolMax,
    acquireTimeoutMs: config.dbPoolAcquireTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    lockTimeoutMs: config.dbLockTimeoutMs,
    idleInTransactionTimeoutMs: config.dbIdleInTransactionTimeoutMs,
  });
  // PostgreSQL may still be starting or restarting: connect and migrate with retries
  // (BOOT_DB_TIMEOUT_SECONDS); what no retry can fix fails at once.
  let knex: Knex;
  try {
    knex = await withDatabaseRetries(
      async () => {
        const candidate = createKnex(databaseOptions(config.databaseUrl));
        try {
          await migrateLatest(candidate);
          return candidate;
        } catch (error) {
          await candidate.destroy().catch(() => undefined);
          throw error;
        }
      },
      { logger, timeoutMs: config.bootDbTimeoutSeconds * 1000, signal: overrides.signal },
    );
  } catch (error) {
    draining = true;
    await server.drain(0);
    throw error;
  }

  // Replicas for reads (DATABASE_READ_URL): connected lazily, never migrated, not needed to be ready
  // (a read the replica cannot serve goes to the primary).
  const readKnex = config.databaseReadUrl ? createKnex(databaseOptions(config.databaseReadUrl)) : undefined;

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const ignoredErrors = createIgnoredErrors({ logger, registry });
  const jwtSecret = resolveJwtSecret(config.jwtSecret, config.dataDir);
  const tokens = createAccessTokens({
    secret: jwtSecret,
    previousSecret: config.jwtSecretPrevious,
    ttlSeconds: config.accessTokenTtlSeconds,
    audience: config.jwtAudience,
  });
  const redis = await connectRedisClients(config, {
    logger,
    subscribes: servesWebSockets,
    onIgnoredError: ignoredErrors,
  });

  // Readiness needs PostgreSQL only: with Redis down every instance would fail alike, and keyed
  // writes stay exactly-once through the durable record (docs/DECISIONS.md). Redis is reported.
  const readiness = createReadiness({
    checks: [
      { name: 'database', required: true, ping: () => knex.raw('select 1') },
      ...(redis.redis ? [{ name: 'redis', required: false, ping: () => redis.redis!.ping() }] : []),
    ],
    isDraining: () => draining,
    registry,
    logger,
    ignoredErrors,
  });
  if (redis.redis) {
    const client = redis.redis;
    readiness.observe('redis', client.status === 'ready' ? 'up' : 'down');
    client.on('ready', () => readiness.observe('redis', 'up'));
    client.on('close', () => readiness.observe('redis', 'down'));
  }

  // Password reset mails: through SMTP_URL, or into the log (the embedded default).
  const mailer = config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom })
    : createLogMailer({ logger, from: config.mailFrom });
  if (servesApi && !config.smtpUrl && config.nodeEnv === 'production')
    logger.warn(
      'SMTP_URL is not set: password reset mails, links included, go to the log instead of being sent',
    );
  const background = createBackgroundTasks({ ignoredErrors });

  const api = servesApi
    ? createApiParts(config, {
        knex,
        redis: redis.redis,
        isCluster: redis.isCluster,
        bus: redis.bus,
        registry,
        logger,
        ignoredErrors,
      })
    : undefined;
  await api?.partitionsReady;
  const appUrl = () => config.appUrl ?? `http://localhost:${server.port}`;
  // Push and mail notifications from the event log (API.md §13), in every API process.
  const notifications = servesApi
    ? createNotificationsPart(config, { knex, mailer, jwtSecret, appUrl, logger, registry, ignoredErrors })
    : undefined;
  const app = api
    ? createApp({
        knex,
        readKnex,
        tokens,
        logger,
        registry,
        announcer: api.announcer,
        idempotency: api.idempotency,
        ignoredErrors,
        refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
        // A refresh token's successor is derived with a key from the JWT secrets, which every
        // process of a deployment shares (the previous one too, so a rotation keeps retries working).
        refreshTokenKeys: [jwtSecret, ...(config.jwtSecretPrevious ? [config.jwtSecretPrevious] : [])],
        trustProxy: config.trustProxy,
        corsOrigins: config.corsOrigins,
        importMaxBytes: config.importMaxBytes,
        importMaxRows: config.importMaxRows,
        revokedUsersTtlMs: config.accountStatusTtlMs,
        rateLimits: api.rateLimits,
        loginThrottle: api.loginThrottle,
        apiKeyFailures: api.apiKeyFailures,
        loadShedder: api.loadShedder.middleware,
        groupGate: api.groupGate,
        writes: api.writes,
        ratesProvider: api.ratesProvider,
        webhookAllowPrivateAddresses: config.webhookAllowPrivateAddresses,
        announceUserRevoked: (userId) => {
          redis.bus
            .publish(userRevokedMessage(userId))
            .catch((error: unknown) => ignoredErrors('user_revoked_publish', error, { userId }));
        },
        announceSessionsRevoked: (userId, sessionIds) => {
          redis.bus
            .publish(sessionRevokedMessage(userId, sessionIds))
            .catch((error: unknown) => ignoredErrors('session_revoked_publish', error, { userId }));
        },
        isDraining: () => draining,
        isReady: readiness.check,
        mailer,
        background,
        appUrl,
        notifications: notifications?.routes,
        passwordResetTtlSeconds: config.passwordResetTtlSeconds,
        passwordResetMaxPerHour: config.passwordResetMaxPerHour,
      })
    : createProbesApp({ registry, logger, ignoredErrors, isReady: readiness.check });

  const gateway = servesWebSockets
    ? createGateway({
        eventLog: createEventLog({ knex }),
        tokens,
        bus: redis.bus,
        // On a cluster the group's presence set shares its sharded channel's slot (hash tag).
        presence: redis.redis
          ? createRedisPresenceStore({ redis: redis.redis, hashTag: redis.isCluster })
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
        ignoredErrors,
        allowQueryToken: config.wsAllowQueryToken,
        authTimeoutMs: config.wsAuthTimeoutMs,
      })
    : undefined;

  gate.open({ app, gateway });
  notifications?.notifier.start();
  logger.info(
    {
      port: server.port,
      role: config.role,
      embedded: isEmbedded(knex),
      redis: Boolean(redis.redis),
      redisCluster: redis.isCluster,
    },
    'listening',
  );

  let stopping: Promise<void> | undefined;
  return {
    url: `http://localhost:${server.port}`,
    port: server.port,
    knex,
    logger,
    stop() {
      stopping ??= (async () => {
        draining = true;
        await server.drain(config.shutdownTimeoutSeconds * 1000);
        await notifications?.notifier.stop();
        await api?.stop();
        await background.idle();
        await mailer.close();
        await redis.close();
        await readKnex?.destroy();
        await knex.destroy();
      })();
      return stopping;
    },
  };
}
