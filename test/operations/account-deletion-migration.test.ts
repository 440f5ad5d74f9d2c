import { randomBytes } from 'node:crypto';
import { migrateLatest, migrateTo } from '@tally/db';
import { knex as createKnex, type Knex } from 'knex';
import { Client } from 'pg';
import { currentRunId, databasePrefix } from '../support/run-info';
import { databaseUrl, dropDatabase } from '../support/test-database';

/**
 * Migration 009 (deleted accounts, API.md §11.3): a deleted user keeps nothing to sign in with, the
 * other statuses keep their rules, and `down` refuses while deleted users exist.
 */
describe('migration 009', () => {
  const serverUrl = databaseUrl();
  const name = `${databasePrefix(currentRunId())}${randomBytes(4).toString('hex')}`;
  let knex: Knex;
  const at = new Date();

  beforeAll(async () => {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    knex = createKnex({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 2 } });
    await migrateLatest(knex, { useAdvisoryLock: false });
  });
  afterAll(async () => {
    await knex?.destroy();
    await dropDatabase(serverUrl, name);
  });

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
