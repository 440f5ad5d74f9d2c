import type { Knex } from 'knex';
import type { Notice } from './notification-content';
import { isWanted, type NotificationKind, withDefaults } from './notification-settings';

/** What a queued delivery carries: the text of the notification and where it links to. */
export type DeliveryContent = { title: string; body: string; url: string };

type Recipient = { id: string; mailable: boolean; settings: unknown; subscriptions: string[] | null };

/**
 * Queues `notices` from `sourceId` (an event id, `reminder:<id>`, `digest:<week>`): per recipient,
 * a mail if their settings want it and their account is active with a confirmed email, and one push
 * per subscription if their settings want push. `on conflict do nothing` on the unique
 * (source, user, channel, subscription) index: the same source queued twice (two processes, a pass
 * repeated after a crash) queues each delivery once. Answers how many rows were queued.
 */
export async function queueNotices(
  trx: Knex | Knex.Transaction,
  sourceId: string,
  notices: readonly (Notice | (Omit<Notice, 'kind'> & { kind: 'digest' }))[],
): Promise<number> {
  if (notices.length === 0) return 0;
  const userIds = [...new Set(notices.map((n) => n.userId))];
  const { rows } = (await trx.raw(
    `select u.id, (u.status = 'active' and u.email_verified_at is not null) as mailable, s.settings,
            (select json_agg(p.id order by p.created_at) from push_subscriptions p where p.user_id = u.id) as subscriptions
       from users u left join notification_settings s on s.user_id = u.id
      where u.id = any(?) and u.status = 'active'`,
    [userIds],
  )) as { rows: Recipient[] };
  const byId = new Map(rows.map((r) => [r.id, r]));
  const now = new Date();
  const inserts: Record<string, unknown>[] = [];
  for (const notice of notices) {
    const recipient = byId.get(notice.userId);
    if (!recipient) continue;
    const settings = withDefaults(
      typeof recipient.settings === 'string' ? JSON.parse(recipient.settings) : recipient.settings,
    );
    const content = JSON.stringify({ title: notice.title, body: notice.body, url: notice.url });
    const row = {
      source_id: sourceId,
      user_id: notice.userId,
      kind: notice.kind,
      content,
      next_attempt_at: now,
      created_at: now,
    };
    if (recipient.mailable && isWanted(settings, notice.kind, 'email'))
      inserts.push({ ...row, channel: 'email', subscription_id: null });
    if (notice.kind !== 'digest' && isWanted(settings, notice.kind as NotificationKind, 'push')) {
      const subscriptions =
        typeof recipient.subscriptions === 'string'
          ? (JSON.parse(recipient.subscriptions) as string[])
          : recipient.subscriptions;
      for (const id of subscriptions ?? []) inserts.push({ ...row, channel: 'push', subscription_id: id });
    }
  }
  if (inserts.length === 0) return 0;
  const queued = await trx('notification_deliveries').insert(inserts).onConflict().ignore().returning('id');
  return queued.length;
}
