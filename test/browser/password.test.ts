/**
 * The web client's password forms (API.md §2.4) in a real headless Chromium against a real server
 * process mailing through a real SMTP server: "Forgot password?" mails a link; opening the link
 * shows "Set a new password"; the new password logs in. "Change password" for a signed-in user.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { RESET_SUBJECT, resetLinkOf, startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { uniqueEmail } from '../support/test-server';
import { launchChromiumBrowser } from './chromium';

const PASSWORD = 'correct horse battery';

describe('the web client: forgot, reset and change password', () => {
  let db: TestDatabase;
  let smtp: TestSmtpServer;
  let server: ServerProcess;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  const email = uniqueEmail('ada');

  async function openPage(url: string): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(url);
    return page;
  }

  async function logIn(page: Page, password: string): Promise<void> {
    const form = page.locator('#auth-form');
    await form.locator('input[name=email]').fill(email);
    await form.locator('input[name=password]').fill(password);
    await form.locator('button[value=login]').click();
  }

  beforeAll(async () => {
    browser = await launchChromiumBrowser();
    db = await createTestDatabase();
    smtp = await startSmtpServer();
    // No APP_URL: the link points at this process's own web client.
    // The web client at / is served from the sources (`npm start`), not by the production bundle.
    server = await spawnServer({ DATABASE_URL: db.url, SMTP_URL: smtp.url }, { entry: 'npm-start' });
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.kill('SIGTERM');
    await smtp?.stop();
    await db?.drop();
  });

  it('signs up, then changes the password from the signed-in page', async () => {
    const page = await openPage(`${server.url}/`);
    const form = page.locator('#auth-form');
    await form.locator('input[name=name]').fill('Ada');
    await form.locator('input[name=email]').fill(email);
    await form.locator('input[name=password]').fill(PASSWORD);
    await form.locator('button[value=register]').click();
    await page.locator('#who-name', { hasText: 'Ada' }).waitFor();

    await page.locator('#change-password-box summary').click();
    const change = page.locator('#change-password-form');
    await change.locator('input[name=current]').fill('not my password');
    await change.locator('input[name=new]').fill('changed horse battery');
    await change.locator('button').click();
    await page.locator('#status.error', { hasText: 'current password is wrong' }).waitFor();
    await change.locator('input[name=current]').fill(PASSWORD);
    await change.locator('input[name=new]').fill('changed horse battery');
    await change.locator('button').click();
    await page.locator('#status', { hasText: 'Password changed' }).waitFor();
    await page.locator('#who-name', { hasText: 'Ada' }).waitFor();
  });

  it('mails a reset link from "Forgot password?"; the link sets a new password that logs in', async () => {
    const page = await openPage(`${server.url}/`);
    await page.locator('#forgot-box summary').click();
    await page.locator('#forgot-form input[name=email]').fill(email);
    await page.locator('#forgot-form button').click();
    await page.locator('#status', { hasText: 'a link to set a new password is on its way' }).waitFor();

    const link = resetLinkOf(await smtp.waitForMail(email, { subject: RESET_SUBJECT }));
    expect(link.startsWith(`http://localhost:${server.port}/#reset=`)).toBe(true);
    const resetPage = await openPage(link.replace(`http://localhost:${server.port}`, server.url));
    await resetPage.locator('#reset-form').waitFor();
    expect(await resetPage.locator('#auth').isHidden()).toBe(true);
    expect(new URL(resetPage.url()).hash).toBe(''); // the token left the address bar
    await resetPage.locator('#reset-form input[name=password]').fill('reset horse battery');
    await resetPage.locator('#reset-form button').click();
    await resetPage.locator('#status', { hasText: 'log in with the new password' }).waitFor();

    await logIn(resetPage, 'reset horse battery');
    await resetPage.locator('#who-name', { hasText: 'Ada' }).waitFor();
    expect(problems).toEqual([]);
  });
});
