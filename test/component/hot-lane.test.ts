/**
 * The hot lane (apps/api/src/http/hot-lane.ts) answers exactly as express does. Each request is
 * sent twice: in its plainest spelling, which the lane takes, and in one the lane leaves to express
 * (an empty query, an uppercase path), which reaches the same route. Status, headers and body must
 * be the same, for successes, replays and every refusal; the clock-derived headers (Date, the seconds
 * left of the rate-limit window) are bounded, not compared (test/support/clock-headers.ts).
 */
import type { Response } from 'supertest';
import { hotLaneTakenForTest } from '../../apps/api/src/http/hot-lane';
import { withoutClock } from '../support/clock-headers';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

let t: TestServer;
let alice: TestUser;
let bob: TestUser;
let groupId: string;

beforeAll(async () => {
  t = await startTestServer();
  alice = await t.register('Alice');
  bob = await t.register('Bob');
  groupId = await t.createGroup(alice);
});
afterAll(() => t.stop());

/**
 * What a client can see of an answer, but the clock (Date, the window's seconds left: a second boundary
 * may fall between the two requests) and the budget's count (each request spends one).
 */
function seen(res: Response) {
  const headers = withoutClock(res.headers);
  if (headers['ratelimit-remaining'] !== undefined) {
    expect(headers['ratelimit-remaining']).toMatch(/^\d+$/);
    headers['ratelimit-remaining'] = 'a count';
  }
  return { status: res.status, headers, text: res.text };
}

/** `send`'s answer, once it is seen to have gone through the lane (`lane` 1) or through express (0). */
async function through(lane: 0 | 1, send: () => PromiseLike<Response>): Promise<Response> {
  const before = hotLaneTakenForTest();
  const res = await send();
  expect(hotLaneTakenForTest() - before).toBe(lane);
  return res;
}

const expense = (amount = 1000) => ({
  groupId,
  description: 'Dinner',
  amount,
  paidBy: alice.id,
  split: { type: 'equal', between: [alice.id] },
});

