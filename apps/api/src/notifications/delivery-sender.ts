import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import { jsonColumn } from '../json-column';
import type { Mailer } from '../mail/mailer';
import type { DeliveryContent } from './delivery-queue';
import type { NotificationKind } from './notification-settings';
import type { PushOutcome, PushSender } from './push-sender';
import type { UnsubscribeScope, UnsubscribeTokens } from './unsubscribe-token';

/** Deliveries one pass claims. */
const BATCH = 20;
/** Attempts before a delivery is given up (`failed`); the waits between them double from 30 s to 1 h. */
export const MAX_ATTEMPTS = 8;
const backoffSeconds = (attempts: number) => Math.min(3600, 30 * 2 ** (attempts - 1));

type DeliveryRow = {
  id: number | string;
  source_id: string;
  user_id: string;
  channel: 'push' | 'email';
  subscription_id: string | null;
  kind: NotificationKind | 'digest';
  content: DeliveryContent | string;
  attempts: number;
};

export type DeliverySenderOptions = {
  knex: Knex;
  mailer: Mailer;
  /** Absent: push deliveries wait (and are retried) until a process with VAPID keys takes them. */
  push: PushSender | undefined;
  tokens: UnsubscribeTokens;
  /** Where the API answers, the base of the one-click unsubscribe URL (`APP_URL`). */
  apiUrl: () => string;
  /** The web client's address: the visible unsubscribe link opens a page there. */
  appUrl: () => string;
  /** How long a claim holds a delivery before another process may take it. @default 60000 */
  leaseMs?: number;
  logger?: Logger;
  registry?: Registry;
};

/**
 * Sends queued deliveries, at least once: a pass claims due rows `for update skip locked` and moves
 * their `next_attempt_at` a lease ahead in the same statement, so no other process takes them while
 * they are sent; a process that dies mid-send leaves them to be claimed again once the lease is over
 * (the only way one is sent twice). A sent row is `sent`; a push service's 404/410 deletes the
 * subscription (and its rows); any other failure waits its backoff, up to `MAX_ATTEMPTS`.
 */
export function createDeliverySender(options: DeliverySenderOptions) {
  const { knex } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const counter =
    (options.registry?.getSingleMetric('notifications_total') as
      | Counter<'channel' | 'outcome'>
      | undefined) ??
    new Counter({
      name: 'notifications_total',
      help: 'Notification deliveries attempted, by channel (push, email) and outcome (sent, retry, failed, gone)',
      labelNames: ['channel', 'outcome'],
      registers: options.registry ? [options.registry] : [],
    });

  async function claim(): Promise<DeliveryRow[]> {
    const { rows } = (await knex.raw(
      `update notification_deliveries d
          set next_attempt_at = now() + make_interval(secs => ?), attempts = d.attempts + 1
        where d.id in (select id from notification_deliveries
                        where status = 'pending' and next_attempt_at <= now() and (? or channel = 'email')
                        order by next_attempt_at limit ? for update skip locked)
      returning d.id, d.source_id, d.user_id, d.channel, d.subscription_id, d.kind, d.content, d.attempts`,
      [leaseMs / 1000, options.push !== undefined, BATCH],
    )) as { rows: DeliveryRow[] };
    return rows;
  }

  async function deliver(row: DeliveryRow): Promise<PushOutcome> {
    const content = jsonColumn(row.content);
    if (row.channel === 'email') {
      const user = await knex('users')
        .where({ id: row.user_id })
        .first('email', 'status', 'email_verified_at');
      if (user?.status !== 'active' || !user.email || !user.email_verified_at)
        return { kind: 'gone', status: 0 };
      await options.mailer.send(mailOf(row, content, user.email as string));
      return { kind: 'sent' };
    }
    const target = await knex('push_subscriptions')
      .where({ id: row.subscription_id })
      .first('endpoint', 'p256dh', 'auth');
    if (!target || !options.push) return { kind: 'gone', status: 0 };
    const tag = `${row.kind}:${row.source_id}`;
    return options.push.send(target, { id: String(row.id), tag, ...content });
  }

  function mailOf(row: DeliveryRow, content: DeliveryContent, to: string) {
    const scope: UnsubscribeScope = row.kind;
    const token = options.tokens.make(row.user_id, scope);
    const oneClick = `${options.apiUrl().replace(/\/+$/, '')}/v1/auth/unsubscribe?token=${token}`;
    const page = `${options.appUrl().replace(/\/+$/, '')}/#unsubscribe=${token}`;
    const what = scope === 'digest' ? 'the weekly digest' : `mails like this one (${scope})`;
    return {
      to,
      subject: content.title,
      text: `${content.body}\n\nOpen Tally: ${content.url}\n\nTo stop ${what}, open ${page}\nor change your notification settings in Tally.`,
      headers: {
        // RFC 2369 and RFC 8058: mail clients offer "unsubscribe" and post to it themselves.
        'List-Unsubscribe': `<${oneClick}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      // The delivery's id: a mail sent again after a crash has the same Message-ID, which mail
      // systems use to drop the copy.
      messageId: `<notification-${row.id}@tally.invalid>`,
    };
  }

  async function settle(row: DeliveryRow, outcome: PushOutcome): Promise<void> {
    counter.inc({
      channel: row.channel,
      outcome: outcome.kind === 'retry' && row.attempts >= MAX_ATTEMPTS ? 'failed' : outcome.kind,
    });
    // Only while the claim is still this one: a sender slower than its lease finds the row taken
    // over (its attempts moved on) and leaves it to the one that has it.
    const rows = knex('notification_deliveries').where({
      id: row.id,
      attempts: row.attempts,
      status: 'pending',
    });
    if (outcome.kind === 'sent') {
      await rows.update({ status: 'sent', sent_at: new Date(), last_error: null });
    } else if (outcome.kind === 'gone') {
      // The push service forgot the subscription (RFC 8030 §7.3): so do we, with its deliveries.
      if (row.channel === 'push' && outcome.status !== 0)
        await knex('push_subscriptions').where({ id: row.subscription_id }).delete();
      else await rows.update({ status: 'skipped' });
    } else if (row.attempts >= MAX_ATTEMPTS) {
      await rows.update({ status: 'failed', last_error: outcome.reason.slice(0, 500) });
    } else {
      await rows.update({
        next_attempt_at: knex.raw('now() + make_interval(secs => ?)', [backoffSeconds(row.attempts)]),
        last_error: outcome.reason.slice(0, 500),
      });
    }
  }

  return {
    /** Claims and sends one batch; answers how many deliveries it handled. */
    async pass(): Promise<number> {
      const rows = await claim();
      await Promise.all(
        rows.map(async (row) => {
          const outcome = await deliver(row).catch(
            (error: unknown): PushOutcome => ({ kind: 'retry', reason: (error as Error).message }),
          );
          if (outcome.kind === 'retry')
            options.logger?.warn(
              { deliveryId: row.id, reason: outcome.reason },
              'notification not delivered yet',
            );
          await settle(row, outcome);
        }),
      );
      return rows.length;
    },
  };
}

export type DeliverySender = ReturnType<typeof createDeliverySender>;
