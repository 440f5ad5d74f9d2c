/**
 * The outbox in a real headless Chromium with the IndexedDB storage: a page (test/client/
 * outbox-browser-app.ts, bundled with esbuild) plays 60 writes (expense creates, edits, deletes and
 * settlements across three groups) against a real Tally while the test reloads it mid-write: half of
 * the reloads after the server has executed a write and before the page got the answer (the test
 * holds that answer back), the others at random moments. Each reload starts the app again on the same
 * IndexedDB. In the end every write exists exactly once on the server, in per-group order, and the
 * outbox is empty.
 *
 * The page is served from the API's own origin by intercepting its URL (no CORS needed); requests to
 * /v1 go to the server.
 */
import path from 'node:path';
import { build } from 'esbuild';
import type { Page, Route } from 'playwright-core';
import { type GroupEvent, MemoryTokenStore, TallyClient } from '../../packages/client/src';
import type { BrowserAppConfig } from '../client/outbox-browser-app';
import { checkGroupLog, makePlan, type PlanWorld, prng } from '../client/outbox-plan';
import { testSeed, withSeed } from '../support/random';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { type Chromium, launchChromium } from './chromium';

const WRITES = 60;
const GROUPS = 3;
const RELOADS = 10;
/** `TEST_SEED` (or `OUTBOX_BROWSER_SEED`) replays a run; a failure's message names the seed. */
const SEED = process.env.OUTBOX_BROWSER_SEED ? Number(process.env.OUTBOX_BROWSER_SEED) : testSeed();

