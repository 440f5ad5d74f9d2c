/**
 * API.md §1: a cursor the API did not issue is `422 validation_failed` at `cursor`, on every list,
 * whatever it holds: not JSON, the wrong arity or types, a time PostgreSQL cannot hold (year 0000,
 * negative or six-digit years) or that is no real time, an id of another list, or a spelling the API
 * never writes. Never a 500, never a silently moved page.
 */
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

const forge = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
const ULID = '01JD3Q8Z4T6Y5W2N8K1M0PX7RC';
const TIME = '2026-11-25T10:00:00.000Z';

describe('cursors the API did not issue', () => {
  let t: TestServer;
  let ada: TestUser;
  let groupId: string;
  let expenseId: string;
  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
    const expense = await t.postOwnExpense(ada, groupId, newKey());
    expect(expense.status).toBe(201);
    expenseId = expense.body.id;
  });
  afterAll(async () => {
    await t.stop();
  });

  /** Every cursor-paginated list, with the id prefix its cursors carry (`seq` for the event log). */
  const lists = () => [
    { path: '/v1/groups', id: `grp_${ULID}` },
    { path: `/v1/groups/${groupId}/expenses`, id: `exp_${ULID}` },
    { path: `/v1/groups/${groupId}/settlements`, id: `stl_${ULID}` },
    { path: `/v1/groups/${groupId}/recurring`, id: `rec_${ULID}` },
    { path: '/v1/me/activity', id: `evt_${ULID}` },
    { path: `/v1/expenses/${expenseId}/comments`, id: `cmt_${ULID}` },
    { path: `/v1/groups/${groupId}/events`, id: undefined },
    { path: `/v1/expenses/${expenseId}/history`, id: undefined },
  ];

  const expect422 = async (path: string, cursor: string, query: Record<string, string> = {}) => {
    const res = await t.request
      .get(path)
      .query({ ...query, cursor })
      .set(ada.auth);
    expect({ path, cursor, status: res.status, code: res.body.code }).toEqual({
      path,
      cursor,
      status: 422,
      code: 'validation_failed',
    });
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'cursor' })]);
  };

  const shapeless = [
    'not-base64-json',
    forge(['not-a-date', 'exp_x']),
    forge([1, 2]),
    forge({ at: 1 }),
    forge(['abc']),
    forge([-1]),
    forge([]),
  ];
  it.each(shapeless)('answer 422 validation_failed on every list for cursor %s', async (cursor) => {
    for (const { path } of lists()) await expect422(path, cursor);
  });

  const badTimes = [
    '0000-01-01T00:00:00.000Z',
    '-000001-01-01T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '+010000-01-01T00:00:00.000Z',
    '2026-02-30T00:00:00.000Z',
    '2026-11-25',
    '2026-11-25T10:00:00Z',
    '2026-11-25T11:00:00.000+01:00',
  ];
  it.each(badTimes)('answer 422 (never 500) for a time-ordered cursor whose time is %s', async (time) => {
    for (const { path, id } of lists()) {
      if (id !== undefined) await expect422(path, forge([time, id]));
    }
    // the filtered expense list's cursor carries the filters' fingerprint too
    await expect422(`/v1/groups/${groupId}/expenses`, forge([time, `exp_${ULID}`, '0123456789abcdef']), {
      q: 'dinner',
    });
  });

  it("answers 422 for a cursor with another list's id, or an id of no list", async () => {
    const noId = ['', 'grp_1', 'exp_x y', `exp_${'i'.repeat(61)}`];
    for (const { path, id } of lists()) {
      if (id === undefined) continue;
      // an expense's id may be any id a client chose with PUT (`^[A-Za-z0-9_-]{8,64}$`): usr_… fits
      const others = path.endsWith('/expenses') ? noId : [...noId, `usr_${ULID}`, `${id}X`, id.toLowerCase()];
      for (const other of others) await expect422(path, forge([TIME, other]));
    }
    await expect422(`/v1/groups/${groupId}/settlements`, forge([TIME, `exp_${ULID}`]));
    await expect422('/v1/groups', forge([TIME, `rec_${ULID}`]));
  });

  it('answers 422 for a cursor the API would never spell so (padding, spaces, extra JSON)', async () => {
    const good = forge([TIME, `grp_${ULID}`]);
    // the same key written differently: still not what the API issued
    const spaced = Buffer.from(`[ "${TIME}", "grp_${ULID}" ]`).toString('base64url');
    for (const cursor of [
      `${good}=`,
      `${good} `,
      spaced,
      Buffer.from(`["${TIME}","grp_${ULID}"]`).toString('base64'),
    ]) {
      if (cursor === good) continue;
      await expect422('/v1/groups', cursor);
    }
    for (const cursor of [forge([1.5]), forge([2 ** 60]), forge(['1'])]) {
      await expect422(`/v1/groups/${groupId}/events`, cursor);
      await expect422(`/v1/expenses/${expenseId}/history`, cursor);
    }
  });

  it('still takes the cursors it issued (every list pages on)', async () => {
    for (let i = 0; i < 2; i++) {
      await t.createGroup(ada);
      expect((await t.postOwnExpense(ada, groupId, newKey())).status).toBe(201);
      const comment = await t.request
        .post(`/v1/expenses/${expenseId}/comments`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ text: `comment ${i}` });
      expect(comment.status).toBe(201);
      // a second and third version of the expense, for its history (API.md §15)
      const edit = await t.request
        .patch(`/v1/expenses/${expenseId}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ description: `edit ${i}` });
      expect(edit.status).toBe(200);
    }
    for (const { path } of lists()) {
      if (path.endsWith('/recurring') || path.endsWith('/settlements')) continue;
      const first = await t.request.get(path).query({ limit: 1 }).set(ada.auth);
      expect({ path, status: first.status, next: typeof first.body.nextCursor }).toEqual({
        path,
        status: 200,
        next: 'string',
      });
      const second = await t.request
        .get(path)
        .query({ limit: 1, cursor: first.body.nextCursor })
        .set(ada.auth);
      expect({ path, status: second.status, items: second.body.data.length }).toEqual({
        path,
        status: 200,
        items: 1,
      });
    }
  });
});
