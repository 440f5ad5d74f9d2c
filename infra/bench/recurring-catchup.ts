/**
 * A recurring expense's catch-up at size (API.md §6a), on the embedded default (PGlite, no Redis),
 * in THIS process so that the event-loop delay measured is the server's own: a weekly schedule
 * whose start lies `BENCH_BACKLOG` weeks back (the largest allowed backlog by default), created by
 * one user, while another user (in no group with them) reads `GET /v1/me` in a loop. Reports the
 * event-loop delay p99 and max (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution) and the
 * `GET /v1/me` p50/p99/max during the catch-up, with the same figures for an idle interval first.
 *
 *   node --import tsx infra/bench/recurring-catchup.ts
 *
 * Environment: BENCH_BACKLOG (100: occurrences due at creation), BENCH_STARTS_ON (a `startsOn`
 * instead, e.g. 2000-01-01 on a server without the bound), BENCH_POLL_MS (200: RECURRING_POLL_MS).
 * With BENCH_SLICE_SIZE or BENCH_ROUND_SIZE set, the server's own scheduler is off and one built
 * here runs instead, with those slices (createRecurringScheduler's options), on the server's
 * database and write gate's behalf; it also reports the longest single occurrence (ms).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createAnnouncer, createRecurringScheduler } from '@tally/api';
import { createInProcessBus, publicationOf } from '@tally/events';
import { loadConfig, start } from '@tally/server';

const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 100);
const POLL_MS = process.env.BENCH_POLL_MS ?? '200';
const SLICES = {
  ...(process.env.BENCH_SLICE_SIZE ? { sliceSize: Number(process.env.BENCH_SLICE_SIZE) } : {}),
  ...(process.env.BENCH_ROUND_SIZE ? { roundSize: Number(process.env.BENCH_ROUND_SIZE) } : {}),
};
const OWN_SCHEDULER = Object.keys(SLICES).length > 0;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
const round = (n: number) => Math.round(n * 10) / 10;

/** A `startsOn` (UTC date) with `backlog` weekly occurrences due today, today's included. */
function startsOnFor(backlog: number): string {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  return new Date(today - (backlog - 1) * 7 * 86_400_000).toISOString().slice(0, 10);
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-bench-recurring-'));
  const server = await start(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0000',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
      RECURRING_POLL_MS: OWN_SCHEDULER ? '0' : POLL_MS,
    }),
  );
  const api = server.url;
  let longestStepMs = 0;
  /** The CPU time of each occurrence (this process's, so the machine's other load does not count). */
  const stepCpuMs: number[] = [];
  const scheduler = OWN_SCHEDULER
    ? (() => {
        // From the end of a pause to the end of the step after it (the first of a round has none).
        let resumed: number | undefined;
        let resumedCpu = process.cpuUsage();
        return createRecurringScheduler({
          knex: server.knex,
          announcer: createAnnouncer({
            bus: createInProcessBus(),
            publicationOf,
            markPublished: () => {},
            onPublishFailed: () => {},
          }),
          pollMs: Number(POLL_MS),
          ...SLICES,
          pause: async () => {
            await new Promise((resolve) => setImmediate(resolve));
            resumed = performance.now();
            resumedCpu = process.cpuUsage();
          },
          onStep: () => {
            if (resumed !== undefined) {
              longestStepMs = Math.max(longestStepMs, performance.now() - resumed);
              const cpu = process.cpuUsage(resumedCpu);
              stepCpuMs.push((cpu.user + cpu.system) / 1000);
            }
            resumed = undefined;
          },
        });
      })()
    : undefined;
  scheduler?.start();
  try {
    const register = async (name: string) => {
      const res = await fetch(`${api}/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `${name}-${Date.now()}@example.com`,
          name,
          password: 'bench-password-1',
        }),
      });
      const body = (await res.json()) as { user: { id: string }; accessToken: string };
      return { id: body.user.id, headers: { authorization: `Bearer ${body.accessToken}` } };
    };
    const [ada, bob] = [await register('ada'), await register('bob')];
    const json = { ...ada.headers, 'content-type': 'application/json' };
    const group = (await (
      await fetch(`${api}/v1/groups`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Bench' }),
      })
    ).json()) as { id: string };

    /** Bob's `GET /v1/me`, one after another, until `done()`; the event-loop delay meanwhile. */
    const measure = async (done: () => Promise<boolean> | boolean) => {
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const times: number[] = [];
      let failed = 0;
      const started = performance.now();
      let checked = started;
      for (;;) {
        const at = performance.now();
        const res = await fetch(`${api}/v1/me`, { headers: bob.headers });
        await res.arrayBuffer();
        times.push(performance.now() - at);
        if (res.status !== 200) failed++;
        if (performance.now() - checked > 250) {
          checked = performance.now();
          if (await done()) break;
        }
      }
      loop.disable();
      times.sort((a, b) => a - b);
      return {
        seconds: round((performance.now() - started) / 1000),
        eventLoopDelayP99Ms: round(loop.percentile(99) / 1e6),
        eventLoopDelayMaxMs: round(loop.max / 1e6),
        meRequests: times.length,
        meNon200: failed,
        meP50Ms: round(percentile(times, 50)),
        meP99Ms: round(percentile(times, 99)),
        meMaxMs: round(times.at(-1) ?? 0),
      };
    };

    const idleUntil = performance.now() + 3000;
    const idle = await measure(() => performance.now() > idleUntil);

    const startsOn = process.env.BENCH_STARTS_ON ?? startsOnFor(BACKLOG);
    const today = new Date().toISOString().slice(0, 10);
    let scheduleId: string | undefined;
    const caughtUp = async () => {
      if (!scheduleId) return false;
      const res = await fetch(`${api}/v1/recurring/${scheduleId}`, { headers: ada.headers });
      const body = (await res.json()) as { nextOccurrence: string | null };
      return body.nextOccurrence === null || body.nextOccurrence > today;
    };
    // Bob's reads and the delay monitor start first: the catch-up may begin before the answer is read.
    const measuring = measure(caughtUp);
    const created = await fetch(`${api}/v1/groups/${group.id}/recurring`, {
      method: 'POST',
      headers: { ...json, 'idempotency-key': `bench-${Date.now()}` },
      body: JSON.stringify({
        expense: {
          description: 'Rent',
          amount: 1000,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        },
        schedule: { every: 'week', startsOn, timeZone: 'UTC' },
      }),
    });
    const schedule = (await created.json()) as { id: string };
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(schedule)}`);
    scheduleId = schedule.id;
    const catchUp = await measuring;
    const events = (await (
      await fetch(`${api}/v1/groups/${group.id}/expenses?limit=1`, { headers: ada.headers })
    ).json()) as { data: unknown[] };
    console.log(
      JSON.stringify(
        {
          startsOn,
          pollMs: Number(POLL_MS),
          ...(OWN_SCHEDULER
            ? {
                slices: SLICES,
                longestStepMs: round(longestStepMs),
                stepCpuMs: (() => {
                  const sorted = [...stepCpuMs].sort((a, b) => a - b);
                  return {
                    p50: round(percentile(sorted, 50)),
                    p99: round(percentile(sorted, 99)),
                    max: round(sorted.at(-1) ?? 0),
                  };
                })(),
              }
            : {}),
          idle,
          catchUp,
          anyExpense: events.data.length > 0,
        },
        null,
        2,
      ),
    );
  } finally {
    await scheduler?.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
