/**
 * The one place the write path reaches past knex's query API, for speed: group commit takes a raw
 * `pg` connection from knex's pool (so that the pool's size and acquire timeout bound it like any
 * query) and reads the pool's settings. It relies on, in `knex` (version pinned exactly in
 * apps/api/package.json; `pg-internals.test.ts` fails loudly when an upgrade changes any of it):
 * `client.acquireConnection()` (rejecting with `KnexTimeoutError` after `acquireConnectionTimeout`),
 * `client.releaseConnection()`, and `client.config` (`client`, `acquireConnectionTimeout`).
 */
import type { Knex } from 'knex';
import type { PgClient } from './pg-internals';

export const KNEX_VERSION_RELIED_ON = '3.3.0';

/** Whether `knex` talks to PostgreSQL through `pg` (not embedded PGlite). */
export const isPg = (knex: Knex): boolean => knex.client?.config?.client === 'pg';

/** How long knex waits for a pooled connection before `KnexTimeoutError` (knex's default: 60 s). */
export const acquireTimeoutMs = (knex: Knex): number =>
  (knex.client.config as { acquireConnectionTimeout?: number }).acquireConnectionTimeout ?? 60_000;

/**
 * Runs `use` on a `pg` client taken from `knex`'s pool, and gives it back after (a client that
 * failed is discarded by knex when given back).
 */
export async function withPooledClient<T>(knex: Knex, use: (client: PgClient) => Promise<T>): Promise<T> {
  const client = (await knex.client.acquireConnection()) as PgClient;
  try {
    return await use(client);
  } finally {
    await knex.client.releaseConnection(client);
  }
}
