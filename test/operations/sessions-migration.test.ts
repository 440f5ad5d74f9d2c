import { migrateLatest, migrateTo } from '@tally/db';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * Migration 011 (sessions, API.md §2) on a database that already has refresh tokens: every family
 * with a live token becomes a live session (device unknown, created at its first token, last used at
 * its newest); families with none (revoked, used up, expired) get no session.
 */
describe('migration 011', () => {
  let db: TestDatabase;
  let knex: Knex;
  const hour = 3600_000;
  const now = Date.now();
  const at = (offsetMs: number) => new Date(now + offsetMs);

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = db.knex;
    await migrateTo(knex, '010-imports');
  });
  afterAll(() => db?.drop());

  let tokens = 0;
  const token = (family: string, user: string, fields: Record<string, unknown>) =>
    knex('refresh_tokens').insert({
      id: `rtk_t${++tokens}`,
      token_hash: `hash${tokens}`,
      family_id: family,
      user_id: user,
      expires_at: at(30 * 24 * hour),
      created_at: at(-hour),
      ...fields,
    });

  it('back-fills a live session for each family with a live refresh token, and goes down and up again', async () => {
    for (const id of ['usr_a', 'usr_b']) {
      await knex('users').insert({
        id,
        email: `${id}@example.com`,
        email_normalized: `${id}@example.com`,
        name: id,
        password_hash: 'x',
        created_at: at(-48 * hour),
      });
    }
    // A family rotated twice: two used tokens and a live one.
    await token('rtk_rotated', 'usr_a', { created_at: at(-3 * hour), used_at: at(-2 * hour) });
    await token('rtk_rotated', 'usr_a', { created_at: at(-2 * hour), used_at: at(-hour) });
    await token('rtk_rotated', 'usr_a', { created_at: at(-hour) });
    // A fresh sign-in of the other user.
    await token('rtk_fresh', 'usr_b', { created_at: at(-5 * 60_000) });
    // Dead families: revoked (reuse detection), only used, expired.
    await token('rtk_revoked', 'usr_a', { revoked_at: at(-hour) });
    await token('rtk_used', 'usr_a', { used_at: at(-hour) });
    await token('rtk_expired', 'usr_b', { created_at: at(-31 * 24 * hour), expires_at: at(-24 * hour) });

    await migrateLatest(knex, { useAdvisoryLock: false });

    const rows = await knex('sessions').orderBy('id').select();
    expect(rows.map((r) => r.id)).toEqual(['rtk_fresh', 'rtk_rotated']);
    const [fresh, rotated] = rows;
    expect(rotated).toMatchObject({ user_id: 'usr_a', user_agent: null, ip: null, revoked_at: null });
    expect(new Date(rotated.created_at).getTime()).toBe(now - 3 * hour);
    expect(new Date(rotated.last_used_at).getTime()).toBe(now - hour);
    expect(fresh).toMatchObject({ user_id: 'usr_b', revoked_at: null });

    await migrateTo(knex, '010-imports');
    const tables = await knex('information_schema.tables')
      .where({ table_name: 'sessions' })
      .pluck('table_name');
    expect(tables).toEqual([]);
    await migrateLatest(knex, { useAdvisoryLock: false });
    expect(await knex('sessions').count({ n: '*' }).first()).toEqual({ n: '2' });
  });
});
