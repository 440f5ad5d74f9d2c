/**
 * The page of the browser reload test (test/browser/outbox.test.ts), bundled with esbuild for the
 * browser: it plays the plan's writes through `TallyClient`'s outbox with the IndexedDB storage, on
 * the API's own origin. What it has made survives a reload in localStorage (written synchronously
 * right after each write is stored) and in the outbox itself (writes stored just before a reload).
 * It reports to the test through the `__report` binding, one line each:
 *
 *   made <write> [<expenseId>] | send <write> | settled <write> <outcome> | rejected … | error … |
 *   drained <pending> <stored>
 *
 * Its configuration is `window.__outboxConfig` (set by the test before the page's scripts run).
 */
import { indexedDbOutbox, MemoryTokenStore, TallyClient } from '../../packages/client/src';
import { madeFrom, makeWrite, type PlanWorld, type PlanWrite, prng } from './outbox-plan';

export type BrowserAppConfig = {
  accessToken: string;
  refreshToken: string;
  world: PlanWorld;
  plan: PlanWrite[];
  paceMs: number;
  seed: number;
};

type Progress = { next: number; ids: Record<string, string> };

const page = globalThis as unknown as {
  __outboxConfig: BrowserAppConfig;
  __report: (line: string) => Promise<void>;
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  location: { origin: string };
};
const report = (line: string) => {
  page.__report(line).catch(() => {});
};

async function main() {
  const config = page.__outboxConfig;
  const progress = JSON.parse(page.localStorage.getItem('progress') ?? '{"next":0,"ids":{}}') as Progress;
  const save = () => page.localStorage.setItem('progress', JSON.stringify(progress));
  const random = prng(config.seed + progress.next);
  const storage = indexedDbOutbox({ name: 'tally-outbox-test' });
  const tally = new TallyClient({
    baseUrl: page.location.origin,
    tokenStore: new MemoryTokenStore({ accessToken: config.accessToken, refreshToken: config.refreshToken }),
    retry: { baseDelayMs: 20, maxDelayMs: 250, attemptTimeoutMs: 2000 },
    outbox: {
      storage,
      onRejected: ({ entry, error }) =>
        report(`rejected ${madeFrom(entry).write} ${error.status} ${error.code}`),
    },
  });
  const { outbox } = tally;
  outbox.on('sending', ({ entry }) => report(`send ${madeFrom(entry).write}`));
  outbox.on('settled', ({ entry, outcome }) =>
    report(
      `settled ${madeFrom(entry).write} ${outcome.type}${outcome.type === 'applied' && outcome.replayed ? ' replayed' : ''}`,
    ),
  );
  outbox.on('error', (error) => report(`error ${String(error)}`));

  await outbox.ready;
  const ids = new Map<number, string>(Object.entries(progress.ids).map(([k, v]) => [Number(k), v]));
  for (const entry of outbox.pending()) {
    const { write, expenseId } = madeFrom(entry);
    if (expenseId) {
      ids.set(write, expenseId);
      progress.ids[String(write)] = expenseId;
    }
    progress.next = Math.max(progress.next, write + 1);
    report(`made ${write}${expenseId ? ` ${expenseId}` : ''}`);
  }
  save();

  for (let i = progress.next; i < config.plan.length; i++) {
    const write = config.plan[i] as PlanWrite;
    await makeWrite(outbox, config.world, write, ids);
    const id = write.kind === 'create' ? ids.get(i) : undefined;
    progress.next = i + 1;
    if (id) progress.ids[String(i)] = id;
    save();
    report(`made ${i}${id ? ` ${id}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * config.paceMs)));
  }
  await outbox.whenIdle();
  report(`drained ${outbox.pending().length} ${(await storage.load()).length}`);
}

main().catch((error: unknown) =>
  report(`error ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
);
