/**
 * Notifications (API.md §13) at size, for docs/CAPACITY.md: a fresh database of its own (on the
 * PostgreSQL the tests use), one Tally process in THIS process (`ROLE=all`, no Redis) with its own
 * notifier off, and a notifier built here so its passes can be timed:
 *
 * 1. the idle cost of a pass with `BENCH_GROUPS` groups, every one caught up (the cursor scan each
 *    process runs every `NOTIFY_POLL_MS`), p50/p99 of `BENCH_PASSES` passes;
 * 2. a burst: `BENCH_EXPENSES` expenses in one group of 1 payer and `BENCH_MEMBERS` - 1 members,
 *    each with a browser subscribed at a local push service (test/support/push-endpoint.ts, which
 *    decrypts every payload): the time from the last write to every push received, and pushes/s.
 *
 *   node --import tsx infra/bench/notifications.ts
 *
 * Environment: BENCH_GROUPS (20000), BENCH_PASSES (50), BENCH_EXPENSES (200), BENCH_MEMBERS (5).
 */
import { createLogMailer, createNotifier, createPushSender, createUnsubscribeTokens } from '@tally/api';
import { loadConfig, start } from '@tally/server';
import pino from 'pino';
import webpush from 'web-push';
import { startPushEndpoint } from '../../test/support/push-endpoint';
import { BENCH_JWT_SECRET, benchServerEnv, createBenchDatabase, runBench, writeResults } from './bench-setup';

const GROUPS = Number(process.env.BENCH_GROUPS ?? 20_000);
const PASSES = Number(process.env.BENCH_PASSES ?? 50);
const EXPENSES = Number(process.env.BENCH_EXPENSES ?? 200);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 5);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const round = (n: number) => Math.round(n * 100) / 100;

runBench('notifications', async () => {
  const db = await createBenchDatabase('tally_bench_notify');
  const push = await startPushEndpoint();
  const server = await start(
    loadConfig({
      ...benchServerEnv('notify'),
      PORT: '0',
      DATABASE_URL: db.url,
      NOTIFY_POLL_MS: '0',
      PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
    }),
  );
  const { knex } = server;
  const notifier = createNotifier({
    knex,
    mailer: createLogMailer({ logger: pino({ level: 'silent' }) }),
    push: createPushSender({
      vapid: { ...webpush.generateVAPIDKeys(), subject: 'mailto:bench@example.com' },
      allowInternal: true,
    }),
    tokens: createUnsubscribeTokens(BENCH_JWT_SECRET),
    appUrl: () => 'https://app.example.com',
    pollMs: 0,
  });
  try {
    // 1. idle passes over caught-up groups (made in SQL: only their rows matter here)
    const owner = (await (
      await fetch(`${server.url}/v1/auth/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: 'owner@bench.example',
          name: 'Owner',
          password: 'correct horse battery',
        }),
      })
    ).json()) as { user: { id: string }; accessToken: string };
    await knex.raw(
      `insert into groups (id, name, currency, last_seq, created_at, updated_at)
       select 'grp_bench_' || i, 'Bench ' || i, 'EUR', 3, now(), now() from generate_series(1, ?) i`,
      [GROUPS],
    );
    await knex.raw(
      `insert into notification_cursors (group_id, last_seq) select id, last_seq from groups where id like 'grp_bench_%'`,
    );
    await knex.raw('analyze groups; analyze notification_cursors');
    await notifier.tick();
    const idle: number[] = [];
    for (let i = 0; i < PASSES; i++) {
      const t0 = performance.now();
      await notifier.tick();
      idle.push(performance.now() - t0);
    }
    idle.sort((a, b) => a - b);

    // 2. a burst of expenses, every member but the payer with a browser
    const call = async (token: string, method: string, path: string, body: unknown, key = true) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${token}`,
          ...(key ? { 'Idempotency-Key': `bench-${Math.random()}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const group = await call(owner.accessToken, 'POST', '/v1/groups', { name: 'Burst', currency: 'EUR' });
    const devices = [];
    const memberIds = [owner.user.id];
    for (let m = 1; m < MEMBERS; m++) {
      const member = (await (
        await fetch(`${server.url}/v1/auth/register`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            email: `m${m}@bench.example`,
            name: `M${m}`,
            password: 'correct horse battery',
          }),
        })
      ).json()) as { user: { id: string }; accessToken: string };
      await call(owner.accessToken, 'POST', `/v1/groups/${group['id']}/members`, { userId: member.user.id });
      const device = push.device();
      const subscribed = await call(
        member.accessToken,
        'POST',
        '/v1/me/push-subscriptions',
        device.subscription,
        false,
      );
      if (typeof subscribed['id'] !== 'string') throw new Error(`subscribe: ${JSON.stringify(subscribed)}`);
      devices.push(device);
      memberIds.push(member.user.id);
    }
    for (let e = 0; e < EXPENSES; e++) {
      await call(owner.accessToken, 'POST', '/v1/expenses', {
        groupId: group['id'],
        description: `Burst ${e}`,
        amount: 1000 + e,
        paidBy: owner.user.id,
        split: { type: 'equal', between: memberIds },
      });
    }
    const expected = EXPENSES * (MEMBERS - 1);
    const t0 = performance.now();
    while (devices.reduce((n, d) => n + d.received.length, 0) < expected) await notifier.tick();
    const burstMs = performance.now() - t0;
    const results = {
      groups: GROUPS,
      idlePassMs: { p50: round(percentile(idle, 50)), p99: round(percentile(idle, 99)) },
      burst: {
        expenses: EXPENSES,
        pushes: expected,
        drainMs: Math.round(burstMs),
        pushesPerSecond: Math.round((expected / burstMs) * 1000),
      },
    };
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    writeResults('notifications', results);
  } finally {
    await notifier.stop();
    await server.stop();
    await push.stop();
    await db.drop();
  }
});
