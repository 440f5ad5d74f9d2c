/**
 * `npm run screenshots`: the README's pictures of the web app, taken in the local Chromium (as the
 * browser tests use) at a phone's size, against a fresh embedded server, with a trip made through
 * the API (trip.ts). The files go to docs/screenshots/. Not part of `npm test`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../../test/browser/chromium';
import { makeTrip, signInOnPage, startEmbeddedServer } from './trip';

const OUT = path.resolve(__dirname, '../../docs/screenshots');

async function shoot(page: Page, name: string): Promise<void> {
  // Fonts settle and the passing message ("Welcome, Ada.") leaves; then the picture.
  await page.evaluate('document.fonts.ready');
  await page.locator('#status:empty').waitFor({ state: 'attached', timeout: 15_000 });
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  process.stdout.write(`wrote docs/screenshots/${name}.png\n`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const server = await startEmbeddedServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const trip = await makeTrip(server.url, 'screenshots');
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        colorScheme: scheme,
      });
      const page = await context.newPage();
      await signInOnPage(page, server.url, trip.email);
      if (scheme === 'light') {
        await page.goto(`${server.url}/#/g/${trip.groupId}`);
        await page.locator('#balances svg').waitFor();
        await shoot(page, 'web-app-group');
        await page.goto(`${server.url}/#/g/${trip.groupId}/stats`);
        await page.locator('figure.chart svg').first().waitFor();
        await shoot(page, 'web-app-stats');
      } else {
        await page.goto(`${server.url}/#/g/${trip.groupId}/add`);
        await page.locator('#expense-form').waitFor();
        await page.getByLabel('Description').fill('Pastéis de nata');
        await page.getByLabel(/^Amount/).fill('7.20');
        await shoot(page, 'web-app-add-expense-dark');
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
