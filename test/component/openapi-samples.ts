import type Joi from 'joi';
import { createApiKeyBody } from '../../apps/api/src/api-keys/api-keys.schema';
import { notificationSettingsBody } from '../../apps/api/src/notifications/notification-settings';
import { pushSubscriptionBody } from '../../apps/api/src/notifications/push-subscriptions';
import { reminderBody } from '../../apps/api/src/notifications/reminders';
import {
  acceptInviteBody,
  activityReadBody,
  addMemberBody,
  changeEmailBody,
  changePasswordBody,
  commentBody,
  createCategoryBody,
  createExpenseBody,
  createGroupBody,
  createImportBody,
  createInviteBody,
  createRecurringBody,
  createSettlementBody,
  duplicateExpenseBody,
  loginBody,
  mergeCategoryBody,
  noBody,
  passwordResetBody,
  passwordResetConfirmBody,
  patchCategoryBody,
  patchExpenseBody,
  patchGroupBody,
  patchRecurringBody,
  putRatesBody,
  refreshBody,
  registerBody,
  verifyEmailBody,
} from '../../apps/api/src/schemas';
import {
  createWebhookBody,
  patchWebhookBody,
  rotateSecretBody,
} from '../../apps/api/src/webhooks/webhook.schemas';

// ---- which joi schema each route validates with (mirrors the route files) --------------------------
export const BODIES: Record<string, Joi.Schema> = {
  'POST /v1/auth/register': registerBody,
  'POST /v1/auth/login': loginBody,
  'POST /v1/auth/refresh': refreshBody,
  'POST /v1/groups': createGroupBody,
  'PATCH /v1/groups/{groupId}': patchGroupBody,
  'POST /v1/groups/{groupId}/members': addMemberBody,
  'POST /v1/expenses': createExpenseBody,
  'PUT /v1/expenses/{expenseId}': createExpenseBody,
  'PATCH /v1/expenses/{expenseId}': patchExpenseBody,
  'POST /v1/settlements': createSettlementBody,
  'POST /v1/expenses/{expenseId}/comments': commentBody,
  'POST /v1/expenses/{expenseId}/duplicate': duplicateExpenseBody,
  'POST /v1/settlements/{settlementId}/comments': commentBody,
  'POST /v1/groups/{groupId}/invites': createInviteBody,
  'POST /v1/invites/{code}/accept': acceptInviteBody,
  'POST /v1/groups/{groupId}/recurring': createRecurringBody,
  'PATCH /v1/recurring/{recurringId}': patchRecurringBody,
  'PUT /v1/groups/{groupId}/rates': putRatesBody,
  'POST /v1/me/activity/read': activityReadBody,
  'POST /v1/groups/{groupId}/imports': createImportBody,
  'POST /v1/groups/{groupId}/webhooks': createWebhookBody,
  'PATCH /v1/groups/{groupId}/webhooks/{webhookId}': patchWebhookBody,
  'POST /v1/groups/{groupId}/webhooks/{webhookId}/rotate-secret': rotateSecretBody,
  'POST /v1/auth/password-reset': passwordResetBody,
  'POST /v1/auth/password-reset/confirm': passwordResetConfirmBody,
  'POST /v1/me/password': changePasswordBody,
  'POST /v1/auth/verify-email': verifyEmailBody,
  'POST /v1/me/email': changeEmailBody,
  'POST /v1/me/email/verification': noBody,
  'POST /v1/groups/{groupId}/members/{memberId}/claim': noBody,
  'POST /v1/me/api-keys': createApiKeyBody,
};
export const USR_A = 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC';
export const USR_B = 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RD';

