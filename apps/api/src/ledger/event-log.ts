import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { newId } from '../ids';
import type { GroupRow } from './group-access';

export type EventType =
  | 'group.updated'
  | 'member.added'
  | 'member.removed'
  | 'expense.created'
  | 'expense.updated'
  | 'expense.deleted'
  | 'settlement.created'
  | 'settlement.deleted';

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
  occurredAt: toIso(row.occurred_at),
  data: typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
});

/**
 * Appends the group's next event in the caller's transaction (the transactional outbox). The
 * caller holds the group's row lock, so `last_seq + 1` is free and strictly increasing.
 */
export async function appendEvent(
  trx: Knex.Transaction,
  group: GroupRow,
  type: EventType,
  actorId: string,
  data: Record<string, unknown>,
): Promise<GroupEvent> {
  const seq = Number(group.last_seq) + 1;
  const occurredAt = new Date();
  await trx('groups').where({ id: group.id }).update({ last_seq: seq });
  group.last_seq = seq;
  const event: GroupEvent = {
    id: newId('evt'),
    seq,
    type,
    groupId: group.id,
    actorId,
    occurredAt: occurredAt.toISOString(),
    data,
  };
  await trx('events').insert({
    id: event.id,
    group_id: group.id,
    seq,
    type,
    actor_id: actorId,
    occurred_at: occurredAt,
    data: JSON.stringify(data),
  });
  return event;
}

export async function listEvents(
  db: Knex,
  groupId: string,
  afterSeq: number,
  limit: number,
): Promise<GroupEvent[]> {
  const rows = await db<EventRow>('events')
    .where({ group_id: groupId })
    .andWhere('seq', '>', afterSeq)
    .orderBy('seq', 'asc')
    .limit(limit);
  return rows.map(toEvent);
}
