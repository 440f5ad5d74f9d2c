import { migrateLatest, migrateTo } from '@tally/db';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * Migration 004 (pending members, invites) on a database that already has users and groups: every
 * existing user is an active account, an account still needs its email and password, and `down`
 * refuses to drop pending members rather than lose them.
 */
describe('migration 004 on a database that already has rows', () => {
  let db: TestDatabase;
  let knex: Knex;

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = db.knex;
    await migrateTo(knex, '003-bounded-tables');
    const at = new Date();
    await knex('users').insert({
      id: 'usr_a',
      email: 'A@example.com',
      email_normalized: 'a@example.com',
      name: 'A',
      password_hash: 'x',
      created_at: at,
    });
    await knex('groups').insert({ id: 'grp_1', name: 'G', currency: 'INR', created_at: at, updated_at: at });
    await knex('group_members').insert({ group_id: 'grp_1', user_id: 'usr_a', joined_at: at });
    await migrateLatest(knex, { useAdvisoryLock: false });
  });
  afterAll(() => db?.drop());

  it('makes every existing user an active account and every membership unclaimed', async () => {
    expect(await knex('users').select('id', 'status', 'pending_email_normalized')).toEqual([
      { id: 'usr_a', status: 'active', pending_email_normalized: null },
    ]);
    expect(await knex('group_members').select('user_id', 'claimed_by')).toEqual([
      { user_id: 'usr_a', claimed_by: null },
    ]);
  });

  it('refuses an account without a password and a pending user with a login email', async () => {
    const at = new Date();
    await expect(
      knex('users').insert({
        id: 'usr_b',
        email: 'b@example.com',
        email_normalized: 'b@example.com',
        name: 'B',
        created_at: at,
      }),
    ).rejects.toThrow(/users_pending_check/);
    await expect(
      knex('users').insert({
        id: 'usr_c',
        name: 'C',
        status: 'pending',
        email_normalized: 'c@example.com',
        pending_group_id: 'grp_1',
        created_at: at,
      }),
    ).rejects.toThrow(/users_pending_check/);
    // Two pending users with one email (two groups may add the same friend), and the account of it.
    for (const id of ['usr_p1', 'usr_p2']) {
      await knex('users').insert({
        id,
        name: 'P',
        status: 'pending',
        pending_email: 'p@example.com',
        pending_email_normalized: 'p@example.com',
        pending_group_id: 'grp_1',
        created_at: at,
      });
    }
    await knex('users').insert({
      id: 'usr_p',
      email: 'p@example.com',
      email_normalized: 'p@example.com',
      name: 'P',
      password_hash: 'x',
      created_at: at,
    });
  });

  it('refuses to go down while pending members exist, and goes down and up again without them', async () => {
    await expect(migrateTo(knex, '003-bounded-tables')).rejects.toThrow(/pending members exist/);
    await knex('users').where({ status: 'pending' }).delete();
    await migrateTo(knex, '003-bounded-tables');
    const columns = await knex('information_schema.columns')
      .where({ table_name: 'users' })
      .pluck('column_name');
    expect(columns).not.toContain('status');
    await migrateLatest(knex, { useAdvisoryLock: false });
    expect(await knex('users').orderBy('id').pluck('status')).toEqual(['active', 'active']);
  });
});
