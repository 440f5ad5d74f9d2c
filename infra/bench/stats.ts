/**
 * The statistics (API.md §14) of one group of 100,000 expenses: p50/p99 of
 * `GET /v1/groups/{id}/stats` by category, member and month (the whole ledger, and one month),
 * with a conversion, and of `GET /v1/me/stats`, through the real HTTP server; and the EXPLAIN of
 * the group's and of /me's statements.
 *
 *   npm run bench:stats
 *
 * A database of its own (dropped afterwards); the server is `start()` of `@tally/server` on it
 * (ROLE=all, no Redis), requests one at a time (latency, not throughput). The expenses are inserted
 * directly (5 members, equal splits of 1–5 of them, 10 default categories and none, two
 * currencies, `occurredAt` spread over 3 years, 2 % deleted); the triggers of migration 027 keep
 * their stored totals as they go in. Knobs: BENCH_STATS_EXPENSES
 * (100000), BENCH_STATS_REQUESTS (50 per scenario).
 */
import { loadConfig, start } from '@tally/server';
import { DEFAULT_CATEGORIES } from '../../apps/api/src/categories/default-categories';
import { groupStatsStatement, myStatsStatement } from '../../apps/api/src/stats/stats.service';
import {
  benchServerEnv,
  call as callApi,
  createBenchDatabase,
  createBenchGroup,
  explainAnalyze,
  percentile,
  seedBenchExpenses,
  seededRandom,
} from './bench-setup';

const EXPENSES = Number(process.env.BENCH_STATS_EXPENSES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_STATS_REQUESTS ?? 50);
const CATEGORIES = [...DEFAULT_CATEGORIES.map((c) => c.id), null];
const START = Date.parse('2024-01-01T00:00:00Z');
const SPAN = 3 * 365 * 86_400_000;

async function main() {
  const db = await createBenchDatabase('tally_bench_stats');
  const server = await start(
    loadConfig({
      ...benchServerEnv('stats'),
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      // `analyze` of 100,000 rows on a shared machine may take longer than a request's 5 s.
      DB_STATEMENT_TIMEOUT_MS: '60000',
      // Latency, not shedding, is measured: a shared machine's event-loop delay must not refuse requests.
      MAX_EVENT_LOOP_DELAY_MS: '600000',
    }),
  );
  try {
    // biome-ignore lint/suspicious/noExplicitAny: the bench reads the answers' fields as it needs them
    const call = (method: string, path: string, token?: string, body?: unknown): Promise<any> =>
      callApi(server.url, method, path, token ? { Authorization: `Bearer ${token}` } : {}, body);
    const { users, owner, groupId } = await createBenchGroup(server.url);
    await call('PUT', `/v1/groups/${groupId}/rates`, owner.token, {
      base: 'EUR',
      rates: { USD: '1.08' },
      asOf: '2026-11-01',
    });

    const knex = server.knex;
    const rand = seededRandom(42);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
    await seedBenchExpenses(
      knex,
      { groupId, owner, users },
      {
        count: EXPENSES,
        rand,
        start: START,
        span: SPAN,
        fields: () => ({
          description: 'Bench',
          category_id: pick(CATEGORIES),
          currency: rand() < 0.8 ? 'EUR' : 'USD',
          search_text: 'bench',
        }),
      },
    );

    const member = users[1] as { id: string; token: string };
    const month = { from: '2025-06-01T00:00:00Z', to: '2025-07-01T00:00:00Z' };
    const scenarios: [string, string][] = [
      ['group, by=category (all 3 years)', `/v1/groups/${groupId}/stats?by=category`],
      ['group, by=member (all)', `/v1/groups/${groupId}/stats?by=member`],
      ['group, by=month (all)', `/v1/groups/${groupId}/stats?by=month`],
      [
        'group, by=category&currency=EUR (all, converted)',
        `/v1/groups/${groupId}/stats?by=category&currency=EUR`,
      ],
      [
        'group, by=category, one month',
        `/v1/groups/${groupId}/stats?${new URLSearchParams({ by: 'category', ...month })}`,
      ],
      ['me, by=category (all)', '/v1/me/stats?by=category'],
      ['me, by=month, one month', `/v1/me/stats?${new URLSearchParams({ by: 'month', ...month })}`],
    ];
    console.log('\n| query | p50 ms | p99 ms |\n| --- | --- | --- |');
    for (const [name, path] of scenarios) {
      for (let i = 0; i < 5; i++) await call('GET', path, member.token);
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t0 = performance.now();
        await call('GET', path, member.token);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(`| ${name} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} |`);
    }

    for (const [name, query] of [
      ['by=category, all', {}],
      ['by=category, one month', month],
    ] as const) {
      const statement = groupStatsStatement(groupId, member.id, 'category', query);
      console.log(`\nEXPLAIN ANALYZE, ${name}:\n${await explainAnalyze(knex, statement)}`);
      const mine = myStatsStatement(member.id, 'category', query);
      console.log(`\nEXPLAIN ANALYZE, me, ${name}:\n${await explainAnalyze(knex, mine)}`);
    }
  } finally {
    await server.stop();
    await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
