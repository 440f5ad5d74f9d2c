import { migrateLatest, migrateTo } from '@tally/db';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * Migration 009 (deleted accounts, API.md §11.3): a deleted user keeps nothing to sign in with, the
 * other statuses keep their rules, and `down` refuses while deleted users exist.
 */
describe('migration 009', () => {
  let db: TestDatabase;
  let knex: Knex;
  const at = new Date();

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = db.knex;
    await migrateLatest(knex, { useAdvisoryLock: false });
  });
  afterAll(() => db?.drop());

  const user = (id: string, fields: Record<string, unknown>) =>
    knex('users').insert({ id, name: id, created_at: at, ...fields });

  it('takes a deleted user only without email, password and pending email, and with deleted_at', async () => {
    await expect(user('usr_d1', { status: 'deleted', deleted_at: at })).resolves.toBeDefined();
    await expect(
      user('usr_d2', {
        status: 'deleted',
        deleted_at: at,
        email: 'd@example.com',
        email_normalized: 'd@example.com',
      }),
    ).rejects.toThrow(/users_pending_check/);
    await expect(user('usr_d3', { status: 'deleted', deleted_at: at, password_hash: 'x' })).rejects.toThrow(
      /users_pending_check/,
    );
    await expect(user('usr_d4', { status: 'deleted' })).rejects.toThrow(/users_pending_check/);
    await expect(user('usr_d5', { status: 'gone', deleted_at: at })).rejects.toThrow(
      /users_(status|pending)_check/,
    );
    // An account still needs its email and password.
    await expect(user('usr_a1', { status: 'active' })).rejects.toThrow(/users_pending_check/);
  });

  it('refuses to go down while deleted users exist, and goes down and up again without them', async () => {
    await expect(migrateTo(knex, '006-group-rates')).rejects.toThrow(/deleted users exist/);
    await knex('users').where({ status: 'deleted' }).delete();
    await migrateTo(knex, '006-group-rates');
    const columns = await knex('information_schema.columns')
      .where({ table_name: 'users' })
      .pluck('column_name');
    expect(columns).not.toContain('deleted_at');
    await expect(user('usr_d6', { status: 'deleted' })).rejects.toThrow(/users_(status|pending)_check/);
    await migrateLatest(knex, { useAdvisoryLock: false });
    await expect(user('usr_d7', { status: 'deleted', deleted_at: at })).resolves.toBeDefined();
  });
});
