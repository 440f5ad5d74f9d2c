/**
 * `npm run lighthouse [-- [--signed-in] <url>]`: Lighthouse (pinned 12.2.3) against the web app, in the
 * local Chromium (Debian's, as the browser tests use; CHROMIUM_PATH overrides), on Lighthouse's default
 * throttled mobile profile. Prints the category scores (0–100) and the metrics behind performance.
 * Start the server first (the production bundle: `npm run build && node dist/server.js`); the default
 * URL is http://localhost:3000/.
 * - without `--signed-in`: the first screen a visitor gets (sign-in);
 * - with `--signed-in`: a trip is made on that server through the API (trip.ts), Ada signs in on a
 *   page of the same browser profile, and Lighthouse measures her group's screen (balances and
 *   expenses) with the storage kept (`disableStorageReset`), as a returning user opens it.
 * Not part of `npm test`: a score depends on the machine's load. Lighthouse 12 has no PWA category
 * any more (removed in 12.0): the installability parts (manifest, service worker, offline shell) are
 * checked by test/browser/web-app.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../../test/browser/chromium';
import { makeTrip, signInOnPage } from './trip';

type Category = { title: string; score: number | null; auditRefs: { id: string; weight: number }[] };
type Audit = {
  title: string;
  displayValue?: string;
  score: number | null;
  details?: { items?: { node?: { snippet?: string } }[] };
};
type Lighthouse = (
  url: string,
  flags: {
    port: number;
    output: 'json';
    logLevel: 'error';
    onlyCategories: string[];
    disableStorageReset: boolean;
  },
) => Promise<
  | {
      lhr: { categories: Record<string, Category>; audits: Record<string, Audit>; finalDisplayedUrl: string };
    }
  | undefined
>;
/** The metrics behind the performance score. */
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const PORT = 9333;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const signedIn = args.includes('--signed-in');
  const base = (args.find((a) => !a.startsWith('--')) ?? 'http://localhost:3000/').replace(/\/+$/, '');
  // A specifier in a variable: the type checker does not read Lighthouse's own (ES module) types.
  const specifier = 'lighthouse';
  const lighthouse = ((await import(specifier)) as { default: Lighthouse }).default;
  // One profile for the sign-in page and Lighthouse's tab, so the session is there.
  const profile = mkdtempSync(path.join(os.tmpdir(), 'tally-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', `--remote-debugging-port=${PORT}`],
  });
  try {
    let url = `${base}/`;
    if (signedIn) {
      const trip = await makeTrip(base);
      const page = await context.newPage();
      await signInOnPage(page, base, trip.email);
      await page.close();
      url = `${base}/#/g/${trip.groupId}`;
    }
    const result = await lighthouse(url, {
      port: PORT,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      disableStorageReset: signedIn,
    });
    if (!result) throw new Error('Lighthouse returned no result');
    process.stdout.write(`Lighthouse 12.2.3, mobile (throttled), ${result.lhr.finalDisplayedUrl}\n`);
    for (const id of CATEGORIES) {
      const category = result.lhr.categories[id];
      const score =
        category?.score === null || category === undefined ? 'n/a' : Math.round(category.score * 100);
      process.stdout.write(`${(category?.title ?? id).padEnd(16)} ${score}\n`);
    }
    for (const id of METRICS) {
      const audit = result.lhr.audits[id];
      if (audit) process.stdout.write(`  ${audit.title}: ${audit.displayValue ?? ''}\n`);
    }
    // The elements that moved (cumulative layout shift), when any did.
    // What cost points outside performance, with the elements concerned.
    for (const id of CATEGORIES.filter((c) => c !== 'performance')) {
      for (const ref of result.lhr.categories[id]?.auditRefs ?? []) {
        const audit = result.lhr.audits[ref.id];
        if (ref.weight === 0 || !audit || audit.score === null || audit.score >= 1) continue;
        const nodes = (audit.details?.items ?? []).map((item) => item.node?.snippet).filter(Boolean);
        process.stdout.write(
          `  ${id} ✗ ${audit.title}${nodes.length ? `: ${nodes.slice(0, 3).join(' ')}` : ''}\n`,
        );
      }
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`lighthouse failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
