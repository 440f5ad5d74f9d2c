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
 * a prefix and the hash of the whole, still one distinct path per scope. The writer of the record
 * stores `storedPath(path)`.
 */
const MAX_STORED_PATH = 1024;
export const storedPath = (path: string): string =>
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
 * The PostgreSQL half of exactly-once: a record per (user, key, path), written by the money write's
 * own statement (the API's `durableRecordInsert`), under a unique key (its slot's, plus the claims
 * of every slot it is live in). An expired record counts as unseen. Expired records are not deleted
 * one by one: their partitions are dropped whole (`maintainPartitions` in `@tally/db`). Here: the
 * live record of a key, for a replay.
 */
export function createDurableRecords(deps: { knex: Knex }) {
  const { knex } = deps;

  return {
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
