/**
 * The web app's tools screens (apps/api/src/web-app, issue 35) in a real headless Chromium against one
 * real server, with a local SMTP server and a local webhook receiver:
 * - the expenses' search and filters (payer, date range) on the group screen;
 * - settling in one currency with the group's own rates;
 * - a Splitwise import (the file's people mapped to members) and its report, twice;
 * - a webhook: its secret shown once, a delivery signed with it, the log, "send again", deleting;
 * - API keys: made (the secret shown once), used from outside, revoked;
 * - notifications: the settings, "Remind", a mail's unsubscribe link, a notification's deep link,
 *   a push shown by the app's service worker (delivered by DevTools: no push service here);
 * - the mailed links: a place kept for an email taken over once it is confirmed, a forgotten
 *   password set again, an email change.
 * One signed-up Ada and her group serve the tests in order. Every check waits for what it looks for.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { createUnsubscribeTokens } from '../../apps/api/src/notifications/unsubscribe-token';
import {
  RESET_SUBJECT,
  resetTokenOf,
  startSmtpServer,
  type TestSmtpServer,
  VERIFY_SUBJECT,
  verifyTokenOf,
} from '../support/smtp-server';
import { newKey, TEST_JWT_SECRET, type TestUser, uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { APP_PATH, AppUnderTest, addExpense, createGroup, expectBar, PASSWORD, signUp } from './app-steps';

const FIXTURE = path.join(__dirname, '../fixtures/splitwise-export.csv');

describe('the web app: its tools screens', () => {
  const app = new AppUnderTest();
  let smtp: TestSmtpServer;
  let receiver: WebhookReceiver;
  let ada: Page;
  let adaId = '';
  let adaEmail = '';
  let bob: TestUser;
  let groupId = '';

  const api = () => app.t.request;
  const tokenOf = async (email: string) =>
    (await api().post('/v1/auth/login').send({ email, password: PASSWORD })).body.accessToken as string;
  const status = (page: Page, text: string) => page.locator('#status', { hasText: text }).waitFor();
  const go = (page: Page, hash: string) => page.goto(`${app.t.url}${APP_PATH}${hash}`);

  /** Signs in on the app's first screen. */
  async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.locator('#auth-form button[type=submit]').click();
    await page.locator('#account-link').waitFor();
  }

  /** Bob's expense split equally with Ada, over the API (setting up what the page shows). */
  async function bobPays(fields: Record<string, unknown>): Promise<void> {
    const res = await api()
      .post('/v1/expenses')
      .set(bob.auth)
      .set('Idempotency-Key', newKey())
      .send({ groupId, paidBy: bob.id, split: { type: 'equal', between: [adaId, bob.id] }, ...fields });
    expect(res.status).toBe(201);
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    receiver = await startWebhookReceiver();
    await app.start({
      env: { SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '100' },
    });
    ({ page: ada } = await app.openApp());
    ada.on('dialog', (dialog) => void dialog.accept());
    adaEmail = await signUp(ada, 'Ada');
    adaId = (
      await api()
        .get('/v1/me')
        .set({ Authorization: `Bearer ${await tokenOf(adaEmail)}` })
    ).body.id;
    bob = await app.t.register('Bob');
  }, 120_000);
  afterAll(async () => {
    await app.stop();
    await receiver?.close();
    await smtp?.stop();
  });

  it('searches and filters the expenses by words, payer and days', async () => {
    groupId = await createGroup(ada, 'Trip');
    await ada.getByLabel('Add someone on Tally by email').fill(bob.email);
    await ada.locator('#member-form button').click();
    await ada.locator('#member-list li', { hasText: 'Bob' }).waitFor();
    await addExpense(ada, 'Dinner', '30.00');
    await bobPays({ description: 'Taxi', amount: 1000, occurredAt: '2026-01-10T12:00:00.000Z' });
    await expectBar(ada, 'Ada', '€10.00');
    const listed = async (expected: string[]) =>
      until(async () => {
        expect(await ada.locator('#expense-list li a').allTextContents()).toEqual(expected);
      });
    await listed(['Dinner', 'Taxi']);

    await ada.locator('#filters summary').click();
    await ada.getByLabel('Paid by').selectOption({ label: 'Bob' });
    await ada.getByRole('button', { name: 'Search', exact: true }).click();
    await listed(['Taxi']);
    await app.checkAccessibility(ada, 'group with filters');
    await ada.getByRole('button', { name: 'Clear filters' }).click();
    await listed(['Dinner', 'Taxi']);
    await ada.getByLabel('From (day)').fill('2026-01-01');
    await ada.getByLabel('To (day, included)').fill('2026-01-31');
    await ada.getByRole('button', { name: 'Search', exact: true }).click();
    await listed(['Taxi']);
    await ada.getByRole('button', { name: 'Clear filters' }).click();
    await ada.getByLabel('Search expenses').fill('din');
    await ada.getByRole('button', { name: 'Search', exact: true }).click();
    await listed(['Dinner']);
  });

  it('pages through a long list of expenses, and shows the deleted ones on request', async () => {
    const many = await app.t.createGroup(bob, [{ id: adaId } as TestUser], { name: 'Many', currency: 'EUR' });
    const gone = await app.t.postOwnExpense(bob, many, newKey(), { description: 'Gone' });
    expect(
      (await api().delete(`/v1/expenses/${gone.body.id}`).set(bob.auth).set('Idempotency-Key', newKey()))
        .status,
    ).toBe(204);
    for (let i = 1; i <= 51; i++) {
      expect((await app.t.postOwnExpense(bob, many, newKey(), { description: `Item ${i}` })).status).toBe(
        201,
      );
    }
    await go(ada, `#/g/${many}`);
    const rows = ada.locator('#expense-list li');
    await until(async () => expect(await rows.count()).toBe(50));
    await ada.locator('#more-expenses').click();
    await until(async () => expect(await rows.count()).toBe(51));
    await ada.locator('#more-expenses').waitFor({ state: 'detached' });
    expect(await rows.filter({ hasText: 'Gone' }).count()).toBe(0);

    await ada.locator('#filters summary').click();
    await ada.getByLabel('Deleted ones too').check();
    await ada.getByLabel('Search expenses').fill('gone');
    await ada.getByRole('button', { name: 'Search', exact: true }).click();
    await until(async () =>
      expect(await rows.allTextContents()).toEqual([expect.stringContaining('Gone (deleted)')]),
    );
  });

  it('shows the balances in one currency at the group’s own rates', async () => {
    await bobPays({ description: 'Museum', amount: 1250, currency: 'USD' });
    await go(ada, `#/g/${groupId}`);
    await ada.locator('#rates-link').click();
    await ada.locator('#rates-form').waitFor();
    await ada.getByLabel('Rates (units per one base)').fill('USD 1.25');
    await ada.getByLabel('As of').fill('2026-11-20');
    await ada.locator('#rates-form button[type=submit]').click();
    await status(ada, 'Saved the group’s rates.');
    const stored = await api().get(`/v1/groups/${groupId}/rates`).set(bob.auth);
    expect(stored.body).toMatchObject({ base: 'EUR', rates: { USD: '1.25' }, asOf: '2026-11-20' });

    // EUR: Ada +10.00; USD: Ada −6.25, which is −5.00 EUR at 1.25: Ada +5.00, Bob −5.00.
    await ada.locator('#settle-in').selectOption('EUR');
    await ada.locator('#converted li[data-net="500"]', { hasText: 'Ada' }).waitFor();
    await ada.locator('#converted li[data-net="-500"]', { hasText: 'Bob' }).waitFor();
    await ada.locator('#converted-transfers li', { hasText: 'Bob owes Ada €5.00' }).waitFor();
    await ada
      .locator('#converted-rates', { hasText: '1 EUR = 1.25 USD (the group’s rate, 2026-11-20)' })
      .waitFor();
    await app.checkAccessibility(ada, 'rates');
  });

  it('imports a Splitwise export with its people mapped to members, then finds every row there', async () => {
    await go(ada, '#/');
    const importGroup = await createGroup(ada, 'Splitwise');
    for (const name of ['Bob', 'Carol']) {
      await ada.getByLabel('Add someone not on Tally yet').fill(name);
      await ada.locator('#pending-form button').click();
      await ada.locator('#member-list li', { hasText: name }).waitFor();
    }
    await ada.locator('#import-link').click();
    await ada.locator('#import-file').setInputFiles(FIXTURE);
    const mapping = ada.locator('#import-mapping select');
    await mapping.nth(2).waitFor();
    // Preselected by first name: Ada Lovelace → Ada, Bob Smith → Bob, Carol "CJ" Jones → Carol.
    expect(
      await mapping.evaluateAll((selects) =>
        selects.map((s) =>
          (s as unknown as { selectedOptions: { text: string }[] }).selectedOptions[0]?.text.trim(),
        ),
      ),
    ).toEqual(['Ada', 'Bob (not on Tally yet)', 'Carol (not on Tally yet)']);
    await app.checkAccessibility(ada, 'import');
    await ada.getByRole('button', { name: 'Import', exact: true }).click();
    await ada.locator('#import-report', { hasText: '7 created, 0 already there, 0 refused.' }).waitFor();
    const rows = await app.t.db!.knex('expenses').where({ group_id: importGroup });
    const payments = await app.t.db!.knex('settlements').where({ group_id: importGroup });
    expect(rows.length + payments.length).toBe(7);

    await ada.getByRole('button', { name: 'Import', exact: true }).click();
    await ada.locator('#import-report', { hasText: '0 created, 7 already there, 0 refused.' }).waitFor();
    expect(await app.t.db!.knex('expenses').where({ group_id: importGroup })).toHaveLength(rows.length);
    await ada.getByRole('link', { name: /Activity/ }).click();
    await ada.locator('#activity-list li', { hasText: 'imported a Splitwise export: 7 created' }).waitFor();
  });

  it('adds a webhook that receives a signed delivery, shows its log, sends it again, edits and deletes it', async () => {
    await go(ada, `#/g/${groupId}/webhooks`);
    await ada.getByLabel('URL').fill(`${receiver.url}/next`);
    await ada.getByLabel('Event types').fill('expense.created');
    await ada.locator('#webhook-form button[type=submit]').click();
    const secret = await ada.locator('#webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    const item = ada.locator('#webhook-list li', { hasText: `${receiver.url}/next` });
    await item.filter({ hasText: 'expense.created' }).waitFor();
    await app.checkAccessibility(ada, 'webhooks');

    await go(ada, `#/g/${groupId}`);
    await addExpense(ada, 'Groceries', '12.00');
    await until(() => receiver.of('/next').length === 1, 'the delivery');
    receiver.verifyAll('/next', secret);

    await go(ada, `#/g/${groupId}/webhooks`);
    await item.getByRole('button', { name: 'Deliveries' }).click();
    // The log is written once the receiver answered: refresh until it shows.
    await until(async () => {
      await item.getByRole('button', { name: 'Refresh' }).click();
      return (await item.locator('li[data-status=succeeded]', { hasText: '1 attempt' }).count()) === 1;
    }, 'the delivery in the log');
    await item.getByRole('button', { name: 'Send again' }).click();
    await status(ada, 'will be sent again');
    await until(() => receiver.of('/next').length === 2, 'the delivery again');
    expect(receiver.of('/next')[1]?.id).toBe(receiver.of('/next')[0]?.id);

    // A new secret signs from now on (the old one too, for a day).
    await item.getByRole('button', { name: 'New secret' }).click();
    await status(ada, 'A new secret for');
    const rotated = await ada.locator('#webhook-secret').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await go(ada, `#/g/${groupId}`);
    await addExpense(ada, 'Bread', '3.00');
    await until(() => receiver.of('/next').length === 3, 'the delivery after the new secret');
    // Signed by both secrets: a receiver holding either one verifies it.
    const bread = receiver.of('/next')[2]!;
    for (const key of [secret, rotated]) {
      new Webhook(key).verify(bread.body, {
        'webhook-id': bread.id,
        'webhook-timestamp': bread.timestamp,
        'webhook-signature': bread.signature,
      });
    }
    await go(ada, `#/g/${groupId}/webhooks`);
    // Edited in place: a description and one more event type.
    await item.getByRole('button', { name: 'Edit' }).click();
    await item.locator('form.webhook-edit').getByLabel('Description').fill('Bookkeeping');
    await item
      .locator('form.webhook-edit')
      .getByLabel('Event types')
      .fill('expense.created, settlement.created');
    await item.getByRole('button', { name: 'Save changes' }).click();
    await status(ada, `Saved the webhook to ${receiver.url}/next.`);
    await item.filter({ hasText: 'Bookkeeping' }).filter({ hasText: 'settlement.created' }).waitFor();
    const [row] = await app.t.db!.knex('webhook_endpoints').where({ group_id: groupId });
    expect([row.description, row.event_types]).toEqual([
      'Bookkeeping',
      ['expense.created', 'settlement.created'],
    ]);
    await item.getByRole('button', { name: 'Delete' }).click();
    await status(ada, `Deleted the webhook to ${receiver.url}/next.`);
    await ada.locator('#webhook-list > li').waitFor({ state: 'detached' });
    expect(await app.t.db!.knex('webhook_endpoints').where({ group_id: groupId })).toHaveLength(0);
  });

  it('makes an API key showing its secret once, which works until it is revoked', async () => {
    await ada.locator('#account-link').click();
    await ada.locator('#api-keys-link').click();
    await ada.getByLabel('Key name').fill('Nightly <b>report</b>');
    await ada.getByRole('button', { name: 'Make the key' }).click();
    const secret = await ada.locator('#api-key-secret').inputValue();
    expect(secret).toMatch(/^tally_sk_[0-9A-Za-z]{49}$/);
    // Listed as text (never HTML), by its prefix, never its secret.
    const item = ada.locator('#api-keys li', { hasText: 'Nightly <b>report</b>' });
    await item.waitFor();
    expect(await item.textContent()).toContain(`${secret.slice(0, 15)}…`);
    expect(await ada.locator('#api-keys').textContent()).not.toContain(secret);
    await app.checkAccessibility(ada, 'API keys');
    await ada.locator('#api-key-secret-done').click();
    await ada.locator('#api-key-secret').waitFor({ state: 'detached' });

    const withKey = { headers: { Authorization: `Bearer ${secret}` } };
    const me = await fetch(`${app.t.url}/v1/me`, withKey);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { name: string }).name).toBe('Ada');

    await item.getByRole('button', { name: 'Revoke' }).click();
    await status(ada, 'is revoked');
    await ada.locator('#no-api-keys').waitFor();
    expect((await fetch(`${app.t.url}/v1/me`, withKey)).status).toBe(401);
  });

  it('saves the notification settings, reminds from the balances, follows unsubscribe and deep links', async () => {
    await go(ada, '#/account/notifications');
    const expenseMail = ada.getByLabel('An expense that involves me: Mail');
    await expenseMail.waitFor();
    expect(await expenseMail.isChecked()).toBe(false);
    expect(await ada.getByLabel('A reminder to settle up: Push').isChecked()).toBe(true);
    await app.checkAccessibility(ada, 'notifications');
    await expenseMail.check();
    await ada.getByLabel('The weekly digest: Mail').uncheck();
    await ada.locator('#notification-form button[type=submit]').click();
    await status(ada, 'Notification settings saved.');
    const stored = await app.t.db!.knex('notification_settings').where({ user_id: adaId }).first('settings');
    expect(stored.settings.expense).toEqual({ push: true, email: true });
    expect(stored.settings.digest).toEqual({ email: false });

    // Bob owes Ada in EUR: she reminds him, once a day.
    await go(ada, `#/g/${groupId}`);
    await ada.locator(`#transfers button[data-remind="${bob.id}"]`).click();
    await status(ada, 'Bob is reminded.');
    expect(await app.t.db!.knex('notification_reminders').where({ to_user_id: bob.id })).toHaveLength(1);
    await ada.locator(`#transfers button[data-remind="${bob.id}"]`).click();
    await ada.locator('#status.error', { hasText: 'less than a day ago' }).waitFor();

    // A mail's unsubscribe link works signed out.
    const token = createUnsubscribeTokens(TEST_JWT_SECRET).make(bob.id, 'reminder');
    const { page: anonymous } = await app.openApp(`#unsubscribe=${token}`);
    await status(anonymous, 'no more mails like that one');
    expect(anonymous.url()).not.toContain(token);
    const bobs = await app.t.db!.knex('notification_settings').where({ user_id: bob.id }).first('settings');
    expect(bobs.settings.reminder).toEqual({ push: true, email: false });

    // A notification's deep link opens its expense once signed in.
    const dinner = await app.t
      .db!.knex('expenses')
      .where({ group_id: groupId, description: 'Dinner' })
      .first('id');
    const { page } = await app.openApp(`#group=${groupId}&record=${dinner.id}`);
    await signIn(page, adaEmail);
    await page.locator('#expense-form').waitFor();
    expect(await page.getByLabel('Description').inputValue()).toBe('Dinner');
  });

  it('shows a push with the app’s service worker (delivered by DevTools: no push service here)', async () => {
    const { page, context } = await app.openApp();
    await context.grantPermissions(['notifications'], { origin: app.t.url });
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      registrations.push(...(event.registrations as { registrationId: string; scopeURL: string }[]));
    });
    await cdp.send('ServiceWorker.enable');
    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
    const scope = `${app.t.url}${APP_PATH}`;
    await until(() => registrations.some((r) => r.scopeURL === scope), 'the service worker registered');
    const message = {
      id: '7',
      tag: 'expense:evt_test',
      title: 'Trip: Ada added an expense',
      body: '“Dinner”, 90.00 EUR; your share 45.00 EUR.',
      url: `${app.t.url}/#group=grp_test&record=exp_test`,
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: app.t.url,
      registrationId: registrations.find((r) => r.scopeURL === scope)!.registrationId,
      data: JSON.stringify(message),
    });
    let shown: unknown[] = [];
    await until(async () => {
      shown = (await page.evaluate(`(async () => {
        const reg = await navigator.serviceWorker.getRegistration('${APP_PATH}');
        return ((await reg?.getNotifications()) ?? []).map((n) => ({
          title: n.title, body: n.body, tag: n.tag, url: n.data.url,
        }));
      })()`)) as unknown[];
      return shown.length > 0;
    }, 'the notification shown');
    expect(shown).toEqual([{ title: message.title, body: message.body, tag: message.tag, url: message.url }]);
  });

  it('lets Dora take over the place kept for her email once she confirmed it, and set a forgotten password', async () => {
    const email = uniqueEmail('dora');
    await go(ada, `#/g/${groupId}`);
    await ada.getByLabel('Add someone not on Tally yet').fill('Dora');
    await ada.getByLabel('Their email').fill(email);
    await ada.locator('#pending-form button').click();
    await ada.locator('#member-list li', { hasText: 'Dora' }).waitFor();

    const { page: dora } = await app.openApp();
    await dora.getByRole('button', { name: 'I am new here' }).click();
    await dora.getByLabel('Your name').fill('Dora');
    await dora.getByLabel('Email').fill(email);
    await dora.getByLabel('Password').fill(PASSWORD);
    await dora.locator('#auth-form button[type=submit]').click();
    await dora.locator('#account-link').click();
    await dora.locator('#verify-box', { hasText: email }).waitFor();
    await app.checkAccessibility(dora, 'account with email');
    // Not before she opens the link mailed to her (API.md §2.5).
    const doraAuth = { Authorization: `Bearer ${await tokenOf(email)}` };
    expect((await api().get('/v1/me/claimable-members').set(doraAuth)).body).toEqual({ data: [] });
    const mail = await smtp.waitForMail(email, { subject: VERIFY_SUBJECT });
    const { page: opened } = await app.openApp(`#verify-email=${verifyTokenOf(mail)}`);
    await status(opened, 'Your email address is confirmed.');

    await dora.getByRole('link', { name: 'Groups' }).click();
    await dora.getByRole('button', { name: 'Be Dora in Trip' }).click();
    await dora.locator('#group-name', { hasText: 'Trip' }).waitFor();
    await status(dora, "You took over Dora's place in Trip.");
    await dora.getByRole('link', { name: /Activity/ }).click();
    await dora.locator('#activity-list li', { hasText: 'Dora took over a place kept for them' }).waitFor();
    await ada
      .locator('#member-list li', { hasText: 'Dora' })
      .filter({ hasText: 'not on Tally yet' })
      .waitFor({
        state: 'detached',
      });

    // Forgotten: a link by mail, a new password, signing in with it.
    const { page: forgot } = await app.openApp();
    await forgot.getByRole('link', { name: 'Forgot your password?' }).click();
    await forgot.getByLabel('Email').fill(email);
    await app.checkAccessibility(forgot, 'forgot password');
    await forgot.getByRole('button', { name: 'Mail me a link' }).click();
    await status(forgot, 'a link to set a new password is on its way');
    const reset = await smtp.waitForMail(email, { subject: RESET_SUBJECT });
    const { page: setting } = await app.openApp(`#reset=${resetTokenOf(reset)}`);
    await setting.getByLabel('New password').fill('a brand new password');
    await app.checkAccessibility(setting, 'reset password');
    await setting.locator('#reset-form button[type=submit]').click();
    await status(setting, 'Your password is set');
    await signIn(setting, email, 'a brand new password');

    // Changing the address: a link goes to the new one.
    await setting.locator('#account-link').click();
    const newEmail = uniqueEmail('dora-new');
    const change = setting.locator('#change-email-form');
    await change.getByLabel('New email address').fill(newEmail);
    await change.getByLabel('Current password').fill('a brand new password');
    await setting.getByRole('button', { name: 'Change email' }).click();
    await status(setting, `A link is on its way to ${newEmail}`);
    await smtp.waitForMail(newEmail);
  });

  it('opens an invite link pasted on the groups screen, and revokes it so it lets nobody in', async () => {
    await go(ada, `#/g/${groupId}`);
    await ada.getByRole('button', { name: 'Make an invite link' }).click();
    const link = (await ada.locator('#invite-link').getAttribute('href')) as string;
    await ada.locator('#live-invites li').waitFor();

    const { page: eve } = await app.openApp();
    await signUp(eve, 'Eve');
    await eve.getByLabel('Paste the invite link').fill(link);
    await app.checkAccessibility(eve, 'groups with join form');
    await eve.getByRole('button', { name: 'Open', exact: true }).click();
    await eve.getByText(/^Trip: \d+ members$/).waitFor();

    await ada.locator('#live-invites button', { hasText: 'Revoke' }).click();
    await status(ada, 'that link no longer lets anyone join');
    await ada.locator('#live-invites').waitFor({ state: 'detached' });
    const live = await api().get(`/v1/groups/${groupId}/invites`).set(bob.auth);
    expect(live.body.data).toEqual([]);
    await eve.reload();
    await eve.locator('#status.error').waitFor();
  });

  it('pages through the activity of every group and marks it all read', async () => {
    const adaAuth = { Authorization: `Bearer ${await tokenOf(adaEmail)}` };
    const feed = (await api().get('/v1/me/activity?limit=100').set(adaAuth)).body;
    expect(feed.data.length).toBeGreaterThan(20);
    await ada.getByRole('link', { name: /Activity/ }).click();
    const items = ada.locator('#activity-list li');
    await until(async () => expect(await items.count()).toBe(20));
    await ada.locator('#activity-more').click();
    await until(async () => expect(await items.count()).toBe(Math.min(feed.data.length, 40)));
    await ada.locator('#activity-unread', { hasText: `${feed.unread} unread` }).waitFor();
    await ada.getByRole('button', { name: 'Mark all read' }).click();
    await ada.locator('#unread').waitFor({ state: 'detached' });
    await ada.locator('#activity-unread', { hasText: '0 unread' }).waitFor();
    const after = (await api().get('/v1/me/activity?limit=1').set(adaAuth)).body;
    expect(after).toMatchObject({ unread: 0, readUpTo: feed.data[0].id });
    expect(app.problems).toEqual([]);
    expect(app.violations).toEqual([]);
  });
});
