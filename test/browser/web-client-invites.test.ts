/**
 * The demo web client at `/` (apps/api/src/web), API.md §3.1–§3.3, in a real headless Chromium
 * against a real server process: Ada adds Carol, who is not on Tally yet, records an expense Carol
 * paid, and makes an invite link; Cara signs up in her own browser context, opens the link, and
 * joins as Carol: she sees Carol's balance as hers, and Ada's page learns of the claim live.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { startSmtpServer, type TestSmtpServer, VERIFY_SUBJECT } from '../support/smtp-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { uniqueEmail } from '../support/test-server';
import { launchChromiumBrowser } from './chromium';
import { signUpOnPage } from './page-steps';

describe('the web client at /: someone not on Tally yet, an invite link and a claim', () => {
  let db: TestDatabase;
  let smtp: TestSmtpServer;
  let server: ServerProcess;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  let ada: Page;
  let cara: Page;
  let link = '';

  async function openPage(path = '/'): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(`console ${message.type()}: ${message.text()}`);
      }
    });
    const response = await page.goto(`${server.url}${path}`);
    expect(response?.status()).toBe(200);
    return page;
  }

  beforeAll(async () => {
    browser = await launchChromiumBrowser();
    db = await createTestDatabase();
    smtp = await startSmtpServer();
    // No APP_URL: the verification link points at this process's own web client, which is served
    // from the sources (`npm start`), not by the production bundle.
    server = await spawnServer({ DATABASE_URL: db.url, SMTP_URL: smtp.url }, { entry: 'npm-start' });
    ada = await openPage();
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.kill('SIGTERM');
    await smtp?.stop();
    await db?.drop();
  });

  it('lets Ada add Carol by name, record what Carol paid, and make an invite link', async () => {
    await signUpOnPage(ada, 'Ada');
    await ada.locator('#group-form input[name=name]').fill('Flat');
    await ada.locator('#group-form button').click();
    await ada.locator('#group-name', { hasText: 'Flat (INR)' }).waitFor();
    await ada.locator('#pending-form input[name=name]').fill('Carol');
    await ada.locator('#pending-form button').click();
    await ada.locator('#status', { hasText: 'Carol was added' }).waitFor();
    await ada
      .locator('#paid-by option', { hasText: 'Carol (not on Tally yet)' })
      .waitFor({ state: 'attached' });

    await ada.locator('#expense-form input[name=description]').fill('Groceries');
    await ada.locator('#expense-form input[name=amount]').fill('100');
    await ada.locator('#paid-by').selectOption({ label: 'Carol (not on Tally yet)' });
    await ada.locator('#expense-form button').click();
    await ada.locator('#status', { hasText: 'Added “Groceries”.' }).waitFor();
    await ada.locator('#balances tr[data-net="5000"]', { hasText: 'Carol' }).waitFor({ timeout: 15_000 });

    await ada.locator('#make-invite').click();
    await ada.locator('#status', { hasText: 'Invite link made' }).waitFor();
    link = (await ada.locator('#invite-link').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${server.url}/\\?invite=[A-Za-z0-9_-]{43}$`));
  });

  it('lets Cara open the link, sign up and join as Carol, taking over her balance', async () => {
    cara = await openPage(new URL(link).pathname + new URL(link).search);
    await signUpOnPage(cara, 'Cara');
    // The link filled the join form in.
    await cara.locator('#join-form button').click();
    await cara.locator('#join-summary', { hasText: 'Flat: 2 member(s).' }).waitFor();
    await cara.locator('#join-as').selectOption({ label: 'Carol (take over their place)' });
    await cara.locator('#accept-form button').click();
    await cara.locator('#group-name', { hasText: 'Flat (INR)' }).waitFor();
    await cara.locator('#balances tr[data-net="5000"]', { hasText: 'Cara' }).waitFor({ timeout: 15_000 });
    await cara.locator('#balances tr[data-net="-5000"]', { hasText: 'Ada' }).waitFor();

    // Ada's page heard member.claimed and shows Cara in Carol's place.
    await ada.locator('#activity', { hasText: 'Cara took over the place' }).waitFor({ timeout: 15_000 });
    await ada.locator('#paid-by option', { hasText: 'Cara' }).waitFor({ state: 'attached' });
    await expect(ada.locator('#paid-by option', { hasText: 'Carol' }).count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });

  it('offers Dora, added by her email before she signed up, to take over her place with one click once she confirmed it', async () => {
    const email = uniqueEmail('dora');
    await ada.locator('#pending-form input[name=name]').fill('Dora');
    await ada.locator('#pending-form input[name=email]').fill(email);
    await ada.locator('#pending-form button').click();
    await ada.locator('#status', { hasText: 'Dora was added' }).waitFor();

    const dora = await openPage();
    await signUpOnPage(dora, 'Dora', email);
    // Not before she opens the link mailed to her (API.md §2.5).
    await dora.locator('#verify-box', { hasText: email }).waitFor();
    expect(await dora.locator('#claimable-box').isHidden()).toBe(true);
    const mail = await smtp.waitForMail(email, { subject: VERIFY_SUBJECT });
    const link = /(https?:\/\/\S+#verify-email=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1] ?? '';
    expect(new URL(link).port).toBe(new URL(server.url).port);
    expect(new URL(link).hash).toMatch(/^#verify-email=[A-Za-z0-9_-]{43}$/);
    const opened = await openPage(new URL(link).pathname + new URL(link).hash);
    await opened.locator('#status', { hasText: 'Your email address is confirmed.' }).waitFor();
    await dora.locator('#refresh-groups').click();
    await dora.locator('#verify-box').waitFor({ state: 'hidden' });
    await dora.locator('#claimable button', { hasText: 'Be Dora in Flat' }).click();
    await dora.locator('#group-name', { hasText: 'Flat (INR)' }).waitFor();
    await dora.locator('#status', { hasText: "You took over Dora's place in Flat." }).waitFor();
    await ada.locator('#activity', { hasText: 'Dora took over the place' }).waitFor({ timeout: 15_000 });
    expect(problems).toEqual([]);
  });
});
