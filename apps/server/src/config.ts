import Joi from 'joi';

export type Role = 'all' | 'api' | 'gateway';

/** `scheme://host[:port]`, optionally with a trailing `/`: an origin as written by people. */
const ORIGIN_PATTERN = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s]+)\/?$/i;

/**
 * Parses CORS_ORIGINS: a comma-separated list of exact origins, or `*` alone. Each origin is
 * normalised to what a browser sends in `Origin` (lower-case scheme and host, no default port, no
 * trailing slash), so `https://App.example.com:443/` allows `https://app.example.com`. Schemes other
 * than http(s) (`capacitor://localhost` of a Capacitor app) are kept as written, lower-cased.
 * @throws Error naming the entry that is not an origin
 */
export function parseCorsOrigins(text: string): '*' | string[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.includes('*')) {
    if (entries.length > 1) throw new Error('"*" allows every origin and cannot be combined with others');
    return '*';
  }
  const origins = entries.map((entry) => {
    const match = ORIGIN_PATTERN.exec(entry);
    const scheme = match?.[1]?.toLowerCase();
    if (!match || scheme === undefined) {
      throw new Error(`"${entry}" is not an origin (scheme://host[:port], without a path)`);
    }
    if (scheme !== 'http' && scheme !== 'https') return `${scheme}://${(match[2] ?? '').toLowerCase()}`;
    try {
      return new URL(entry).origin;
    } catch {
      throw new Error(`"${entry}" is not an origin (scheme://host[:port], without a path)`);
    }
  });
  return [...new Set(origins)];
}

/** A Redis Cluster to use instead of a single Redis (REDIS_CLUSTER_NODES). */
export type RedisClusterConfig = Readonly<{
  /** Startup nodes: any of the cluster's nodes; the client learns the rest from them. */
  nodes: readonly Readonly<{ host: string; port: number }>[];
  /** Credentials and TLS, from `redis://` / `rediss://` entries; they apply to every node. */
  username: string | undefined;
  password: string | undefined;
  tls: boolean;
}>;

/**
 * Parses REDIS_CLUSTER_NODES: comma-separated `host:port` (`[v6addr]:port`) entries, or
 * `redis://` / `rediss://` URLs where credentials or TLS are needed (`rediss://:secret@host:6379`);
 * the URL entries must agree on scheme and credentials, which then apply to every node.
 * @throws Error naming the entry that is not a node
 */
export function parseRedisClusterNodes(text: string): RedisClusterConfig {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new Error('lists no node (host:port,host:port,…)');
  let auth: { tls: boolean; username: string | undefined; password: string | undefined } | undefined;
  const nodes = new Map<string, { host: string; port: number }>();
  const portOf = (entry: string, text: string) => {
    const port = Number(text);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`"${entry}" has no valid port`);
    return port;
  };
  for (const entry of entries) {
    let host: string;
    let port: number;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new Error(`"${entry}" is not a URL`);
      }
      if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
        throw new Error(`"${entry}": only redis:// and rediss:// URLs, or host:port`);
      const these = {
        tls: url.protocol === 'rediss:',
        username: decodeURIComponent(url.username) || undefined,
        password: decodeURIComponent(url.password) || undefined,
      };
      if (auth && JSON.stringify(auth) !== JSON.stringify(these))
        throw new Error('its URL entries differ in scheme or credentials; every node takes the same');
      auth = these;
      host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      port = url.port === '' ? 6379 : portOf(entry, url.port);
    } else {
      const match = /^(?:\[([^\]\s]+)\]|([^:/@\s[\]]+)):(\d+)$/.exec(entry);
      if (!match) throw new Error(`"${entry}" is not host:port`);
      host = (match[1] ?? match[2]) as string;
      port = portOf(entry, match[3] as string);
    }
    nodes.set(`${host}|${port}`, Object.freeze({ host, port }));
  }
  return Object.freeze({
    nodes: Object.freeze([...nodes.values()]),
    username: auth?.username,
    password: auth?.password,
    tls: auth?.tls ?? false,
  });
}

