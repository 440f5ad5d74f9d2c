import type { ClientConfig, Client as PgClient } from 'pg';
import type { DatabaseHost, DatabaseUrl, TargetSessionAttrs } from './database-url';

/**
 * Connecting through a multi-host `DATABASE_URL` (see `database-url.ts`): the hosts are tried in
 * turn, starting with the one that fitted last (after a failover every new connection would
 * otherwise knock on the dead primary first), and the first whose session is of the kind asked
 * for is kept; the others are closed. Promotion is never Tally's: this only finds the server an
 * operator (or CloudNativePG, Patroni) made the primary.
 */

/** Errors after which a connection must not be reused: its server is read-only, or is going away. */
const ABANDON_CODES = new Set([
  '25006', // read_only_sql_transaction: the server turned read-only (demoted, or default_transaction_read_only)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
]);

/** The SQLSTATE of the error thrown when no host fits: cannot_connect_now, answered 503 with Retry-After. */
export const NO_HOST_FITS = '57P03';

type Session = { recovery: boolean; readOnly: boolean };

/** Whether a session fits `target_session_attrs`, as libpq decides (`prefer-standby`: see `connectFirstFitting`). */
function fits(attrs: TargetSessionAttrs, session: Session): boolean {
  switch (attrs) {
    case 'read-write':
      return !session.readOnly;
    case 'read-only':
      return session.readOnly;
    case 'primary':
      return !session.recovery;
    case 'standby':
    case 'prefer-standby':
      return session.recovery;
    default:
      return true;
  }
}

export type HostConnector = {
  /**
   * A connected `pg` client on the first host that fits, made by `connect(config)` for each tried;
   * the others are closed. Throws an error with code `57P03` naming every host and why it did not
   * fit (the connection errors' messages included, so that "ECONNREFUSED" still reads as a
   * dependency down).
   */
  connect(connect: (config: ClientConfig) => Promise<PgClient>): Promise<PgClient>;
};

/**
 * `base` is the connection config every host shares (timeouts as startup parameters); `connectTimeoutMs`
 * bounds each attempt, so that a host gone silent costs that much, not the pool's whole acquire timeout.
 */
export function createHostConnector(
  url: DatabaseUrl,
  base: ClientConfig,
  connectTimeoutMs: number,
  /** Called when a kept connection meets one of `ABANDON_CODES`: the pool must not lend it again. */
  abandon: (client: PgClient, reason: string) => void,
): HostConnector {
  let lastFit: DatabaseHost | undefined;
  const order = () => (lastFit ? [lastFit, ...url.hosts.filter((h) => h !== lastFit)] : url.hosts);

  async function tryHost(
    host: DatabaseHost,
    connect: (config: ClientConfig) => Promise<PgClient>,
    attrs: TargetSessionAttrs,
  ): Promise<{ client?: PgClient; why?: string }> {
    let client: PgClient | undefined;
    try {
      client = await connect({
        ...base,
        connectionString: host.url,
        connectionTimeoutMillis: connectTimeoutMs,
      });
      if (attrs === 'any') return { client };
      const { rows } = await client.query<{ recovery: boolean; read_only: string }>(
        "select pg_is_in_recovery() as recovery, current_setting('transaction_read_only') as read_only",
      );
      const row = rows[0];
      const session = { recovery: row?.recovery === true, readOnly: row?.read_only === 'on' };
      if (fits(attrs, session)) return { client };
      await client.end().catch(() => {});
      return {
        why: session.recovery ? 'in recovery (a standby)' : session.readOnly ? 'read-only' : 'read-write',
      };
    } catch (error) {
      await client?.end().catch(() => {});
      return { why: (error as Error).message || String(error) };
    }
  }

  return {
    async connect(connect) {
      const problems: string[] = [];
      // prefer-standby: a standby if any answers, else any server (libpq's second pass).
      const passes: TargetSessionAttrs[] =
        url.targetSessionAttrs === 'prefer-standby' ? ['standby', 'any'] : [url.targetSessionAttrs];
      for (const attrs of passes) {
        for (const host of order()) {
          const { client, why } = await tryHost(host, connect, attrs);
          if (client) {
            lastFit = host;
            watchForAbandon(client, abandon);
            return client;
          }
          problems.push(`${host.host}:${host.port}: ${why}`);
        }
      }
      const error = new Error(
        `No PostgreSQL host accepts a ${url.targetSessionAttrs} session: ${problems.join('; ')}`,
      ) as Error & { code: string };
      error.code = NO_HOST_FITS;
      throw error;
    },
  };
}

/**
 * Calls `abandon` when the server answers one of `ABANDON_CODES`, whichever path sent the query
 * (knex's runner, a named statement, a group-commit pipeline): pg's connection emits every
 * ErrorResponse as `errorMessage` (pg 8.23.1, pinned by apps/api's pg-internals).
 */
function watchForAbandon(client: PgClient, abandon: (client: PgClient, reason: string) => void): void {
  const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
  connection.on('errorMessage', (message: { code?: string }) => {
    if (message.code && ABANDON_CODES.has(message.code))
      abandon(client, `the server answered ${message.code}`);
  });
}