describe('hot lane and express answer alike', () => {
  it('takes the plainest spelling of each of its requests, and leaves every other spelling to express', async () => {
    const created = await t.postOwnExpense(alice, groupId, newKey());
    const id: string = created.body.id;
    const key = newKey();
    const ok = (res: Response) => expect(res.status).toBeLessThan(300);
    ok(await through(1, () => t.request.get(`/v1/expenses/${id}`).set(alice.auth)));
    ok(await through(1, () => t.request.get(`/v1/groups/${groupId}/balances`).set(alice.auth)));
    const post = (path: string) => () =>
      t.request.post(path).set(alice.auth).set('Idempotency-Key', key).send(expense());
    ok(await through(1, post('/v1/expenses')));
    ok(await through(1, post('/v1/expenses'))); // the replay
    ok(await through(0, post('/V1/Expenses')));
    ok(await through(0, () => t.request.get(`/v1/expenses/${id}?x=1`).set(alice.auth)));
    ok(await through(0, () => t.request.get(`/V1/Groups/${groupId}/balances`).set(alice.auth)));
    ok(
      await through(0, () => t.request.get(`/v1/expenses/${id}`).set(alice.auth).set('If-None-Match', '"x"')),
    );
  });

  it('GET /v1/expenses/{id}: found, unknown, another user, no token, a bad token', async () => {
    const created = await t.postOwnExpense(alice, groupId, newKey());
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const cases: [string, Record<string, string>][] = [
      [id, alice.auth],
      ['exp_01ARZ3NDEKTSV4RRFFQ69G5FAV', alice.auth],
      [id, bob.auth],
      [id, {}],
      [id, { Authorization: 'Bearer not-a-token' }],
    ];
    for (const [expenseId, auth] of cases) {
      const rid = `rid-${expenseId}-${Object.keys(auth).length}`;
      const hot = await through(1, () =>
        t.request.get(`/v1/expenses/${expenseId}`).set(auth).set('X-Request-Id', rid),
      );
      const routed = await through(0, () =>
        t.request.get(`/V1/Expenses/${expenseId}`).set(auth).set('X-Request-Id', rid),
      );
      expect(seen(hot)).toEqual(seen(routed));
    }
    const ok = await t.request.get(`/v1/expenses/${id}`).set(alice.auth);
    expect(ok.status).toBe(200);
    expect(ok.body.id).toBe(id);
    expect(ok.headers['etag']).toBe(`"v${ok.body.version}"`);
    expect(ok.headers['cache-control']).toBe('private, no-cache');
    expect(ok.headers['ratelimit-limit']).toEqual(expect.any(String));
  });

  it('GET balances: a member, another user, an unknown group, no token', async () => {
    await t.postOwnExpense(alice, groupId, newKey());
    const cases: [string, Record<string, string>][] = [
      [groupId, alice.auth],
      [groupId, bob.auth],
      ['grp_01ARZ3NDEKTSV4RRFFQ69G5FAV', alice.auth],
      [groupId, {}],
    ];
    for (const [id, auth] of cases) {
      const rid = `rid-${id}-${Object.keys(auth).length}`;
      const hot = await through(1, () =>
        t.request.get(`/v1/groups/${id}/balances`).set(auth).set('X-Request-Id', rid),
      );
      const routed = await through(0, () =>
        t.request.get(`/V1/Groups/${id}/balances`).set(auth).set('X-Request-Id', rid),
      );
      expect(seen(hot)).toEqual(seen(routed));
    }
    const ok = await t.request.get(`/v1/groups/${groupId}/balances`).set(alice.auth);
    expect(ok.status).toBe(200);
    expect(ok.body.groupId).toBe(groupId);
    expect(ok.headers['etag']).toMatch(/^W\//);
  });

  it('POST /v1/expenses: first run in the lane, replays either way, reuse, bad key, bad JSON', async () => {
    const key = newKey();
    const first = await t.request
      .post('/v1/expenses')
      .set(alice.auth)
      .set('Idempotency-Key', key)
      .send(expense());
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const send = (path: string, headers: Record<string, string>, body: unknown) =>
      t.request
        .post(path)
        .set(headers)
        .set('X-Request-Id', 'rid-post')
        .send(body as object);
    const cases: [Record<string, string>, unknown][] = [
      [{ ...alice.auth, 'Idempotency-Key': key }, expense()],
      // The same key for a different request.
      [{ ...alice.auth, 'Idempotency-Key': key }, expense(2000)],
      // A key over 255 characters: 400 before anything is claimed.
      [{ ...alice.auth, 'Idempotency-Key': 'k'.repeat(256) }, expense()],
      [{ 'Idempotency-Key': key }, expense()],
      [
        { ...alice.auth, 'Idempotency-Key': newKey() },
        { ...expense(), amount: -5 },
      ],
    ];
    for (const [headers, body] of cases) {
      const hot = await through(1, () => send('/v1/expenses', headers, body));
      const routed = await through(0, () => send('/V1/Expenses', headers, body));
      expect(seen(hot)).toEqual(seen(routed));
    }
    const replay = await send('/v1/expenses', { ...alice.auth, 'Idempotency-Key': key }, expense());
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(replay.headers['location']).toBe(first.headers['location']);

    const malformed = (path: string) =>
      t.request
        .post(path)
        .set(alice.auth)
        .set('Idempotency-Key', newKey())
        .set('Content-Type', 'application/json')
        .set('X-Request-Id', 'rid-bad-json')
        .send('{"groupId":');
    expect(seen(await through(1, () => malformed('/v1/expenses')))).toEqual(
      seen(await through(0, () => malformed('/V1/Expenses'))),
    );
    expect((await malformed('/v1/expenses')).status).toBe(400);
  });
});
