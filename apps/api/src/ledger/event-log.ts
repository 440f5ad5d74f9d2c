import type { EventType, GroupEvent } from '@tally/events';
import type { Knex } from 'knex';
import { newId } from '../ids';
import type { GroupRow } from './group-access';

export type { EventType, GroupEvent } from '@tally/events';

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
