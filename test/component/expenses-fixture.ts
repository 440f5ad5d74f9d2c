/**
 * What the expenses tests share: one real server per test file (started and stopped by
 * `useExpensesServer()`), four users, and the requests and checks the tests are made of. The
 * bindings are ES module live bindings: set in `beforeAll`, read by the tests after it.
 */
import type { Response } from 'supertest';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

export type Method = 'post' | 'put' | 'patch' | 'delete';
export type Body = Record<string, unknown>;

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const EXPENSE_ID = /^exp_[0-9A-HJKMNP-TV-Z]{26}$/;
export let t: TestServer;
export let ada: TestUser;
export let bob: TestUser;
export let cy: TestUser;
export let dan: TestUser; // registered, never a member of the groups below

/** A money write with a fresh Idempotency-Key (and any extra headers). */
export const write = (method: Method, path: string, user: TestUser, body?: unknown, headers: Body = {}) => {
  let req = t.request[method](path).set(user.auth).set('Idempotency-Key', newKey());
  for (const [name, value] of Object.entries(headers)) req = req.set(name, String(value));
  return body === undefined ? req : req.send(body as object);
};
export const get = (path: string, user: TestUser = ada) => t.request.get(path).set(user.auth);

export const newGroup = (body: Body = {}) => t.createGroup(ada, [bob, cy], body);

export const dinner = (groupId: string, overrides: Body = {}): Body => ({
  groupId,
  description: 'Dinner',
  amount: 100000,
  paidBy: ada.id,
  split: { type: 'equal', between: [ada.id, bob.id, cy.id] },
  ...overrides,
});

export const create = async (body: Body, user: TestUser = ada) => {
  const res = await write('post', '/v1/expenses', user, body);
  expect(res.status).toBe(201);
  return res.body as Body & { id: string; version: number };
};

export const expectProblem = (res: Response, status: number, code: string) => {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code, type: `/problems/${code.replace(/_/g, '-')}` });
};

export const expenseRows = async (groupId: string) =>
  t.db!.knex('expenses').where({ group_id: groupId }).orderBy('id').select();

export const eventCount = async (groupId: string) => {
  const res = await get(`/v1/groups/${groupId}/events?limit=100`);
  expect(res.status).toBe(200);
  expect(res.body.nextCursor).toBeNull();
  return (res.body.data as unknown[]).length;
};

/** currency → userId → net, from GET balances. */
export const balancesOf = async (groupId: string) => {
  const res = await get(`/v1/groups/${groupId}/balances`);
  expect(res.status).toBe(200);
  const out: Record<string, Record<string, number>> = {};
  for (const c of res.body.currencies as {
    currency: string;
    members: { userId: string; net: number }[];
  }[]) {
    out[c.currency] = Object.fromEntries(c.members.map((m) => [m.userId, m.net]));
  }
  return out;
};

/** Registers the server's start and stop for the calling file (each file has its own). */
export function useExpensesServer(): void {
  beforeAll(async () => {
    t = await startTestServer();
    [ada, bob, cy, dan] = [
      await t.register('Ada'),
      await t.register('Bob'),
      await t.register('Cy'),
      await t.register('Dan'),
    ];
  });
  afterAll(async () => {
    await t.stop();
  });
}
