/**
 * The expense search and filters (API.md §5.1) on one group of 100,000 expenses: p50/p99 of the
 * first page (`limit=20`) of each filter, through the real HTTP server, and the EXPLAIN of the
 * filtered statements.
 *
 *   node --import tsx infra/bench/search.ts
 *
 * A database of its own (dropped afterwards); the server is `start()` of `@tally/server` on it
 * (ROLE=all, no Redis), listening on a port; requests go over HTTP one at a time (latency, not
 * throughput). The expenses are inserted directly (5 members, equal splits of 1–5 of them, a
 * description of 2–4 words from a vocabulary of 40, 8 categories, `occurredAt` spread over 3
 * years), with the search columns the app would write. Knobs: BENCH_SEARCH_EXPENSES (100000),
 * BENCH_SEARCH_REQUESTS (200 per scenario).
 */
import { expenseSearchText } from '@tally/domain';
import { loadConfig, start } from '@tally/server';
import { activeFilters, searchStatement } from '../../apps/api/src/expenses/expense-search';
import {
  call as callApi,
  createBenchDatabase,
  createBenchGroup,
  explainAnalyze,
  seedBenchExpenses,
  seededRandom,
} from './bench-setup';

const EXPENSES = Number(process.env.BENCH_SEARCH_EXPENSES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 200);
const WORDS = [
  'dinner',
  'lunch',
  'breakfast',
  'taxi',
  'uber',
  'train',
  'flight',
  'hotel',
  'airbnb',
  'groceries',
  'café',
  'crème',
  'brûlée',
  'pizza',
  'sushi',
  'ramen',
  'beer',
  'wine',
  'cinema',
  'museum',
  'tickets',
  'fuel',
  'parking',
  'toll',
  'rent',
  'electricity',
  'internet',
  'phone',
  'gift',
  'flowers',
  'pharmacy',
  'doctor',
  'gym',
  'laundry',
  'snacks',
  'coffee',
  'bakery',
  'market',
  'souvenirs',
  'Zürich',
];
const CATEGORIES = ['Food', 'Travel', 'Lodging', 'Fun', 'Home', 'Health', 'Shopping', null];
const START = Date.parse('2024-01-01T00:00:00Z');
const SPAN = 3 * 365 * 86_400_000;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function main() {
  const db = await createBenchDatabase('tally_bench_search');
  const server = await start(
    loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      RATE_LIMIT_PER_MINUTE: '100000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
      LOGIN_THROTTLE_IP_FREE_FAILURES: '100000000',
    }),
  );
  try {
    // biome-ignore lint/suspicious/noExplicitAny: the bench reads the answers' fields as it needs them
    const call = (method: string, path: string, token?: string, body?: unknown): Promise<any> =>
      callApi(server.url, method, path, token ? { Authorization: `Bearer ${token}` } : {}, body);
    const { users, owner, groupId } = await createBenchGroup(server.url);

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
        fields: () => {
          const description = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(WORDS)).join(' ');
          const category = pick(CATEGORIES);
          return {
            description,
            category,
            currency: 'EUR',
            search_text: expenseSearchText(description, category),
          };
        },
      },
    );

    const member = users[1] as { id: string; token: string };
    const scenarios: [string, Record<string, string>][] = [
      ['no filter', {}],
      ['q=sushi (a common word)', { q: 'sushi' }],
      ['q=creme brulee (two words, accents folded)', { q: 'creme brulee' }],
      ['q=zurich taxi museum (rare combination)', { q: 'zurich taxi museum' }],
      ['category=Health', { category: 'Health' }],
      ['paidBy', { paidBy: (users[2] as { id: string }).id }],
      ['involves', { involves: (users[3] as { id: string }).id }],
      ['from/to (one month)', { from: '2025-06-01T00:00:00Z', to: '2025-07-01T00:00:00Z' }],
      [
        'q + involves + from/to',
        {
          q: 'dinner',
          involves: (users[3] as { id: string }).id,
          from: '2025-01-01T00:00:00Z',
          to: '2026-01-01T00:00:00Z',
        },
      ],
      [
        'updatedAfter + includeDeleted (sync)',
        { updatedAfter: '2026-06-01T00:00:00Z', includeDeleted: 'true' },
      ],
    ];
    console.log('\n| filter | p50 ms | p99 ms | items on the page |\n| --- | --- | --- | --- |');
    for (const [name, query] of scenarios) {
      const path = `/v1/groups/${groupId}/expenses?${new URLSearchParams({ limit: '20', ...query })}`;
      for (let i = 0; i < 20; i++) await call('GET', path, member.token);
      const times: number[] = [];
      let items = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const t0 = performance.now();
        const page = await call('GET', path, member.token);
        times.push(performance.now() - t0);
        items = page.data.length;
      }
      times.sort((a, b) => a - b);
      console.log(
        `| ${name} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.99).toFixed(1)} | ${items} |`,
      );
    }

    for (const [name, query] of [
      ['q=zurich taxi museum', { q: 'zurich taxi museum', limit: 20 }],
      ['involves', { involves: (users[3] as { id: string }).id, limit: 20 }],
      [
        'q=dinner + involves + from/to',
        {
          q: 'dinner',
          involves: (users[3] as { id: string }).id,
          from: '2025-01-01T00:00:00Z',
          to: '2026-01-01T00:00:00Z',
          limit: 20,
        },
      ],
    ] as const) {
      const statement = searchStatement(groupId, member.id, activeFilters(query), undefined, 21);
      console.log(`\nEXPLAIN ANALYZE, ${name}:\n${await explainAnalyze(knex, statement)}`);
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