export type Config = Readonly<{
  port: number;
  role: Role;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** A Redis Cluster instead of one Redis (REDIS_CLUSTER_NODES; never together with REDIS_URL). */
  redisCluster: RedisClusterConfig | undefined;
  dataDir: string;
  jwtSecret: string | undefined;
  /** A retired secret still accepted when verifying tokens (rotation). */
  jwtSecretPrevious: string | undefined;
  refreshReuseGraceSeconds: number;
  accessTokenTtlSeconds: number;
  idempotencyTtlSeconds: number;
  /**
   * Days the event log is kept (EVENT_RETENTION_DAYS): older events go with their partition, and a
   * resume from before them gets `resync_required`. Undefined (unset or 0): kept for ever.
   */
  eventRetentionDays: number | undefined;
  idempotencyLeaseSeconds: number;
  /** How long a request whose key a live process holds waits for its outcome before 409 (IDEMPOTENCY_IN_PROGRESS_WAIT_MS). */
  idempotencyInProgressWaitMs: number;
  rateLimitPerMinute: number;
  shutdownTimeoutSeconds: number;
  wsHeartbeatMs: number;
  wsMaxSubscriptionsPerConnection: number;
  wsMaxMessagesPerSecond: number;
  wsMaxConnectionsPerUser: number;
  maxInFlight: number;
  maxEventLoopDelayMs: number;
  /** Per-connection PostgreSQL limits and the pool (0 turns a timeout off). */
  dbStatementTimeoutMs: number;
  dbLockTimeoutMs: number;
  dbIdleInTransactionTimeoutMs: number;
  dbPoolAcquireTimeoutMs: number;
  dbPoolMax: number;
  /** Writes to one group this process lets run or wait at once; beyond it `503` at once. */
  maxWritesWaitingPerGroup: number;
  /**
   * Origins whose pages may call the API from a browser (CORS_ORIGINS), normalised as browsers send
   * `Origin`; `'*'` for any origin; empty for no CORS headers at all.
   */
  corsOrigins: '*' | readonly string[];
  logLevel: string;
  nodeEnv: string;
  /** Test-only: the point of a keyed write where the process kills itself (TALLY_TEST_FAULT_POINT). */
  testFaultPoint: string | undefined;
}>;