/** Bodies joi accepts, per operation (several shapes where the schema has alternatives). */
export const VALID: Record<string, unknown[]> = {
  'POST /v1/groups/{groupId}/webhooks': [
    { url: 'https://example.com/hooks' },
    { url: 'http://example.com', description: '', eventTypes: [] },
    { url: 'https://example.com/h', description: 'CRM', eventTypes: ['expense.created', 'member.added'] },
  ],
  'PATCH /v1/groups/{groupId}/webhooks/{webhookId}': [
    { enabled: true },
    { url: 'https://example.com/2', eventTypes: [] },
  ],
  'POST /v1/groups/{groupId}/webhooks/{webhookId}/rotate-secret': [
    {},
    { previousSecretSeconds: 0 },
    { previousSecretSeconds: 604800 },
  ],
  'POST /v1/auth/password-reset': [{ email: 'Ada@Example.com' }],
  'POST /v1/auth/password-reset/confirm': [{ token: 'AbCd_-0123456789xyzXYZ', password: 'correct horse' }],
  'POST /v1/me/password': [{ current: 'x', new: 'correct horse' }],
  'POST /v1/auth/verify-email': [{ token: 'AbCd_-0123456789xyzXYZ' }],
  'POST /v1/me/email': [{ email: 'New@Example.com', password: 'x' }],
  'POST /v1/me/email/verification': [{}],
  'POST /v1/groups/{groupId}/members/{memberId}/claim': [{}],
  'POST /v1/me/api-keys': [
    { name: 'Backup', scopes: ['read'] },
    { name: ' Sync ', scopes: ['write', 'read'], expiresAt: '2099-01-01T00:00:00+05:30' },
  ],
  'POST /v1/me/activity/read': [{ upTo: 'evt_1' }],
  'POST /v1/expenses/{expenseId}/comments': [{ text: 'x' }, { text: ' <b>as sent</b> ' }, { text: 'a\n\tb' }],
  'POST /v1/settlements/{settlementId}/comments': [{ text: 'Thanks 👍' }],
  'POST /v1/auth/register': [{ email: 'Ada@Example.com', name: 'Ada', password: 'correct horse' }],
  'POST /v1/auth/login': [{ email: 'ada@example.com', password: 'x' }],
  'POST /v1/auth/refresh': [{ refreshToken: 'rt_abc' }],
  'POST /v1/groups': [
    { name: 'Trip' },
    { name: 'Trip', currency: 'EUR', description: '' },
    // names and free text (API.md §1): code points, line feeds and tabs in free text only
    { name: ` ${'😀'.repeat(100)} `, description: 'Goa\n\tand Kerala' },
    { name: 'Zoë e\u0301 שלום 👩‍💻' },
  ],
  'PATCH /v1/groups/{groupId}': [
    {},
    { name: 'Renamed', description: 'Goa, 2026' },
    { currency: 'EUR', simplifyDebts: false },
  ],
  'POST /v1/expenses/{expenseId}/duplicate': [
    {},
    { occurredAt: '2026-11-20T10:00:00.000Z', description: 'Dinner again' },
  ],
  'POST /v1/groups/{groupId}/members': [
    { userId: USR_A },
    { email: 'bob@example.com' },
    { name: 'Pat' },
    { name: 'Pat', email: 'pat@example.com' },
  ],
  'POST /v1/groups/{groupId}/invites': [{}, { expiresInDays: 1 }, { expiresInDays: 30 }],
  'POST /v1/invites/{code}/accept': [{}, { asMember: USR_A }],
  'POST /v1/expenses': [
    {
      groupId: 'grp_1',
      description: 'Dinner',
      amount: 100000,
      paidBy: USR_A,
      split: { type: 'equal', between: [USR_A, USR_B] },
    },
    {
      groupId: 'grp_1',
      description: 'Taxi',
      category: null,
      amount: 900,
      currency: 'USD',
      occurredAt: '2026-11-25T19:30:00.000Z',
      paidBy: [
        { userId: USR_A, amount: 400 },
        { userId: USR_B, amount: 500 },
      ],
      split: { type: 'exact', between: [{ userId: USR_A, amount: 900 }] },
    },
    {
      groupId: 'grp_1',
      description: 'Refund',
      amount: -900,
      paidBy: [{ userId: USR_A, amount: -900 }],
      split: { type: 'exact', between: [{ userId: USR_B, amount: -900 }] },
    },
    {
      groupId: 'grp_1',
      description: 'Hotel',
      category: 'lodging',
      amount: 3,
      paidBy: USR_B,
      split: {
        type: 'percent',
        between: [
          { userId: USR_A, percent: 33.33 },
          { userId: USR_B, percent: 66.67 },
        ],
      },
    },
    {
      groupId: 'grp_1',
      description: 'Fuel',
      amount: 7,
      paidBy: USR_B,
      split: { type: 'shares', between: [{ userId: USR_A, shares: 2 }] },
    },
  ],
  'PATCH /v1/expenses/{expenseId}': [
    { amount: 5 },
    { category: null, split: { type: 'equal', between: [USR_A] } },
  ],
  'POST /v1/settlements': [
    { groupId: 'grp_1', fromUserId: USR_A, toUserId: USR_B, amount: 1 },
    { groupId: 'grp_1', fromUserId: USR_A, toUserId: USR_B, amount: 1, currency: 'JPY', note: '' },
  ],
  'PUT /v1/groups/{groupId}/rates': [
    { base: 'EUR', rates: { USD: '1.1414', JPY: '126.98' }, asOf: '2018-12-21' },
    { base: 'INR', rates: {}, asOf: '2026-11-25' },
  ],
};
VALID['POST /v1/groups/{groupId}/imports'] = [
  { format: 'splitwise-csv', csv: 'Date,Description,Category,Cost,Currency,A\n', members: { A: USR_A } },
  { format: 'splitwise-csv', csv: 'x', members: {} },
];
VALID['PUT /v1/expenses/{expenseId}'] = VALID['POST /v1/expenses']!;
VALID['POST /v1/groups/{groupId}/recurring'] = [
  {
    expense: {
      description: 'Rent',
      amount: 90000,
      paidBy: USR_A,
      split: { type: 'equal', between: [USR_A, USR_B] },
    },
    schedule: { every: 'month', startsOn: '2027-01-31', timeZone: 'Europe/Berlin' },
  },
  {
    expense: {
      description: 'Gym',
      category: null,
      amount: 900,
      currency: 'USD',
      paidBy: [{ userId: USR_A, amount: 900 }],
      split: { type: 'shares', between: [{ userId: USR_A, shares: 2 }] },
    },
    schedule: { every: '2 weeks', startsOn: '2027-03-07', until: null, timeZone: 'America/New_York' },
  },
];
VALID['PATCH /v1/recurring/{recurringId}'] = [
  { expense: { amount: 5 } },
  { schedule: { every: 'year', until: '2030-12-31' } },
];

