import type { Knex } from 'knex';

export type EventType =
  | 'group.updated'
  | 'member.added'
  | 'member.removed'
  | 'expense.created'
  | 'expense.updated'
  | 'expense.deleted'
  | 'settlement.created'
  | 'settlement.deleted';

/** One entry of a group's durable, ordered log (API.md §8). */
export type GroupEvent = {
  id: string;
  seq: number;
  type: EventType;
  groupId: string;
  actorId: string;
  occurredAt: string;
  data: Record<string, unknown>;
};

type EventRow = {
  id: string;
  group_id: string;
  seq: number | string;
  type: EventType;
  actor_id: string;
  occurred_at: Date | string;
  data: Record<string, unknown> | string;
};

export const toEvent = (row: EventRow): GroupEvent => ({
  id: row.id,
  seq: Number(row.seq),
  type: row.type,
  groupId: row.group_id,
  actorId: row.actor_id,
  occurredAt: new Date(row.occurred_at).toISOString(),
  data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
});

/** Read access to the event log: what the API's events endpoint and the gateway's catch-up use. */
export function createEventLog(deps: { knex: Knex }) {
  const { knex } = deps;
  return {
    /** Events with `seq > afterSeq`, oldest first. */
    async read(groupId: string, afterSeq: number, limit: number): Promise<GroupEvent[]> {
      const rows = await knex<EventRow>('events')
        .where({ group_id: groupId })
        .andWhere('seq', '>', afterSeq)
        .orderBy('seq', 'asc')
        .limit(limit);
      return rows.map(toEvent);
    },
    async isMember(groupId: string, userId: string): Promise<boolean> {
      const row = await knex('group_members').where({ group_id: groupId, user_id: userId }).first('user_id');
      return row !== undefined;
    },
    /** The group's latest `seq` (0 for none), or undefined for an unknown group. */
    async lastSeq(groupId: string): Promise<number | undefined> {
      const row = await knex('groups').where({ id: groupId }).first('last_seq');
      return row ? Number(row.last_seq) : undefined;
    },
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
