import { ConfigError, loadConfig } from './config';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';

describe('configuration', () => {
  it('has the defaults of API.md §10', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      role: 'all',
      databaseUrl: undefined,
      redisUrl: undefined,
      dataDir: './data',
      jwtSecret: undefined,
      jwtSecretPrevious: undefined,
      refreshReuseGraceSeconds: 10,
      accessTokenTtlSeconds: 900,
      idempotencyTtlSeconds: 86400,
      idempotencyInProgressWaitMs: 2000,
      rateLimitPerMinute: 600,
      shutdownTimeoutSeconds: 25,
      logLevel: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ ROLE: 'worker' }, 'ROLE'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL'],
    [{ ACCESS_TOKEN_TTL_SECONDS: '0' }, 'ACCESS_TOKEN_TTL_SECONDS'],
    [{ IDEMPOTENCY_TTL_SECONDS: '-1' }, 'IDEMPOTENCY_TTL_SECONDS'],
    [{ IDEMPOTENCY_IN_PROGRESS_WAIT_MS: '-1' }, 'IDEMPOTENCY_IN_PROGRESS_WAIT_MS'],
    [{ IDEMPOTENCY_IN_PROGRESS_WAIT_MS: '60000' }, 'IDEMPOTENCY_IN_PROGRESS_WAIT_MS'],
    [{ RATE_LIMIT_PER_MINUTE: '1.5' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ SHUTDOWN_TIMEOUT_SECONDS: 'soon' }, 'SHUTDOWN_TIMEOUT_SECONDS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ NODE_ENV: 'production' }, 'JWT_SECRET'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ DATABASE_URL: 'postgres://db/tally' }, 'JWT_SECRET'],
    [{ ROLE: 'gateway', REDIS_URL: 'redis://127.0.0.1:6379' }, 'JWT_SECRET'],
    [{ JWT_SECRET: SECRET, JWT_SECRET_PREVIOUS: 'short' }, 'JWT_SECRET_PREVIOUS'],
    [{ JWT_SECRET: SECRET, JWT_SECRET_PREVIOUS: SECRET }, 'JWT_SECRET_PREVIOUS'],
    [{ REFRESH_REUSE_GRACE_SECONDS: '-1' }, 'REFRESH_REUSE_GRACE_SECONDS'],
    [{ REFRESH_REUSE_GRACE_SECONDS: 'ten' }, 'REFRESH_REUSE_GRACE_SECONDS'],
  ])('stops with one line naming the variable for %j', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env as NodeJS.ProcessEnv);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(variable);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('trusts a proxy on loopback only by default; TRUST_PROXY takes a hop count or addresses and CIDRs', () => {
    expect(String(loadConfig({}).trustProxy)).toBe('loopback');
    expect(loadConfig({}).trustProxy).toEqual({ addresses: ['127.0.0.0/8', '::1/128'] });
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toEqual({ addresses: ['127.0.0.0/8', '::1/128'] });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,fd00::/8' }).trustProxy).toEqual({
      addresses: ['10.0.0.0/8', 'fd00::/8'],
    });
    for (const bad of ['haproxy', '10.0.0.0/40', '17', 'loopback,nope']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/^invalid configuration: TRUST_PROXY: /);
    }
  });

  it('keeps the event log for ever by default (EVENT_RETENTION_DAYS unset, empty or 0), else that many days', () => {
    expect(loadConfig({}).eventRetentionDays).toBeUndefined();
    expect(loadConfig({ EVENT_RETENTION_DAYS: '' }).eventRetentionDays).toBeUndefined();
    expect(loadConfig({ EVENT_RETENTION_DAYS: '0' }).eventRetentionDays).toBeUndefined();
    expect(loadConfig({ EVENT_RETENTION_DAYS: '30' }).eventRetentionDays).toBe(30);
    for (const bad of ['-1', '1.5', 'month', '36501']) {
      expect(() => loadConfig({ EVENT_RETENTION_DAYS: bad })).toThrow(/EVENT_RETENTION_DAYS/);
    }
  });

  it('requires REDIS_URL for the api and gateway roles, not for the embedded default', () => {
    expect(() => loadConfig({ ROLE: 'api' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ ROLE: 'gateway' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ ROLE: 'api', REDIS_URL: 'redis://127.0.0.1:6379', JWT_SECRET: SECRET }).role).toBe(
      'api',
    );
  });

  it('takes a Redis Cluster from REDIS_CLUSTER_NODES instead of REDIS_URL, never both', () => {
    expect(loadConfig({}).redisCluster).toBeUndefined();
    expect(loadConfig({ REDIS_CLUSTER_NODES: '' }).redisCluster).toBeUndefined();
    const config = loadConfig({
      ROLE: 'gateway',
      JWT_SECRET: SECRET,
      REDIS_CLUSTER_NODES: ' 10.0.0.1:7000,10.0.0.2:7001 ,[fd00::3]:7002,10.0.0.1:7000',
    });
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisCluster).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: 'fd00::3', port: 7002 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(Object.isFrozen(config.redisCluster?.nodes)).toBe(true);
    // Credentials and TLS by URL entries, the same for every node.
    expect(
      loadConfig({
        REDIS_CLUSTER_NODES: 'rediss://tally:s3cret@a.example:6380,rediss://tally:s3cret@b.example',
      }).redisCluster,
    ).toEqual({
      nodes: [
        { host: 'a.example', port: 6380 },
        { host: 'b.example', port: 6379 },
      ],
      username: 'tally',
      password: 's3cret',
      tls: true,
    });
    for (const bad of ['a', 'a:0', 'a:70000', 'a:b', 'http://a:1', ' , ', 'redis://:x@a:1,redis://:y@b:1']) {
      let error: unknown;
      try {
        loadConfig({ REDIS_CLUSTER_NODES: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^invalid configuration: REDIS_CLUSTER_NODES: /);
      expect((error as Error).message.split('\n')).toHaveLength(1);
    }
    expect(() =>
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7000' }),
    ).toThrow(/"REDIS_CLUSTER_NODES" and "REDIS_URL" are both set/);
    expect(loadConfig({ ROLE: 'api', JWT_SECRET: SECRET, REDIS_CLUSTER_NODES: '127.0.0.1:7000' }).role).toBe(
      'api',
    );
  });

  it('requires JWT_SECRET whenever the process is not the single embedded node', () => {
    // Embedded default: a generated secret kept in DATA_DIR is fine.
    expect(loadConfig({}).jwtSecret).toBeUndefined();
    for (const env of [
      { DATABASE_URL: 'postgres://db/tally' },
      { ROLE: 'api', REDIS_URL: 'redis://r:6379' },
      { NODE_ENV: 'production' },
    ]) {
      expect(() => loadConfig(env)).toThrow(/JWT_SECRET/);
      expect(loadConfig({ ...env, JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
    }
  });

  it('accepts a previous secret for rotation and a grace window of 0 (strict rotation)', () => {
    const config = loadConfig({
      JWT_SECRET: SECRET,
      JWT_SECRET_PREVIOUS: `${SECRET}-old`,
      REFRESH_REUSE_GRACE_SECONDS: '0',
    });
    expect(config.jwtSecretPrevious).toBe(`${SECRET}-old`);
    expect(config.refreshReuseGraceSeconds).toBe(0);
  });

  it('bounds every database wait by default, accepts 0 to turn a PostgreSQL timeout off, and rejects the rest', () => {
    expect(loadConfig({})).toMatchObject({
      dbStatementTimeoutMs: 5000,
      dbLockTimeoutMs: 2000,
      dbIdleInTransactionTimeoutMs: 10000,
      dbPoolAcquireTimeoutMs: 3000,
      dbPoolMax: 10,
      maxWritesWaitingPerGroup: 64,
    });
    expect(
      loadConfig({
        DB_STATEMENT_TIMEOUT_MS: '0',
        DB_LOCK_TIMEOUT_MS: '0',
        DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0',
        DB_POOL_ACQUIRE_TIMEOUT_MS: '250',
        DB_POOL_MAX: '4',
        MAX_WRITES_WAITING_PER_GROUP: '2',
      }),
    ).toMatchObject({
      dbStatementTimeoutMs: 0,
      dbLockTimeoutMs: 0,
      dbIdleInTransactionTimeoutMs: 0,
      dbPoolAcquireTimeoutMs: 250,
      dbPoolMax: 4,
      maxWritesWaitingPerGroup: 2,
    });
    for (const [variable, value] of [
      ['DB_STATEMENT_TIMEOUT_MS', '-1'],
      ['DB_LOCK_TIMEOUT_MS', '1.5'],
      ['DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', 'long'],
      ['DB_POOL_ACQUIRE_TIMEOUT_MS', '0'],
      ['DB_POOL_MAX', '0'],
      ['MAX_WRITES_WAITING_PER_GROUP', '0'],
    ] as const) {
      expect(() => loadConfig({ [variable]: value })).toThrow(
        new RegExp(`^invalid configuration: ${variable}`),
      );
    }
  });

  it('has WebSocket limits per connection and per user, 100, 50 and 20 by default, each at least 1', () => {
    expect(loadConfig({})).toMatchObject({
      wsMaxSubscriptionsPerConnection: 100,
      wsMaxMessagesPerSecond: 50,
      wsMaxConnectionsPerUser: 20,
    });
    expect(
      loadConfig({
        WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: '5',
        WS_MAX_MESSAGES_PER_SECOND: '10',
        WS_MAX_CONNECTIONS_PER_USER: '2',
      }),
    ).toMatchObject({
      wsMaxSubscriptionsPerConnection: 5,
      wsMaxMessagesPerSecond: 10,
      wsMaxConnectionsPerUser: 2,
    });
    for (const variable of [
      'WS_MAX_SUBSCRIPTIONS_PER_CONNECTION',
      'WS_MAX_MESSAGES_PER_SECOND',
      'WS_MAX_CONNECTIONS_PER_USER',
    ]) {
      const named = new RegExp(`^invalid configuration: ${variable}`);
      expect(() => loadConfig({ [variable]: '0' })).toThrow(named);
      expect(() => loadConfig({ [variable]: 'many' })).toThrow(named);
    }
  });

  it('has no CORS origins by default; CORS_ORIGINS lists exact origins, normalised as browsers send them', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
    const config = loadConfig({
      CORS_ORIGINS:
        ' https://App.Example.com:443/ ,http://localhost:5173, capacitor://localhost,,https://app.example.com',
    });
    expect(config.corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
      'capacitor://localhost',
    ]);
    expect(Object.isFrozen(config.corsOrigins)).toBe(true);
    // Any origin: allowed on purpose (no cookies, bearer tokens only), but only alone.
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    for (const value of [
      '*,https://app.example.com',
      'app.example.com',
      'https://app.example.com/path',
      'https://app.example.com?x=1',
      'https://user@app.example.com',
      'https://exa mple.com',
      'https://[::1',
      'null',
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/^invalid configuration: CORS_ORIGINS: /);
    }
  });
});