/** Bodies joi rejects for reasons JSON Schema can express, so the generated schema must reject them too. */
export const expense = VALID['POST /v1/expenses']![0] as Record<string, unknown>;
export const INVALID: Record<string, unknown[]> = {
  'POST /v1/groups/{groupId}/webhooks': [
    {},
    { url: 1 },
    { url: `https://example.com/${'a'.repeat(2048)}` },
    { url: 'https://example.com', eventTypes: ['no.such'] },
    { url: 'https://example.com', eventTypes: ['expense.created', 'expense.created'] },
    { url: 'https://example.com', extra: 1 },
  ],
  'PATCH /v1/groups/{groupId}/webhooks/{webhookId}': [{}, { enabled: 'yes' }, { secret: 'x' }],
  'POST /v1/groups/{groupId}/webhooks/{webhookId}/rotate-secret': [
    { previousSecretSeconds: -1 },
    { previousSecretSeconds: 604801 },
    { previousSecretSeconds: '60' },
  ],
  'POST /v1/auth/password-reset': [{}, { email: 'not-an-email' }, { email: 'ada@example.com', extra: 1 }],
  'POST /v1/auth/password-reset/confirm': [
    { token: 'AbCd_-0123456789xyzXYZ' },
    { token: 'not a token!', password: 'correct horse' },
    { token: 'AbCd_-0123456789xyzXYZ', password: 'short' },
  ],
  'POST /v1/auth/verify-email': [{}, { token: 'not a token!' }, { token: 'AbCd_-0123456789xyzXYZ', x: 1 }],
  'POST /v1/me/email': [{ email: 'new@example.com' }, { email: 'nope', password: 'x' }, { password: 'x' }],
  'POST /v1/me/email/verification': [{ x: 1 }],
  'POST /v1/me/api-keys': [
    { name: 'a' },
    { scopes: ['read'] },
    { name: '', scopes: ['read'] },
    { name: 'a', scopes: [] },
    { name: 'a', scopes: ['admin'] },
    { name: 'a', scopes: ['read', 'read'] },
    { name: 'a', scopes: ['read'], expiresAt: 'soon' },
    { name: 'a', scopes: ['read'], secret: 'x' },
  ],
  'POST /v1/groups/{groupId}/members/{memberId}/claim': [{ x: 1 }, { asMember: 'usr_1' }],
  'POST /v1/me/password': [
    { current: 'x' },
    { current: '', new: 'correct horse' },
    { current: 'x', new: 'short' },
  ],
  'POST /v1/me/activity/read': [{}, { upTo: 1 }, { upTo: 'evt_1', more: true }],
  'POST /v1/expenses/{expenseId}/comments': [
    {},
    { text: '' },
    { text: 5 },
    { text: 'x', extra: 1 },
    { text: ' \n\t ' },
    { text: 'a\u001bb' },
  ],
  'POST /v1/settlements/{settlementId}/comments': [{ text: null }],
  'POST /v1/auth/register': [
    { email: 'ada@example.com', name: 'Ada', password: 'short' },
    { email: 'not-an-email', name: 'Ada', password: 'long enough' },
    { email: 'ada@example.com', name: 'Ada', password: 'long enough', admin: true },
  ],
  'POST /v1/groups': [
    {},
    { name: 'Trip', currency: 'eur' },
    { name: '' },
    { name: `${'😀'.repeat(101)}` },
    { name: 'Zed\u202eEvil' },
    { name: 'a\u0007b' },
    { name: 'a\nb' },
    { name: 'Trip', description: 'a\rb' },
  ],
  // `userId` beside `email` or `name` is refused after the schema (groups/pending-members.ts).
  'POST /v1/groups/{groupId}/members': [
    {},
    { userId: 'usr_1' },
    { name: '' },
    { name: 'x'.repeat(101) },
    { name: 'Pat', nick: 'P' },
  ],
  'POST /v1/groups/{groupId}/invites': [
    { expiresInDays: 0 },
    { expiresInDays: 31 },
    { expiresInDays: 1.5 },
    { expiresInDays: '2' },
    { code: 'x' },
  ],
  'POST /v1/invites/{code}/accept': [{ asMember: 'usr_1' }, { asMember: USR_A, extra: true }],
  'POST /v1/expenses/{expenseId}/duplicate': [
    { amount: 5 },
    { occurredAt: 'yesterday' },
    { description: '' },
  ],
  'PATCH /v1/groups/{groupId}': [{ currency: 'eur' }, { simplifyDebts: 'no' }, { archivedAt: null }],
  'POST /v1/expenses': [
    { ...expense, amount: '100' },
    { ...expense, amount: -1e12 - 1 },
    { ...expense, amount: 1.5 },
    { ...expense, amount: 0 },
    { ...expense, amount: 1e12 + 1 },
    { ...expense, category: '' },
    { ...expense, extra: 1 },
    { ...expense, occurredAt: 'yesterday' },
    { ...expense, occurredAt: '2026-11-25' },
    { ...expense, category: 'Food\u2066' },
    { ...expense, category: 'x'.repeat(65) },
    { ...expense, description: '   ' },
    { ...expense, paidBy: [] },
    { ...expense, split: { type: 'equal', between: [] } },
    { ...expense, split: { type: 'weird', between: [USR_A] } },
    { ...expense, split: { between: [USR_A] } },
    { ...expense, split: { type: 'equal', between: [{ userId: USR_A, amount: 1 }] } },
    { ...expense, split: { type: 'percent', between: [{ userId: USR_A, percent: 33.333 }] } },
    { ...expense, split: { type: 'shares', between: [{ userId: USR_A, shares: 0 }] } },
    { ...expense, split: { type: 'equal', between: [USR_A], extra: true } },
  ],
  'PATCH /v1/expenses/{expenseId}': [{}, { groupId: 'grp_2' }],
  'POST /v1/settlements': [{ groupId: 'grp_1', fromUserId: USR_A, toUserId: USR_B, amount: -1 }],
  'POST /v1/groups/{groupId}/recurring': [
    {},
    { expense, schedule: { every: 'month', startsOn: '2027-01-31', timeZone: 'UTC' } },
    {
      expense: { ...expense, groupId: undefined, occurredAt: '2026-11-25T19:30:00.000Z' },
      schedule: { every: 'month', startsOn: '2027-01-31', timeZone: 'UTC' },
    },
    {
      expense: { description: 'x', amount: 1, paidBy: USR_A, split: { type: 'equal', between: [USR_A] } },
      schedule: { every: 'fortnight', startsOn: '2027-01-31', timeZone: 'UTC' },
    },
    {
      expense: { description: 'x', amount: 1, paidBy: USR_A, split: { type: 'equal', between: [USR_A] } },
      schedule: { every: 'week', startsOn: '31/01/2027', timeZone: 'UTC' },
    },
  ],
  'PATCH /v1/recurring/{recurringId}': [{}, { expense: {} }, { schedule: { every: 'day' } }],
  'POST /v1/groups/{groupId}/imports': [
    {},
    { format: 'splitwise-csv', csv: '', members: {} },
    { format: 'csv', csv: 'x', members: {} },
    { format: 'splitwise-csv', csv: 'x' },
    { format: 'splitwise-csv', csv: 'x', members: [] },
    { format: 'splitwise-csv', csv: 'x', members: {}, extra: 1 },
  ],
  'PUT /v1/groups/{groupId}/rates': [
    { rates: {}, asOf: '2026-11-25' },
    { base: 'eur', rates: {}, asOf: '2026-11-25' },
    { base: 'EUR', rates: {}, asOf: '25.11.2026' },
    { base: 'EUR', rates: [], asOf: '2026-11-25' },
    { base: 'EUR', rates: {}, asOf: '2026-11-25', extra: 1 },
  ],
};

