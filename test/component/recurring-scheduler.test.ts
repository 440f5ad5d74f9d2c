/**
 * The recurring-expense scheduler (API.md §6a): occurrences created once and in order, DST, `until`,
 * removed members, its slices and rounds, and on embedded PGlite as `npm start` runs it.
 */
import { registerUser } from '../cross-process/http';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { balancesOf, expectProblem, netsIn } from './component-helpers';
import {
  ada,
  bob,
  cy,
  eventsOf,
  expensesOf,
  onOneDay,
  postRecurring,
  schedule,
  scheduler,
  setClock,
  t,
  template,
  testScheduler,
  useRecurringServer,
  weeksBefore,
} from './recurring-fixture';

describe('recurring expenses (API.md §6a)', () => {
  useRecurringServer();

  describe('the scheduler', () => {
    it('creates no occurrence in an archived group, and catches up once it is unarchived', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const created = await postRecurring(ada, groupId, {
        expense: template(ada, [ada, bob], { amount: 1000 }),
        schedule: schedule({ startsOn: '2027-05-02', every: 'week', timeZone: 'UTC' }),
      });
      expect(created.status).toBe(201);
      expect((await t.request.post(`/v1/groups/${groupId}/archive`).set(ada.auth)).status).toBe(200);
      // May 2 and 9 fall due while it is archived.
      setClock(new Date('2027-05-10T12:00:00Z'));
      await scheduler.runUntilCaughtUp();
      expect(await expensesOf(ada, groupId)).toEqual([]);
      expect((await t.request.post(`/v1/groups/${groupId}/unarchive`).set(ada.auth)).status).toBe(200);
      await scheduler.runUntilCaughtUp();
      expect((await expensesOf(ada, groupId)).map((e) => e.occurredAt).reverse()).toEqual([
        '2027-05-02T00:00:00.000Z',
        '2027-05-09T00:00:00.000Z',
      ]);
    });

    it('creates each due occurrence once, in order, as an ordinary expense with its event and balances', async () => {
      const groupId = await t.createGroup(ada, [bob]);
      const created = await postRecurring(ada, groupId, {
        expense: template(ada, [ada, bob], { amount: 1000 }),
        schedule: schedule({ startsOn: '2027-03-14', every: 'week', timeZone: 'America/New_York' }),
      });
      const id = created.body.id as string;
      // Mar 14 (DST starts that day in New York), 21, 28, Apr 4; Apr 11 is not due yet.
      setClock(new Date('2027-04-10T12:00:00Z'));
      await scheduler.runUntilCaughtUp();
      await scheduler.runUntilCaughtUp();
      const expenses = await expensesOf(ada, groupId);
      expect(expenses.map((e) => e.occurredAt).reverse()).toEqual([
        '2027-03-14T05:00:00.000Z',
        '2027-03-21T04:00:00.000Z',
        '2027-03-28T04:00:00.000Z',
        '2027-04-04T04:00:00.000Z',
      ]);
      for (const e of expenses) {
        expect(e).toEqual(
          expect.objectContaining({ recurringId: id, description: 'Rent', amount: 1000, createdBy: ada.id }),
        );
      }
      const one = await t.request.get(`/v1/expenses/${expenses[0]?.id}`).set(bob.auth);
      expect(one.body.recurringId).toBe(id);
      const occurrences = (await eventsOf(ada, groupId)).filter((e) => e.type === 'expense.created');
      expect(occurrences.map((e) => (e.data.recurring as { occurrenceDate: string }).occurrenceDate)).toEqual(
        ['2027-03-14', '2027-03-21', '2027-03-28', '2027-04-04'],
      );
      expect(occurrences[0]?.actorId).toBe(ada.id);
      expect(netsIn((await balancesOf(t, bob, groupId)).currencies, 'INR')).toEqual({
        [ada.id]: 2000,
        [bob.id]: -2000,
      });
      const after = await t.request.get(`/v1/recurring/${id}`).set(ada.auth);
      expect(after.body.nextOccurrence).toBe('2027-04-11');
      // An ordinary expense without a schedule says so.
      const plain = await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({
          groupId,
          description: 'Tea',
          amount: 100,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        });
      expect(plain.body.recurringId).toBeNull();
    });

    it('takes an occurrence already in the database as created: no crash, no second copy, the pointer moves on', async () => {
      const groupId = await t.createGroup(ada);
      const created = await postRecurring(ada, groupId, {
        expense: template(ada, [ada], { amount: 700 }),
        schedule: schedule({ startsOn: '2027-09-06', timeZone: 'UTC' }),
      });
      const id = created.body.id as string;
      // A copy of the first occurrence under another id (what only a bug elsewhere could leave).
      const plain = await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({
          groupId,
          description: 'Rent',
          amount: 700,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        });
      await t.server
        .knex('expenses')
        .where({ id: plain.body.id })
        .update({ recurring_id: id, occurrence_date: '2027-09-06' });
      setClock(new Date('2027-09-14T00:00:00Z'));
      await scheduler.runUntilCaughtUp();
      const rows = await t.server.knex('expenses').where({ recurring_id: id }).orderBy('occurrence_date');
      expect(rows.map((r: { occurrence_date: string }) => r.occurrence_date)).toEqual([
        '2027-09-06',
        '2027-09-13',
      ]);
      const after = await t.request.get(`/v1/recurring/${id}`).set(ada.auth);
      expect(after.body.nextOccurrence).toBe('2027-09-20');
    });

    it('puts an occurrence on a local day the zone skipped at the first instant after it', async () => {
      const groupId = await t.createGroup(ada);
      // Pacific/Apia went from 2011-12-29 straight to 2011-12-31 (UTC-10 to UTC+14).
      const created = await postRecurring(ada, groupId, {
        expense: template(ada, [ada]),
        schedule: schedule({
          startsOn: '2011-12-30',
          every: 'year',
          until: '2012-12-30',
          timeZone: 'pacific/apia',
        }),
      });
      expect(created.status).toBe(201);
      expect(created.body.schedule.timeZone).toBe('Pacific/Apia');
      setClock(new Date());
      await scheduler.runUntilCaughtUp();
      expect((await expensesOf(ada, groupId)).map((e) => e.occurredAt).reverse()).toEqual([
        // 2011-12-31 00:00 in Apia (UTC+14), not a time on Dec 29.
        '2011-12-30T10:00:00.000Z',
        // 2012-12-30 00:00 in Apia (UTC+14, summer time).
        '2012-12-29T10:00:00.000Z',
      ]);
    });

    it('ends at until: nextOccurrence null once the last one is created', async () => {
      const groupId = await t.createGroup(ada);
      const created = await postRecurring(ada, groupId, {
        expense: template(ada, [ada]),
        schedule: schedule({ startsOn: '2027-01-31', every: 'month', until: '2027-04-30', timeZone: 'UTC' }),
      });
      setClock(new Date('2028-01-01T00:00:00Z'));
      await scheduler.runUntilCaughtUp();
      expect(
        (await expensesOf(ada, groupId)).map((e) => String(e.occurredAt).slice(0, 10)).reverse(),
      ).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
      const after = await t.request.get(`/v1/recurring/${created.body.id}`).set(ada.auth);
      expect(after.body.nextOccurrence).toBeNull();
    });

    it('drops removed members from equal splits and skips exact splits naming them, with recurring.skipped', async () => {
      const groupId = await t.createGroup(ada, [bob, cy]);
      await postRecurring(ada, groupId, {
        expense: template(ada, [ada, bob, cy], { amount: 900 }),
        schedule: schedule({ startsOn: '2027-06-07', timeZone: 'UTC' }),
      });
      const exact = await postRecurring(ada, groupId, {
        expense: template(ada, [], {
          amount: 900,
          split: {
            type: 'exact',
            between: [
              { userId: ada.id, amount: 300 },
              { userId: cy.id, amount: 600 },
            ],
          },
        }),
        schedule: schedule({ startsOn: '2027-06-07', timeZone: 'UTC' }),
      });
      const removed = await t.request
        .delete(`/v1/groups/${groupId}/members/${cy.id}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(removed.status).toBe(204);
      setClock(new Date('2027-06-08T00:00:00Z'));
      await scheduler.runUntilCaughtUp();
      const expenses = await expensesOf(ada, groupId);
      expect(expenses).toHaveLength(1);
      expect(expenses[0]?.split).toEqual({ type: 'equal', between: [ada.id, bob.id] });
      const skipped = (await eventsOf(ada, groupId)).filter((e) => e.type === 'recurring.skipped');
      expect(skipped.map((e) => e.data)).toEqual([
        { recurringId: exact.body.id, occurrenceDate: '2027-06-07', reason: 'participant_removed' },
      ]);
      const next = await t.request.get(`/v1/recurring/${exact.body.id}`).set(ada.auth);
      expect(next.body.nextOccurrence).toBe('2027-06-14');
      // The schedule naming the member who left can still be changed, but not to name them anew.
      const later = await t.request
        .patch(`/v1/recurring/${exact.body.id}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ schedule: { until: '2027-12-31' } });
      expect(later.status).toBe(200);
      const again = await t.request
        .patch(`/v1/recurring/${exact.body.id}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ expense: { paidBy: cy.id } });
      expectProblem(again, 422, 'not_a_member');
    });
  });
});

describe('the scheduler works in slices (API.md §6a)', () => {
  let t: TestServer;
  let ada: TestUser;
  const clock = new Date('2028-01-01T00:00:00Z');

  beforeAll(async () => {
    t = await startTestServer({ env: { RECURRING_POLL_MS: '0' } });
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    await t.stop();
  });

  /** A weekly schedule in UTC from `startsOn` in a group of Ada's: its id. */
  const weekly = async (groupId: string, startsOn: string, description = 'Rent') => {
    const res = await t.request
      .post(`/v1/groups/${groupId}/recurring`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        expense: { description, amount: 100, paidBy: ada.id, split: { type: 'equal', between: [ada.id] } },
        schedule: { every: 'week', startsOn, timeZone: 'UTC' },
      });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  /** The schedules of a group's occurrences, in the order the group's event log has them. */
  const occurrencesOf = async (groupId: string) => {
    const rows = await t.server
      .knex('events')
      .where({ group_id: groupId, type: 'expense.created' })
      .orderBy('seq')
      .select('data');
    return rows.map((r: { data: unknown }) => {
      const data = (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as {
        recurring: { id: string };
      };
      return data.recurring.id;
    });
  };
  /** Stops the group's schedules, so that the next test's rounds see only its own. */
  const stopAll = async (ids: string[]) => {
    for (const id of ids) {
      const res = await t.request
        .delete(`/v1/recurring/${id}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(res.status).toBe(204);
    }
  };

  it('creates at most sliceSize occurrences of a schedule per round, round-robin with the other due ones', async () => {
    const groupId = await t.createGroup(ada);
    // 52 due at the clock (every Monday of 2027), and 4 (the Mondays of Dec 2027).
    const big = await weekly(groupId, '2027-01-04');
    const small = await weekly(groupId, '2027-12-06');
    const scheduler = testScheduler(t, { now: () => clock, sliceSize: 3 });
    expect(await scheduler.runOnce()).toEqual({ steps: 6, behind: true });
    // One of each in turn: the small one is not kept waiting behind the big one's backlog.
    expect(await occurrencesOf(groupId)).toEqual([big, small, big, small, big, small]);
    expect(await scheduler.runOnce()).toEqual({ steps: 4, behind: true });
    expect((await occurrencesOf(groupId)).slice(6)).toEqual([big, small, big, big]);
    // The rest, slice by slice: every occurrence once, in each schedule's date order.
    expect(await scheduler.runUntilCaughtUp()).toBe(52 - 6);
    const all = await occurrencesOf(groupId);
    expect(all.filter((id) => id === big)).toHaveLength(52);
    expect(all.filter((id) => id === small)).toHaveLength(4);
    const dates = await t.server
      .knex('expenses')
      .where({ recurring_id: big })
      .orderBy('created_at')
      .orderBy('occurrence_date')
      .pluck('occurrence_date');
    expect(dates).toEqual([...dates].sort());
    expect(await scheduler.runOnce()).toEqual({ steps: 0, behind: false });
  });

  it('stops a round at roundSize occurrences in all, and pauses before each occurrence', async () => {
    const groupId = await t.createGroup(ada);
    const ids = [
      await weekly(groupId, '2027-10-04', 'A'),
      await weekly(groupId, '2027-10-05', 'B'),
      await weekly(groupId, '2027-10-06', 'C'),
    ];
    const log: string[] = [];
    const scheduler = testScheduler(t, {
      now: () => clock,
      sliceSize: 3,
      roundSize: 7,
      pause: async () => {
        log.push('pause');
      },
      onStep: (id, step) => log.push(`${ids.indexOf(id)}:${step.kind}`),
    });
    expect(await scheduler.runOnce()).toEqual({ steps: 7, behind: true });
    expect(log).toEqual(['0', '1', '2', '0', '1', '2', '0'].flatMap((i) => ['pause', `${i}:created`]));
    await stopAll(ids);
  });

  it('takes no more schedules in a round than it can give a full slice; the others come next', async () => {
    const groupId = await t.createGroup(ada);
    const ids = [
      await weekly(groupId, '2027-10-04', 'A'),
      await weekly(groupId, '2027-10-05', 'B'),
      await weekly(groupId, '2027-10-06', 'C'),
    ];
    const log: number[] = [];
    const scheduler = testScheduler(t, {
      now: () => clock,
      sliceSize: 2,
      roundSize: 4,
      onStep: (id) => log.push(ids.indexOf(id)),
    });
    // Two schedules fit (4 / 2): the third is left to another process, or to the next round.
    expect(await scheduler.runOnce()).toEqual({ steps: 4, behind: true });
    expect(log).toEqual([0, 1, 0, 1]);
    // Oldest due first: C (still at Oct 6), then A (at Oct 18).
    expect(await scheduler.runOnce()).toEqual({ steps: 4, behind: true });
    expect(log.slice(4)).toEqual([2, 0, 2, 0]);
    await stopAll(ids);
  });
});

/**
 * PGlite loads Node built-ins with dynamic `import()`, which jest's sandbox refuses without
 * `--experimental-vm-modules` (see embedded-smoke.test.ts): a real server process on PGlite, as
 * `npm start` runs it, with its own scheduler.
 */
describe('recurring expenses on embedded PGlite (npm start)', () => {
  let server: ServerProcess;

  // A server process opening PGlite: slow on a loaded machine.
  beforeAll(async () => {
    // No load shedding: what is asserted is where the answers fall, whatever the machine's load.
    server = await spawnServer(
      { RECURRING_POLL_MS: '100', MAX_EVENT_LOOP_DELAY_MS: '600000' },
      { bootTimeoutMs: 110_000 },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.kill('SIGTERM');
  });

  it('migrates, schedules and creates the due occurrences on the one connection, without claims', async () => {
    const ada = await registerUser(server.url, 'Ada');
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...ada.headers, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const group = await call('POST', '/v1/groups', { name: 'Flat' });
    const groupId = group.body.id as string;
    // Months in the past: all three occurrences are due at once.
    const created = await call('POST', `/v1/groups/${groupId}/recurring`, {
      expense: {
        description: 'Rent',
        amount: 500,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      },
      schedule: { every: 'month', startsOn: '2026-01-31', until: '2026-03-31', timeZone: 'America/New_York' },
    });
    expect(created.status).toBe(201);
    const occurredAt = async () => {
      const res = await call('GET', `/v1/groups/${groupId}/expenses`);
      return (res.body.data as { occurredAt: string }[]).map((e) => e.occurredAt).reverse();
    };
    await until(async () => (await occurredAt()).length === 3, {
      what: 'three occurrences on PGlite',
      timeoutMs: 60_000,
    });
    expect(await occurredAt()).toEqual([
      '2026-01-31T05:00:00.000Z',
      '2026-02-28T05:00:00.000Z',
      '2026-03-31T04:00:00.000Z',
    ]);
    const after = await call('GET', `/v1/recurring/${created.body.id}`);
    expect(after.body.nextOccurrence).toBeNull();
  }, 90_000);

  it('answers other requests while it catches up the largest allowed backlog, between its occurrences', async () => {
    // On PGlite a query does not leave the event loop: without its pauses, a catch-up held the
    // process until its last occurrence, and every request waited for all of them.
    const ada = await registerUser(server.url, 'Ada');
    const bob = await registerUser(server.url, 'Bob');
    const call = async (user: typeof ada, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...user.headers, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const groupId = (await call(ada, 'POST', '/v1/groups', { name: 'Flat' })).body.id as string;
    // Weekly in UTC, 100 occurrences due (today's included): the most recurringBacklog allows.
    const { created, day } = await onOneDay(async (day) => ({
      day,
      created: await call(ada, 'POST', `/v1/groups/${groupId}/recurring`, {
        expense: {
          description: 'Rent',
          amount: 500,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        },
        schedule: { every: 'week', startsOn: weeksBefore(day, 99), timeZone: 'UTC' },
      }),
    }));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // Until it is caught up: Bob's unrelated reads, and where the schedule stands after each.
    const seen: string[] = [];
    for (;;) {
      expect((await call(bob, 'GET', '/v1/me')).status).toBe(200);
      const next = (await call(ada, 'GET', `/v1/recurring/${id}`)).body.nextOccurrence as string;
      seen.push(next);
      if (next > day) break;
    }
    // Answers came while the catch-up was under way (neither before it began nor once it was over).
    const midway = seen.filter((next) => next > weeksBefore(day, 99) && next <= day);
    expect(midway.length).toBeGreaterThan(0);
    const expenses = await call(ada, 'GET', `/v1/groups/${groupId}/expenses?limit=100`);
    expect(expenses.body.data).toHaveLength(100);
  }, 90_000);
});
