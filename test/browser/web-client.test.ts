/**
 * The demo web client at `/` (apps/api/src/web) in a real headless Chromium, against a real server
 * process: two browser contexts that share nothing, Ada and Bob. Both sign up; Ada creates a group,
 * adds Bob by email and adds an expense; Bob's page, open on the group, shows his balance change
 * live (from the WebSocket event, without reloading or re-reading the balances). The page loads
 * nothing from elsewhere and violates no Content-Security-Policy directive.
 *
 * The pages update asynchronously (WebSocket frames, reads they start on a notice): every check
 * waits for what it looks for (a locator's `waitFor` with the text, or `until`), never reads once.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WEB_CSP } from '../../apps/api/src/web/web-client';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { launchChromiumBrowser } from './chromium';
import { PASSWORD, signUpOnPage } from './page-steps';

describe('the web client at / in two browser contexts', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let ada: Page;
  let bob: Page;
  const problems: string[] = [];
  /** Every URL each page requested. */
  const requested = new Map<Page, string[]>();
  /** The Idempotency-Key of every `POST /v1/expenses` a page sent. */
  const expenseKeys: (string | undefined)[] = [];
  /** Text frames each page's WebSocket received. */
  const frames = new Map<Page, string[]>();
  const bobEmail = uniqueEmail('bob');

  async function openPage(): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    await context.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (e) => {
        console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + e.blockedURI);
      });`,
    });
    const page = await context.newPage();
    requested.set(page, []);
    frames.set(page, []);
    page.on('request', (request) => {
      requested.get(page)?.push(`${request.method()} ${request.url()}`);
      if (request.method() === 'POST' && request.url() === `${server.url}/v1/expenses`) {
        expenseKeys.push(request.headers()['idempotency-key']);
      }
    });
    page.on('requestfailed', (request) =>
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
    );
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(`console ${message.type()}: ${message.text()}`);
      }
    });
    page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) => frames.get(page)?.push(String(frame.payload)));
    });
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(WEB_CSP);
    return page;
  }

  // A database, a server process, a browser and pages: slow on a loaded machine.
  beforeAll(async () => {
    browser = await launchChromiumBrowser();
    db = await createTestDatabase();
    // The scheduler of recurring expenses looks often, so the page sees an occurrence soon.
    // The web client at / is served from the sources (`npm start`), not by the production bundle.
    server = await spawnServer({ DATABASE_URL: db.url, RECURRING_POLL_MS: '200' }, { entry: 'npm-start' });
    ada = await openPage();
    bob = await openPage();
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.kill('SIGTERM');
    await db?.drop();
  });

  it('lets both sign up, each in their own context', async () => {
    await signUpOnPage(bob, 'Bob', bobEmail);
    await signUpOnPage(ada, 'Ada', uniqueEmail('ada'));
    // Separate contexts: each page holds its own session.
    await ada.locator('#who-name', { hasText: 'Ada' }).waitFor();
    await bob.locator('#who-name', { hasText: 'Bob' }).waitFor();
  });

  it('lets Ada create a group and add Bob by email; Bob finds it in his list', async () => {
    await ada.locator('#group-form input[name=name]').fill('Goa trip');
    await ada.locator('#group-form button').click();
    await ada.locator('#group-name', { hasText: 'Goa trip (INR)' }).waitFor();
    await ada.locator('#member-form input[name=email]').fill(bobEmail);
    await ada.locator('#member-form button').click();
    await ada.locator('#status', { hasText: 'Bob is a member.' }).waitFor();
    // Ada's page learnt of the new member from the member.added event: Bob can be the payer.
    await ada.locator('#paid-by option', { hasText: 'Bob' }).waitFor({ state: 'attached' });

    await bob.locator('#refresh-groups').click();
    await bob.locator('#group-list button', { hasText: 'Goa trip' }).click();
    await bob.locator('#group-name', { hasText: 'Goa trip (INR)' }).waitFor();
    await bob.locator('#balances', { hasText: 'No expenses yet.' }).waitFor();
    // Opening the group reads its expense list last: done before the next test counts requests.
    await bob.locator('#expense-list li', { hasText: 'No expenses yet.' }).waitFor();
  });

  it("shows Ada's expense in Bob's balances live, without a reload or another balances read", async () => {
    const bobRequestsBefore = requested.get(bob)?.length ?? 0;
    await ada.locator('#expense-form input[name=description]').fill('Dinner');
    await ada.locator('#expense-form input[name=amount]').fill('1200.50');
    await ada.locator('#expense-form button').click();
    await ada.locator('#status', { hasText: 'Added “Dinner”.' }).waitFor();

    // ₹1,200.50 paid by Ada, split equally: Bob owes 600.25 (60025 paise), Ada is owed as much.
    await bob.locator('#balances tr[data-net="-60025"]', { hasText: 'Bob' }).waitFor({ timeout: 15_000 });
    await bob.locator('#balances tr[data-net="60025"]', { hasText: 'Ada' }).waitFor();
    await bob.locator('#transfers', { hasText: /Bob pays Ada .*600\.25/ }).waitFor();
    // The event and the balances come in two frames: the activity line may follow the balances.
    await bob.locator('#activity', { hasText: 'Ada added “Dinner”' }).waitFor();
    // Ada's own page follows the same way.
    await ada.locator('#balances tr[data-net="60025"]', { hasText: 'Ada' }).waitFor({ timeout: 15_000 });

    // It came over Bob's WebSocket; Bob's page requested nothing since (no reload, no balances GET)
    // but the first page of his activity across groups, which an `activity` notice refreshes (§8a).
    expect(
      requested
        .get(bob)
        ?.slice(bobRequestsBefore)
        .filter((r) => !r.endsWith('/v1/me/activity?limit=20')),
    ).toEqual([]);
    // The feed across groups is read again after the `activity` notice: it shows the expense once that read is back.
    await bob.locator('#my-activity', { hasText: 'expense.created' }).waitFor({ timeout: 15_000 });
    const events = (frames.get(bob) ?? [])
      .map((f) => JSON.parse(f) as { type: string; event?: { type: string } })
      .filter((m) => m.type === 'event')
      .map((m) => m.event?.type);
    expect(events).toContain('expense.created');
  });

  it('shows the balances in one currency once Ada sets the group’s rates', async () => {
    const rates = ada.locator('#rates-form');
    await rates.locator('input[name=base]').fill('EUR');
    await rates.locator('textarea[name=rates]').fill('INR 80.04');
    await rates.locator('input[name=asOf]').fill('2018-12-21');
    await rates.locator('button').click();
    await ada.locator('#status', { hasText: 'Saved the group’s rates.' }).waitFor();

    await bob.locator('#settle-in').selectOption('EUR');
    // 600.25 INR at 80.04 INR per euro is 7.4993… EUR: rounded once (largest remainder), 7.50 each way.
    await bob.locator('#converted tr[data-net="-750"]', { hasText: 'Bob' }).waitFor({ timeout: 15_000 });
    await bob.locator('#converted tr[data-net="750"]', { hasText: 'Ada' }).waitFor();
    await bob.locator('#converted-transfers', { hasText: /Bob pays Ada .*7\.50/ }).waitFor();
    await bob.locator('#converted-rates', { hasText: '1 EUR = 80.04 INR (group, 2018-12-21)' }).waitFor();
  });

  it('sends the expense with an Idempotency-Key, from the SDK served by the server itself', async () => {
    const adaRequests = requested.get(ada) ?? [];
    expect(adaRequests).toContain(`GET ${server.url}/web/tally-client.js`);
    expect(adaRequests.filter((r) => r === `POST ${server.url}/v1/expenses`)).toHaveLength(1);
    // The key the SDK made for this expense (a UUIDv4 from the browser's crypto.randomUUID()).
    expect(expenseKeys).toEqual([
      expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    ]);
    // On the server: one expense created.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/v1\/expenses",status="201"\} 1\b/,
    );
  });

  it('adds an itemized receipt: each item among who had it, the tax in proportion', async () => {
    const form = ada.locator('#receipt-form');
    await form.locator('input[name=description]').fill('Lunch');
    // Ada had 10.00 alone and shared 6.00 with Bob: 13.00 and 3.00 of 16.00, then the tax × 17.60/16.
    await form.locator('textarea[name=items]').fill('10.00 Ada\n6.00 ada bob');
    await form.locator('input[name=tax]').fill('1.60');
    await form.locator('button').click();
    const status = ada.locator('#status', { hasText: 'Added “Lunch”' });
    await status.waitFor();
    expect(await status.textContent()).toMatch(/Ada \D*14\.30.*Bob \D*3\.30/);
    await bob.locator('#expense-list li', { hasText: 'Lunch' }).waitFor({ timeout: 15_000 });
  });

  it('schedules a recurring expense whose occurrences reach Bob live, and stops it', async () => {
    const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const form = ada.locator('#recurring-form');
    await form.locator('input[name=description]').fill('Cleaner');
    await form.locator('input[name=amount]').fill('100');
    await form.locator('select[name=every]').selectOption('week');
    await form.locator('input[name=startsOn]').fill(weekAgo);
    await form.locator('input[name=timeZone]').fill('UTC');
    await form.locator('button').click();
    await ada.locator('#status', { hasText: 'Scheduled “Cleaner”' }).waitFor();
    // Bob's page lists it (from the recurring.created event) and shows the two due occurrences.
    await bob.locator('#recurring-list li', { hasText: 'Cleaner' }).waitFor({ timeout: 15_000 });
    await until(
      async () => (await bob.locator('#activity li', { hasText: 'Ada added “Cleaner”' }).count()) === 2,
      {
        what: "the two occurrences in Bob's activity",
      },
    );
    await ada.locator('#recurring-list li', { hasText: 'Cleaner' }).locator('button').click();
    await ada.locator('#status', { hasText: 'Stopped “Cleaner”' }).waitFor();
    await bob.locator('#recurring-list li').waitFor({ state: 'detached', timeout: 15_000 });
  });

  it('lists where Bob is signed in, signs his other device out, then signs out here', async () => {
    const phone = await openPage();
    const problemsBefore = problems.length;
    const form = phone.locator('#auth-form');
    await form.locator('input[name=email]').fill(bobEmail);
    await form.locator('input[name=password]').fill(PASSWORD);
    await form.locator('button[value=login]').click();
    await phone.locator('#live', { hasText: 'open' }).waitFor();

    await bob.locator('#refresh-sessions').click();
    await until(
      async () => (await bob.locator('#sessions li').count()) === 2,
      'both of Bob’s sessions listed',
    );
    await until(
      async () => (await bob.locator('#sessions li', { hasText: '(this device)' }).count()) === 1,
      'this device marked once',
    );
    // The phone's session: the one that is not this device. Its socket closes (4401) and its page signs out.
    await bob
      .locator('#sessions li')
      .filter({ hasNotText: '(this device)' })
      .locator('button', { hasText: 'Sign out' })
      .click();
    await bob.locator('#status', { hasText: 'That device is signed out.' }).waitFor();
    await phone.locator('#auth').waitFor({ state: 'visible', timeout: 15_000 });
    // The phone's refused refresh (and upgrade) are the browser's console errors of a 401: expected here.
    const refused = problems.splice(problemsBefore);
    expect(refused.some((p) => /status of 401/.test(p))).toBe(true);
    problems.push(...refused.filter((p) => !/status of 401/.test(p)));
    await until(async () => (await bob.locator('#sessions li').count()) === 1, 'one session left');

    await bob.locator('#sign-out').click();
    await bob.locator('#status', { hasText: 'Signed out.' }).waitFor();
    await bob.locator('#auth').waitFor({ state: 'visible' });
  });

  it('loads everything from the server itself, with no CSP violation and no error', () => {
    const origin = new URL(server.url).origin;
    for (const urls of requested.values()) {
      const elsewhere = urls
        .map((r) => r.split(' ')[1] ?? '')
        .filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
      expect(elsewhere).toEqual([]);
    }
    expect(problems).toEqual([]);
  });
});