// Notifications (API.md §13).
const P256DH = `B${'A'.repeat(86)}`;
const AUTH = 'A'.repeat(22);
BODIES['PUT /v1/me/notification-settings'] = notificationSettingsBody;
BODIES['POST /v1/me/push-subscriptions'] = pushSubscriptionBody;
BODIES['POST /v1/groups/{groupId}/reminders'] = reminderBody;
VALID['PUT /v1/me/notification-settings'] = [
  {},
  { expense: { push: false }, digest: { email: false } },
  { comment: { push: true, email: true }, inviteAccepted: { email: false } },
];
INVALID['PUT /v1/me/notification-settings'] = [
  { expense: { push: 'no' } },
  { digest: { push: true } },
  { unknownKind: { push: true } },
  { reminder: { sms: true } },
];
VALID['POST /v1/me/push-subscriptions'] = [
  { endpoint: 'https://push.example.com/x', keys: { p256dh: P256DH, auth: AUTH } },
  { endpoint: 'https://push.example.com/x', expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } },
];
INVALID['POST /v1/me/push-subscriptions'] = [
  { endpoint: 'https://push.example.com/x' },
  { endpoint: 'not a url', keys: { p256dh: P256DH, auth: AUTH } },
  { endpoint: 'ftp://push.example.com/x', keys: { p256dh: P256DH, auth: AUTH } },
  { endpoint: 'https://push.example.com/x', keys: { p256dh: 'short', auth: AUTH } },
  { endpoint: 'https://push.example.com/x', keys: { p256dh: P256DH, auth: 'no+slash/' } },
  { endpoint: `https://push.example.com/${'x'.repeat(2048)}`, keys: { p256dh: P256DH, auth: AUTH } },
];
VALID['POST /v1/groups/{groupId}/reminders'] = [{ toUserId: USR_A }];
INVALID['POST /v1/groups/{groupId}/reminders'] = [{}, { toUserId: 'bob' }, { toUserId: USR_A, note: 'x' }];