describe('WebSocket credentials and boot configuration', () => {
  it('accepts ?access_token= by default only on the single embedded node', () => {
    expect(loadConfig({}).wsAllowQueryToken).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', JWT_SECRET: SECRET }).wsAllowQueryToken).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).wsAllowQueryToken).toBe(false);
    expect(
      loadConfig({ ROLE: 'gateway', REDIS_URL: 'redis://r', JWT_SECRET: SECRET }).wsAllowQueryToken,
    ).toBe(false);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db/x', JWT_SECRET: SECRET, WS_ALLOW_QUERY_TOKEN: 'true' })
        .wsAllowQueryToken,
    ).toBe(true);
    expect(loadConfig({ WS_ALLOW_QUERY_TOKEN: 'false' }).wsAllowQueryToken).toBe(false);
  });

  it('has the auth deadline and the boot limit, checked', () => {
    expect(loadConfig({})).toMatchObject({ wsAuthTimeoutMs: 5000, bootDbTimeoutSeconds: 300 });
    expect(() => loadConfig({ WS_AUTH_TIMEOUT_MS: '10' })).toThrow(/WS_AUTH_TIMEOUT_MS/);
    expect(() => loadConfig({ BOOT_DB_TIMEOUT_SECONDS: '-1' })).toThrow(/BOOT_DB_TIMEOUT_SECONDS/);
  });
});
