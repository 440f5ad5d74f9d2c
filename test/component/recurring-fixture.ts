/**
 * What the recurring-expense tests share: the dates, a scheduler on a clock of the test's own, and
 * one real server per test file (`useRecurringServer()`) with four users and the requests the
 * tests are made of. The bindings are ES module live bindings: set in `beforeAll`, read after it;
 * `setClock` moves the scheduler's clock (an importer cannot assign a binding).
 */
import {
  createAnnouncer,
  createRecurringScheduler,
  type RecurringScheduler,
  type RecurringSchedulerOptions,
} from '@tally/api';
import { createInProcessBus, publicationOf } from '@tally/events';
import { expectDocumented } from '../support/openapi-validator';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

export const DAY_MS = 86_400_000;
/** Today's date in UTC, and `weeks` weeks before a date. */
export const today = () => new Date().toISOString().slice(0, 10);
export const weeksBefore = (date: string, weeks: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - weeks * 7 * DAY_MS).toISOString().slice(0, 10);
/** `send(today)`, again if the UTC date changed meanwhile (the backlog bound is judged by the server's today). */
export async function onOneDay<T>(send: (day: string) => Promise<T>): Promise<T> {
  for (;;) {
    const day = today();
    const res = await send(day);
    if (today() === day) return res;
  }
}

/** A scheduler on `t`'s database with a clock and slices of the test's own (announcing nowhere). */
export function testScheduler(
  t: TestServer,
  options: Omit<RecurringSchedulerOptions, 'knex' | 'announcer' | 'pollMs'>,
) {
  return createRecurringScheduler({
    knex: t.server.knex,
    announcer: createAnnouncer({
      bus: createInProcessBus(),
      publicationOf,
      markPublished: () => {},
      onPublishFailed: () => {},
    }),
    pollMs: 0,
    onIgnoredError: (reason, error) => {
      throw new Error(`scheduler ignored ${reason}: ${String(error)}`);
    },
    ...options,
  });
}

export let t: TestServer;
export let ada: TestUser;
export let bob: TestUser;
export let cy: TestUser;
export let outsider: TestUser;
/** The scheduler's clock, moved by each test. */
export let clock = new Date();
export let scheduler: RecurringScheduler;
export const setClock = (date: Date) => {
  clock = date;
};

export const template = (payer: TestUser, between: TestUser[], extra: Record<string, unknown> = {}) => ({
  description: 'Rent',
  amount: 90000,
  paidBy: payer.id,
  split: { type: 'equal', between: between.map((u) => u.id) },
  ...extra,
});
export const schedule = (extra: Record<string, unknown> = {}) => ({
  every: 'week',
  startsOn: '2027-03-07',
  timeZone: 'Europe/Berlin',
  ...extra,
});
export const postRecurring = (
  user: TestUser,
  groupId: string,
  body: unknown,
  key: string | null = newKey(),
) => {
  const req = t.request.post(`/v1/groups/${groupId}/recurring`).set(user.auth);
  return (key ? req.set('Idempotency-Key', key) : req).send(body as object);
};
export const expensesOf = async (user: TestUser, groupId: string) => {
  const res = await t.request.get(`/v1/groups/${groupId}/expenses?limit=100`).set(user.auth);
  expect(res.status).toBe(200);
  // Occurrences are expenses as the OpenAPI document describes them (recurringId included).
  expectDocumented(res);
  return res.body.data as Array<Record<string, unknown>>;
};
export const eventsOf = async (user: TestUser, groupId: string) => {
  const res = await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(user.auth);
  expect(res.status).toBe(200);
  // recurring.* events and an occurrence's expense.created (data.recurring) as documented.
  expectDocumented(res);
  return res.body.data as Array<{ type: string; actorId: string; data: Record<string, unknown> }>;
};

/** Registers the server's start and stop for the calling file (each file has its own). */
export function useRecurringServer(): void {
  beforeAll(async () => {
    // The server's own scheduler stays off: the tests run rounds on a clock of their own, until caught up.
    t = await startTestServer({ env: { RECURRING_POLL_MS: '0' } });
    scheduler = testScheduler(t, { now: () => clock });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    cy = await t.register('Cy');
    outsider = await t.register('Outsider');
  });
  afterAll(async () => {
    await scheduler.stop();
    await t.stop();
  });
}