// Categories (API.md §14).
BODIES['POST /v1/groups/{groupId}/categories'] = createCategoryBody;
BODIES['PATCH /v1/groups/{groupId}/categories/{categoryId}'] = patchCategoryBody;
BODIES['POST /v1/groups/{groupId}/categories/{categoryId}/merge'] = mergeCategoryBody;
VALID['POST /v1/groups/{groupId}/categories'] = [
  { name: 'Bouldering' },
  { name: ' Pets ', icon: '🐈', color: '#A0b1C2' },
  { name: 'Gym', icon: null, color: null },
];
INVALID['POST /v1/groups/{groupId}/categories'] = [
  {},
  { name: '' },
  { name: 'x'.repeat(41) },
  { name: 'Gym', color: 'red' },
  { name: 'Gym', icon: 'x'.repeat(17) },
  { name: 'Gym', extra: 1 },
];
VALID['PATCH /v1/groups/{groupId}/categories/{categoryId}'] = [{ name: 'Climbing' }, { color: null }];
INVALID['PATCH /v1/groups/{groupId}/categories/{categoryId}'] = [{}, { name: null }, { color: '#12345' }];
VALID['POST /v1/groups/{groupId}/categories/{categoryId}/merge'] = [
  { into: 'food' },
  { into: 'cat_01JD3Q8Z4T6Y5W2N8K1M0PX7RC' },
];
INVALID['POST /v1/groups/{groupId}/categories/{categoryId}/merge'] = [
  {},
  { into: 'Food' },
  { into: 'cat_1' },
];

export const joiAccepts = (schema: Joi.Schema, body: unknown) =>
  schema.validate(body, { abortEarly: false, convert: true }).error === undefined;