const schema = Joi.object({
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  ROLE: Joi.string().valid('all', 'api', 'gateway').default('all'),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .empty(''),
  REDIS_URL: Joi.string()
    .uri({ scheme: ['redis', 'rediss'] })
    .empty(''),
  REDIS_CLUSTER_NODES: Joi.string()
    .empty('')
    .custom((value: string, helpers) => {
      try {
        return parseRedisClusterNodes(value);
      } catch (error) {
        return helpers.message({ custom: `"REDIS_CLUSTER_NODES": ${(error as Error).message}` });
      }
    }),
  DATA_DIR: Joi.string().default('./data'),
  // Required outside the single embedded node: two pods with generated secrets would reject each
  // other's tokens (checked below, with the other cross-variable rules).
  JWT_SECRET: Joi.string().min(32).empty(''),
  JWT_SECRET_PREVIOUS: Joi.string().min(32).empty('').invalid(Joi.ref('JWT_SECRET')),
  REFRESH_REUSE_GRACE_SECONDS: Joi.number().integer().min(0).max(300).default(10),
  ACCESS_TOKEN_TTL_SECONDS: Joi.number().integer().min(1).default(900),
  IDEMPOTENCY_TTL_SECONDS: Joi.number().integer().min(1).default(86400),
  EVENT_RETENTION_DAYS: Joi.number().integer().min(0).max(36500).empty('').default(0),
  IDEMPOTENCY_LEASE_SECONDS: Joi.number().integer().min(1).max(300).default(10),
  IDEMPOTENCY_IN_PROGRESS_WAIT_MS: Joi.number().integer().min(0).max(10000).default(2000),
  RATE_LIMIT_PER_MINUTE: Joi.number().integer().min(1).default(600),
  SHUTDOWN_TIMEOUT_SECONDS: Joi.number().integer().min(1).default(25),
  WS_HEARTBEAT_MS: Joi.number().integer().min(100).max(300000).default(25000),
  WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: Joi.number().integer().min(1).default(100),
  WS_MAX_MESSAGES_PER_SECOND: Joi.number().integer().min(1).default(50),
  WS_MAX_CONNECTIONS_PER_USER: Joi.number().integer().min(1).default(20),
  MAX_IN_FLIGHT: Joi.number().integer().min(1).default(512),
  MAX_EVENT_LOOP_DELAY_MS: Joi.number().integer().min(10).default(1000),
  DB_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(0).default(5000),
  DB_LOCK_TIMEOUT_MS: Joi.number().integer().min(0).default(2000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: Joi.number().integer().min(0).default(10000),
  DB_POOL_ACQUIRE_TIMEOUT_MS: Joi.number().integer().min(1).default(3000),
  DB_POOL_MAX: Joi.number().integer().min(1).max(1000).default(10),
  MAX_WRITES_WAITING_PER_GROUP: Joi.number().integer().min(1).default(64),
  CORS_ORIGINS: Joi.string()
    .empty('')
    .custom((value: string, helpers) => {
      try {
        return parseCorsOrigins(value);
      } catch (error) {
        return helpers.message({ custom: (error as Error).message });
      }
    })
    .default([]),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  NODE_ENV: Joi.string().default('development'),
  TALLY_TEST_FAULT_POINT: Joi.string().valid('after-claim', 'before-commit', 'after-commit').empty(''),
})
  .unknown(true)
  .custom((value: Record<string, unknown>, helpers) => {
    if (value['REDIS_URL'] && value['REDIS_CLUSTER_NODES']) {
      // Two Redis deployments named at once is a mistake (a half-done migration); guessing which is
      // meant would split the fleet's leases, counters and fan-out between them.
      return helpers.message({
        custom:
          '"REDIS_CLUSTER_NODES" and "REDIS_URL" are both set: set REDIS_CLUSTER_NODES for a Redis Cluster or REDIS_URL for a single Redis, not both',
      });
    }
    if (!value['REDIS_URL'] && !value['REDIS_CLUSTER_NODES'] && value['ROLE'] !== 'all') {
      return helpers.message({
        custom: '"REDIS_URL" (or "REDIS_CLUSTER_NODES") is required when ROLE is api or gateway',
      });
    }
    if (
      !value['JWT_SECRET'] &&
      (value['ROLE'] !== 'all' || value['DATABASE_URL'] || value['NODE_ENV'] === 'production')
    ) {
      return helpers.message({
        custom:
          '"JWT_SECRET" is required unless this is the single embedded node (ROLE=all without DATABASE_URL, outside production): every instance must verify the others\' tokens',
      });
    }
    return value;
  });

/** Thrown when the environment is not a valid configuration; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment once at boot. Nothing else in the service reads `process.env`.
 * @throws ConfigError with one line naming the offending variable
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const variable = detail?.path.join('.') || '';
    throw new ConfigError(
      `invalid configuration: ${variable ? `${variable}: ` : ''}${detail?.message ?? error.message}`,
    );
  }
  const v = value as {
    PORT: number;
    ROLE: Role;
    DATABASE_URL?: string;
    REDIS_URL?: string;
    REDIS_CLUSTER_NODES?: RedisClusterConfig;
    DATA_DIR: string;
    JWT_SECRET?: string;
    JWT_SECRET_PREVIOUS?: string;
    REFRESH_REUSE_GRACE_SECONDS: number;
    ACCESS_TOKEN_TTL_SECONDS: number;
    IDEMPOTENCY_TTL_SECONDS: number;
    EVENT_RETENTION_DAYS: number;
    IDEMPOTENCY_LEASE_SECONDS: number;
    IDEMPOTENCY_IN_PROGRESS_WAIT_MS: number;
    RATE_LIMIT_PER_MINUTE: number;
    SHUTDOWN_TIMEOUT_SECONDS: number;
    WS_HEARTBEAT_MS: number;
    WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: number;
    WS_MAX_MESSAGES_PER_SECOND: number;
    WS_MAX_CONNECTIONS_PER_USER: number;
    MAX_IN_FLIGHT: number;
    MAX_EVENT_LOOP_DELAY_MS: number;
    DB_STATEMENT_TIMEOUT_MS: number;
    DB_LOCK_TIMEOUT_MS: number;
    DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: number;
    DB_POOL_ACQUIRE_TIMEOUT_MS: number;
    DB_POOL_MAX: number;
    MAX_WRITES_WAITING_PER_GROUP: number;
    CORS_ORIGINS: '*' | string[];
    LOG_LEVEL: string;
    NODE_ENV: string;
    TALLY_TEST_FAULT_POINT?: string;
  };
  return Object.freeze({
    port: v.PORT,
    role: v.ROLE,
    databaseUrl: v.DATABASE_URL,
    redisUrl: v.REDIS_URL,
    redisCluster: v.REDIS_CLUSTER_NODES,
    dataDir: v.DATA_DIR,
    jwtSecret: v.JWT_SECRET,
    jwtSecretPrevious: v.JWT_SECRET_PREVIOUS,
    refreshReuseGraceSeconds: v.REFRESH_REUSE_GRACE_SECONDS,
    accessTokenTtlSeconds: v.ACCESS_TOKEN_TTL_SECONDS,
    idempotencyTtlSeconds: v.IDEMPOTENCY_TTL_SECONDS,
    eventRetentionDays: v.EVENT_RETENTION_DAYS > 0 ? v.EVENT_RETENTION_DAYS : undefined,
    idempotencyLeaseSeconds: v.IDEMPOTENCY_LEASE_SECONDS,
    idempotencyInProgressWaitMs: v.IDEMPOTENCY_IN_PROGRESS_WAIT_MS,
    rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
    shutdownTimeoutSeconds: v.SHUTDOWN_TIMEOUT_SECONDS,
    wsHeartbeatMs: v.WS_HEARTBEAT_MS,
    wsMaxSubscriptionsPerConnection: v.WS_MAX_SUBSCRIPTIONS_PER_CONNECTION,
    wsMaxMessagesPerSecond: v.WS_MAX_MESSAGES_PER_SECOND,
    wsMaxConnectionsPerUser: v.WS_MAX_CONNECTIONS_PER_USER,
    maxInFlight: v.MAX_IN_FLIGHT,
    maxEventLoopDelayMs: v.MAX_EVENT_LOOP_DELAY_MS,
    dbStatementTimeoutMs: v.DB_STATEMENT_TIMEOUT_MS,
    dbLockTimeoutMs: v.DB_LOCK_TIMEOUT_MS,
    dbIdleInTransactionTimeoutMs: v.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    dbPoolAcquireTimeoutMs: v.DB_POOL_ACQUIRE_TIMEOUT_MS,
    dbPoolMax: v.DB_POOL_MAX,
    maxWritesWaitingPerGroup: v.MAX_WRITES_WAITING_PER_GROUP,
    corsOrigins: Array.isArray(v.CORS_ORIGINS) ? Object.freeze([...v.CORS_ORIGINS]) : v.CORS_ORIGINS,
    logLevel: v.LOG_LEVEL,
    nodeEnv: v.NODE_ENV,
    testFaultPoint: v.TALLY_TEST_FAULT_POINT,
  });
}
