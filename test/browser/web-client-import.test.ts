/**
 * The demo web client at `/` (apps/api/src/web), API.md §6b, in a real headless Chromium against a
 * real server process: Ada picks a Splitwise export (test/fixtures/splitwise-export.csv), maps its
 * three person columns to herself and two people added by name, and sees the report; the same file
 * again reports every row as already there.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { launchChromiumBrowser } from './chromium';
import { signUpOnPage } from './page-steps';

const FIXTURE = path.join(__dirname, '../fixtures/splitwise-export.csv');

describe('the web client at /: importing a Splitwise export', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let ada: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromiumBrowser();
    db = await createTestDatabase();
    // The web client at / is served from the sources (`npm start`), not by the production bundle.
    server = await spawnServer({ DATABASE_URL: db.url }, { entry: 'npm-start' });
    context = await browser.newContext();
    ada = await context.newPage();
    ada.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    expect((await ada.goto(`${server.url}/`))?.status()).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.kill('SIGTERM');
    await db?.drop();
  });

  it('maps the file’s people to members and shows the report, then finds every row already there', async () => {
    await signUpOnPage(ada, 'Ada');
    await ada.locator('#group-form input[name=name]').fill('Trip');
    await ada.locator('#group-form input[name=currency]').fill('EUR');
    await ada.locator('#group-form button').click();
    await ada.locator('#group-name', { hasText: 'Trip (EUR)' }).waitFor();
    for (const name of ['Bob', 'Carol']) {
      await ada.locator('#pending-form input[name=name]').fill(name);
      await ada.locator('#pending-form button').click();
      await ada.locator('#status', { hasText: `${name} was added` }).waitFor();
      await ada
        .locator('#paid-by option', { hasText: `${name} (not on Tally yet)` })
        .waitFor({ state: 'attached' });
    }

    await ada.locator('#import-file').setInputFiles(FIXTURE);
    const mapping = ada.locator('#import-mapping select');
    await mapping.nth(2).waitFor();
    // Preselected by first name: Ada Lovelace → Ada, Bob Smith → Bob, Carol "CJ" Jones → Carol.
    expect(
      await mapping.evaluateAll((selects) =>
        selects.map(
          (s) => (s as unknown as { selectedOptions: { text: string }[] }).selectedOptions[0]?.text,
        ),
      ),
    ).toEqual(['Ada', 'Bob (not on Tally yet)', 'Carol (not on Tally yet)']);
    await ada.locator('#import-form button').click();
    await ada.locator('#import-report', { hasText: '7 created, 0 already there, 0 refused.' }).waitFor();
    await ada.locator('#activity li', { hasText: 'imported a Splitwise export: 7 created' }).waitFor();

    await ada.locator('#import-form button').click();
    await ada.locator('#import-report', { hasText: '0 created, 7 already there, 0 refused.' }).waitFor();
    expect(problems).toEqual([]);
  });
});
