/**
 * `npm run screenshots`: the README's pictures of the web app, taken in the local Chromium (as the
 * browser tests use) at a phone's size, against a fresh embedded server (`npm start`'s entry on an
 * empty DATA_DIR). The data is made through the page and the API as a group would make it; the
 * files go to docs/screenshots/. Not part of `npm test`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../../test/browser/chromium';

const ROOT = path.resolve(__dirname, '../..');
const OUT = path.join(ROOT, 'docs/screenshots');
const PASSWORD = 'correct horse battery';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return { url, child };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A JSON call to the API as `token`; money writes get a fresh Idempotency-Key. */
async function api<T>(url: string, token: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function shoot(page: Page, name: string): Promise<void> {
  // Fonts settle and the passing message ("Welcome, Ada.") leaves; then the picture.
  await page.evaluate('document.fonts.ready');
  await page.locator('#status:empty').waitFor({ state: 'attached', timeout: 15_000 });
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  process.stdout.write(`wrote docs/screenshots/${name}.png\n`);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-screenshots-'));
  mkdirSync(OUT, { recursive: true });
  const server = await startServer(dataDir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    type Session = { accessToken: string; user: { id: string } };
    const register = (name: string) =>
      api<Session>(server.url, '', 'POST', '/v1/auth/register', {
        email: `${name.toLowerCase()}@example.com`,
        name,
        password: PASSWORD,
      });
    const ada = await register('Ada');
    const bob = await register('Bob');
    const group = await api<{ id: string }>(server.url, ada.accessToken, 'POST', '/v1/groups', {
      name: 'Lisbon trip',
      currency: 'EUR',
    });
    await api(server.url, ada.accessToken, 'POST', `/v1/groups/${group.id}/members`, {
      email: 'bob@example.com',
    });
    const cy = await api<{ userId: string }>(
      server.url,
      ada.accessToken,
      'POST',
      `/v1/groups/${group.id}/members`,
      {
        name: 'Cy',
      },
    );
    const everyone = [ada.user.id, bob.user.id, cy.userId];
    const expenses: [string, number, string][] = [
      ['Flights', 42_000, ada.user.id],
      ['Apartment', 36_000, bob.user.id],
      ['Dinner at Zé', 8_450, ada.user.id],
      ['Tram passes', 2_880, bob.user.id],
    ];
    for (const [description, amount, paidBy] of expenses) {
      await api(server.url, ada.accessToken, 'POST', '/v1/expenses', {
        groupId: group.id,
        description,
        amount,
        paidBy,
        split: { type: 'equal', between: everyone },
      });
    }

    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 1,
        colorScheme: scheme,
      });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.locator('#auth-form button[type=submit]').click();
      await page.locator('#account-link').waitFor();
      if (scheme === 'light') {
        await page.goto(`${server.url}/#/g/${group.id}`);
        await page.locator('#balances svg').waitFor();
        await shoot(page, 'web-app-group');
      } else {
        await page.goto(`${server.url}/#/g/${group.id}/add`);
        await page.locator('#expense-form').waitFor();
        await page.getByLabel('Description').fill('Pastéis de nata');
        await page.getByLabel(/^Amount/).fill('7.20');
        await shoot(page, 'web-app-add-expense-dark');
      }
      await context.close();
    }
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
