import { raw, sql } from '@tally/db';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { decodeSeqCursor, encodeCursor } from '../http/cursor';
import { etagOf } from '../http/reply';
import { jsonColumn } from '../json-column';
import { recordNotFound } from '../open-record';
import { createRunRead, type NamedSql, named, readNamed } from '../read-queries';
import { diffRecord, type FieldChange } from './record-diff';

/** Whose history (API.md §15): an expense or a settlement. */
export type HistoryKind = 'expense' | 'settlement';

/** How a version came to be. */
export type HistoryAction = 'created' | 'updated' | 'deleted' | 'restored';

/** One version of a record: one of its money events (API.md §15). */
export type HistoryEntry = {
  seq: number;
  eventId: string;
  action: HistoryAction;
  actorId: string;
  /** The actor's current display name (`Deleted user` for a deleted account). */
  actorName: string | null;
  occurredAt: string;
  /** The expense's `version` (its ETag `"v<version>"`); null for a settlement, which has none. */
  version: number | null;
  etag: string | null;
  /** The record as this version left it, exactly as its event carries it. */
  record: Record<string, unknown>;
  /** Against the version before; null when there is none (the first) or it is no longer kept. */
  changes: FieldChange[] | null;
};

export type HistoryPage = { data: HistoryEntry[]; nextCursor: string | null; truncated: boolean };

type HistoryRow = {
  visible: boolean;
  seq: number | string | null;
  id: string | null;
  type: string | null;
  actor_id: string | null;
  actor_name: string | null;
  occurred_at: Date | string | null;
  record: Record<string, unknown> | string | null;
  restored: boolean | string | null;
};

const KINDS = {
  expense: {
    table: 'expenses',
    types: `('expense.created', 'expense.updated', 'expense.deleted')`,
  },
  settlement: {
    table: 'settlements',
    types: `('settlement.created', 'settlement.deleted')`,
  },
} as const;

/**
 * A record's events from `fromSeq` on, with the caller's membership of its group in the same
 * statement: one row `{visible: false}` when the record does not exist or is of a group the caller
 * is not in, else `{visible: true}` and the events (null columns when there are none). The record may
 * be deleted: its history stays readable. `events_expense_idx`/`events_settlement_idx` (migration 026)
 * find the events; the partitions older than the record (a day of writers' clock skew aside) are
 * pruned while the statement runs. The type list and key expression are written out so that the
 * planner can prove the partial index applies.
 */
export function historyStatement(
  kind: HistoryKind,
  recordId: string,
  userId: string,
  fromSeq: number,
  limit: number,
): NamedSql {
  const { table, types } = KINDS[kind];
  return named(
    `read_${kind}_history`,
    sql`select (t.group_id is not null) as visible, h.seq, h.id, h.type, h.actor_id, u.name as actor_name,
               h.occurred_at, h.record, h.restored
          from (select 1) one
          left join lateral (select x.group_id, x.created_at from ${raw(table)} x
                              where x.id = ${recordId}
                                and exists (select 1 from group_members m
                                             where m.group_id = x.group_id and m.user_id = ${userId})) t on true
          left join lateral (select e.seq, e.id, e.type, e.actor_id, e.occurred_at,
                                    e.data -> ${raw(`'${kind}'`)} as record, e.data -> 'restored' as restored
                               from events e
                              where ((e.data -> ${raw(`'${kind}'`)}) ->> 'id') = ${recordId}
                                and e.type in ${raw(types)}
                                and e.group_id = t.group_id
                                and e.occurred_at >= t.created_at - interval '1 day'
                                and e.seq >= ${fromSeq}
                              order by e.seq limit ${limit}) h on true
          left join users u on u.id = h.actor_id
         order by h.seq`,
  );
}

function actionOf(kind: HistoryKind, row: HistoryRow): HistoryAction {
  if (row.type === `${kind}.deleted`) return 'deleted';
  if (row.type === `${kind}.updated`) return 'updated';
  return jsonColumn(row.restored ?? 'null') === true ? 'restored' : 'created';
}

/**
 * The versions of an expense or a settlement from the event log (API.md §15), oldest first, each
 * diffed against the one before. A page reads the version its cursor names again (the base of its
 * first diff): at most `limit + 2` versions, the last one only to know whether there are more.
 */
export function createHistoryService(deps: { knex: Knex }) {
  const runRead = createRunRead(deps.knex);

  return {
    async list(
      userId: string,
      kind: HistoryKind,
      recordId: string,
      query: { limit: number; cursor?: string },
    ): Promise<HistoryPage> {
      const after = decodeSeqCursor(query.cursor);
      const rows = await readNamed<HistoryRow>(
        runRead,
        historyStatement(kind, recordId, userId, after ?? 0, query.limit + (after === undefined ? 1 : 2)),
      );
      if (!rows[0]?.visible) throw recordNotFound(KINDS[kind].table);
      const events = rows.filter((row) => row.seq !== null);
      // The version the cursor names: the base of this page's first diff, not listed again.
      const base = after !== undefined && Number(events[0]?.seq) === after ? events.shift() : undefined;
      const hasMore = events.length > query.limit;
      const page = hasMore ? events.slice(0, query.limit) : events;
      const first = page[0];
      // The history starts where it should: the creation (first page), or the cursor's version. Else
      // retention (EVENT_RETENTION_DAYS) dropped the versions before.
      const truncated =
        after === undefined ? first === undefined || actionOf(kind, first) !== 'created' : base === undefined;
      let previous = base ? jsonColumn<Record<string, unknown>>(base.record ?? '{}') : undefined;
      const data = page.map((row): HistoryEntry => {
        const record = jsonColumn<Record<string, unknown>>(row.record ?? '{}');
        const version = typeof record['version'] === 'number' ? record['version'] : null;
        const entry: HistoryEntry = {
          seq: Number(row.seq),
          eventId: String(row.id),
          action: actionOf(kind, row),
          actorId: String(row.actor_id),
          actorName: row.actor_name,
          occurredAt: toIso(row.occurred_at ?? ''),
          version,
          etag: version === null ? null : etagOf(version),
          record,
          changes: previous ? diffRecord(previous, record) : null,
        };
        previous = record;
        return entry;
      });
      const last = data[data.length - 1];
      return { data, nextCursor: hasMore && last ? encodeCursor([last.seq]) : null, truncated };
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
