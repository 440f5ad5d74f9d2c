/**
 * Itemized receipts over HTTP (API.md §4, `split.type: "items"`): the shares, tax and tip in
 * proportion, one rounding; an item edited by PATCH re-splits in one write with its ETag and event;
 * the refusals with their paths. Runs the real server on a fresh PostgreSQL database.
 */
import {
  ada,
  balancesOf,
  bob,
  create,
  cy,
  dan,
  eventCount,
  expectProblem,
  get,
  newGroup,
  useExpensesServer,
  write,
} from './expenses-fixture';

useExpensesServer();

const receipt = (groupId: string) => ({
  groupId,
  description: 'Friday dinner',
  amount: 2500,
  currency: 'EUR',
  paidBy: ada.id,
  split: {
    type: 'items',
    items: [
      {
        description: 'Pizza',
        amount: 1200,
        between: [ada.id, bob.id] as (string | { userId: string; shares: number })[],
      },
      {
        description: 'Wine',
        amount: 800,
        between: [
          { userId: ada.id, shares: 1 },
          { userId: cy.id, shares: 3 },
        ],
      },
    ],
    tax: 200,
    tip: 300,
  },
});

test('an itemized receipt splits each item among its people, tax and tip in proportion', async () => {
  const groupId = await newGroup();
  const expense = await create(receipt(groupId));
  expect(expense['shares']).toEqual([
    { userId: ada.id, owed: 1000 },
    { userId: bob.id, owed: 750 },
    { userId: cy.id, owed: 750 },
  ]);
  expect(expense['split']).toEqual(receipt(groupId).split);
  expect((await balancesOf(groupId))['EUR']).toEqual({ [ada.id]: 1500, [bob.id]: -750, [cy.id]: -750 });
});

test('editing an item is one PATCH: re-split, a new ETag, one event', async () => {
  const groupId = await newGroup();
  const expense = await create(receipt(groupId));
  const events = await eventCount(groupId);
  const read = await get(`/v1/expenses/${expense.id}`);
  const split = structuredClone(receipt(groupId).split);
  // Bob had the wine too: now a, c and b share it 1:3:4; amount unchanged.
  split.items[1]!.between.push({ userId: bob.id, shares: 4 });
  const res = await write(
    'patch',
    `/v1/expenses/${expense.id}`,
    ada,
    { split },
    { 'If-Match': read.headers['etag'] },
  );
  expect(res.status).toBe(200);
  expect(res.headers['etag']).not.toBe(read.headers['etag']);
  expect(res.body.shares.reduce((sum: number, s: { owed: number }) => sum + s.owed, 0)).toBe(2500);
  // a: 600 + 100, b: 600 + 400, c: 300, × 2500/2000.
  expect(res.body.shares).toEqual([
    { userId: ada.id, owed: 875 },
    { userId: bob.id, owed: 1250 },
    { userId: cy.id, owed: 375 },
  ]);
  expect(await eventCount(groupId)).toBe(events + 1);
  expect((await balancesOf(groupId))['EUR']).toEqual({ [ada.id]: 1625, [bob.id]: -1250, [cy.id]: -375 });
});

test('items, tax and tip that miss the amount, a stranger, a bad item: refused with their paths', async () => {
  const groupId = await newGroup();
  const body = receipt(groupId);
  const short = await write('post', '/v1/expenses', ada, { ...body, amount: 2400 });
  expectProblem(short, 422, 'split_mismatch');
  expect(short.body.errors[0].path).toBe('split.items');

  const stranger = structuredClone(body);
  stranger.split.items[1]!.between.push({ userId: dan.id, shares: 1 });
  const notMember = await write('post', '/v1/expenses', ada, stranger);
  expectProblem(notMember, 422, 'not_a_member');
  expect(notMember.body.errors).toEqual([
    { path: 'split.items[1].between[2].userId', message: expect.any(String) },
  ]);

  const zero = await write('post', '/v1/expenses', ada, {
    ...body,
    amount: 10,
    split: { type: 'items', items: [{ amount: 0, between: [ada.id] }], tip: 10 },
  });
  expectProblem(zero, 422, 'validation_failed');

  const tooMany = await write('post', '/v1/expenses', ada, {
    ...body,
    amount: 101,
    split: { type: 'items', items: Array.from({ length: 101 }, () => ({ amount: 1, between: [ada.id] })) },
  });
  expectProblem(tooMany, 422, 'validation_failed');
  expect((await get(`/v1/groups/${groupId}/expenses`)).body.data).toEqual([]);
});
