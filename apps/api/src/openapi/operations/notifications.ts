import Joi from 'joi';
import { notificationSettingsBody } from '../../notifications/notification-settings';
import { pushSubscriptionBody } from '../../notifications/push-subscriptions';
import { reminderBody } from '../../notifications/reminders';
import { noContent } from './shapes';
import type { Operation } from './types';

const NOT_KEYED = 'Not keyed: an `Idempotency-Key` is ignored.';

/** Notification settings, push subscriptions, reminders and the unsubscribe link (API.md §13). */
export const notificationsOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/me/notification-settings',
    operationId: 'getNotificationSettings',
    tag: 'Notifications',
    summary: 'What the caller is notified of, by push and by mail',
    description:
      'Per kind (`expense`, `comment`, `settlement`, `recurring`, `inviteAccepted`, `reminder`) whether a push ' +
      'and a mail go out, and whether the weekly digest is mailed. Never changed: the defaults (API.md §13.1). ' +
      'Mails go only to a confirmed email address.',
    success: [{ status: 200, description: 'The settings', schema: 'NotificationSettings' }],
  },
  {
    method: 'put',
    path: '/v1/me/notification-settings',
    operationId: 'putNotificationSettings',
    tag: 'Notifications',
    summary: 'Change what the caller is notified of',
    description:
      'Any kinds and channels of `NotificationSettings`; those left out keep their value (so an older client ' +
      `does not turn off a kind added later). Answers the whole settings. ${NOT_KEYED}`,
    body: notificationSettingsBody,
    success: [{ status: 200, description: 'The settings now', schema: 'NotificationSettings' }],
  },
  {
    method: 'get',
    path: '/v1/push/vapid-public-key',
    operationId: 'getVapidPublicKey',
    tag: 'Notifications',
    summary: 'The key browsers subscribe to push with',
    description:
      'The VAPID public key (RFC 8292), base64url: `applicationServerKey` of `PushManager.subscribe`. `null` ' +
      'when this deployment sends no push (no keys, API.md §13.2).',
    success: [{ status: 200, description: 'The key', schema: 'VapidPublicKey' }],
  },
  {
    method: 'get',
    path: '/v1/me/push-subscriptions',
    operationId: 'listPushSubscriptions',
    tag: 'Notifications',
    summary: "The caller's push subscriptions",
    description: 'Oldest first; at most `pushSubscriptionsPerUser` (10).',
    success: [{ status: 200, description: 'The subscriptions', schema: 'PushSubscriptionList' }],
  },
  {
    method: 'post',
    path: '/v1/me/push-subscriptions',
    operationId: 'createPushSubscription',
    tag: 'Notifications',
    summary: 'Register a browser for push',
    description:
      "The browser's `PushSubscription.toJSON()`: an `https` endpoint and its RFC 8291 keys. `201` when new; " +
      'an endpoint registered before (by anyone: one browser profile) is moved to the caller with its new keys, ' +
      '`200`. An 11th subscription is `422 limit_exceeded` (`pushSubscriptionsPerUser`). A push service that ' +
      `answers \`404\` or \`410\` ends the subscription (it is deleted). ${NOT_KEYED}`,
    body: pushSubscriptionBody,
    success: [
      { status: 201, description: 'Registered', schema: 'PushSubscription' },
      { status: 200, description: 'Registered before: keys updated', schema: 'PushSubscription' },
    ],
    errors: ['limit_exceeded'],
  },
  {
    method: 'delete',
    path: '/v1/me/push-subscriptions/{subscriptionId}',
    operationId: 'deletePushSubscription',
    tag: 'Notifications',
    summary: 'Stop push to a browser',
    description: `Deletes the subscription and what was queued for it. Another user's, or none: \`404\`. ${NOT_KEYED}`,
    pathSchemas: { subscriptionId: Joi.string().min(1).max(100) },
    success: noContent('Deleted'),
  },
  {
    method: 'post',
    path: '/v1/groups/{groupId}/reminders',
    operationId: 'createReminder',
    tag: 'Notifications',
    summary: 'Remind a member to settle up',
    description:
      'Notifies `toUserId` (push and mail, as their `reminder` settings say) of what they owe the caller in ' +
      "the group's simplified debts (`GET …/balances`). Once per group and pair a day: sooner is " +
      '`429 rate_limited` with `Retry-After`. Someone who owes the caller nothing, the caller, or a non-member: ' +
      "`422 validation_failed` at `toUserId`. Keyed like the group's other writes: a retry with the same key " +
      'replays the first answer (without a key it meets the limit: `429`).',
    pathSchemas: { groupId: Joi.string().min(1).max(100) },
    idempotency: 'optional',
    body: reminderBody,
    success: [{ status: 201, description: 'The reminder is on its way', schema: 'Reminder' }],
  },
  {
    method: 'post',
    path: '/v1/auth/unsubscribe',
    operationId: 'unsubscribe',
    tag: 'Notifications',
    summary: 'One-click unsubscribe from a notification mail (RFC 8058)',
    description:
      "The URL of a notification mail's `List-Unsubscribe` header: mail clients post " +
      "`List-Unsubscribe=One-Click` to it (any body is ignored); the web app posts it from the mail's visible " +
      'link. Turns off mails of the kind the mail was (or the weekly digest); no sign-in. Posting it again: `204` ' +
      'again. A token that is not genuine: `422 validation_failed` at `token`. Rate limited per IP like `/v1/auth`.',
    public: true,
    jsonBody: false,
    query: Joi.object({ token: Joi.string().min(1).max(512).required() }),
    success: noContent('Those mails are off'),
  },
];
