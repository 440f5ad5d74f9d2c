/**
 * What the web app's browser suites share (apps/api/src/web-app): one real server and one headless
 * Chromium per suite file, a fresh browser context per person, and the steps a user takes on the
 * page. Every step waits for what it looks for, never reads once.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { APP_CSP } from '../../apps/api/src/web-app/web-app';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { launchChromiumBrowser } from './chromium';

/** The password every page-made account has. */
export const PASSWORD = 'correct horse battery';

/** Where the app is served. */
export const APP_PATH = '/';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** A suite's server, browser and the problems its pages reported. */
export class AppUnderTest {
  t!: TestServer;
  browser!: Browser;
  readonly contexts: BrowserContext[] = [];
  /** Uncaught page errors, what the Content-Security-Policy refused, requests to other origins. */
  readonly problems: string[] = [];
  /** Serious or critical accessibility violations, by screen. */
  readonly violations: string[] = [];

  /** Call from `beforeAll` (allow it 120 s). */
  async start(options?: Parameters<typeof startTestServer>[0]): Promise<void> {
    this.browser = await launchChromiumBrowser();
    this.t = await startTestServer(options);
  }

  /** Call from `afterAll`. */
  async stop(): Promise<void> {
    for (const context of this.contexts) await context.close().catch(() => {});
    await this.browser?.close();
    await this.t?.stop();
  }

  /** A new person: a context that shares nothing with the others, on the app's first page. */
  async openApp(hash = ''): Promise<{ page: Page; context: BrowserContext }> {
    const context = await this.browser.newContext();
    context.setDefaultTimeout(15_000);
    this.contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // Chromium reports what the page's Content-Security-Policy refused as a console error.
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
        this.problems.push(message.text());
      }
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      // Everything from the server itself: no CDN, no font, no tracker.
      if (url.origin !== this.t.url && url.protocol !== 'data:') {
        this.problems.push(`request to another origin: ${request.url()}`);
      }
    });
    const response = await page.goto(`${this.t.url}${APP_PATH}${hash}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(APP_CSP);
    return { page, context };
  }

  /** Runs axe-core on the page as it is; its serious and critical violations go to `violations`. */
  async checkAccessibility(page: Page, screen: string): Promise<void> {
    await page.evaluate(AXE_SOURCE);
    const found = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
      const result = await axe.run();
      return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    for (const v of found) this.violations.push(`${screen}: ${v}`);
  }
}

/** Signs up `name` (a fresh email) through the page's form; waits for the live connection. Returns the email. */
export async function signUp(page: Page, name: string): Promise<string> {
  const email = uniqueEmail(name);
  await page.getByRole('button', { name: 'I am new here' }).click();
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.locator('#auth-form button[type=submit]').click();
  await page.locator('#account-link').waitFor();
  await page.locator('#live', { hasText: 'live' }).waitFor();
  return email;
}

/** Makes a group in EUR from the groups screen; returns its id (from the URL). */
export async function createGroup(page: Page, name: string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Currency (3 letters)').fill('EUR');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.locator('#group-name', { hasText: name }).waitFor();
  return new URL(page.url()).hash.split('/')[2] as string;
}

/** Adds an expense split equally between everyone, paid by the signed-in user. */
export async function addExpense(page: Page, description: string, amount: string): Promise<void> {
  await page.locator('#add-expense').click();
  await page.getByLabel('Description').fill(description);
  await page.getByLabel(/^Amount/).fill(amount);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('#group-name').waitFor();
}

/** Waits for the balance bar of `name` to read `expected`. */
export async function expectBar(page: Page, name: string, expected: string): Promise<void> {
  await page.locator('#balances svg text', { hasText: `${name} ${expected}` }).waitFor();
}
