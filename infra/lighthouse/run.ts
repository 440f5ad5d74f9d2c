/**
 * `npm run lighthouse [-- <url>]`: Lighthouse (pinned 12.2.3) against the web app, in the local
 * Chromium (Debian's, as the browser tests use; CHROMIUM_PATH overrides), on Lighthouse's default
 * throttled mobile profile. Prints the category scores (0–100). Start the server first (`npm start`);
 * the default URL is http://localhost:3000/. Not part of `npm test`: a score depends on the
 * machine's load. Lighthouse 12 has no PWA category any more (removed in 12.0): the installability
 * parts (manifest, service worker, offline shell) are checked by test/browser/web-app.test.ts.
 */
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../../test/browser/chromium';

type Category = { title: string; score: number | null };
type Audit = { title: string; displayValue?: string };
type Lighthouse = (
  url: string,
  flags: { port: number; output: 'json'; logLevel: 'error'; onlyCategories: string[] },
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
  const url = process.argv[2] ?? 'http://localhost:3000/';
  // A specifier in a variable: the type checker does not read Lighthouse's own (ES module) types.
  const specifier = 'lighthouse';
  const lighthouse = ((await import(specifier)) as { default: Lighthouse }).default;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', `--remote-debugging-port=${PORT}`],
  });
  try {
    const result = await lighthouse(url, {
      port: PORT,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
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
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`lighthouse failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
