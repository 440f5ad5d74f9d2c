/**
 * What the tests of people not on Tally yet share: one real server per test file
 * (`usePendingMembersServer()`) with Ada and Bob, and the requests the tests are made of (a pending
 * member, an expense, a settlement, an invite and its acceptance, events). The bindings are ES
 * module live bindings: set in `beforeAll`, read by the tests after it.
 */
import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

export let t: TestServer;
export let ada: TestUser;
export let bob: TestUser;

export const addPending = async (actor: TestUser, groupId: string, body: Record<string, unknown>) => {
  const res = await t.request.post(`/v1/groups/${groupId}/members`).set(actor.auth).send(body);
  expect(res.status).toBe(201);
  return res.body.userId as string;
};
export const expense = (
  actor: TestUser,
  groupId: string,
  paidBy: string,
  amount: number,
  between: string[],
) =>
  t.request
    .post('/v1/expenses')
    .set(actor.auth)
    .set('Idempotency-Key', newKey())
    .send({ groupId, description: 'Dinner', amount, paidBy, split: { type: 'equal', between } });
export const settle = (
  actor: TestUser,
  groupId: string,
  fromUserId: string,
  toUserId: string,
  amount: number,
) =>
  t.request
    .post('/v1/settlements')
    .set(actor.auth)
    .set('Idempotency-Key', newKey())
    .send({ groupId, fromUserId, toUserId, amount });
export const invite = async (actor: TestUser, groupId: string, body: Record<string, unknown> = {}) => {
  const res = await t.request.post(`/v1/groups/${groupId}/invites`).set(actor.auth).send(body);
  expect(res.status).toBe(201);
  return res.body as { id: string; code: string; expiresAt: string };
};
export const accept = (user: TestUser, code: string, body?: Record<string, unknown>) => {
  const req = t.request.post(`/v1/invites/${code}/accept`).set(user.auth);
  return body ? req.send(body) : req;
};
/** The account's login email counts as verified (API.md §2.5; the mailed link is tested in email-verification.test.ts). */
export const markVerified = async (userId: string) => {
  await t.db?.knex('users').where({ id: userId }).update({ email_verified_at: new Date() });
};
export const eventsOf = async (user: TestUser, groupId: string) => {
  const res = await t.request.get(`/v1/groups/${groupId}/events`).set(user.auth).query({ limit: 100 });
  expect(res.status).toBe(200);
  return res.body.data as { type: string; actorId: string; data: Record<string, unknown> }[];
};

/** Registers the server's start and stop for the calling file (each file has its own). */
export function usePendingMembersServer(): void {
  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    await t.stop();
  });
}
