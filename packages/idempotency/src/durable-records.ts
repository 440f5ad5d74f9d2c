import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { StoredResponse } from './idempotency-store';

export type DurableRecord = {
  userId: string;
  key: string;
  path: string;
  fingerprint: string;
  response: StoredResponse;
  expiresAt: Date;
};

/** Thrown by a write whose key already has a live durable record: it changed nothing; replay the record. */
export class DurableRecordExists extends Error {
  override name = 'DurableRecordExists';
}

/**
 * PostgreSQL indexes a key of at most about 2.7 KB. No route filled with real ids comes near this
 * many characters; a longer path (an absurd id, which the operation answers 404 or 422) is stored as
 * a prefix and the hash of the whole, still one distinct path per scope.
 */
const MAX_STORED_PATH = 1024;
const storedPath = (path: string): string =>
  path.length <= MAX_STORED_PATH
    ? path
    : `${path.slice(0, MAX_STORED_PATH - 65)}#${createHash('sha256').update(path).digest('hex')}`;

type Row = {
  user_id: string;
  key: string;
  path: string;
  fingerprint: string;
  status: number;
  headers: Record<string, string> | string;
  body: string;
  expires_at: Date | string;
};

/**
 * The durable record's insert for a writer that folds it into its own statement (one round trip
 * for the whole write): it inserts only when `source`, a relation of the writer's statement, has a
 * row, and it takes the place of an expired record. It returns a row only when it inserted. `$1`…`$8`
 * are `durableRecordValues(record)`, numbered from 1: the writer renumbers them into its statement.
 */
export const durableRecordInsertSql = (source: string): string =>
  `insert into idempotency_records (user_id, key, path, fingerprint, status, headers, body, created_at, expires_at)
   select $1, $2, $3, $4, $5::integer, $6::jsonb, $7, now(), $8::timestamptz from ${source}
   on conflict (user_id, key, path) do update
     set fingerprint = excluded.fingerprint, status = excluded.status, headers = excluded.headers,
         body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at
     where idempotency_records.expires_at <= now()
   returning 1`;

/** The values of `durableRecordInsertSql`, in its order. */
export const durableRecordValues = (record: DurableRecord): unknown[] => [
  record.userId,
  record.key,
  storedPath(record.path),
  record.fingerprint,
  record.response.status,
  JSON.stringify(record.response.headers),
  record.response.body,
  record.expiresAt,
];

/**
 * The PostgreSQL half of exactly-once: a record per (user, key, path) written in the same
 * transaction as the money write, under a unique key. An expired record counts as unseen: the
 * insert takes its place.
 */
export function createDurableRecords(deps: { knex: Knex }) {
  const { knex } = deps;

  /** Insert, or take the place of an expired record; returns a row only when it did. */
  const insertQuery = (record: DurableRecord) => {
    const row = {
      user_id: record.userId,
      key: record.key,
      path: storedPath(record.path),
      fingerprint: record.fingerprint,
      status: record.response.status,
      headers: JSON.stringify(record.response.headers),
      body: record.response.body,
      created_at: new Date(),
      expires_at: record.expiresAt,
    };
    return knex('idempotency_records')
      .insert(row)
      .onConflict(['user_id', 'key', 'path'])
      .merge()
      .where('idempotency_records.expires_at', '<=', new Date())
      .returning('user_id');
  };

  return {
    /** A record by itself (an outcome that changed nothing): false when a live record already holds the key. */
    async insert(record: DurableRecord): Promise<boolean> {
      return (await insertQuery(record)).length > 0;
    },

    async find(userId: string, key: string, path: string): Promise<DurableRecord | undefined> {
      const row = await knex<Row>('idempotency_records')
        .where({ user_id: userId, key, path: storedPath(path) })
        .andWhere('expires_at', '>', new Date())
        .first();
      if (!row) return undefined;
      return {
        userId: row.user_id,
        key: row.key,
        path: row.path,
        fingerprint: row.fingerprint,
        response: {
          status: row.status,
          headers:
            typeof row.headers === 'string'
              ? (JSON.parse(row.headers) as Record<string, string>)
              : row.headers,
          body: row.body,
        },
        expiresAt: new Date(row.expires_at),
      };
    },

    /** Deletes expired records in bounded batches; returns how many went. */
    async sweep(batchSize = 1000): Promise<number> {
      const result = await knex.raw(
        `delete from idempotency_records where ctid in (
           select ctid from idempotency_records where expires_at <= now() limit ?)`,
        [batchSize],
      );
      return Number((result as { rowCount?: number; affectedRows?: number }).rowCount ?? 0);
    },
  };
}

export type DurableRecords = ReturnType<typeof createDurableRecords>;
