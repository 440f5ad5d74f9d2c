import type { IgnoredErrors } from '@tally/http-kit';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Mailer } from '../mail/mailer';
import { createDeliverySender } from './delivery-sender';
import { createNotificationFeed } from './notification-feed';
import type { PushSender } from './push-sender';
import type { UnsubscribeTokens } from './unsubscribe-token';
import { createWeeklyDigest } from './weekly-digest';

/** Finished deliveries are kept this long (a digest's row must outlive its week). */
const RETENTION_DAYS = 14;
const SWEEP_EVERY_MS = 10 * 60_000;

export type NotifierOptions = {
  knex: Knex;
  mailer: Mailer;
  push: PushSender | undefined;
  tokens: UnsubscribeTokens;
  appUrl: () => string;
  /** How often the log, the digest and the queue are looked at (`NOTIFY_POLL_MS`); 0: never. */
  pollMs: number;
  /** The clock of the weekly digest (the test clock under NODE_ENV=test). */
  now?: () => Date;
  logger?: Logger;
  registry?: Registry;
  ignoredErrors?: IgnoredErrors;
};

/**
 * Every API process runs one (no leader): each tick reads the log into deliveries (feed), queues
 * the week's digests, and sends what is due. Coordination is in PostgreSQL only (skip-locked
 * claims, unique delivery keys), so any number of processes notify each user once.
 */
export function createNotifier(options: NotifierOptions) {
  const feed = createNotificationFeed({ knex: options.knex, appUrl: options.appUrl });
  const digest = createWeeklyDigest({ knex: options.knex, appUrl: options.appUrl, now: options.now });
  const sender = createDeliverySender({
    knex: options.knex,
    mailer: options.mailer,
    push: options.push,
    tokens: options.tokens,
    apiUrl: options.appUrl,
    appUrl: options.appUrl,
    logger: options.logger,
    registry: options.registry,
  });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let lastSweep = 0;
  let stopping = false;

  async function sweep(): Promise<void> {
    await options.knex.raw(
      `delete from notification_deliveries where id in (
         select id from notification_deliveries
          where status <> 'pending' and created_at < now() - make_interval(days => ?) limit 1000)`,
      [RETENTION_DAYS],
    );
    // A deleted account (API.md §11.3) keeps its id but gets nothing: its browsers are forgotten.
    await options.knex.raw(
      `delete from push_subscriptions p using users u where u.id = p.user_id and u.status = 'deleted'`,
    );
  }

  /**
   * One tick: each step again as long as it finds work (10 rounds at most), so a burst is not left
   * for the next tick; a step that found none is not asked again in this tick (the cursor scan
   * costs a query over every group).
   */
  async function tick(): Promise<void> {
    let [feedBusy, digestBusy, senderBusy] = [true, true, true];
    for (let round = 0; round < 10 && !stopping && (feedBusy || digestBusy || senderBusy); round++) {
      if (feedBusy) feedBusy = (await feed.pass()) > 0;
      if (digestBusy) digestBusy = (await digest.pass()) > 0;
      // New deliveries may come from either step above: the sender looks while they found any.
      senderBusy = (await sender.pass()) > 0 || feedBusy || digestBusy;
    }
    if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = Date.now();
      await sweep();
    }
  }

  return {
    tick,
    start(): void {
      if (options.pollMs <= 0) return;
      const loop = () => {
        running = tick()
          .catch((error: unknown) => options.ignoredErrors?.('notifications_pass', error))
          .finally(() => {
            if (timer !== undefined) timer = setTimeout(loop, options.pollMs).unref();
          });
      };
      timer = setTimeout(loop, options.pollMs).unref();
    },
    async stop(): Promise<void> {
      // The round in flight ends after its step: a draining process does not start new sends.
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
