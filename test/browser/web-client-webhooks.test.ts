/**
 * The demo web client at `/` (apps/api/src/web), API.md §12, in a real headless Chromium against a
 * real server process and a real receiver: Ada adds a webhook to her group (its secret shown once),
 * an expense she records reaches the receiver signed with that secret, the delivery log shows it
 * and sends it again, and she deletes the endpoint.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { launchChromiumBrowser } from './chromium';
import { signUpOnPage } from './page-steps';

describe('the web client at /: a group’s webhooks', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let ada: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromiumBrowser();
    db = await createTestDatabase();
    receiver = await startWebhookReceiver();
    server = await spawnServer(
      { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '100' },
      { entry: 'npm-start' },
    );
    context = await browser.newContext();
    ada = await context.newPage();
    ada.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    ada.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(`console ${message.type()}: ${message.text()}`);
      }
    });
    expect((await ada.goto(`${server.url}/`))?.status()).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.kill('SIGTERM');
    await receiver?.close();
    await db?.drop();
  });

  it('adds a webhook, shows its deliveries, sends one again, and deletes it', async () => {
    await signUpOnPage(ada, 'Ada');
    await ada.locator('#group-form input[name=name]').fill('Flat');
    await ada.locator('#group-form button').click();
    await ada.locator('#group-name', { hasText: 'Flat (INR)' }).waitFor();

    await ada.locator('#webhook-form input[name=url]').fill(`${receiver.url}/web`);
    await ada.locator('#webhook-form input[name=eventTypes]').fill('expense.created');
    await ada.locator('#webhook-form button').click();
    const status = ada.locator('#status', { hasText: 'Its signing secret, shown only now: whsec_' });
    await status.waitFor();
    const secret = /(whsec_\S+)$/.exec((await status.textContent()) ?? '')?.[1] ?? '';
    await ada.locator('#webhook-list li', { hasText: `${receiver.url}/web (expense.created)` }).waitFor();

    await ada.locator('#expense-form input[name=description]').fill('Groceries');
    await ada.locator('#expense-form input[name=amount]').fill('100');
    await ada.locator('#expense-form button').click();
    await ada.locator('#status', { hasText: 'Added “Groceries”.' }).waitFor();
    await until(() => receiver.of('/web').length === 1, 'the delivery');
    receiver.verifyAll('/web', secret);

    const item = ada.locator('#webhook-list li', { hasText: `${receiver.url}/web` });
    // The log is written once the receiver answered: ask until it shows.
    await until(async () => {
      await item.locator('button', { hasText: 'Deliveries' }).click();
      return (
        (await ada.locator('#webhook-deliveries li', { hasText: 'succeeded after 1 attempt(s)' }).count()) ===
        1
      );
    }, 'the delivery in the log');
    await ada.locator('#webhook-deliveries li button', { hasText: 'Send again' }).click();
    await ada.locator('#status', { hasText: 'will be sent again' }).waitFor();
    await until(() => receiver.of('/web').length === 2, 'the delivery again');
    expect(receiver.of('/web')[1]?.id).toBe(receiver.of('/web')[0]?.id);

    await item.locator('button', { hasText: 'Delete' }).click();
    await ada.locator('#status', { hasText: `Deleted the webhook to ${receiver.url}/web.` }).waitFor();
    await expect(ada.locator('#webhook-list li').count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });
});
