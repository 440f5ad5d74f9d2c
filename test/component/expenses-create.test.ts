/**
 * Creating expenses over HTTP against the contract (API.md §1, §4, §6): `POST /v1/expenses`, the
 * exact shares of every split type and what a create refuses. Runs the real server on a fresh
 * PostgreSQL database.
 */
import {
  ada,
  balancesOf,
  bob,
  create,
  cy,
  dan,
  dinner,
  EXPENSE_ID,
  eventCount,
  expectProblem,
  expenseRows,
  get,
  ISO,
  newGroup,
  t,
  useExpensesServer,
  write,
} from './expenses-fixture';

describe('expenses', () => {
  useExpensesServer();

  // ---- create ----------------------------------------------------------------------------------
  describe('POST /v1/expenses', () => {
    it('creates an expense: 201 with Location, ETag and the full expense shape', async () => {
      const groupId = await newGroup();
      const body = dinner(groupId, {
        category: 'food',
        currency: 'INR',
        occurredAt: '2026-11-25T19:30:00.000Z',
      });
      const res = await write('post', '/v1/expenses', ada, body);

      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.id).toMatch(EXPENSE_ID);
      expect(res.headers['location']).toBe(`/v1/expenses/${res.body.id}`);
      expect(res.headers['etag']).toEqual(expect.any(String));
      expect(res.body).toEqual({
        id: res.body.id,
        groupId,
        description: 'Dinner',
        category: 'food',
        categoryId: null,
        amount: 100000,
        currency: 'INR',
        paidBy: [{ userId: ada.id, amount: 100000 }],
        occurredAt: '2026-11-25T19:30:00.000Z',
        split: { type: 'equal', between: [ada.id, bob.id, cy.id] },
        shares: [
          { userId: ada.id, owed: 33334 },
          { userId: bob.id, owed: 33333 },
          { userId: cy.id, owed: 33333 },
        ],
        createdBy: ada.id,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        version: 1,
        recurringId: null,
      });
      expect(res.body.updatedAt).toBe(res.body.createdAt);
      expect(await expenseRows(groupId)).toHaveLength(1);
    });

    it("defaults currency to the group's currency and occurredAt to now", async () => {
      const groupId = await newGroup({ currency: 'USD' });
      const before = Date.now();
      const res = await write('post', '/v1/expenses', bob, dinner(groupId, { paidBy: bob.id }));
      const after = Date.now();

      expect(res.status).toBe(201);
      expect(res.body.currency).toBe('USD');
      expect(res.body.category).toBeNull();
      expect(res.body.createdBy).toBe(bob.id);
      expect(res.body.occurredAt).toMatch(ISO);
      const occurredAt = Date.parse(res.body.occurredAt);
      expect(occurredAt).toBeGreaterThanOrEqual(before);
      expect(occurredAt).toBeLessThanOrEqual(after);
      expect((await balancesOf(groupId))['USD']).toEqual({
        [ada.id]: -33334,
        [bob.id]: 66667,
        [cy.id]: -33333,
      });
    });

    it('replies with the list form when paidBy is a single userId', async () => {
      const groupId = await newGroup();
      const expense = await create(dinner(groupId, { paidBy: cy.id, amount: 999 }));
      expect(expense.paidBy).toEqual([{ userId: cy.id, amount: 999 }]);
    });

    it('accepts several payers whose amounts add up to the amount, and counts each in balances', async () => {
      const groupId = await newGroup();
      const paidBy = [
        { userId: ada.id, amount: 60000 },
        { userId: bob.id, amount: 40000 },
      ];
      const expense = await create(dinner(groupId, { paidBy }));
      expect(expense.paidBy).toEqual(paidBy);
      expect((await balancesOf(groupId))['INR']).toEqual({
        [ada.id]: 60000 - 33334,
        [bob.id]: 40000 - 33333,
        [cy.id]: -33333,
      });
    });

    it.each([
      [
        'add up to less than the amount',
        [
          { userId: 'A', amount: 60000 },
          { userId: 'B', amount: 39999 },
        ],
      ],
      [
        'add up to more than the amount',
        [
          { userId: 'A', amount: 60000 },
          { userId: 'B', amount: 40001 },
        ],
      ],
      ['are a single payer with less than the amount', [{ userId: 'A', amount: 1 }]],
    ])('rejects payers whose amounts %s with 422 split_mismatch, writing nothing', async (_name, payers) => {
      const groupId = await newGroup();
      const ids: Record<string, string> = { A: ada.id, B: bob.id };
      const paidBy = payers.map((p) => ({ ...p, userId: ids[p.userId] }));
      const res = await write('post', '/v1/expenses', ada, dinner(groupId, { paidBy }));
      expectProblem(res, 422, 'split_mismatch');
      expect(await expenseRows(groupId)).toHaveLength(0);
      expect(await eventCount(groupId)).toBe(3); // the creator and two members joining
    });

    type ShareCase = [string, number, (ids: Record<'a' | 'b' | 'c', string>) => unknown, number[]];
    const shareCases: ShareCase[] = [
      [
        'equal: 100000 three ways',
        100000,
        (u) => ({ type: 'equal', between: [u.a, u.b, u.c] }),
        [33334, 33333, 33333],
      ],
      [
        'equal: leftover units go to the earlier listed on ties',
        100,
        (u) => ({ type: 'equal', between: [u.c, u.b, u.a] }),
        [34, 33, 33],
      ],
      ['equal: 2 three ways', 2, (u) => ({ type: 'equal', between: [u.b, u.c, u.a] }), [1, 1, 0]],
      ['equal: one participant', 7, (u) => ({ type: 'equal', between: [u.b] }), [7]],
      [
        'exact: the amounts as given',
        100000,
        (u) => ({
          type: 'exact',
          between: [
            { userId: u.a, amount: 50000 },
            { userId: u.b, amount: 0 },
            { userId: u.c, amount: 50000 },
          ],
        }),
        [50000, 0, 50000],
      ],
      [
        'percent: 33.33 / 33.33 / 33.34 of 1000',
        1000,
        (u) => ({
          type: 'percent',
          between: [
            { userId: u.a, percent: 33.33 },
            { userId: u.b, percent: 33.33 },
            { userId: u.c, percent: 33.34 },
          ],
        }),
        [333, 333, 334],
      ],
      [
        'percent: 12.5 / 87.5 of 999 (largest remainder)',
        999,
        (u) => ({
          type: 'percent',
          between: [
            { userId: u.a, percent: 12.5 },
            { userId: u.b, percent: 87.5 },
          ],
        }),
        [125, 874],
      ],
      [
        'percent: 0.01 / 99.99 of 100',
        100,
        (u) => ({
          type: 'percent',
          between: [
            { userId: u.a, percent: 0.01 },
            { userId: u.b, percent: 99.99 },
          ],
        }),
        [0, 100],
      ],
      [
        'shares: weights 1 / 2 / 3 of 100',
        100,
        (u) => ({
          type: 'shares',
          between: [
            { userId: u.a, shares: 1 },
            { userId: u.b, shares: 2 },
            { userId: u.c, shares: 3 },
          ],
        }),
        [17, 33, 50],
      ],
      [
        'shares: a tie goes to the earlier listed',
        1,
        (u) => ({
          type: 'shares',
          between: [
            { userId: u.c, shares: 5 },
            { userId: u.a, shares: 5 },
          ],
        }),
        [1, 0],
      ],
    ];

    it.each(shareCases)('computes exact shares for %s', async (_name, amount, splitOf, owed) => {
      const groupId = await newGroup();
      const split = splitOf({ a: ada.id, b: bob.id, c: cy.id }) as {
        type: string;
        between: (string | { userId: string })[];
      };
      const expense = await create(dinner(groupId, { amount, split }));
      const order = split.between.map((e) => (typeof e === 'string' ? e : e.userId));
      expect(expense.split).toEqual(split);
      expect(expense.shares).toEqual(order.map((userId, i) => ({ userId, owed: owed[i] })));
      expect(owed.reduce((s, x) => s + x, 0)).toBe(amount);
      // The stored expense reads back identically.
      const read = await get(`/v1/expenses/${expense.id}`);
      expect(read.body.shares).toEqual(expense.shares);
    });

    it.each([
      [
        'exact amounts that do not add up to the amount',
        {
          type: 'exact',
          between: [
            { userId: 'A', amount: 50000 },
            { userId: 'B', amount: 49999 },
          ],
        },
      ],
      [
        'percents adding up to 99.99',
        {
          type: 'percent',
          between: [
            { userId: 'A', percent: 33.33 },
            { userId: 'B', percent: 33.33 },
            { userId: 'C', percent: 33.33 },
          ],
        },
      ],
      [
        'percents adding up to 100.01',
        {
          type: 'percent',
          between: [
            { userId: 'A', percent: 50 },
            { userId: 'B', percent: 50.01 },
          ],
        },
      ],
    ])('rejects %s with 422 split_mismatch, writing nothing', async (_name, template) => {
      const groupId = await newGroup();
      const ids: Record<string, string> = { A: ada.id, B: bob.id, C: cy.id };
      const split = {
        ...template,
        between: template.between.map((e) => ({ ...e, userId: ids[e.userId] })),
      };
      const res = await write('post', '/v1/expenses', ada, dinner(groupId, { split }));
      expectProblem(res, 422, 'split_mismatch');
      expect(await expenseRows(groupId)).toHaveLength(0);
    });

    it('rejects percents with more than 2 decimals with 422 validation_failed', async () => {
      const groupId = await newGroup();
      const split = {
        type: 'percent',
        between: [
          { userId: ada.id, percent: 33.333 },
          { userId: bob.id, percent: 66.667 },
        ],
      };
      const res = await write('post', '/v1/expenses', ada, dinner(groupId, { split }));
      expectProblem(res, 422, 'validation_failed');
      expect(await expenseRows(groupId)).toHaveLength(0);
    });

    it.each([
      [
        'a participant',
        (u: Record<string, string>) => ({ split: { type: 'equal', between: [u.ada, u.dan] } }),
        ['split.between[1]'],
      ],
      ['the payer', (u: Record<string, string>) => ({ paidBy: u.dan }), ['paidBy']],
      [
        'one of several payers',
        (u: Record<string, string>) => ({
          paidBy: [
            { userId: u.ada, amount: 50000 },
            { userId: u.dan, amount: 50000 },
          ],
        }),
        ['paidBy[1].userId'],
      ],
      [
        'an exact-split participant',
        (u: Record<string, string>) => ({
          split: {
            type: 'exact',
            between: [
              { userId: u.ada, amount: 1 },
              { userId: u.dan, amount: 99999 },
            ],
          },
        }),
        ['split.between[1].userId'],
      ],
      ['an unknown user', () => ({ paidBy: 'usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC' }), ['paidBy']],
      [
        'a payer who is also a participant',
        (u: Record<string, string>) => ({
          paidBy: u.dan,
          split: {
            type: 'shares',
            between: [
              { userId: u.ada, shares: 1 },
              { userId: u.dan, shares: 2 },
            ],
          },
        }),
        ['paidBy', 'split.between[1].userId'],
      ],
    ])(
      'rejects %s who is not a member with 422 not_a_member, writing nothing',
      async (_name, change, paths) => {
        const groupId = await newGroup();
        const res = await write(
          'post',
          '/v1/expenses',
          ada,
          dinner(groupId, change({ ada: ada.id, bob: bob.id, dan: dan.id })),
        );
        expectProblem(res, 422, 'not_a_member');
        // Each error names the entry of the body that holds the non-member.
        expect(res.body.errors).toEqual(
          paths.map((path) => ({
            path,
            message: expect.stringMatching(/^usr_\w+ is not a member of this group$/),
          })),
        );
        expect(await expenseRows(groupId)).toHaveLength(0);
        expect(await balancesOf(groupId)).toEqual({});
      },
    );

    it.each([
      ['equal', (a: string, b: string) => ({ type: 'equal', between: [a, b, a] })],
      [
        'exact',
        (a: string, b: string) => ({
          type: 'exact',
          between: [
            { userId: a, amount: 50000 },
            { userId: b, amount: 25000 },
            { userId: a, amount: 25000 },
          ],
        }),
      ],
      [
        'percent',
        (a: string, _b: string) => ({
          type: 'percent',
          between: [
            { userId: a, percent: 50 },
            { userId: a, percent: 50 },
          ],
        }),
      ],
      [
        'shares',
        (a: string, b: string) => ({
          type: 'shares',
          between: [
            { userId: b, shares: 1 },
            { userId: a, shares: 1 },
            { userId: b, shares: 2 },
          ],
        }),
      ],
    ])(
      'rejects a participant listed twice in the %s split with 422, writing nothing',
      async (_type, splitOf) => {
        const groupId = await newGroup();
        const res = await write(
          'post',
          '/v1/expenses',
          ada,
          dinner(groupId, { split: splitOf(ada.id, bob.id) }),
        );
        expect(res.status).toBe(422);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.code).toBe('validation_failed');
        expect(await expenseRows(groupId)).toHaveLength(0);
      },
    );

    it('rejects a payer listed twice with 422', async () => {
      const groupId = await newGroup();
      const paidBy = [
        { userId: ada.id, amount: 50000 },
        { userId: ada.id, amount: 50000 },
      ];
      const res = await write('post', '/v1/expenses', ada, dinner(groupId, { paidBy }));
      expectProblem(res, 422, 'validation_failed');
      expect(await expenseRows(groupId)).toHaveLength(0);
    });

    it('rejects an empty between with 422 validation_failed', async () => {
      const groupId = await newGroup();
      const res = await write(
        'post',
        '/v1/expenses',
        ada,
        dinner(groupId, { split: { type: 'equal', between: [] } }),
      );
      expectProblem(res, 422, 'validation_failed');
      expect(await expenseRows(groupId)).toHaveLength(0);
    });

    it('accepts a category of 64 characters and rejects 65 with 422 validation_failed on category', async () => {
      const groupId = await newGroup();
      const ok = await write('post', '/v1/expenses', ada, dinner(groupId, { category: 'c'.repeat(64) }));
      expect(ok.status).toBe(201);
      expect(ok.body.category).toBe('c'.repeat(64));

      const tooLong = await write('post', '/v1/expenses', ada, dinner(groupId, { category: 'c'.repeat(65) }));
      expectProblem(tooLong, 422, 'validation_failed');
      expect(tooLong.body.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: 'category' })]),
      );
      expect(await expenseRows(groupId)).toHaveLength(1);
    });

    it.each([
      ['a float amount', { amount: 100.5 }],
      ['a zero amount', { amount: 0 }],
      ['a negative amount over 1e12', { amount: -1e12 - 1 }],
      ['an amount over 1e12', { amount: 1e12 + 1 }],
      ['a string amount', { amount: '100000' }],
      ['an unknown field', { tip: 10 }],
      ['an unknown currency', { currency: 'XYZ' }],
      ['a missing description', { description: undefined }],
    ])('rejects %s with 422 validation_failed', async (_name, change) => {
      const groupId = await newGroup();
      const res = await write('post', '/v1/expenses', ada, dinner(groupId, change));
      expectProblem(res, 422, 'validation_failed');
      expect(res.body.errors).toEqual(expect.any(Array));
      expect(await expenseRows(groupId)).toHaveLength(0);
    });

    it('requires an Idempotency-Key: 400 idempotency_key_missing, writing nothing', async () => {
      const groupId = await newGroup();
      const res = await t.request.post('/v1/expenses').set(ada.auth).send(dinner(groupId));
      expectProblem(res, 400, 'idempotency_key_missing');
      expect(await expenseRows(groupId)).toHaveLength(0);
    });
  });
});
