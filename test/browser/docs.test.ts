/**
 * `/docs` in a real headless Chromium, against a real server process: Swagger UI (served from the
 * swagger-ui-dist package in node_modules) renders every documented operation and the description's
 * Markdown, and the page requests nothing but the server's own origin and violates no
 * Content-Security-Policy directive.
 */
import type { Page } from 'playwright-core';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { type Chromium, launchChromium } from './chromium';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('/docs in headless Chromium', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let browser: Chromium;
  let page: Page;
  /** Every URL the browser requested for the page, and what went wrong in it. */
  const requested: string[] = [];
  const problems: string[] = [];
  let documented: string[];

  beforeAll(async () => {
    browser = await launchChromium();
    db = await createTestDatabase();
    server = await spawnServer({ DATABASE_URL: db.url });
    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();

    browser.context.on('request', (request) => {
      requested.push(request.url());
    });
    browser.context.on('requestfailed', (request) => {
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`);
    });
    page = await browser.context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(`console ${message.type()}: ${message.text()}`);
      }
    });
    await page.addInitScript({
      content: `document.addEventListener('securitypolicyviolation', (e) => {
        console.error('CSP violation: ' + e.violatedDirective + ' blocked ' + e.blockedURI);
      });`,
    });
    const response = await page.goto(`${server.url}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    // Swagger UI fetches the document, then renders one block per operation
    // (A locator, not waitForFunction: a string predicate needs eval, which the page's CSP forbids.)
    await page
      .locator('.opblock')
      .nth(documented.length - 1)
      .waitFor({ state: 'attached', timeout: 30_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.kill('SIGTERM');
    await db?.drop();
  });

  it('renders every documented operation, with its method and path', async () => {
    const rendered = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method.trim().toUpperCase()} ${path}`;
      }),
    );
    expect(documented.length).toBeGreaterThan(25);
    expect([...rendered].sort()).toEqual(documented);
    // grouped by tag, as the document orders them
    const tags = await page.$$eval('.opblock-tag', (headings) =>
      headings.map((h) => h.getAttribute('data-tag')),
    );
    expect(tags).toEqual([
      'Auth',
      'Groups',
      'Members',
      'Invites',
      'Expenses',
      'Settlements',
      'Recurring expenses',
      'Webhooks',
      'Comments',
      'History',
      'Imports',
      'Balances',
      'Events',
      'Notifications',
      'Receipts',
      'Categories',
      'Realtime',
      'Operations',
    ]);
  });

  it('renders the Markdown of the description instead of showing it as text', async () => {
    const info = page.locator('.information-container');
    // Rendered with the operations, or just after them: waited for, not read once.
    await info.locator('h2', { hasText: 'Conventions' }).waitFor();
    await expect(info.locator('h2', { hasText: 'Conventions' }).count()).resolves.toBe(1);
    await expect(info.locator('h2', { hasText: 'Idempotency' }).count()).resolves.toBe(1);
    await expect(info.locator('strong', { hasText: 'groups' }).count()).resolves.toBeGreaterThan(0);
    await expect(info.locator('code', { hasText: 'Idempotency-Key' }).count()).resolves.toBeGreaterThan(0);
    const text = (await info.textContent()) ?? '';
    expect(text).toContain('Tally tracks shared money');
    expect(text).not.toContain('**groups**');
    expect(text).not.toContain('## Conventions');
  });

  it('opens an operation: its description, parameters and responses are there', async () => {
    const block = page.locator('.opblock', {
      has: page.locator('.opblock-summary-path[data-path="/v1/expenses"]'),
    });
    const post = block.filter({ has: page.locator('.opblock-summary-method', { hasText: 'POST' }) });
    await post.locator('.opblock-summary').click();
    const body = post.locator('.opblock-body');
    await body.locator('.responses-table').first().waitFor({ timeout: 10_000 });
    const text = (await body.textContent()) ?? '';
    expect(text).toContain('Idempotency-Key');
    expect(text).toContain('largest remainder');
    const codes = await body.locator('.responses-table .response-col_status').allInnerTexts();
    expect(codes.map((c) => c.trim())).toEqual(
      expect.arrayContaining(['201', '400', '401', '404', '409', '413', '415', '422', '429', '503']),
    );
    // the WebSocket table of the Realtime operation is a real table
    const ws = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/v1/ws"]') });
    await ws.locator('.opblock-summary').click();
    await ws.locator('.opblock-description-wrapper table').first().waitFor({ timeout: 10_000 });
  });

  it('loads everything from the server itself: no other origin, no CSP violation, no error', async () => {
    const origin = new URL(server.url).origin;
    const elsewhere = requested.filter((url) => !/^(data|blob):/.test(url) && new URL(url).origin !== origin);
    expect(elsewhere).toEqual([]);
    // the renderer's files come from the pinned swagger-ui-dist package
    expect(
      requested.some((url) =>
        /\/docs\/assets\/swagger-ui-dist@\d+\.\d+\.\d+\/swagger-ui-bundle\.js$/.test(url),
      ),
    ).toBe(true);
    expect(requested).toContain(`${origin}/v1/openapi.json`);
    expect(problems).toEqual([]);
  });
});
