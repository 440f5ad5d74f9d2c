/**
 * What the Splitwise import tests share: files made of rows, the sample export and its totals, one
 * real server per test file (`useImportsServer()`) with Ada and Bob, their groups, the upload and
 * what it left in the database. The bindings are ES module live bindings: set in `beforeAll`, read
 * by the tests after it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

export const TWO = 'Date,Description,Category,Cost,Currency,Ada,Bob';
/** A row of Ada and Bob: Ada paid 10.00 for both (`tag` makes it unique). */
export const goodRow = (date: string, tag: string) => `${date},${tag},General,10.00,EUR,5.00,-5.00`;
/** A row whose nets do not add up: refused alone. */
export const refusedRow = (tag: string) => `2024-01-01,${tag},General,10.00,EUR,5.00,-4.00`;
export const fileOf = (rows: string[]) => `${TWO}\r\n${rows.join('\r\n')}\r\n`;
export type Refusal = { line: number; reason: string };

export const FIXTURE = readFileSync(path.join(__dirname, '../fixtures/splitwise-export.csv'), 'utf8');
export const PEOPLE = ['Ada Lovelace', 'Bob Smith', 'Carol "CJ" Jones'] as const;
/** The fixture's "Total balance" row, in cents. */
export const FILE_TOTAL = [-2083, 717, 1366];
export let t: TestServer;
export let ada: TestUser;
export let bob: TestUser;

/** A group of Ada, Bob and a pending member Carol; the mapping of the fixture's columns. */
export async function groupWithCarol() {
  const groupId = await t.createGroup(ada, [bob], { currency: 'EUR' });
  const added = await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ name: 'Carol' });
  expect(added.status).toBe(201);
  const carol = added.body.userId as string;
  const members = { [PEOPLE[0]]: ada.id, [PEOPLE[1]]: bob.id, [PEOPLE[2]]: carol };
  return { groupId, carol, members };
}

export const upload = (groupId: string, body: object, key = newKey()) =>
  t.request.post(`/v1/groups/${groupId}/imports`).set(ada.auth).set('Idempotency-Key', key).send(body);

export const counts = async (groupId: string) => {
  const knex = t.db!.knex;
  const [expenses] = await knex('expenses').where({ group_id: groupId }).count<{ count: string }[]>();
  const [settlements] = await knex('settlements').where({ group_id: groupId }).count<{ count: string }[]>();
  const [imports] = await knex('imports').where({ group_id: groupId }).count<{ count: string }[]>();
  return {
    expenses: Number(expenses!.count),
    settlements: Number(settlements!.count),
    imports: Number(imports!.count),
  };
};

/** A group of Ada and Bob, and the mapping of the `TWO` columns. */
export async function groupOfTwo() {
  const groupId = await t.createGroup(ada, [bob], { currency: 'EUR' });
  return { groupId, members: { Ada: ada.id, Bob: bob.id } };
}

export const eventTypes = async (groupId: string) => {
  const types: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await t.request
      .get(`/v1/groups/${groupId}/events`)
      .query({ limit: 100, ...(cursor ? { cursor } : {}) })
      .set(ada.auth);
    types.push(...page.body.data.map((e: { type: string }) => e.type));
    cursor = page.body.nextCursor ?? undefined;
  } while (cursor);
  const count = (type: string) => types.filter((x) => x === type).length;
  return {
    started: count('import.started'),
    completed: count('import.completed'),
    expenses: count('expense.created'),
  };
};

/** Registers the server's start and stop for the calling file (each file has its own). */
export function useImportsServer(): void {
  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    await t.stop();
  });
}
