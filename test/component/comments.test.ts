/**
 * API.md §5.2: comments on expenses and settlements, and the list's filter rules that are not a
 * matter of data (validation, cursors tied to their filters, non-members) of §5.1.
 */

import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem, expectValidationFailed, postExpense, postSettlement } from './component-helpers';

describe('comments', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let groupId: string;

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    eve = await t.register('Eve');
    groupId = await t.createGroup(ada, [bob]);
  });
  afterAll(async () => {
    await t.stop();
  });

  const comment = (user: TestUser, path: string, text: unknown, key = newKey()) =>
    t.request.post(path).set(user.auth).set('Idempotency-Key', key).send({ text });
  const list = (user: TestUser, path: string, query: Record<string, string> = {}) =>
    t.request.get(path).query(query).set(user.auth);
  const events = async () =>
    (await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(ada.auth)).body.data as {
      seq: number;
      type: string;
      data: Record<string, unknown>;
    }[];

  it('a retried comment appears once, with one comment.created event', async () => {
    const expense = await postExpense(t, ada, groupId, ada, 900, [ada, bob]);
    const path = `/v1/expenses/${expense.body.id}/comments`;
    const key = newKey();
    const first = await comment(bob, path, 'Paid in cash', key);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^cmt_/),
      groupId,
      targetType: 'expense',
      targetId: expense.body.id,
      authorId: bob.id,
      text: 'Paid in cash',
      createdAt: expect.any(String),
    });
    expect(first.headers.location).toBe(`/v1/comments/${first.body.id}`);
    const retried = await comment(bob, path, 'Paid in cash', key);
    expect(retried.status).toBe(201);
    expect(retried.body).toEqual(first.body);
    const listed = await list(ada, path);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [first.body], nextCursor: null });
    const created = (await events()).filter((e) => e.type === 'comment.created');
    expect(created.map((e) => e.data)).toEqual([{ comment: first.body }]);
    // The same key with another text is another request: refused, not a second comment.
    expectProblem(await comment(bob, path, 'Changed my mind', key), 409, 'idempotency_key_reused');
  });

  it('stores text exactly as sent, counts code points, and refuses blank or oversized text', async () => {
    const expense = await postExpense(t, ada, groupId, ada, 900, [ada]);
    const path = `/v1/expenses/${expense.body.id}/comments`;
    const html = '  <script>alert(1)</script> &amp; \n';
    expect((await comment(ada, path, html)).body.text).toBe(html);
    // 2000 emoji are 4000 UTF-16 units but 2000 characters: accepted; 2001 are not.
    expect((await comment(ada, path, '👍'.repeat(2000))).status).toBe(201);
    expectValidationFailed(await comment(ada, path, '👍'.repeat(2001)), 'text');
    expectValidationFailed(await comment(ada, path, ''), 'text');
    expectValidationFailed(await comment(ada, path, ' \n\t '), 'text');
    expectValidationFailed(await comment(ada, path, 5), 'text');
    expectValidationFailed(await comment(ada, path, 'lone \ud800 surrogate'), 'text');
    expectProblem(
      await t.request.post(path).set(ada.auth).send({ text: 'no key' }),
      400,
      'idempotency_key_missing',
    );
  });

  it('lists oldest first across pages, and hides deleted comments', async () => {
    const stl = await postSettlement(t, bob, groupId, bob, ada, 100);
    const path = `/v1/settlements/${stl.body.id}/comments`;
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three', 'four', 'five'])
      ids.push((await comment(ada, path, text)).body.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await list(bob, path, cursor ? { limit: '2', cursor } : { limit: '2' });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect(
      (await t.request.delete(`/v1/comments/${ids[1]}`).set(ada.auth).set('Idempotency-Key', newKey()))
        .status,
    ).toBe(204);
    const after = await list(bob, path, { limit: '100' });
    expect(after.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0], ids[2], ids[3], ids[4]]);
    expectValidationFailed(await list(bob, path, { cursor: 'bogus' }), 'cursor');
  });

  it('deletes by its author only: 403 for another member, 404 for a non-member, 204 again once deleted', async () => {
    const expense = await postExpense(t, ada, groupId, ada, 900, [ada, bob]);
    const created = await comment(ada, `/v1/expenses/${expense.body.id}/comments`, 'mine');
    const del = (user: TestUser) =>
      t.request.delete(`/v1/comments/${created.body.id}`).set(user.auth).set('Idempotency-Key', newKey());
    expectProblem(await del(bob), 403, 'forbidden');
    expectProblem(await del(eve), 404, 'not_found');
    expect((await del(ada)).status).toBe(204);
    expect((await del(ada)).status).toBe(204);
    const deleted = (await events()).filter(
      (e) => e.type === 'comment.deleted' && (e.data.comment as { id: string }).id === created.body.id,
    );
    expect(deleted).toHaveLength(1);
    expect(deleted[0]?.data).toEqual({ comment: created.body, deletedAt: expect.any(String) });
    expectProblem(await del(bob), 403, 'forbidden');
  });

  it('404 for non-members, unknown and deleted targets; a restored expense has its comments back', async () => {
    const expense = await postExpense(t, ada, groupId, ada, 900, [ada]);
    const path = `/v1/expenses/${expense.body.id}/comments`;
    const kept = await comment(ada, path, 'before the delete');
    expectProblem(await list(eve, path), 404, 'not_found');
    expectProblem(await comment(eve, path, 'hi'), 404, 'not_found');
    expectProblem(await list(ada, '/v1/expenses/exp_unknown/comments'), 404, 'not_found');
    expectProblem(await comment(ada, '/v1/settlements/stl_unknown/comments', 'x'), 404, 'not_found');
    await t.request.delete(`/v1/expenses/${expense.body.id}`).set(ada.auth).set('Idempotency-Key', newKey());
    expectProblem(await list(ada, path), 404, 'not_found');
    expectProblem(await comment(ada, path, 'after'), 404, 'not_found');
    await t.request
      .post(`/v1/expenses/${expense.body.id}/restore`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey());
    expect((await list(ada, path)).body.data).toEqual([kept.body]);
  });
});

