/**
 * `GET /v1/me/activity` for a user in many groups, for docs/CAPACITY.md: a fresh database of its own
 * (on the PostgreSQL the tests use), one Tally process (`ROLE=all`, from the sources, no Redis), a
 * user with `BENCH_GROUPS` groups made through the API, then `BENCH_EVENTS` events seeded straight
 * into `events` (spread evenly over the groups and over the last 23 days, so over several
 * partitions), and `BENCH_REQUESTS` sequential requests through the real HTTP server for the first
 * page and for a deep page (the cursor after `BENCH_DEEP` items). Prints p50/p99 and the plan of the
 * feed's statement.
 *
 *   node --import tsx infra/bench/activity-feed.ts
 *
 * Environment: BENCH_GROUPS (200), BENCH_EVENTS (100000), BENCH_REQUESTS (200), BENCH_LIMIT (20),
 * BENCH_DEEP (1000).
 */
import { Client } from 'pg';
import { freePort } from '../../test/support/server-process';
import { createBenchDatabase, spawnBenchServer, writeResults } from './bench-setup';
import { signUpWithGroups, waitUntilHealthy } from './keyed-load';

const GROUPS = Number(process.env.BENCH_GROUPS ?? 200);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const LIMIT = Number(process.env.BENCH_LIMIT ?? 20);
const DEEP = Number(process.env.BENCH_DEEP ?? 1000);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function timed(url: string, auth: Record<string, string>) {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers: auth });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: +percentile(times, 50).toFixed(2), p99: +percentile(times, 99).toFixed(2) };
}

async function main() {
  const db = await createBenchDatabase('tally_activity');
  const port = await freePort();
  const child = spawnBenchServer(['--import', 'tsx', 'apps/server/src/main.ts'], 'activity', {
    ROLE: 'all',
    PORT: String(port),
    DATABASE_URL: db.url,
  });
  const api = `http://127.0.0.1:${port}`;
  const pg = new Client({ connectionString: db.url });
  try {
    await waitUntilHealthy(api);
    const user = await signUpWithGroups(api, 'activity', GROUPS);
    await pg.connect();
    // Members for a month, so that the seeded events (up to 23 days old) are theirs to see.
    await pg.query(`update group_members set joined_at = now() - interval '30 days' where user_id = $1`, [
      user.userId,
    ]);
    const seeded = performance.now();
    await pg.query(
      `insert into events (id, group_id, seq, type, actor_id, occurred_at, data)
       select 'evt_bench' || lpad(i::text, 9, '0'), g.ids[1 + i % $2], 2 + i / $2, 'expense.created', $3,
              now() - ($1 - i) * interval '20 seconds',
              jsonb_build_object('expense', jsonb_build_object('id', 'exp_bench' || i, 'description', 'Dinner ' || i,
                                 'amount', 1000 + i % 5000, 'currency', 'INR', 'paidBy', $3))
         from generate_series(0, $1 - 1) i,
              (select array_agg(group_id order by group_id) as ids from group_members where user_id = $3) g`,
      [EVENTS, GROUPS, user.userId],
    );
    // Vacuumed as autovacuum would leave a log that old: the scans per group are index-only.
    await pg.query('vacuum analyze events');
    const seedMs = performance.now() - seeded;
    const auth = { authorization: user.auth.authorization as string };

    // The cursor after DEEP items, walked to through the API.
    let cursor: string | null = null;
    for (let seen = 0; seen < DEEP; seen += 100) {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page = (await (await fetch(`${api}/v1/me/activity?limit=100${q}`, { headers: auth })).json()) as {
        nextCursor: string | null;
      };
      cursor = page.nextCursor;
    }
    const first = await timed(`${api}/v1/me/activity?limit=${LIMIT}`, auth);
    const deep = await timed(`${api}/v1/me/activity?limit=${LIMIT}&cursor=${cursor}`, auth);
    const plan = await pg.query(
      `explain (analyze, buffers, costs off, timing off, summary on)
       with top as (
         select e.group_id, e.occurred_at, e.id, g.name from group_members m join groups g on g.id = m.group_id
          cross join lateral (select x.group_id, x.occurred_at, x.id from events x
                               where x.group_id = m.group_id and x.occurred_at >= m.joined_at
                               order by x.occurred_at desc, x.id desc limit ${LIMIT + 1}) e
          where m.user_id = $1 order by e.occurred_at desc, e.id desc limit ${LIMIT + 1})
       select x.id, top.name, x.seq, x.type, x.actor_id, x.occurred_at, x.data from top
         join events x on x.group_id = top.group_id and x.occurred_at = top.occurred_at and x.id = top.id
        order by x.occurred_at desc, x.id desc`,
      [user.userId],
    );
    const planText = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    const result = {
      groups: GROUPS,
      events: EVENTS,
      requests: REQUESTS,
      limit: LIMIT,
      seedMs,
      first,
      deep,
      deepAfter: DEEP,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n\n${planText}\n`);
    writeResults('activity-feed', { ...result, plan: planText });
  } finally {
    await pg.end().catch(() => {});
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await db.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
