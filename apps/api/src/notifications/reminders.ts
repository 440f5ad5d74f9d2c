import { runSql, sql } from '@tally/db';
import { AppError, notFound, validationFailed } from '@tally/http-kit';
import Joi from 'joi';
import type { Knex } from 'knex';
import { balancesOf, type GroupSnapshotRow, groupSnapshot, toGroupSnapshot } from '../ledger/group-snapshot';
import { userId } from '../schemas/fields';
import { queueNotices } from './delivery-queue';
import { deepLink, formatMoney } from './notification-content';

export const reminderBody = Joi.object({ toUserId: userId.required() }).label('ReminderRequest');

/** One reminder per (group, from, to) in this long (API.md §13.5). */
export const REMINDER_INTERVAL_SECONDS = 86_400;

export type Reminder = {
  id: string;
  groupId: string;
  fromUserId: string;
  toUserId: string;
  /** What `toUserId` owes the caller, per currency, as the group's simplified debts say. */
  owed: { currency: string; amount: number }[];
  createdAt: string;
};

/**
 * A reminder to settle up (API.md §13.5): to a member who owes the caller in the group's simplified
 * debts (what `GET …/balances` shows), by push and mail as their `reminder` settings say. Once per
 * pair and group a day: the pair's row is claimed by one upsert whose condition is the interval, so
 * two requests at once (on two processes) remind once.
 */
export function createReminders(deps: { knex: Knex; newId: () => string; appUrl: () => string }) {
  const { knex } = deps;
  return {
    remind(fromUserId: string, groupId: string, toUserId: string): Promise<Reminder> {
      return knex.transaction(async (trx) => {
        const [row] = await runSql<GroupSnapshotRow>(trx, groupSnapshot(sql`${groupId}`));
        const snapshot = row ? toGroupSnapshot(row) : undefined;
        if (!row || !snapshot?.memberIds.includes(fromUserId)) throw notFound('Group');
        if (toUserId === fromUserId || !snapshot.memberIds.includes(toUserId))
          throw validationFailed([{ path: 'toUserId', message: 'must be another member of the group' }]);
        const owed = balancesOf(snapshot).flatMap((c) =>
          c.simplified
            .filter((t) => t.from === toUserId && t.to === fromUserId)
            .map((t) => ({ currency: c.currency, amount: t.amount })),
        );
        if (owed.length === 0)
          throw validationFailed(
            [{ path: 'toUserId', message: 'owes you nothing in this group' }],
            'This member owes you nothing in this group.',
          );
        const now = new Date();
        const claimed = await trx.raw(
          `insert into notification_reminders (group_id, from_user_id, to_user_id, last_sent_at) values (?, ?, ?, ?)
           on conflict (group_id, from_user_id, to_user_id) do update set last_sent_at = excluded.last_sent_at
            where notification_reminders.last_sent_at <= excluded.last_sent_at - make_interval(secs => ?)
           returning last_sent_at`,
          [groupId, fromUserId, toUserId, now, REMINDER_INTERVAL_SECONDS],
        );
        if ((claimed as { rows: unknown[] }).rows.length === 0) {
          const last = await trx('notification_reminders')
            .where({ group_id: groupId, from_user_id: fromUserId, to_user_id: toUserId })
            .first('last_sent_at');
          const wait =
            new Date(last.last_sent_at).getTime() + REMINDER_INTERVAL_SECONDS * 1000 - now.getTime();
          throw new AppError(
            'rate_limited',
            429,
            'You reminded this member in this group less than a day ago.',
            {
              headers: { 'Retry-After': String(Math.max(1, Math.ceil(wait / 1000))) },
            },
          );
        }
        const from = await trx('users').where({ id: fromUserId }).first('name');
        const id = deps.newId();
        const amounts = owed.map((o) => formatMoney(o.amount, o.currency)).join(' and ');
        await queueNotices(trx, `reminder:${id}`, [
          {
            userId: toUserId,
            kind: 'reminder',
            title: `${row.name}: a reminder from ${from?.name ?? 'a member'}`,
            body: `You owe ${from?.name ?? 'them'} ${amounts}. Settle up when you can.`,
            url: deepLink(deps.appUrl(), groupId),
          },
        ]);
        return { id, groupId, fromUserId, toUserId, owed, createdAt: now.toISOString() };
      });
    },
  };
}

export type Reminders = ReturnType<typeof createReminders>;
