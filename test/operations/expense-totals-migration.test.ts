import { migrateLatest, migrateTo } from '@tally/db';
import type { Knex } from 'knex';
import { storedAndRecomputedTotals } from '../support/expense-totals';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { insertUsersAndGroup } from './operations-helpers';

/**
 * Migration 027 (issue 34 item 3, API.md §14.2) on a database with expenses: the stored totals are
 * those recomputed from the live rows (two currencies, two months, categories and none, a negative
 * amount, a deleted expense); rows written by hand afterwards (insert, a category's move, a delete)
 * move them by the triggers. Down and up again.
 */
describe('migration 027', () => {
  let db: TestDatabase;
  let knex: Knex;
  const at = (iso: string) => new Date(iso);

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = db.knex;
    await migrateTo(knex, '026-record-history');
  });
  afterAll(() => db?.drop());

  const expense = (
    id: string,
    amount: number,
    occurredAt: string,
    categoryId: string | null,
    shares: [string, number][],
    deleted = false,
  ) => ({
    id,
    group_id: 'grp_a',
    description: id,
    amount,
    currency: id.endsWith('usd') ? 'USD' : 'EUR',
    paid_by: JSON.stringify([{ userId: 'usr_a', amount }]),
    split: JSON.stringify({
      type: 'exact',
      between: shares.map(([userId, owed]) => ({ userId, amount: owed })),
    }),
    shares: JSON.stringify(shares.map(([userId, owed]) => ({ userId, owed }))),
    occurred_at: at(occurredAt),
    category_id: categoryId,
    created_by: 'usr_a',
    created_at: at(occurredAt),
    updated_at: at(occurredAt),
    deleted_at: deleted ? at(occurredAt) : null,
    involved_ids: ['usr_a', ...shares.map(([userId]) => userId)],
  });

  it('fills expense_totals from the live rows, keeps them on later writes, and goes down and up again', async () => {
    const now = new Date();
    await insertUsersAndGroup(knex, ['usr_a', 'usr_b', 'usr_c'], 'grp_a');
    await knex('expenses').insert([
      expense('exp_one', 900, '2025-01-31T23:59:59.999Z', 'food', [
        ['usr_a', 300],
        ['usr_b', 300],
        ['usr_c', 300],
      ]),
      expense('exp_two', 1000, '2025-02-01T00:00:00.000Z', null, [
        ['usr_b', 1000],
        ['usr_c', 0],
      ]),
      expense('exp_refund_usd', -600, '2025-02-10T12:00:00.000Z', 'food', [
        ['usr_a', -300],
        ['usr_b', -300],
      ]),
      expense('exp_gone', 500, '2025-02-11T00:00:00.000Z', 'travel', [['usr_b', 500]], true),
    ]);

    await migrateLatest(knex, { useAdvisoryLock: false });
    const filled = await storedAndRecomputedTotals(knex, 'grp_a');
    // Per month, currency and category: the count row, Ada (the payer), Bob, and Cara where named.
    expect(filled.expected).toHaveLength(11);
    expect(filled.stored).toEqual(filled.expected);

    await knex('expenses').insert(
      expense('exp_new', 200, '2025-03-01T00:00:00.000Z', 'travel', [['usr_c', 200]]),
    );
    await knex('expenses').where({ category_id: 'food' }).update({ category_id: 'travel' });
    await knex('expenses').where({ id: 'exp_two' }).update({ deleted_at: now });
    await knex('expenses')
      .where({ id: 'exp_gone' })
      .update({ deleted_at: null, occurred_at: at('2025-04-01T00:00:00Z') });
    await knex('expenses').where({ id: 'exp_new' }).delete();
    const moved = await storedAndRecomputedTotals(knex, 'grp_a');
    expect(moved.stored).toEqual(moved.expected);

    await migrateTo(knex, '026-record-history');
    expect(await knex.schema.hasTable('expense_totals')).toBe(false);
    await knex('expenses').where({ id: 'exp_one' }).update({ amount: 900 });
    await migrateLatest(knex, { useAdvisoryLock: false });
    const again = await storedAndRecomputedTotals(knex, 'grp_a');
    expect(again.stored).toEqual(moved.expected);
  });
});
