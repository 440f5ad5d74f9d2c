import { migrateLatest, migrateTo } from '@tally/db';
import { diffPairEffects, expensePairEffect, settlementPairEffect } from '@tally/domain';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { insertUsersAndGroup } from './operations-helpers';

/**
 * Migration 025 (issue 34, API.md §6) on a database with records: each group's original debts
 * (`pair_balances`) are those the write path keeps (`expensePairEffect`, `settlementPairEffect`),
 * from the live records only; groups are neither archived nor unsimplified. Down and up again.
 */
describe('migration 025', () => {
  let db: TestDatabase;
  let knex: Knex;
  const now = new Date();

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = db.knex;
    await migrateTo(knex, '022-notifications');
  });
  afterAll(() => db?.drop());

  type Payer = { userId: string; amount: number };
  type Share = { userId: string; owed: number };
  const expense = (id: string, amount: number, paidBy: Payer[], shares: Share[], deleted = false) => ({
    id,
    group_id: 'grp_a',
    description: id,
    amount,
    currency: id.endsWith('usd') ? 'USD' : 'EUR',
    paid_by: JSON.stringify(paidBy),
    split: JSON.stringify({
      type: 'exact',
      between: shares.map((s) => ({ userId: s.userId, amount: s.owed })),
    }),
    shares: JSON.stringify(shares),
    occurred_at: now,
    created_by: 'usr_a',
    created_at: now,
    updated_at: now,
    deleted_at: deleted ? now : null,
  });

  it('fills pair_balances from the live records by the write path’s rule, and goes down and up again', async () => {
    await insertUsersAndGroup(knex, ['usr_a', 'usr_b', 'usr_c'], 'grp_a');
    const a = 'usr_a';
    const b = 'usr_b';
    const c = 'usr_c';
    const expenses = [
      expense(
        'exp_one',
        900,
        [{ userId: a, amount: 900 }],
        [
          { userId: a, owed: 300 },
          { userId: b, owed: 300 },
          { userId: c, owed: 300 },
        ],
      ),
      expense(
        'exp_two',
        1000,
        [
          { userId: b, amount: 700 },
          { userId: c, amount: 300 },
        ],
        [
          { userId: a, owed: 0 },
          { userId: c, owed: 450 },
          { userId: b, owed: 550 },
        ],
      ),
      expense(
        'exp_refund_usd',
        -600,
        [{ userId: c, amount: -600 }],
        [
          { userId: a, owed: -200 },
          { userId: b, owed: -200 },
          { userId: c, owed: -200 },
        ],
      ),
      expense('exp_gone', 500, [{ userId: b, amount: 500 }], [{ userId: a, owed: 500 }], true),
    ];
    await knex('expenses').insert(expenses);
    await knex('settlements').insert([
      {
        id: 'stl_one',
        group_id: 'grp_a',
        from_user_id: b,
        to_user_id: a,
        amount: 100,
        currency: 'EUR',
        note: '',
        created_by: b,
        created_at: now,
      },
    ]);

    await migrateLatest(knex, { useAdvisoryLock: false });

    const live = expenses.filter((e) => e.deleted_at === null);
    const expected = diffPairEffects(
      [],
      [
        ...live.flatMap((e) =>
          expensePairEffect({
            currency: e.currency,
            paidBy: JSON.parse(e.paid_by),
            shares: JSON.parse(e.shares),
          }),
        ),
        ...settlementPairEffect({ currency: 'EUR', fromUserId: b, toUserId: a, amount: 100 }),
      ],
    );
    expect(expected.length).toBeGreaterThan(2);
    const rows = await knex('pair_balances')
      .where({ group_id: 'grp_a' })
      .orderBy(['currency', 'low_id', 'high_id'])
      .select('currency', 'low_id', 'high_id', 'net');
    expect(
      rows.map((r) => ({ currency: r.currency, lowId: r.low_id, highId: r.high_id, net: Number(r.net) })),
    ).toEqual(expected);
    expect(await knex('groups').where({ id: 'grp_a' }).first('archived_at', 'simplify_debts')).toEqual({
      archived_at: null,
      simplify_debts: true,
    });

    await migrateTo(knex, '022-notifications');
    expect(await knex.schema.hasTable('pair_balances')).toBe(false);
    expect(await knex.schema.hasColumn('groups', 'archived_at')).toBe(false);
    await migrateLatest(knex, { useAdvisoryLock: false });
    expect(await knex('pair_balances').count()).toEqual([{ count: String(expected.length) }]);
  });
});
