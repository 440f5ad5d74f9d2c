/**
 * Shared assertions and shortcuts for the component tests in this folder (not a test file itself).
 */
import type { Response } from 'supertest';
import { newKey, type TestServer, type TestUser } from '../support/test-server';

export const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
export const idPattern = (prefix: string) => new RegExp(`^${prefix}_${ULID}$`);
export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Asserts an RFC 9457 problem with the exact API.md shape: the problem content type, `type` derived
 * from `code`, a title, the status repeated in the body, a detail and the response's request id.
 */
export function expectProblem(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toEqual(
    expect.objectContaining({
      type: `/problems/${code.replace(/_/g, '-')}`,
      title: expect.any(String),
      status,
      code,
      detail: expect.any(String),
      requestId: res.headers['x-request-id'],
    }),
  );
  expect(res.body.title.length).toBeGreaterThan(0);
  expect(res.headers['x-request-id']).toEqual(expect.any(String));
}

/** A 422 validation_failed whose `errors` name every one of `paths`. */
export function expectValidationFailed(res: Response, ...paths: string[]): void {
  expectProblem(res, 422, 'validation_failed');
  expect(res.body.errors).toEqual(expect.any(Array));
  for (const error of res.body.errors) {
    expect(error).toEqual({ path: expect.any(String), message: expect.any(String) });
  }
  const reported = res.body.errors.map((e: { path: string }) => e.path);
  for (const path of paths) expect(reported).toContain(path);
}

export type Net = { userId: string; net: number };
export type Transfer = { from: string; to: string; amount: number };
export type CurrencyBalances = {
  currency: string;
  members: Net[];
  simplified: Transfer[];
  /** Only in `GET …/balances`, not in events' `balances` (API.md §6). */
  original?: Transfer[];
};

/** POST /v1/expenses with a fresh key: `payer` pays `amount`, split equally `between`. */
export function postExpense(
  t: TestServer,
  actor: TestUser,
  groupId: string,
  payer: TestUser,
  amount: number,
  between: TestUser[],
  extra: Record<string, unknown> = {},
) {
  return t.request
    .post('/v1/expenses')
    .set(actor.auth)
    .set('Idempotency-Key', newKey())
    .send({
      groupId,
      description: 'Dinner',
      amount,
      paidBy: payer.id,
      split: { type: 'equal', between: between.map((u) => u.id) },
      ...extra,
    });
}

/** POST /v1/settlements with a fresh key: `from` pays `to` back `amount`. */
export function postSettlement(
  t: TestServer,
  actor: TestUser,
  groupId: string,
  from: TestUser,
  to: TestUser,
  amount: number,
  extra: Record<string, unknown> = {},
) {
  return t.request
    .post('/v1/settlements')
    .set(actor.auth)
    .set('Idempotency-Key', newKey())
    .send({ groupId, fromUserId: from.id, toUserId: to.id, amount, ...extra });
}

export async function balancesOf(t: TestServer, user: TestUser, groupId: string) {
  const res = await t.request.get(`/v1/groups/${groupId}/balances`).set(user.auth);
  expect(res.status).toBe(200);
  return res.body as { groupId: string; asOfSeq: number; currencies: CurrencyBalances[] };
}

/** The nets of one currency as a plain object, `{ [userId]: net }`. */
export function netsIn(currencies: CurrencyBalances[], currency: string): Record<string, number> {
  const entry = currencies.find((c) => c.currency === currency);
  if (!entry) throw new Error(`no ${currency} in balances: ${JSON.stringify(currencies)}`);
  return Object.fromEntries(entry.members.map((m) => [m.userId, m.net]));
}
