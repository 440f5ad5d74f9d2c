import { validationFailed } from '@tally/http-kit';
import { fingerprintOf } from '@tally/idempotency';
import type { Knex } from 'knex';
import { created, noContent, ok } from '../http/reply';
import { bodyOf, pathParamOf, queryOf, type Route, route } from '../http/route';
import type { WriteRoutes } from '../http/write-route';
import { ulidFactory } from '../ids';
import { createNotificationSettings, type NotificationKind } from './notification-settings';
import { createPushSubscriptions, type PushSubscriptionInput } from './push-subscriptions';
import { createReminders } from './reminders';
import type { UnsubscribeTokens } from './unsubscribe-token';

export type NotificationRoutesDeps = {
  knex: Knex;
  routes: WriteRoutes;
  tokens: UnsubscribeTokens;
  appUrl: () => string;
  /** The VAPID public key clients subscribe with; absent: push is off (`pushEnabled: false`). */
  vapidPublicKey: string | undefined;
  /** Plain `http:` endpoints are taken (tests, a push service inside the network). @default false */
  allowHttpEndpoints?: boolean;
};

/**
 * Notifications (API.md §13): the caller's settings, push subscriptions, the VAPID key, reminders
 * to settle up, and the one-click unsubscribe link of every notification mail.
 */
export function notificationRoutes(deps: NotificationRoutesDeps): Route[] {
  const ulid = ulidFactory();
  const newId = (prefix: 'psh' | 'rmd') => `${prefix}_${ulid()}`;
  const settings = createNotificationSettings({ knex: deps.knex });
  const subscriptions = createPushSubscriptions({ knex: deps.knex, newId: () => newId('psh') });
  const reminders = createReminders({ knex: deps.knex, newId: () => newId('rmd'), appUrl: deps.appUrl });
  return [
    route('getNotificationSettings', async (req) => ok(await settings.read(req.userId))),
    route('putNotificationSettings', async (req) => ok(await settings.update(req.userId, bodyOf(req)))),
    route('getVapidPublicKey', () => ok({ publicKey: deps.vapidPublicKey ?? null })),
    route('listPushSubscriptions', async (req) => ok({ data: await subscriptions.list(req.userId) })),
    route('createPushSubscription', async (req) => {
      const input = bodyOf<PushSubscriptionInput>(req);
      if (!input.endpoint.startsWith('https:') && !deps.allowHttpEndpoints)
        throw validationFailed([{ path: 'endpoint', message: 'must be an https URL' }]);
      const { created: isNew, subscription } = await subscriptions.add(req.userId, input);
      return isNew ? created(subscription) : ok(subscription);
    }),
    route('deletePushSubscription', async (req) => {
      await subscriptions.remove(req.userId, pathParamOf(req, 'subscriptionId'));
      return noContent();
    }),
    // Keyed like the group's other writes (API.md §7, optional): a retry replays the first answer
    // instead of meeting the per-pair limit.
    deps.routes.writeMany({
      operation: 'createReminder',
      parse: async (req) => ({ groupId: pathParamOf(req, 'groupId'), ...bodyOf<{ toUserId: string }>(req) }),
      fingerprint: (req) => fingerprintOf(req.method, req.body),
      run: async (userId, input) => created(await reminders.remind(userId, input.groupId, input.toUserId)),
    }),
    route('unsubscribe', async (req) => {
      const { token } = queryOf<{ token: string }>(req);
      const found = deps.tokens.read(token);
      if (!found) throw validationFailed([{ path: 'token', message: 'is not a valid unsubscribe link' }]);
      const patch =
        found.scope === 'digest'
          ? { digest: { email: false } }
          : { [found.scope as NotificationKind]: { email: false } };
      await settings.update(found.userId, patch);
      return noContent();
    }),
  ];
}
