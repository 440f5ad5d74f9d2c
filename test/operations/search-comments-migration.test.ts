import { migrateLatest, migrateTo } from '@tally/db';
import { expenseSearchText } from '@tally/domain';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { insertUsersAndGroup } from './operations-helpers';

/**
 * Migration 008 (search and comments) on a database that already has expenses: every existing row
 * gets the search text the app would write (in JS batches, more rows than one batch), its payers
 * and everyone involved; `down` takes the columns and the table away again.
 */
describe('migration 008 on a database that already has expenses', () => {
  let db: TestDatabase;
  let knex: Knex;
  const DESCRIPTIONS = ['Café CRÈME', 'ﬁsh and İstanbul', 'Taxi'];

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = db.knex;
    await migrateTo(knex, '006-group-rates');
    const at = new Date();
    await insertUsersAndGroup(knex, ['usr_a', 'usr_b', 'usr_c'], 'grp_1', 'INR');
    // 2,500 expenses: more than one batch of the migration's fill.
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      id: `exp_${String(i).padStart(5, '0')}`,
      group_id: 'grp_1',
      description: DESCRIPTIONS[i % 3],
      category: i % 2 === 0 ? 'Fööd' : null,
      amount: 300,
      currency: 'INR',
      paid_by: JSON.stringify([
        { userId: 'usr_a', amount: 200 },
        { userId: 'usr_b', amount: 100 },
      ]),
      split:
        i % 2 === 0
          ? JSON.stringify({ type: 'equal', between: ['usr_b', 'usr_c'] })
          : JSON.stringify({ type: 'exact', between: [{ userId: 'usr_c', amount: 300 }] }),
      shares: JSON.stringify([]),
      occurred_at: at,
      created_by: 'usr_a',
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 500) await knex('expenses').insert(rows.slice(i, i + 500));
    await migrateLatest(knex, { useAdvisoryLock: false });
  });
  afterAll(() => db?.drop());

  it('fills the search text, the payers and everyone involved of every existing expense', async () => {
    const rows: {
      id: string;
      description: string;
      category: string | null;
      search_text: string;
      payer_ids: string[];
      involved_ids: string[];
    }[] = await knex('expenses')
      .select('id', 'description', 'category', 'search_text', 'payer_ids', 'involved_ids')
      .orderBy('id');
    expect(rows).toHaveLength(2500);
    for (const row of rows) {
      expect(row.search_text).toBe(expenseSearchText(row.description, row.category));
      expect([...row.payer_ids].sort()).toEqual(['usr_a', 'usr_b']);
      expect([...row.involved_ids].sort()).toEqual(['usr_a', 'usr_b', 'usr_c']);
    }
    expect(rows[0]?.search_text).toBe('cafe creme\nfood');
  });

  it('undoes itself: down drops the columns and the comments table', async () => {
    await migrateTo(knex, '006-group-rates');
    expect(await knex.schema.hasColumn('expenses', 'search_text')).toBe(false);
    expect(await knex.schema.hasTable('comments')).toBe(false);
    await migrateLatest(knex, { useAdvisoryLock: false });
    expect(await knex.schema.hasTable('comments')).toBe(true);
  });
});
