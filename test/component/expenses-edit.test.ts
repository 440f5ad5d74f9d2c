/**
 * Expenses after their creation, over HTTP against the contract (API.md §1, §4, §6): read, list,
 * PUT (replace and create at a client-chosen id), PATCH, DELETE, restore, If-Match / If-None-Match.
 * Runs the real server on a fresh PostgreSQL database.
 */
import {
  ada,
  type Body,
  balancesOf,
  bob,
  create,
  cy,
  dan,
  dinner,
  eventCount,
  expectProblem,
  expenseRows,
  get,
  ISO,
  type Method,
  newGroup,
  useExpensesServer,
  write,
} from './expenses-fixture';

describe('expenses', () => {
  useExpensesServer();

  // ---- read ------------------------------------------------------------------------------------
  describe('GET /v1/expenses/{id}', () => {
    it('returns the expense with its ETag and Cache-Control: private, no-cache', async () => {
      const groupId = await newGroup();
      const created = await write('post', '/v1/expenses', ada, dinner(groupId, { category: 'food' }));
      const res = await get(`/v1/expenses/${created.body.id}`, bob);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['etag']).toBe(created.headers['etag']);
      expect(res.body).toEqual(created.body);
    });

    it('answers If-None-Match with the current ETag with 304 and no body, and a stale one with 200', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      const first = await get(`/v1/expenses/${expense.id}`);
      const etag = first.headers['etag'] as string;

      const notModified = await get(`/v1/expenses/${expense.id}`).set('If-None-Match', etag);
      expect(notModified.status).toBe(304);
      expect(notModified.text ?? '').toBe('');

      const patched = await write('patch', `/v1/expenses/${expense.id}`, ada, { description: 'Lunch' });
      expect(patched.status).toBe(200);
      const stale = await get(`/v1/expenses/${expense.id}`).set('If-None-Match', etag);
      expect(stale.status).toBe(200);
      expect(stale.body.description).toBe('Lunch');
      expect(stale.headers['etag']).not.toBe(etag);
      expect(stale.headers['etag']).toBe(patched.headers['etag']);
    });

    it('is 404 not_found for an unknown id', async () => {
      const res = await get('/v1/expenses/exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC');
      expectProblem(res, 404, 'not_found');
    });
  });

  describe('GET /v1/groups/{id}/expenses', () => {
    it('lists newest first by occurredAt and paginates without gaps or repeats', async () => {
      const groupId = await newGroup();
      const days = [3, 1, 5, 2, 4];
      const made: { id: string; occurredAt: string }[] = [];
      for (const day of days) {
        const e = await create(
          dinner(groupId, { description: `Day ${day}`, occurredAt: `2026-11-0${day}T12:00:00.000Z` }),
        );
        made.push({ id: e.id, occurredAt: e.occurredAt as string });
      }
      const expected = [...made].sort((a, b) => b.occurredAt.localeCompare(a.occurredAt)).map((e) => e.id);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `limit=2&cursor=${encodeURIComponent(cursor)}` : 'limit=2';
        const res = await get(`/v1/groups/${groupId}/expenses?${query}`);
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.map((e: { id: string }) => e.id));
        cursor = res.body.nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 10);

      expect(pages).toBe(3);
      expect(seen).toEqual(expected);

      const all = await get(`/v1/groups/${groupId}/expenses`);
      expect(all.body.data.map((e: { description: string }) => e.description)).toEqual([
        'Day 5',
        'Day 4',
        'Day 3',
        'Day 2',
        'Day 1',
      ]);
      expect(all.body.nextCursor).toBeNull();
    });

    it.each(['limit=0', 'limit=101', 'limit=abc', 'cursor=not-a-cursor'])(
      'rejects ?%s with 422',
      async (query) => {
        const groupId = await newGroup();
        const res = await get(`/v1/groups/${groupId}/expenses?${query}`);
        expectProblem(res, 422, 'validation_failed');
      },
    );
  });

  // ---- PUT -------------------------------------------------------------------------------------
  describe('PUT /v1/expenses/{id}', () => {
    const clientId = () => `offline_${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

    it('creates the expense at a new client-chosen id: 201 with that id, Location and ETag', async () => {
      const groupId = await newGroup();
      const id = clientId();
      const res = await write('put', `/v1/expenses/${id}`, ada, dinner(groupId));
      expect(res.status).toBe(201);
      expect(res.body.id).toBe(id);
      expect(res.body.version).toBe(1);
      expect(res.headers['location']).toBe(`/v1/expenses/${id}`);
      expect(res.headers['etag']).toEqual(expect.any(String));
      const read = await get(`/v1/expenses/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
      expect((await balancesOf(groupId))['INR']?.[ada.id]).toBe(66666);
    });

    it('leaves the same state when the same PUT is repeated: 200, same expense, no new event', async () => {
      const groupId = await newGroup();
      const id = clientId();
      const body = dinner(groupId, {
        category: 'food',
        paidBy: [
          { userId: ada.id, amount: 70000 },
          { userId: bob.id, amount: 30000 },
        ],
        split: {
          type: 'percent',
          between: [
            { userId: ada.id, percent: 33.33 },
            { userId: bob.id, percent: 33.33 },
            { userId: cy.id, percent: 33.34 },
          ],
        },
      });
      const first = await write('put', `/v1/expenses/${id}`, ada, body);
      expect(first.status).toBe(201);
      const events = await eventCount(groupId);
      const balances = await balancesOf(groupId);

      const again = await write('put', `/v1/expenses/${id}`, ada, body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers['etag']).toBe(first.headers['etag']);
      expect(await eventCount(groupId)).toBe(events);
      expect(await balancesOf(groupId)).toEqual(balances);
      const [row] = await expenseRows(groupId);
      expect(row.version).toBe(1);
    });

    it('replaces an existing expense with a full body: 200, new content, version + 1', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      const res = await write(
        'put',
        `/v1/expenses/${expense.id}`,
        ada,
        dinner(groupId, {
          description: 'Taxi',
          amount: 300,
          paidBy: bob.id,
          split: { type: 'equal', between: [bob.id, cy.id] },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: expense.id,
        description: 'Taxi',
        amount: 300,
        paidBy: [{ userId: bob.id, amount: 300 }],
        shares: [
          { userId: bob.id, owed: 150 },
          { userId: cy.id, owed: 150 },
        ],
        createdAt: expense.createdAt,
        version: 2,
      });
      expect(await balancesOf(groupId)).toEqual({ INR: { [ada.id]: 0, [bob.id]: 150, [cy.id]: -150 } });
    });

    it.each([
      ['too short', 'abc1234'],
      ['too long', 'a'.repeat(65)],
      ['a dot', 'abcdefgh.ij'],
      ['a space', 'abcd%20efgh'],
      ['a non-ASCII letter', 'abcdefgh%C3%A9'],
    ])('rejects a client id that is %s with 422 validation_failed, writing nothing', async (_name, id) => {
      const groupId = await newGroup();
      const res = await write('put', `/v1/expenses/${id}`, ada, dinner(groupId));
      expectProblem(res, 422, 'validation_failed');
      expect(await expenseRows(groupId)).toHaveLength(0);
    });

    it('accepts a client id of exactly 8 and of exactly 64 characters', async () => {
      const groupId = await newGroup();
      const short = `A_-${Math.random().toString(36).slice(2, 7)}`.padEnd(8, 'x').slice(0, 8);
      const long = `${clientId()}${'z'.repeat(64)}`.slice(0, 64);
      for (const id of [short, long]) {
        const res = await write('put', `/v1/expenses/${id}`, ada, dinner(groupId));
        expect(res.status).toBe(201);
        expect(res.body.id).toBe(id);
      }
    });

    it('rejects moving an expense to another group with 422, changing nothing', async () => {
      const groupId = await newGroup();
      const otherGroupId = await newGroup();
      const expense = await create(dinner(groupId));
      const res = await write('put', `/v1/expenses/${expense.id}`, ada, dinner(otherGroupId));
      expectProblem(res, 422, 'validation_failed');
      const read = await get(`/v1/expenses/${expense.id}`);
      expect(read.body).toEqual(expense);
      expect(await expenseRows(otherGroupId)).toHaveLength(0);
      expect(await balancesOf(otherGroupId)).toEqual({});
    });
  });

  // ---- PATCH -----------------------------------------------------------------------------------
  describe('PATCH /v1/expenses/{id}', () => {
    it('changes only the fields given: 200, version + 1, updatedAt moves', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId, { category: 'food' }));
      const res = await write('patch', `/v1/expenses/${expense.id}`, bob, { description: 'Late dinner' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...expense,
        description: 'Late dinner',
        version: 2,
        updatedAt: expect.stringMatching(ISO),
      });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(expense.updatedAt as string));
      expect(res.headers['etag']).toEqual(expect.any(String));
      expect((await get(`/v1/expenses/${expense.id}`)).body).toEqual(res.body);
    });

    it('recomputes shares when the amount changes, and the single payer pays the new amount', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      const res = await write('patch', `/v1/expenses/${expense.id}`, ada, { amount: 200 });
      expect(res.status).toBe(200);
      expect(res.body.paidBy).toEqual([{ userId: ada.id, amount: 200 }]);
      expect(res.body.shares).toEqual([
        { userId: ada.id, owed: 67 },
        { userId: bob.id, owed: 67 },
        { userId: cy.id, owed: 66 },
      ]);
      expect(await balancesOf(groupId)).toEqual({ INR: { [ada.id]: 133, [bob.id]: -67, [cy.id]: -66 } });
    });

    it('moves the expense between currencies in balances when the currency changes', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      const res = await write('patch', `/v1/expenses/${expense.id}`, ada, { currency: 'USD' });
      expect(res.status).toBe(200);
      expect(res.body.currency).toBe('USD');
      expect(await balancesOf(groupId)).toEqual({
        USD: { [ada.id]: 66666, [bob.id]: -33333, [cy.id]: -33333 },
      });
    });

    it('rejects a new amount that an exact split no longer adds up to: 422 split_mismatch, nothing changed', async () => {
      const groupId = await newGroup();
      const expense = await create(
        dinner(groupId, {
          amount: 300,
          split: {
            type: 'exact',
            between: [
              { userId: ada.id, amount: 100 },
              { userId: bob.id, amount: 200 },
            ],
          },
        }),
      );
      const events = await eventCount(groupId);
      const balances = await balancesOf(groupId);
      const res = await write('patch', `/v1/expenses/${expense.id}`, ada, { amount: 301 });
      expectProblem(res, 422, 'split_mismatch');
      expect((await get(`/v1/expenses/${expense.id}`)).body).toEqual(expense);
      expect(await eventCount(groupId)).toBe(events);
      expect(await balancesOf(groupId)).toEqual(balances);
    });

    it('rejects groupId with 422 validation_failed, nothing changed', async () => {
      const groupId = await newGroup();
      const otherGroupId = await newGroup();
      const expense = await create(dinner(groupId));
      const res = await write('patch', `/v1/expenses/${expense.id}`, ada, { groupId: otherGroupId });
      expectProblem(res, 422, 'validation_failed');
      expect((await get(`/v1/expenses/${expense.id}`)).body).toEqual(expense);
    });

    it('rejects an empty patch and a participant who is not a member with 422', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      expectProblem(await write('patch', `/v1/expenses/${expense.id}`, ada, {}), 422, 'validation_failed');
      const res = await write('patch', `/v1/expenses/${expense.id}`, ada, {
        split: { type: 'equal', between: [ada.id, dan.id] },
      });
      expectProblem(res, 422, 'not_a_member');
      expect(res.body.errors).toEqual([
        { path: 'split.between[1]', message: `${dan.id} is not a member of this group` },
      ]);
      expect((await get(`/v1/expenses/${expense.id}`)).body).toEqual(expense);
    });

    it('leaves a patch that changes nothing as a 200 no-op without a new version or event', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      const events = await eventCount(groupId);
      const res = await write('patch', `/v1/expenses/${expense.id}`, ada, {
        description: 'Dinner',
        amount: 100000,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expense);
      expect(await eventCount(groupId)).toBe(events);
    });
  });

  // ---- DELETE and restore ----------------------------------------------------------------------
  describe('DELETE and restore', () => {
    it('deletes: 204, again 204, GET 404, gone from the list and from balances', async () => {
      const groupId = await newGroup();
      const keep = await create(dinner(groupId, { amount: 300, paidBy: bob.id }));
      const gone = await create(dinner(groupId));

      const first = await write('delete', `/v1/expenses/${gone.id}`, ada);
      expect(first.status).toBe(204);
      expect(first.text ?? '').toBe('');
      const events = await eventCount(groupId);
      const again = await write('delete', `/v1/expenses/${gone.id}`, bob);
      expect(again.status).toBe(204);
      expect(await eventCount(groupId)).toBe(events);

      expectProblem(await get(`/v1/expenses/${gone.id}`), 404, 'not_found');
      const list = await get(`/v1/groups/${groupId}/expenses`);
      expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([keep.id]);
      expect(await balancesOf(groupId)).toEqual({ INR: { [ada.id]: -100, [bob.id]: 200, [cy.id]: -100 } });
    });

    it('drops the currency from balances when its last live record is deleted', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId, { currency: 'USD' }));
      expect(Object.keys(await balancesOf(groupId))).toEqual(['USD']);
      expect((await write('delete', `/v1/expenses/${expense.id}`, ada)).status).toBe(204);
      expect(await balancesOf(groupId)).toEqual({});
    });

    it('restores: 200 with the expense, readable again and back in balances', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      const before = await balancesOf(groupId);
      expect((await write('delete', `/v1/expenses/${expense.id}`, ada)).status).toBe(204);
      expect(await balancesOf(groupId)).toEqual({});

      const restored = await write('post', `/v1/expenses/${expense.id}/restore`, bob);
      expect(restored.status).toBe(200);
      expect(restored.body).toEqual({
        ...expense,
        updatedAt: expect.stringMatching(ISO),
        version: 3,
      });
      expect(restored.headers['etag']).toEqual(expect.any(String));
      const read = await get(`/v1/expenses/${expense.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(restored.body);
      expect(await balancesOf(groupId)).toEqual(before);
      const list = await get(`/v1/groups/${groupId}/expenses`);
      expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([expense.id]);
    });

    it('treats restoring a live expense as a 200 no-op', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      const events = await eventCount(groupId);
      const balances = await balancesOf(groupId);
      const res = await write('post', `/v1/expenses/${expense.id}/restore`, ada);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expense);
      expect(await eventCount(groupId)).toBe(events);
      expect(await balancesOf(groupId)).toEqual(balances);
    });

    it('is 404 for deleting or restoring an unknown expense', async () => {
      const id = 'exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC';
      expectProblem(await write('delete', `/v1/expenses/${id}`, ada), 404, 'not_found');
      expectProblem(await write('post', `/v1/expenses/${id}/restore`, ada), 404, 'not_found');
    });
  });

  // ---- If-Match and versions -------------------------------------------------------------------
  describe('If-Match', () => {
    const changes: [string, Method, (groupId: string) => Body | undefined, number][] = [
      ['PUT', 'put', (groupId) => dinner(groupId, { description: 'Brunch' }), 200],
      ['PATCH', 'patch', () => ({ description: 'Brunch' }), 200],
      ['DELETE', 'delete', () => undefined, 204],
    ];

    it.each(changes)(
      '%s with a stale If-Match is 412 precondition_failed and changes nothing',
      async (_n, method, bodyOf) => {
        const groupId = await newGroup();
        const expense = await create(dinner(groupId));
        const events = await eventCount(groupId);
        for (const ifMatch of ['"v999"', '"nope"', 'W/"v1"']) {
          const res = await write(method, `/v1/expenses/${expense.id}`, ada, bodyOf(groupId), {
            'If-Match': ifMatch,
          });
          expectProblem(res, 412, 'precondition_failed');
        }
        expect((await get(`/v1/expenses/${expense.id}`)).body).toEqual(expense);
        expect(await eventCount(groupId)).toBe(events);
      },
    );

    it.each(changes)('%s with the current ETag in If-Match succeeds', async (_n, method, bodyOf, status) => {
      const groupId = await newGroup();
      const created = await write('post', '/v1/expenses', ada, dinner(groupId));
      const etag = created.headers['etag'] as string;
      const res = await write(method, `/v1/expenses/${created.body.id}`, ada, bodyOf(groupId), {
        'If-Match': etag,
      });
      expect(res.status).toBe(status);
      const read = await get(`/v1/expenses/${created.body.id}`);
      if (method === 'delete') expect(read.status).toBe(404);
      else expect(read.body).toMatchObject({ description: 'Brunch', version: 2 });
    });

    it('rejects a change made with an ETag that an earlier change made stale', async () => {
      const groupId = await newGroup();
      const created = await write('post', '/v1/expenses', ada, dinner(groupId));
      const etag = created.headers['etag'] as string;
      const first = await write(
        'patch',
        `/v1/expenses/${created.body.id}`,
        ada,
        { amount: 300 },
        { 'If-Match': etag },
      );
      expect(first.status).toBe(200);
      const second = await write(
        'patch',
        `/v1/expenses/${created.body.id}`,
        bob,
        { amount: 600 },
        { 'If-Match': etag },
      );
      expectProblem(second, 412, 'precondition_failed');
      expect((await get(`/v1/expenses/${created.body.id}`)).body.amount).toBe(300);
    });

    it('increments the version on every change: create 1, PATCH 2, PUT 3, DELETE 4, restore 5', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId));
      expect(expense.version).toBe(1);
      const path = `/v1/expenses/${expense.id}`;
      expect((await write('patch', path, ada, { amount: 500 })).body.version).toBe(2);
      expect((await write('put', path, ada, dinner(groupId, { amount: 700 }))).body.version).toBe(3);
      expect((await write('delete', path, ada)).status).toBe(204);
      const [row] = await expenseRows(groupId);
      expect(row.version).toBe(4);
      const restored = await write('post', `${path}/restore`, ada);
      expect(restored.body.version).toBe(5);
      const read = await get(path);
      expect(read.body.version).toBe(5);
      expect(read.headers['etag']).toBe(restored.headers['etag']);
    });
  });
});
