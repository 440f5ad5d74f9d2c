import Joi from 'joi';

export type Role = 'all' | 'api' | 'gateway';

export type Config = Readonly<{
  port: number;
  role: Role;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  dataDir: string;
  jwtSecret: string | undefined;
  /** A retired secret still accepted when verifying tokens (rotation). */
  jwtSecretPrevious: string | undefined;
  refreshReuseGraceSeconds: number;
  accessTokenTtlSeconds: number;
  idempotencyTtlSeconds: number;
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
  DATA_DIR: Joi.string().default('./data'),
  // Required outside the single embedded node: two pods with generated secrets would reject each
  // other's tokens (checked below, with the other cross-variable rules).
  JWT_SECRET: Joi.string().min(32).empty(''),
  JWT_SECRET_PREVIOUS: Joi.string().min(32).empty('').invalid(Joi.ref('JWT_SECRET')),
  REFRESH_REUSE_GRACE_SECONDS: Joi.number().integer().min(0).max(300).default(10),
  ACCESS_TOKEN_TTL_SECONDS: Joi.number().integer().min(1).default(900),
  IDEMPOTENCY_TTL_SECONDS: Joi.number().integer().min(1).default(86400),
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
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  NODE_ENV: Joi.string().default('development'),
  TALLY_TEST_FAULT_POINT: Joi.string().valid('after-claim', 'before-commit', 'after-commit').empty(''),
})
  .unknown(true)
  .custom((value: Record<string, unknown>, helpers) => {
    if (!value['REDIS_URL'] && value['ROLE'] !== 'all') {
      return helpers.message({ custom: '"REDIS_URL" is required when ROLE is api or gateway' });
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
    DATA_DIR: string;
    JWT_SECRET?: string;
    JWT_SECRET_PREVIOUS?: string;
    REFRESH_REUSE_GRACE_SECONDS: number;
    ACCESS_TOKEN_TTL_SECONDS: number;
    IDEMPOTENCY_TTL_SECONDS: number;
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
    LOG_LEVEL: string;
    NODE_ENV: string;
    TALLY_TEST_FAULT_POINT?: string;
  };
  return Object.freeze({
    port: v.PORT,
    role: v.ROLE,
    databaseUrl: v.DATABASE_URL,
    redisUrl: v.REDIS_URL,
    dataDir: v.DATA_DIR,
    jwtSecret: v.JWT_SECRET,
    jwtSecretPrevious: v.JWT_SECRET_PREVIOUS,
    refreshReuseGraceSeconds: v.REFRESH_REUSE_GRACE_SECONDS,
    accessTokenTtlSeconds: v.ACCESS_TOKEN_TTL_SECONDS,
    idempotencyTtlSeconds: v.IDEMPOTENCY_TTL_SECONDS,
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
    logLevel: v.LOG_LEVEL,
    nodeEnv: v.NODE_ENV,
    testFaultPoint: v.TALLY_TEST_FAULT_POINT,
  });
}