describe('the expense list: validation and cursors of the filters', () => {
  let t: TestServer;
  let ada: TestUser;
  let eve: TestUser;
  let groupId: string;

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    eve = await t.register('Eve');
    groupId = await t.createGroup(ada);
    for (const description of ['Café one', 'Café two', 'Café three']) {
      await postExpense(t, ada, groupId, ada, 100, [ada], { description });
    }
  });
  afterAll(async () => {
    await t.stop();
  });

  const get = (query: Record<string, string>, user = ada) =>
    t.request.get(`/v1/groups/${groupId}/expenses`).query(query).set(user.auth);

  it('refuses impossible timestamps, long queries, too many words and unknown parameters', async () => {
    for (const from of [
      '2026-02-30T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01',
      'x',
    ]) {
      expectValidationFailed(await get({ from }), 'from');
    }
    expect((await get({ from: '2024-02-29T23:59:59.999+05:30' })).status).toBe(200);
    expectValidationFailed(await get({ q: 'x'.repeat(201) }), 'q');
    expectValidationFailed(await get({ q: 'a b c d e f g h i j k' }), 'q');
    expectValidationFailed(await get({ includeDeleted: 'maybe' }), 'includeDeleted');
    expectValidationFailed(await get({ sort: 'amount' }), 'sort');
  });

  it('a cursor works only with the filters it was issued for', async () => {
    const first = await get({ q: 'cafe', limit: '1' });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    const cursor: string = first.body.nextCursor;
    expect((await get({ q: 'CAFÉ', limit: '1', cursor })).status).toBe(200);
    expectValidationFailed(await get({ q: 'two', limit: '1', cursor }), 'cursor');
    expectValidationFailed(await get({ limit: '1', cursor }), 'cursor');
    const plain = await get({ limit: '1' });
    expectValidationFailed(await get({ q: 'cafe', cursor: plain.body.nextCursor }), 'cursor');
    // A non-member learns nothing, not even that the cursor is bad.
    expectProblem(await get({ q: 'cafe', cursor: 'bogus' }, eve), 404, 'not_found');
    expectProblem(await get({ q: 'cafe' }, eve), 404, 'not_found');
  });
});
