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
  /**
   * The reply's body as a value, when it has one: a writer whose event carries this very value
   * (a created expense is its event's `data.expense`) points the record at the event
   * (`bodyInEvent`) instead of copying the body (migration 013).
   */
  replyBody?: unknown;
  /** Where the record's body is kept instead of `response.body`: a field of an event's `data`. */
  bodyInEvent?: EventField;
};

/** A field of one event's `data`: the event by its partition key (`group_id`, `seq`, `occurred_at`). */
export type EventField = { groupId: string; seq: number; occurredAt: Date; field: string };

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
  body: string | null;
  expires_at: Date | string;
};

/**
 * The live record of a scope, its body from the record itself or, for a record that points at its
 * event (migration 013), the event's field as the writer serialised it (`events.data` is `json`:
 * `->` returns the text as written). `occurred_at` is the events' partition key: one partition.
 */
const BODY = `coalesce(r.body, (select (e.data -> r.body_event_field)::text from events e
                                  where e.group_id = r.body_event_group and e.seq = r.body_event_seq
                                    and e.occurred_at = r.body_event_at)) as body`;

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
      const row: Row | undefined = await knex('idempotency_records as r')
        .first(
          'r.user_id',
          'r.key',
          'r.path',
          'r.fingerprint',
          'r.status',
          'r.headers',
          'r.expires_at',
          knex.raw(BODY),
        )
        .where({ 'r.user_id': userId, 'r.key': key, 'r.path': storedPath(path) })
        .where('r.expires_at', '>', knex.fn.now());
      if (!row) return undefined;
      // The events are kept at least as long as the records that point at them (`maintainPartitions`).
      if (row.body === null) throw new Error('the event a durable idempotency record points at is gone');
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
