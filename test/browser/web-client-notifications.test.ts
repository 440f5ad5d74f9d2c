/**
 * The web client's notifications (API.md §13) in a real headless Chromium against a real server
 * process: the settings in the account screen, "Remind" on a debt in the balances, a mail's
 * unsubscribe link, a notification's deep link, and the service worker showing a push.
 *
 * Subscribing to push needs the browser's own push service (Google's, for Chromium), which this
 * machine cannot reach: `PushManager.subscribe` is not tested here. The server's side of push is
 * (test/component/notifications.test.ts, against a local push service). What works offline is
 * tested: the service worker's `push` handler, with a push message delivered to it by the DevTools
 * protocol (`ServiceWorker.deliverPushMessage`), shows the notification and its deep link.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createUnsubscribeTokens } from '../../apps/api/src/notifications/unsubscribe-token';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { newKey, TEST_JWT_SECRET } from '../support/test-server';
import { until } from '../support/until';
import { launchChromiumBrowser } from './chromium';
import { PASSWORD, signUpOnPage } from './page-steps';

describe('the web client at /: notifications', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  async function openPage(path = '/'): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const response = await page.goto(`${server.url}${path}`);
    expect(response?.status()).toBe(200);
    return { page, context };
  }

  async function signUp(page: Page, name: string): Promise<{ id: string; email: string }> {
    const email = await signUpOnPage(page, name);
    const row = await db.knex('users').where({ email_normalized: email.toLowerCase() }).first('id');
    return { id: row.id, email };
  }

  async function logIn(page: Page, email: string): Promise<void> {
    const form = page.locator('#auth-form');
    await form.locator('input[name=email]').fill(email);
    await form.locator('input[name=password]').fill(PASSWORD);
    await form.locator('button[value=login]').click();
  }

  /** A token of the user's, over the API (setting up what the page is not about). */
  async function apiToken(email: string): Promise<string> {
    const res = await fetch(`${server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    return ((await res.json()) as { accessToken: string }).accessToken;
  }
  const api = async (token: string, method: string, path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${token}`,
        'Idempotency-Key': newKey(),
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    browser = await launchChromiumBrowser();
    db = await createTestDatabase();
    server = await spawnServer({ DATABASE_URL: db.url }, { entry: 'npm-start' });
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.kill('SIGTERM');
    await db?.drop();
  });
  afterEach(() => {
    expect(problems).toEqual([]);
  });

  it('saves the settings from the account screen', async () => {
    const { page } = await openPage();
    const ada = await signUp(page, 'Ada');
    await page.locator('#notifications-box summary').click();
    const expenseMail = page.locator('#notification-settings input[name="expense.email"]');
    expect(await expenseMail.isChecked()).toBe(false);
    expect(await page.locator('#notification-settings input[name="reminder.push"]').isChecked()).toBe(true);
    await expenseMail.check();
    await page.locator('#notification-settings input[name="digest.email"]').uncheck();
    await page.locator('#notification-form button').click();
    await page.locator('#status', { hasText: 'Notification settings saved.' }).waitFor();
    const stored = await db.knex('notification_settings').where({ user_id: ada.id }).first('settings');
    expect(stored.settings.expense).toEqual({ push: true, email: true });
    expect(stored.settings.digest).toEqual({ email: false });
  });

  it('reminds from the balances, opens a deep link after sign-in, and follows an unsubscribe link', async () => {
    const first = await openPage();
    const ada = await signUp(first.page, 'Ada');
    const bobPage = await openPage();
    const bob = await signUp(bobPage.page, 'Bob');
    const adaToken = await apiToken(ada.email);
    const group = await api(adaToken, 'POST', '/v1/groups', { name: 'Remind club', currency: 'EUR' });
    expect(
      (await api(adaToken, 'POST', `/v1/groups/${group.body.id}/members`, { userId: bob.id })).status,
    ).toBe(201);
    const expense = await api(adaToken, 'POST', '/v1/expenses', {
      groupId: group.body.id,
      description: 'Cinema',
      amount: 2400,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id, bob.id] },
    });
    expect(expense.status).toBe(201);

    // A notification's deep link: the group opens once signed in.
    const { page } = await openPage(`/#group=${group.body.id}&record=${expense.body.id}`);
    await logIn(page, ada.email);
    await page.locator('#group-name', { hasText: 'Remind club' }).waitFor();
    await page.locator(`#transfers button[data-remind="${bob.id}"]`).click();
    await page.locator('#status', { hasText: 'Bob is reminded.' }).waitFor();
    expect(await db.knex('notification_reminders').where({ to_user_id: bob.id })).toHaveLength(1);
    await page.locator(`#transfers button[data-remind="${bob.id}"]`).click();
    await page.locator('#status.error', { hasText: 'less than a day ago' }).waitFor();

    // A mail's unsubscribe link works without signing in.
    const token = createUnsubscribeTokens(TEST_JWT_SECRET).make(bob.id, 'reminder');
    const anonymous = await openPage(`/#unsubscribe=${token}`);
    await anonymous.page.locator('#status', { hasText: 'no more mails like that one' }).waitFor();
    const stored = await db.knex('notification_settings').where({ user_id: bob.id }).first('settings');
    expect(stored.settings.reminder).toEqual({ push: true, email: false });
  });

  it('shows a push in the service worker, with its deep link (delivered by DevTools: no push service here)', async () => {
    const { page, context } = await openPage();
    await context.grantPermissions(['notifications'], { origin: server.url });
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => {
      registrations.push(...(event.registrations as { registrationId: string; scopeURL: string }[]));
    });
    await cdp.send('ServiceWorker.enable');
    // In the page (its DOM types are not this file's): what the web client's push opt-in does first.
    await page.evaluate(`(async () => {
      await navigator.serviceWorker.register('/web/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
    })()`);
    await until(
      () => registrations.some((r) => r.scopeURL === `${server.url}/`),
      'the service worker registered',
    );
    const registration = registrations.find((r) => r.scopeURL === `${server.url}/`)!;
    const message = {
      id: '7',
      tag: 'expense:evt_test',
      title: 'Trip: Ada added an expense',
      body: '“Dinner”, 90.00 EUR; your share 45.00 EUR.',
      url: `${server.url}/#group=grp_test&record=exp_test`,
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: server.url,
      registrationId: registration.registrationId,
      data: JSON.stringify(message),
    });
    let shown: { title: string; body: string; tag: string; url: string }[] = [];
    await until(async () => {
      shown = (await page.evaluate(`(async () => {
        const reg = await navigator.serviceWorker.getRegistration('/');
        return ((await reg?.getNotifications()) ?? []).map((n) => ({
          title: n.title, body: n.body, tag: n.tag, url: n.data.url,
        }));
      })()`)) as typeof shown;
      return shown.length > 0;
    }, 'the notification shown');
    expect(shown).toEqual([{ title: message.title, body: message.body, tag: message.tag, url: message.url }]);
  });
});
