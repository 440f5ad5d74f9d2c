import { type GroupEvent, toEvent } from '@tally/events';
import type { Knex } from 'knex';
import { jsonColumn } from '../json-column';
import { queueNotices } from './delivery-queue';
import { joinerOf, joinNotices, type NoticeContext, noticesOf } from './notification-content';

/** Events one pass reads of one group, and groups one pass takes. */
const EVENTS_PER_GROUP = 200;
const GROUPS_PER_PASS = 50;
/** The only events that can make a notification (the others just move the cursor). */
const NOTIFYING = [
  'expense.created',
  'settlement.created',
  'comment.created',
  'member.added',
  'member.claimed',
];

export type NotificationFeedOptions = {
  knex: Knex;
  /** The web client's address, the base of deep links (`APP_URL`). */
  appUrl: () => string;
  /** Events older than this notify nobody (their cursor moves past them). @default 86400000 (a day) */
  maxAgeMs?: number;
};

/**
 * Turns the event log into queued deliveries, per group from its cursor (`notification_cursors`).
 * A group's cursor row is taken `for update skip locked`, so two processes never read the same
 * group at once; the deliveries and the cursor's move commit together, and the unique index of
 * `notification_deliveries` makes a repeated read (after a crash before the commit) queue nothing
 * twice. Answers how many events the pass read.
 */
export function createNotificationFeed(options: NotificationFeedOptions) {
  const { knex } = options;
  const maxAgeMs = options.maxAgeMs ?? 86_400_000;

  async function contextOf(trx: Knex.Transaction, groupId: string, events: GroupEvent[]) {
    const group = await trx('groups').where({ id: groupId }).first('name');
    const memberRows: { user_id: string; claimed_by: string | null; name: string; status: string }[] =
      await trx('group_members as m')
        .join('users as u', 'u.id', 'm.user_id')
        .where('m.group_id', groupId)
        .select('m.user_id', 'm.claimed_by', 'u.name', 'u.status');
    const actorIds = [...new Set(events.map((e) => e.actorId))];
    const actors: { id: string; name: string }[] = await trx('users')
      .whereIn('id', actorIds)
      .select('id', 'name');
    const names = new Map([
      ...memberRows.map((m) => [m.user_id, m.name] as const),
      ...actors.map((a) => [a.id, a.name] as const),
    ]);
    // A pending member an account took over: their records still name the pending id.
    const aliases = new Map(
      memberRows.filter((m) => m.claimed_by).map((m) => [m.user_id, m.claimed_by as string]),
    );
    const accounts = memberRows.filter((m) => !m.claimed_by && m.status === 'active').map((m) => m.user_id);
    return { groupName: String(group?.name ?? ''), names, aliases, accounts };
  }

  async function commentTargetOf(trx: Knex.Transaction, event: GroupEvent) {
    const comment = event.data['comment'] as { targetType: string; targetId: string };
    if (comment.targetType === 'expense') {
      const row = await trx('expenses')
        .where({ id: comment.targetId })
        .first('description', 'paid_by', 'shares');
      if (!row) return undefined;
      const paidBy = jsonColumn<{ userId: string }[]>(row.paid_by);
      const shares = jsonColumn<{ userId: string }[]>(row.shares);
      return { involved: [...paidBy, ...shares].map((p) => p.userId), title: `“${row.description}”` };
    }
    const row = await trx('settlements').where({ id: comment.targetId }).first('from_user_id', 'to_user_id');
    return row ? { involved: [row.from_user_id, row.to_user_id], title: 'a payment' } : undefined;
  }

  async function readGroup(groupId: string): Promise<number> {
    return knex.transaction(async (trx) => {
      await trx('notification_cursors')
        .insert({ group_id: groupId, last_seq: 0 })
        .onConflict('group_id')
        .ignore();
      const cursor = await trx('notification_cursors')
        .where({ group_id: groupId })
        .forUpdate()
        .skipLocked()
        .first('last_seq');
      if (!cursor) return 0; // another process has it
      const rows = await trx('events')
        .where({ group_id: groupId })
        .where('seq', '>', Number(cursor.last_seq))
        .orderBy('seq')
        .limit(EVENTS_PER_GROUP);
      const events = rows.map(toEvent);
      const last = events[events.length - 1];
      if (!last) return 0;
      const fresh = events.filter(
        (e) => NOTIFYING.includes(e.type) && Date.parse(e.occurredAt) > Date.now() - maxAgeMs,
      );
      if (fresh.length > 0) {
        const ctx = await contextOf(trx, groupId, fresh);
        const base: NoticeContext = {
          groupName: ctx.groupName,
          nameOf: (id) => ctx.names.get(id) ?? 'Someone',
          appUrl: options.appUrl(),
        };
        for (const event of fresh) {
          const commentTarget =
            event.type === 'comment.created' ? await commentTargetOf(trx, event) : undefined;
          const notices = joinerOf(event)
            ? joinNotices(event, base, ctx.accounts)
            : noticesOf(event, { ...base, commentTarget });
          const resolved = notices
            .map((n) => ({ ...n, userId: ctx.aliases.get(n.userId) ?? n.userId }))
            // Members now only: someone removed from the group hears nothing more of it.
            .filter((n) => ctx.accounts.includes(n.userId))
            .filter((n) => n.userId !== event.actorId || n.kind === 'recurring');
          await queueNotices(trx, event.id, resolved);
        }
      }
      await trx('notification_cursors').where({ group_id: groupId }).update({ last_seq: last.seq });
      return events.length;
    });
  }

  return {
    async pass(): Promise<number> {
      const behind: { id: string }[] = await knex('groups as g')
        .leftJoin('notification_cursors as c', 'c.group_id', 'g.id')
        .whereRaw('g.last_seq > coalesce(c.last_seq, 0)')
        .limit(GROUPS_PER_PASS)
        .select('g.id');
      let read = 0;
      for (const { id } of behind) read += await readGroup(id);
      return read;
    },
  };
}

export type NotificationFeed = ReturnType<typeof createNotificationFeed>;
