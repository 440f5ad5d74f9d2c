import { ConfigError, loadConfig } from './config';

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
      accessTokenTtlSeconds: 900,
      idempotencyTtlSeconds: 86400,
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
    [{ RATE_LIMIT_PER_MINUTE: '1.5' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ SHUTDOWN_TIMEOUT_SECONDS: 'soon' }, 'SHUTDOWN_TIMEOUT_SECONDS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ NODE_ENV: 'production' }, 'JWT_SECRET'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
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

  it('requires REDIS_URL for the api and gateway roles, not for the embedded default', () => {
    expect(() => loadConfig({ ROLE: 'api' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ ROLE: 'gateway' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ ROLE: 'api', REDIS_URL: 'redis://127.0.0.1:6379' }).role).toBe('api');
  });
});
