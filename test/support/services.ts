/**
 * Finds, or starts, the PostgreSQL server and the Redis server the integration tests need.
 *
 * Order of preference, for each service:
 *   1. an explicit URL (`TEST_DATABASE_URL`/`DATABASE_URL`, `TEST_REDIS_URL`/`REDIS_URL`): it must answer,
 *      otherwise we fail loudly rather than silently test against something else;
 *   2. the usual localhost server (postgres://postgres@127.0.0.1:5432/test, then the `root` user;
 *      redis://127.0.0.1:6379);
 *   3. a throwaway server started from the local binaries in a temporary directory, deleted by `stop()`.
 *
 * `TALLY_TEST_FORCE_EPHEMERAL=1` (or `{ ephemeral: true }`) skips 1 and 2 and always starts a throwaway
 * server. `TALLY_PG_BINDIR` may point at a directory holding initdb/pg_ctl if they are somewhere unusual.
 *
 * The throwaway servers are started by throwaway-servers.ts; the probes are in service-probes.ts.
 */
import { probePostgres, probeRedis, redactUrl } from './service-probes';
import { startEphemeralPostgres, startEphemeralRedis } from './throwaway-servers';
import { errorMessage } from './until';

export { probePostgres, probeRedis, redactUrl } from './service-probes';
export { findPostgresBinDir, findRedisServer, freePort, onExit, tail } from './throwaway-servers';

export type RunningService = {
  url: string;
  /** Stops and deletes a server this process started; a no-op for a server that already existed. */
  stop(): Promise<void>;
  /** True when `stop()` will tear down a server started by us. */
  ephemeral: boolean;
};

/**
 * A throwaway server this process started (`ensure…({ ephemeral: true })`), which a test or the chaos
 * run may take down and bring back: same port, same URL, so clients reconnect to it.
 */
export type ThrowawayService = RunningService & {
  ephemeral: true;
  /**
   * Takes the server down. Redis: SIGKILL, and its data is gone (it runs without persistence).
   * PostgreSQL: `pg_ctl stop -m fast` (sessions are terminated, open transactions roll back,
   * committed data stays).
   */
  down(): Promise<void>;
  /** Starts it again on the same port (PostgreSQL: on the same data directory); resolves once it answers. */
  up(): Promise<void>;
};

export type EnsureOptions = {
  /** Ignore explicit URLs and localhost defaults; always start a throwaway server. */
  ephemeral?: boolean;
};

const DEFAULT_POSTGRES_URLS = [
  'postgres://postgres@127.0.0.1:5432/test',
  'postgres://root@127.0.0.1:5432/test',
];
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

function forceEphemeral(options: EnsureOptions): boolean {
  if (options.ephemeral !== undefined) return options.ephemeral;
  const flag = process.env.TALLY_TEST_FORCE_EPHEMERAL;
  return flag !== undefined && flag !== '' && flag !== '0' && flag !== 'false';
}

const noop = async () => {};

/**
 * A server that already runs: the one named by the first set variable of `envNames` (which must
 * answer), else the first of `defaults` that answers; undefined when none does.
 */
async function findRunning(
  envNames: [string, string],
  defaults: readonly string[],
  probe: (url: string, timeoutMs: number) => Promise<void>,
): Promise<RunningService | undefined> {
  const explicitName = envNames.find((name) => process.env[name]) ?? envNames[1];
  const explicit = process.env[explicitName];
  if (explicit) {
    try {
      await probe(explicit, 5000);
    } catch (error) {
      throw new Error(
        `${explicitName}=${redactUrl(explicit)} does not answer: ${errorMessage(error)}. ` +
          `Start that server, or unset ${explicitName} to let the tests find or start one.`,
      );
    }
    return { url: explicit, ephemeral: false, stop: noop };
  }
  for (const url of defaults) {
    try {
      await probe(url, 2000);
      return { url, ephemeral: false, stop: noop };
    } catch {
      // try the next one
    }
  }
  return undefined;
}

export async function ensurePostgres(options: { ephemeral: true }): Promise<ThrowawayService>;
export async function ensurePostgres(options?: EnsureOptions): Promise<RunningService>;
export async function ensurePostgres(options: EnsureOptions = {}): Promise<RunningService> {
  const running = forceEphemeral(options)
    ? undefined
    : await findRunning(['TEST_DATABASE_URL', 'DATABASE_URL'], DEFAULT_POSTGRES_URLS, probePostgres);
  return running ?? startEphemeralPostgres();
}

export async function ensureRedis(options: { ephemeral: true }): Promise<ThrowawayService>;
export async function ensureRedis(options?: EnsureOptions): Promise<RunningService>;
export async function ensureRedis(options: EnsureOptions = {}): Promise<RunningService> {
  const running = forceEphemeral(options)
    ? undefined
    : await findRunning(['TEST_REDIS_URL', 'REDIS_URL'], [DEFAULT_REDIS_URL], probeRedis);
  return running ?? startEphemeralRedis();
}
