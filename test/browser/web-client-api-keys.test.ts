/**
 * The web client's API keys (API.md §2.6) in a real headless Chromium against a real server
 * process: Ada makes a read key on her account screen, sees its secret once, the key reads her
 * data from outside the browser, and once she revokes it on the page it is refused.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { launchChromiumBrowser } from './chromium';
import { signUpOnPage } from './page-steps';

describe('the web client at /: API keys on the account screen', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromiumBrowser();
    db = await createTestDatabase();
    server = await spawnServer({ DATABASE_URL: db.url }, { entry: 'npm-start' });
    context = await browser.newContext();
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('dialog', (dialog) => void dialog.accept());
    expect((await page.goto(`${server.url}/`))?.status()).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.kill('SIGTERM');
    await db?.drop();
  });

  it('creates a key showing its secret once, lists it, and revokes it', async () => {
    await signUpOnPage(page, 'Ada');

    await page.locator('#api-keys-box summary').click();
    await page.locator('#api-key-form input[name=name]').fill('Nightly <b>report</b>');
    await page.locator('#api-key-form button').click();
    await page.locator('#api-key-secret-box').waitFor();
    const secret = await page.locator('#api-key-secret').inputValue();
    expect(secret).toMatch(/^tally_sk_[0-9A-Za-z]{49}$/);
    // Listed as text (never HTML), by its prefix, never its secret.
    const item = page.locator('#api-keys li', { hasText: 'Nightly <b>report</b>' });
    await item.waitFor();
    expect(await item.textContent()).toContain(`${secret.slice(0, 15)}…`);
    expect(await page.locator('#api-keys').textContent()).not.toContain(secret);
    await page.locator('#api-key-secret-done').click();
    expect(await page.locator('#api-key-secret').inputValue()).toBe('');

    const withKey = { headers: { Authorization: `Bearer ${secret}` } };
    const me = await fetch(`${server.url}/v1/me`, withKey);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { name: string }).name).toBe('Ada');

    await item.locator('button', { hasText: 'Revoke' }).click();
    await page.locator('#status', { hasText: 'is revoked' }).waitFor();
    await page.locator('#api-keys li', { hasText: 'No API keys.' }).waitFor();
    expect((await fetch(`${server.url}/v1/me`, withKey)).status).toBe(401);
    expect(problems).toEqual([]);
  });
});