describe('the outbox in headless Chromium across page reloads (IndexedDB)', () => {
  let t: TestServer;
  let browser: Chromium;
  let page: Page;
  let ada: TestUser;
  let world: PlanWorld;
  let appJs: string;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [path.join(__dirname, '../client/outbox-browser-app.ts')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'chrome120',
      write: false,
      logLevel: 'warning',
    });
    appJs = bundle.outputFiles[0]?.text ?? '';
    browser = await launchChromium();
    t = await startTestServer();
    ada = await t.register('Ada');
    const bob = await t.register('Bob');
    const cy = await t.register('Cy');
    const groupIds: string[] = [];
    for (let g = 0; g < GROUPS; g++) groupIds.push(await t.createGroup(ada, [bob, cy], { name: `G${g}` }));
    world = { me: ada.id, others: [bob.id, cy.id], groupIds };
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it(`makes ${WRITES} writes through ${RELOADS} reloads: each exactly once, in per-group order, outbox empty`, async () => {
    await withSeed(SEED, async () => {
      const plan = makePlan(SEED, WRITES, GROUPS);
      const random = prng(SEED + 7);
      const made = new Set<number>();
      const ids = new Map<number, string>();
      const faults: string[] = [];
      /** Writes answered with `Idempotent-Replayed`: an earlier attempt had been executed, its answer lost. */
      const replayed = new Set<number>();
      let drained: string | undefined;
      /** Writes whose entry left the outbox so far, across reloads. */
      let settledCount = 0;
      /** The one `until`, with the faults injected so far in the failure's message. */
      const settled = (condition: () => boolean, what: string) =>
        until(
          () => {
            if (!condition()) throw new Error(`not yet; faults: ${faults.join('\n')}`);
          },
          { what, timeoutMs: 45_000, intervalMs: 20 },
        );

      const { context } = browser;
      await context.exposeBinding('__report', (_source, line: string) => {
        const [what, a, b] = line.split(' ');
        if (what === 'made') {
          made.add(Number(a));
          if (b) ids.set(Number(a), b);
        } else if (what === 'settled') {
          settledCount++;
          if (line.endsWith(' replayed')) replayed.add(Number(a));
        } else if (what === 'drained') {
          drained = line;
        } else if (what === 'rejected' || what === 'error') {
          faults.push(line);
        }
      });
      const config: BrowserAppConfig = {
        accessToken: ada.accessToken,
        refreshToken: ada.refreshToken,
        world,
        plan,
        paceMs: 40,
        seed: SEED,
      };
      await context.addInitScript((c) => {
        (globalThis as unknown as { __outboxConfig: unknown }).__outboxConfig = c;
      }, config);

      // The app's page and script, on the API's origin.
      const origin = new URL(t.url).origin;
      await context.route(`${origin}/outbox-test/**`, (route) => {
        const url = new URL(route.request().url());
        if (url.pathname.endsWith('/app.js')) {
          return route.fulfill({ contentType: 'text/javascript', body: appJs });
        }
        return route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><meta charset="utf-8"><title>outbox</title><script src="/outbox-test/app.js"></script>',
        });
      });
      // Writes go to the server; when asked, one answer is held back from the page (then it reloads).
      let holdNext: ((route: Route) => void) | undefined;
      let writesSeen = 0;
      await context.route(`${origin}/v1/**`, async (route) => {
        if (route.request().method() === 'GET') return route.continue();
        writesSeen++;
        const hold = holdNext;
        const response = await route.fetch().catch(() => undefined);
        if (!response) return route.abort().catch(() => {});
        if (hold) {
          holdNext = undefined;
          hold(route);
          return;
        }
        return route.fulfill({ response }).catch(() => {});
      });

      page = await context.newPage();
      page.on('pageerror', (error) => faults.push(`page error: ${error.message}`));
      await page.goto(`${origin}/outbox-test/index.html`);

      let reloads = 0;
      let reloadsWithAnswerHeld = 0;
      for (let r = 0; r < RELOADS && drained === undefined; r++) {
        if (r % 2 === 0) {
          // After the server executed a write, before the page has its answer.
          const held = await new Promise<Route | undefined>((resolve) => {
            holdNext = resolve;
            void settled(() => drained !== undefined, 'a write').then(
              () => resolve(undefined),
              () => resolve(undefined),
            );
          });
          holdNext = undefined;
          if (!held) break;
          await page.reload();
          await held.abort().catch(() => {});
          reloadsWithAnswerHeld++;
        } else {
          // After 1 to 3 more writes done: counted, not timed, so that a fast machine does not drain
          // the plan before the reloads are done.
          const target = settledCount + 1 + Math.floor(random() * 3);
          await settled(() => settledCount >= target || drained !== undefined, 'writes between reloads');
          if (drained !== undefined) break;
          await page.reload();
        }
        reloads++;
      }
      await settled(() => drained !== undefined, 'the app to drain its outbox');

      expect(faults).toEqual([]);
      expect(reloads).toBeGreaterThanOrEqual(6);
      expect(reloadsWithAnswerHeld).toBeGreaterThanOrEqual(3);
      // Each write whose answer was held back was sent again after the reload and answered from its key.
      expect(replayed.size).toBeGreaterThanOrEqual(reloadsWithAnswerHeld);
      expect(drained).toBe('drained 0 0');
      expect([...made].sort((a, b) => a - b)).toEqual(plan.map((w) => w.i));

      const reader = new TallyClient({
        baseUrl: t.url,
        tokenStore: new MemoryTokenStore({ accessToken: ada.accessToken, refreshToken: ada.refreshToken }),
      });
      for (let g = 0; g < GROUPS; g++) {
        const events: GroupEvent[] = [];
        for await (const event of reader.groups.allEvents(world.groupIds[g] as string, { limit: 100 })) {
          events.push(event);
        }
        const { problems, logged } = checkGroupLog(plan, g, ids, events);
        expect(problems).toEqual([]);
        expect(logged.length).toBe(plan.filter((w) => w.group === g).length);
      }
      const rows = await t.db!.knex('expenses').whereIn('group_id', world.groupIds);
      expect(rows).toHaveLength(plan.filter((w) => w.kind === 'create').length);
      process.stdout.write(
        `outbox browser test (seed ${SEED}): ${WRITES} writes, ${reloads} reloads ` +
          `(${reloadsWithAnswerHeld} with an executed write's answer held back), ${writesSeen} write requests, ` +
          `${replayed.size} writes answered with Idempotent-Replayed\n`,
      );
    });
  }, 120_000);
});
