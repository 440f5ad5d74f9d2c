import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, ref, timestamp } from './common';

const both = (what: string): JsonSchema =>
  closed({ push: { type: 'boolean' }, email: { type: 'boolean' } }, what);

const NotificationSettings: JsonSchema = closed(
  {
    expense: both('An expense that involves me (I paid or have a share), added by someone else'),
    comment: both('A comment on an expense or settlement that involves me'),
    settlement: both('A settlement to or from me, recorded by someone else'),
    recurring: both('An occurrence of a recurring expense that involves me'),
    inviteAccepted: both('Someone accepted an invite and joined one of my groups'),
    reminder: both('A member reminds me to settle up'),
    digest: closed({ email: { type: 'boolean' } }, 'The weekly digest (mail only)'),
  },
  'What the user is notified of, by push and by mail (API.md §13.1)',
);
const PushSubscription: JsonSchema = closed({
  id: id('psh', 'Push subscription'),
  endpoint: { type: 'string', description: 'The push service URL the browser gave' },
  createdAt: timestamp,
});
const PushSubscriptionList: JsonSchema = closed({ data: { type: 'array', items: ref('PushSubscription') } });
const VapidPublicKey: JsonSchema = closed({
  publicKey: {
    type: ['string', 'null'],
    description: 'base64url (an uncompressed P-256 point); null: no push',
  },
});
const Reminder: JsonSchema = closed({
  id: id('rmd', 'Reminder'),
  groupId: id('grp', 'Group'),
  fromUserId: id('usr', 'User'),
  toUserId: id('usr', 'User'),
  owed: {
    type: 'array',
    minItems: 1,
    items: closed({ currency: ref('Currency'), amount: { type: 'integer', minimum: 1 } }),
    description: 'What `toUserId` owes the caller, per currency (the simplified debts)',
  },
  createdAt: timestamp,
});

/** Notifications (API.md §13). */
export const notificationSchemas: Record<string, JsonSchema> = {
  NotificationSettings,
  PushSubscription,
  PushSubscriptionList,
  VapidPublicKey,
  Reminder,
};
