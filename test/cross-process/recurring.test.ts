import { localDateAt, occurrenceDate, type RecurrenceEvery, startOfLocalDay } from '@tally/domain';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';
import { callJson, type ProcessUser, registerUser } from './http';

/**
 * API.md §6a: each occurrence of a recurring expense is created exactly once by the fleet. Three
 * real API processes run the scheduler against one database with their clocks a year ahead
 * (TALLY_TEST_CLOCK_OFFSET_MS, honoured under NODE_ENV=test only); one is SIGKILLed while the
 * occurrences are being created and started again. Every occurrence must then exist exactly once,
 * in order, and the balances must be the sum of the occurrences.
 */
describe('recurring expenses across processes', () => {
  const YEAR_MS = 365 * 86_400_000;
  let db: TestDatabase;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { ROLE: 'api', DATABASE_URL: db.url, REDIS_URL: redisUrl(), NODE_ENV: 'test' };
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGKILL')));
    await db.drop();
  });

  /** The latest 31st on or before `date` (a monthly schedule on the 31st). */
  function last31st(date: string): string {
    let [year, month] = date.split('-').map(Number) as [number, number];
    for (;;) {
      const candidate = `${year}-${String(month).padStart(2, '0')}-31`;
      if (new Date(`${candidate}T00:00:00Z`).getUTCDate() === 31 && candidate <= date) return candidate;
      month -= 1;
      if (month === 0) [year, month] = [year - 1, 12];
    }
  }

  /** How many occurrences of a schedule are due at `now`. */
  function dueCount(s: { every: RecurrenceEvery; startsOn: string; timeZone: string }, now: Date): number {
    let n = 0;
    while (startOfLocalDay(occurrenceDate(s.startsOn, s.every, n), s.timeZone).getTime() <= now.getTime())
      n++;
    return n;
  }

  it('creates exactly one expense per occurrence, in order, while a process is killed mid-run', async () => {
    // Set up with the real clock and without the scheduler.
    const setup = await spawnServer({ ...env, RECURRING_POLL_MS: '0' });
    servers.push(setup);
    const ada = await registerUser(setup.url, 'Ada');
    const bob = await registerUser(setup.url, 'Bob');
    const call = (user: ProcessUser, method: string, path: string, body?: unknown) =>
      callJson(setup.url, user, method, path, body);
    const group = await call(ada, 'POST', '/v1/groups', { name: 'Flat' });
    const groupId = group.id as string;
    await call(ada, 'POST', `/v1/groups/${groupId}/members`, { userId: bob.id });

    // Started in the past (the missed ones come first), then a year of the clock moved ahead.
    const today = localDateAt(new Date(), 'UTC');
    const weeksAgo = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
    const schedules = [
      { every: 'week', startsOn: weeksAgo, timeZone: 'UTC' },
      { every: 'week', startsOn: today, timeZone: 'America/New_York' },
      { every: 'month', startsOn: last31st(today), timeZone: 'America/New_York' },
      { every: 'month', startsOn: last31st(weeksAgo), timeZone: 'Europe/Berlin' },
      { every: '2 weeks', startsOn: weeksAgo, timeZone: 'Europe/Berlin' },
      { every: '2 weeks', startsOn: today, timeZone: 'Europe/Berlin' },
    ] as const;
    const ids: string[] = [];
    for (const [i, schedule] of schedules.entries()) {
      const created = await call(ada, 'POST', `/v1/groups/${groupId}/recurring`, {
        expense: {
          description: `Schedule ${i}`,
          amount: 1001 + i,
          paidBy: i % 2 === 0 ? ada.id : bob.id,
          split: { type: 'equal', between: [ada.id, bob.id] },
        },
        schedule,
      });
      ids.push(created.id as string);
    }
    await setup.kill('SIGKILL');

    const start = new Date(Date.now() + YEAR_MS);
    const expectedAtLeast = schedules.reduce((sum, s) => sum + dueCount(s, start), 0);
    const fleetEnv = { ...env, RECURRING_POLL_MS: '100', TALLY_TEST_CLOCK_OFFSET_MS: String(YEAR_MS) };
    const fleet = await Promise.all([spawnServer(fleetEnv), spawnServer(fleetEnv), spawnServer(fleetEnv)]);
    servers.push(...fleet);

    const occurrences = async () =>
      Number((await db.knex('expenses').where({ group_id: groupId }).count({ n: '*' }))[0]?.n ?? 0);
    // Kill one process while the fleet is creating them: some exist, not all.
    await until(async () => (await occurrences()) >= 10, { what: 'the first occurrences', intervalMs: 10 });
    await fleet[0]!.kill('SIGKILL');
    const atKill = await occurrences();
    expect(atKill).toBeLessThan(expectedAtLeast);
    servers.push(await spawnServer(fleetEnv));

    // Caught up: no schedule is due any more at the fleet's clock.
    await until(
      async () => {
        const [row] = await db
          .knex('recurring_expenses')
          .where('next_due_at', '<=', new Date(Date.now() + YEAR_MS))
          .count({ n: '*' });
        return Number(row?.n) === 0;
      },
      { what: 'the fleet to catch up', timeoutMs: 40_000, intervalMs: 100 },
    );
    const end = new Date(Date.now() + YEAR_MS);

    const rows: Array<{
      id: string;
      recurring_id: string;
      occurrence_date: string;
      occurred_at: Date;
      amount: string;
      paid_by: Array<{ userId: string; amount: number }>;
      shares: Array<{ userId: string; owed: number }>;
    }> = await db.knex('expenses').where({ group_id: groupId }).orderBy('occurrence_date');
    expect(rows.length).toBeGreaterThanOrEqual(expectedAtLeast);
    const events = (await db
      .knex('events')
      .where({ group_id: groupId, type: 'expense.created' })
      .orderBy('seq')) as Array<{ data: { recurring: { id: string; occurrenceDate: string } } }>;
    expect(events).toHaveLength(rows.length);

    for (const [i, schedule] of schedules.entries()) {
      const id = ids[i] as string;
      const mine = rows.filter((r) => r.recurring_id === id);
      // Exactly the occurrences 0…n-1, each once, n between what was due at the start and at the end.
      const expectedDates = mine.map((_, n) => occurrenceDate(schedule.startsOn, schedule.every, n));
      expect(mine.map((r) => r.occurrence_date)).toEqual(expectedDates);
      expect(mine.length).toBeGreaterThanOrEqual(dueCount(schedule, start));
      expect(mine.length).toBeLessThanOrEqual(dueCount(schedule, end));
      for (const r of mine) {
        expect(r.occurred_at.toISOString()).toBe(
          startOfLocalDay(r.occurrence_date, schedule.timeZone).toISOString(),
        );
        expect(Number(r.amount)).toBe(1001 + i);
      }
      // Their expense.created events come in occurrence order.
      const announced = events
        .filter((e) => e.data.recurring?.id === id)
        .map((e) => e.data.recurring.occurrenceDate);
      expect(announced).toEqual(expectedDates);
    }

    // The balances are the sum of the occurrences.
    const nets = new Map<string, number>();
    for (const r of rows) {
      for (const p of r.paid_by) nets.set(p.userId, (nets.get(p.userId) ?? 0) + p.amount);
      for (const s of r.shares) nets.set(s.userId, (nets.get(s.userId) ?? 0) - s.owed);
    }
    const balances = (await db.knex('balances').where({ group_id: groupId })) as Array<{
      user_id: string;
      net: string;
    }>;
    expect(Object.fromEntries(balances.map((b) => [b.user_id, Number(b.net)]))).toEqual(
      Object.fromEntries(nets),
    );

    // The fleet served no request: what its live processes' group commit counts
    // (write_batch_size_sum: statements sent, a lost race's included) is the occurrences' writes,
    // exported because the scheduler writes through the process's one write runner.
    let batched = 0;
    for (const server of servers.slice(-3)) {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      batched += Number(/^write_batch_size_sum (\d+)/m.exec(text)?.[1] ?? 0);
    }
    expect(batched).toBeGreaterThan(0);
  }, 90_000);
});
