import {
  etagOf,
  type GroupEvent,
  LimitExceededError,
  NotFoundError,
  PreconditionFailedError,
  type RecurringExpenseRequest,
  type TallyClient,
  ValidationFailedError,
} from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { PASSWORD, quickClient, rejection } from './sdk-setup';

const DAY_MS = 86_400_000;

/**
 * Recurring expenses end to end through the SDK (API.md §6a): a schedule made with `tally.recurring`,
 * its occurrences created by the server's own scheduler (polling every 50 ms) and read back as
 * expenses with `recurringId`, its events seen on the realtime feed, then changed and stopped.
 */
describe('recurring expenses through the SDK', () => {
  let t: TestServer;
  let ada: TallyClient;
  let bob: TallyClient;

  const newClient = () => quickClient(t.url);

  beforeAll(async () => {
    t = await startTestServer({ env: { RECURRING_POLL_MS: '50' } });
    ada = newClient();
    bob = newClient();
    await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: PASSWORD });
    await bob.auth.register({ email: uniqueEmail('bob'), name: 'Bob', password: PASSWORD });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('creates, lists, patches and stops a schedule whose missed occurrences the server creates', async () => {
    const me = await ada.auth.me();
    const friend = await bob.auth.me();
    const group = await ada.groups.create({ name: 'Flat' });
    await ada.groups.addMember(group.id, { userId: friend.id });
    const feed: GroupEvent[] = [];
    const realtime = bob.realtime();
    realtime.on('event', (event) => feed.push(event));
    await realtime.subscribe(group.id).confirmed;

    // Started three weeks ago in UTC: the occurrences of 21, 14 and 7 days ago and of today are due.
    const startsOn = new Date(Date.now() - 21 * DAY_MS).toISOString().slice(0, 10);
    const body: RecurringExpenseRequest = {
      expense: {
        description: 'Cleaner',
        amount: 4000,
        paidBy: me.id,
        split: { type: 'equal', between: [me.id, friend.id] },
      },
      schedule: { every: 'week', startsOn, timeZone: 'UTC' },
    };
    const created = await ada.recurring.create(group.id, body);
    expect(created).toMatchObject({
      groupId: group.id,
      expense: body.expense,
      schedule: { ...body.schedule, until: null },
      version: 1,
    });

    await until(async () => (await bob.expenses.list(group.id)).data.length === 4, {
      what: 'the four due occurrences',
      intervalMs: 50,
    });
    const expenses = (await bob.expenses.list(group.id)).data;
    expect(expenses.map((e) => e.recurringId)).toEqual([created.id, created.id, created.id, created.id]);
    const daysAfterStart = (days: number) =>
      new Date(Date.parse(`${startsOn}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
    expect(expenses.map((e) => e.occurredAt).reverse()).toEqual(
      [0, 7, 14, 21].map((days) => `${daysAfterStart(days)}T00:00:00.000Z`),
    );
    expect((await bob.groups.balances(group.id)).currencies[0]?.members).toEqual(
      expect.arrayContaining([{ userId: me.id, net: 8000 }]),
    );
    const current = await bob.recurring.get(created.id);
    expect(current.nextOccurrence).toBe(daysAfterStart(28));
    expect((await bob.recurring.list(group.id)).data.map((r) => r.id)).toEqual([created.id]);
    const all: string[] = [];
    for await (const r of ada.recurring.listAll(group.id, { limit: 1 })) all.push(r.id);
    expect(all).toEqual([created.id]);

    // The realtime feed carried the schedule and each occurrence, in order.
    await until(() => feed.filter((e) => e.type === 'expense.created').length === 4, {
      what: 'the occurrences on the feed',
    });
    expect(feed[0]?.type).toBe('recurring.created');
    const occurrences = feed.filter((e) => e.type === 'expense.created');
    expect(occurrences.map((e) => (e.data as { recurring?: { id: string } }).recurring?.id)).toEqual([
      created.id,
      created.id,
      created.id,
      created.id,
    ]);

    expect(
      await rejection(ada.recurring.patch(created.id, { expense: { amount: 1 } }, { ifMatch: '"v99"' })),
    ).toBeInstanceOf(PreconditionFailedError);
    expect(
      await rejection(ada.recurring.patch(created.id, { schedule: { timeZone: 'Nowhere/Else' } })),
    ).toBeInstanceOf(ValidationFailedError);
    const patched = await ada.recurring.patch(
      created.id,
      { expense: { amount: 5000 }, schedule: { every: 'month' } },
      { ifMatch: etagOf(current) },
    );
    expect(patched).toMatchObject({ version: 2, expense: { amount: 5000 }, schedule: { every: 'month' } });

    await ada.recurring.delete(created.id, { ifMatch: etagOf(patched) });
    await ada.recurring.delete(created.id);
    expect(await rejection(bob.recurring.get(created.id))).toBeInstanceOf(NotFoundError);
    expect((await bob.expenses.list(group.id)).data).toHaveLength(4);
    await until(() => feed.some((e) => e.type === 'recurring.deleted'), {
      what: 'recurring.deleted on the feed',
    });
    realtime.close();
  });

  it('answers a schedule over a bound with LimitExceededError naming it; reads back the zone’s one name', async () => {
    const me = await ada.auth.me();
    const group = await ada.groups.create({ name: 'Bounds' });
    const expense = {
      description: 'Gym',
      amount: 2500,
      paidBy: me.id,
      split: { type: 'equal' as const, between: [me.id] },
    };
    const refused = await rejection(
      ada.recurring.create(group.id, {
        expense,
        schedule: { every: 'week', startsOn: '2000-01-01', timeZone: 'UTC' },
      }),
    );
    expect(refused).toBeInstanceOf(LimitExceededError);
    expect((refused as LimitExceededError).limit).toEqual({ name: 'recurringBacklog', max: 100 });
    expect((await ada.recurring.list(group.id)).data).toEqual([]);
    const created = await ada.recurring.create(group.id, {
      expense,
      schedule: { every: 'month', startsOn: '2030-01-31', timeZone: 'europe/berlin' },
    });
    expect(created.schedule.timeZone).toBe('Europe/Berlin');
    const offset = await rejection(ada.recurring.patch(created.id, { schedule: { timeZone: '+05:30' } }));
    expect(offset).toBeInstanceOf(ValidationFailedError);
    const back = await rejection(ada.recurring.patch(created.id, { schedule: { startsOn: '2000-01-31' } }));
    expect((back as LimitExceededError).limit).toEqual({ name: 'recurringBacklog', max: 100 });
    expect((await ada.recurring.get(created.id)).version).toBe(1);
  });

  it('carries recurring writes through the durable outbox, in order, each applied once', async () => {
    const me = await ada.auth.me();
    const group = await ada.groups.create({ name: 'Outbox flat' });
    const entry = await ada.outbox.createRecurring(group.id, {
      expense: {
        description: 'Internet',
        amount: 3000,
        paidBy: me.id,
        split: { type: 'equal', between: [me.id] },
      },
      schedule: { every: 'month', startsOn: '2030-05-31', timeZone: 'Asia/Kolkata' },
    });
    const settled = await ada.outbox.whenSettled(entry.id);
    expect(settled?.outcome).toMatchObject({ type: 'applied', status: 201 });
    if (settled?.outcome.type !== 'applied') throw new Error('the create was not applied');
    const created = settled.outcome.data as { id: string; groupId: string };
    const patch = await ada.outbox.patchRecurring(
      created,
      { schedule: { until: '2030-12-31' } },
      { ifMatch: '"v1"' },
    );
    const stop = await ada.outbox.deleteRecurring(created);
    expect((await ada.outbox.whenSettled(patch.id))?.outcome).toMatchObject({ type: 'applied', status: 200 });
    expect((await ada.outbox.whenSettled(stop.id))?.outcome).toMatchObject({ type: 'applied', status: 204 });
    expect(await rejection(ada.recurring.get(created.id))).toBeInstanceOf(NotFoundError);
    const events = (await ada.groups.events(group.id)).data.map((e) => e.type);
    expect(events.filter((type) => type.startsWith('recurring.'))).toEqual([
      'recurring.created',
      'recurring.updated',
      'recurring.deleted',
    ]);
  });
});
