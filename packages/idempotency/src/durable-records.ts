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
 *
 * When a live record holds the key it raises `TY001` (`tally_idempotency_replaceable`, migration
 * 003), which undoes the writer's whole statement: the record's own slot is checked here, the slots
 * of a record written earlier (before a slot boundary) by the claims its trigger writes
 * (`idempotency_claims`). Either way nothing commits, and the writer replays the live record.
 */
export const durableRecordInsertSql = (source: string): string =>
  `insert into idempotency_records (user_id, key, path, slot, fingerprint, status, headers, body, created_at, expires_at)
   select $1, $2, $3, tally_idempotency_slot(now()), $4, $5::integer, $6::jsonb, $7, now(), $8::timestamptz from ${source}
   on conflict (user_id, key, path, slot) do update
     set fingerprint = excluded.fingerprint, status = excluded.status, headers = excluded.headers,
         body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at
     where tally_idempotency_replaceable(idempotency_records.expires_at)
   returning 1`;

/**
 * The record's insert by itself (an outcome that changed nothing), with knex's `?` placeholders: each
 * `$n` of the statement appears once, in order.
 */
const STANDALONE_INSERT = durableRecordInsertSql('(select 1) as alone').replace(/\$\d+/g, '?');

/** `tally_idempotency_replaceable` (migration 003): a live record holds the key. */
const isLiveRecord = (error: unknown): boolean => (error as { code?: string } | null)?.code === 'TY001';

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
 * transaction as the money write, under a unique key (its slot's, plus the claims of every slot it
 * is live in). An expired record counts as unseen: the insert takes its place. Expired records are
 * not deleted one by one: their partitions are dropped whole (`maintainPartitions` in `@tally/db`).
 */
export function createDurableRecords(deps: { knex: Knex }) {
  const { knex } = deps;

  return {
    /** A record by itself (an outcome that changed nothing): false when a live record already holds the key. */
    async insert(record: DurableRecord): Promise<boolean> {
      try {
        await knex.raw(STANDALONE_INSERT, durableRecordValues(record) as Knex.RawBinding[]);
        return true;
      } catch (error) {
        if (isLiveRecord(error)) return false;
        throw error;
      }
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
  };
}

export type DurableRecords = ReturnType<typeof createDurableRecords>;
