/** Whether a PostgreSQL or Redis server answers at a URL, and URLs as messages may show them. */
import { Redis } from 'ioredis';
import { Client } from 'pg';

/** Hides the password of a URL, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable url>';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Probes

/** Resolves when the PostgreSQL server at `url` runs `select 1`; rejects with the reason otherwise. */
export async function probePostgres(url: string, timeoutMs = 3000): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => {});
  }
}

/** Resolves when the Redis server at `url` answers PING; rejects with the reason otherwise. */
export async function probeRedis(url: string, timeoutMs = 3000): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: unknown;
  client.on('error', (error) => {
    lastError = error;
  });
  try {
    await client.connect();
    const reply = await client.ping();
    if (reply !== 'PONG') throw new Error(`unexpected PING reply ${JSON.stringify(reply)}`);
  } catch (error) {
    // ioredis rejects with a bare "Connection is closed."; the 'error' event has the real cause.
    throw lastError ?? error;
  } finally {
    client.disconnect();
  }
}
