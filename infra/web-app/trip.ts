/**
 * What the web app's scripts (screenshots, Lighthouse) share: a fresh embedded server, and a group's
 * trip made through the API as its members would make it, and signing in on a page.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { freePort } from '../../test/support/free-port';

const ROOT = path.resolve(__dirname, '../..');
export const PASSWORD = 'correct horse battery';

export type Server = { url: string; stop(): Promise<void> };

/** `npm start`'s entry on an empty DATA_DIR, on a free port; ready when `/readyz` answers. */
export async function startEmbeddedServer(): Promise<Server> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-web-app-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return { url, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error('the server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A JSON call to the API as `token`; every call gets a fresh Idempotency-Key. */
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

export type Trip = { email: string; groupId: string };

/**
 * Ada (`ada-<tag>@example.com`) and Bob on Tally, Cy not yet (pending), a trip in EUR with six
 * expenses split equally, in four categories over two months. Returns Ada's email (password {@link PASSWORD}) and the group.
 */
export async function makeTrip(url: string, tag = crypto.randomUUID().slice(0, 8)): Promise<Trip> {
  type Session = { accessToken: string; user: { id: string } };
  const register = (name: string) =>
    api<Session>(url, '', 'POST', '/v1/auth/register', {
      email: `${name.toLowerCase()}-${tag}@example.com`,
      name,
      password: PASSWORD,
    });
  const ada = await register('Ada');
  const bob = await register('Bob');
  const as = (method: string, route: string, body?: unknown) =>
    api<{ id: string; userId: string }>(url, ada.accessToken, method, route, body);
  const group = await as('POST', '/v1/groups', { name: 'Lisbon trip', currency: 'EUR' });
  await as('POST', `/v1/groups/${group.id}/members`, { userId: bob.user.id });
  const cy = await as('POST', `/v1/groups/${group.id}/members`, { name: 'Cy' });
  const everyone = [ada.user.id, bob.user.id, cy.userId];
  // Over two months, in four categories: the statistics have something to chart.
  const expenses: [string, number, string, string, string][] = [
    ['Flights', 42_000, ada.user.id, 'travel', '2026-10-02'],
    ['Apartment', 36_000, bob.user.id, 'travel', '2026-10-03'],
    ['Dinner at Zé', 8_450, ada.user.id, 'food', '2026-10-04'],
    ['Tram passes', 2_880, bob.user.id, 'transport', '2026-10-04'],
    ['Market', 3_120, cy.userId, 'groceries', '2026-11-05'],
    ['Fado night', 6_000, ada.user.id, 'entertainment', '2026-11-06'],
  ];
  for (const [description, amount, paidBy, categoryId, day] of expenses) {
    await as('POST', '/v1/expenses', {
      groupId: group.id,
      description,
      amount,
      paidBy,
      categoryId,
      occurredAt: `${day}T19:00:00Z`,
      split: { type: 'equal', between: everyone },
    });
  }
  return { email: `ada-${tag}@example.com`, groupId: group.id };
}

/** Signs `email` in through the app's form at `url`; the session then lives in the page's storage. */
export async function signInOnPage(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.locator('#auth-form button[type=submit]').click();
  await page.locator('#account-link').waitFor();
}
