import { createNotifier, createPushSender, createUnsubscribeTokens, type Mailer } from '@tally/api';
import type { IgnoredErrors } from '@tally/http-kit';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config';
import { resolveVapidKeys } from './vapid-keys';

/**
 * Notifications of one API process (API.md §13): its VAPID keys, the secret of unsubscribe links
 * (derived from the JWT secret every process shares), and the notifier that sends them. The
 * app's routes get `routes`; `start.ts` starts and stops the notifier.
 */
export function createNotificationsPart(
  config: Config,
  deps: {
    knex: Knex;
    mailer: Mailer;
    jwtSecret: string;
    appUrl: () => string;
    logger: Logger;
    registry: Registry;
    ignoredErrors: IgnoredErrors;
  },
) {
  const keys = resolveVapidKeys(
    { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey },
    config.dataDir,
  );
  const unsubscribeSecret = deps.jwtSecret;
  // The digest's week follows the test clock like the recurring scheduler (only under NODE_ENV=test).
  const clockOffsetMs = config.nodeEnv === 'test' ? config.testClockOffsetMs : 0;
  const notifier = createNotifier({
    knex: deps.knex,
    mailer: deps.mailer,
    push: createPushSender({
      vapid: { ...keys, subject: config.vapidSubject },
      timeoutMs: config.pushTimeoutMs,
      allowInternal: config.pushAllowPrivateEndpoints,
    }),
    tokens: createUnsubscribeTokens(unsubscribeSecret),
    appUrl: deps.appUrl,
    pollMs: config.notifyPollMs,
    now: () => new Date(Date.now() + clockOffsetMs),
    logger: deps.logger,
    registry: deps.registry,
    ignoredErrors: deps.ignoredErrors,
  });
  return {
    notifier,
    /** What `createApp` takes (`AppDeps.notifications`). */
    routes: {
      vapidPublicKey: keys.publicKey,
      unsubscribeSecret,
      allowHttpEndpoints: config.pushAllowPrivateEndpoints,
    },
  };
}
