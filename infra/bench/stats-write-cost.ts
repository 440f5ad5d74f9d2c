/**
 * What the stored totals of the statistics (migration 027) cost an expense write: keyed
 * `POST /v1/expenses` one at a time through the real HTTP server, in blocks with the triggers on
 * `expenses` enabled and disabled in turn (the same server, database and load), p50/p90 of each; and
 * the triggers' own PostgreSQL time, from EXPLAIN ANALYZE of an insert and of a category's update
 * of one expense (rolled back).
 *
 *   npm run bench:stats-writes
 *
 * Knobs: BENCH_STATS_WRITE_ROUNDS (8 rounds of each mode), BENCH_STATS_WRITE_BLOCK (60 writes a
 * block, the first 10 of each not counted: a trigger's toggle invalidates the cached plans).
 */
import { loadConfig, start } from '@tally/server';
import {
  benchServerEnv,
  call,
  createBenchDatabase,
  createBenchGroup,
  percentile,
  runBench,
} from './bench-setup';

const ROUNDS = Number(process.env.BENCH_STATS_WRITE_ROUNDS ?? 8);
const BLOCK = Number(process.env.BENCH_STATS_WRITE_BLOCK ?? 60);

type PlanTrigger = { 'Trigger Name': string; Time: number };

runBench('stats-write-cost', async () => {
  const db = await createBenchDatabase('tally_bench_stats_writes');
  const server = await start(
    loadConfig({
      ...benchServerEnv('stats-writes'),
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      MAX_EVENT_LOOP_DELAY_MS: '600000',
    }),
  );
  const knex = server.knex;
  try {
    const { users, owner, groupId } = await createBenchGroup(server.url);
    const times = { on: [] as number[], off: [] as number[] };
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ['on', 'off'] as const) {
        await knex.raw(`alter table expenses ${mode === 'on' ? 'enable' : 'disable'} trigger user`);
        for (let i = 0; i < BLOCK; i++) {
          n += 1;
          const t0 = performance.now();
          await call(
            server.url,
            'POST',
            '/v1/expenses',
            { Authorization: `Bearer ${owner.token}`, 'Idempotency-Key': `bench-${n}` },
            {
              groupId,
              description: 'Bench',
              amount: 500,
              categoryId: ['food', 'travel', null][n % 3],
              occurredAt: new Date(Date.UTC(2025, n % 12, 3)).toISOString(),
              paidBy: owner.id,
              split: { type: 'equal', between: users.slice(0, 1 + (n % 5)).map((u) => u.id) },
            },
          );
          if (i >= 10) times[mode].push(performance.now() - t0);
        }
      }
    }
    await knex.raw('alter table expenses enable trigger user');
    console.log('| triggers | p50 ms | p90 ms | writes |\n| --- | --- | --- | --- |');
    for (const mode of ['on', 'off'] as const) {
      const sorted = times[mode].sort((a, b) => a - b);
      console.log(
        `| ${mode} | ${percentile(sorted, 50).toFixed(2)} | ${percentile(sorted, 90).toFixed(2)} | ${sorted.length} |`,
      );
    }

    const triggerTime = async (trx: typeof knex, statement: string, name: string) => {
      const plan = await trx.raw(`explain (analyze, format json) ${statement}`);
      const triggers = plan.rows[0]['QUERY PLAN'][0].Triggers as PlanTrigger[];
      return triggers.find((t) => t['Trigger Name'] === name)?.Time ?? Number.NaN;
    };
    const inserts: number[] = [];
    const updates: number[] = [];
    for (let i = 0; i < 30; i++) {
      const trx = await knex.transaction();
      const id = `exp_copy_${i}`;
      inserts.push(
        await triggerTime(
          trx,
          `insert into expenses select (jsonb_populate_record(null::expenses,
             to_jsonb(e) || jsonb_build_object('id', '${id}'))).* from expenses e limit 1`,
          'expense_totals_insert',
        ),
      );
      updates.push(
        await triggerTime(
          trx,
          `update expenses set category_id = 'health' where id = '${id}'`,
          'expense_totals_update',
        ),
      );
      await trx.rollback();
    }
    inserts.sort((a, b) => a - b);
    updates.sort((a, b) => a - b);
    console.log(
      `\ntriggers' PostgreSQL time, p50 of 30: insert of one expense ${percentile(inserts, 50).toFixed(3)} ms, ` +
        `its category's update ${percentile(updates, 50).toFixed(3)} ms`,
    );
  } finally {
    await server.stop();
    await db.drop();
  }
});
