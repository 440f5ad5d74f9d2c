/**
 * The demo web client at `/` (apps/api/src/web), API.md §15, in a real headless Chromium against a
 * real server process: Ada adds an expense of 6.99, changes it to 8.99, and the expense's "History"
 * disclosure says "amount changed from ₹6.99 to ₹8.99 by Ada" in the group's currency; the same
 * change shows among the expense's comments.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { launchChromiumBrowser } from './chromium';
import { signUpOnPage, watchProblems } from './page-steps';

describe('the web client at /: the history of an expense', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let ada: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromiumBrowser();
    db = await createTestDatabase();
    server = await spawnServer({ DATABASE_URL: db.url }, { entry: 'npm-start' });
    context = await browser.newContext({ locale: 'en-US' });
    ada = await context.newPage();
    watchProblems(ada, problems);
    expect((await ada.goto(`${server.url}/`))?.status()).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.kill('SIGTERM');
    await db?.drop();
  });

  it('tells who changed the amount, from what to what, in the group’s currency', async () => {
    await signUpOnPage(ada, 'Ada');
    await ada.locator('#group-form input[name=name]').fill('Flat');
    await ada.locator('#group-form button').click();
    await ada.locator('#group-name', { hasText: 'Flat (INR)' }).waitFor();
    await ada.locator('#expense-form input[name=description]').fill('Taxi');
    await ada.locator('#expense-form input[name=amount]').fill('6.99');
    await ada.locator('#expense-form button').click();
    await ada.locator('#status', { hasText: 'Added “Taxi”.' }).waitFor();
    const item = ada.locator('#expense-list li[data-expense-id]', { hasText: 'Taxi' });
    const expenseId = (await item.getAttribute('data-expense-id')) as string;
    // The page has no edit form: its own signed-in SDK client (the module the page loaded) edits.
    // (a string, so that the test's compiler leaves the page's dynamic import alone)
    await ada.evaluate(
      `import('/web/app/client.js').then(({ tally }) => tally.expenses.patch(${JSON.stringify(expenseId)}, { amount: 899 }))`,
    );
    // The edit arrives as a live event and redraws the line: take the new one's disclosure.
    const edited = ada.locator('#expense-list li[data-expense-id]', { hasText: '8.99' });
    await edited.locator('details.history summary', { hasText: 'History' }).click();
    const lines = edited.locator('details.history li');
    await lines.filter({ hasText: 'amount changed from ₹6.99 to ₹8.99 by Ada' }).waitFor();
    await expect(lines.first().textContent()).resolves.toMatch(/^added by Ada/);

    await edited.locator('button', { hasText: 'Comments' }).click();
    await ada
      .locator('#comment-list li.change', { hasText: 'amount changed from ₹6.99 to ₹8.99 by Ada' })
      .waitFor();
    expect(problems).toEqual([]);
  });
});
