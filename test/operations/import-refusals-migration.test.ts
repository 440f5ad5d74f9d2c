import { migrateLatest, migrateTo } from '@tally/db';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * Migration 014 (issue 30, API.md §6b) on a database with imports: each import's JSON list of refused
 * rows becomes rows of `import_refusals` (once each) and its `refused_count`; the status may then be
 * `failed`. Down and up again give the lists back and move them again.
 */
describe('migration 014', () => {
  let db: TestDatabase;
  let knex: Knex;
  const now = new Date();

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = db.knex;
    await migrateTo(knex, '013-one-copy');
  });
  afterAll(() => db?.drop());

  const importRow = (id: string, refused: { line: number; reason: string }[]) => ({
    id,
    group_id: 'grp_a',
    file_hash: id,
    format: 'splitwise-csv',
    status: 'completed',
    next_line: 10,
    rows: 8,
    created: 8 - refused.length,
    existing: 0,
    refused: JSON.stringify(refused),
    created_by: 'usr_a',
    created_at: now,
    updated_at: now,
  });

  it('moves each refused row into import_refusals, counts them, and goes down and up again', async () => {
    await knex('users').insert({
      id: 'usr_a',
      email: 'a@example.com',
      email_normalized: 'a@example.com',
      name: 'A',
      password_hash: 'x',
      created_at: now,
    });
    await knex('groups').insert({
      id: 'grp_a',
      name: 'G',
      currency: 'EUR',
      created_at: now,
      updated_at: now,
    });
    const refused = [
      { line: 3, reason: '"0000-01-01" is not a date (YYYY-MM-DD)' },
      { line: 7, reason: 'the nets add up to 1.00, not to 0' },
    ];
    await knex('imports').insert([importRow('imp_two', refused), importRow('imp_none', [])]);

    await migrateLatest(knex, { useAdvisoryLock: false });

    const counts = await knex('imports').orderBy('id').select('id', 'refused_count');
    expect(counts).toEqual([
      { id: 'imp_none', refused_count: 0 },
      { id: 'imp_two', refused_count: 2 },
    ]);
    expect(await knex('import_refusals').orderBy('line').select('import_id', 'line', 'reason')).toEqual(
      refused.map((r) => ({ import_id: 'imp_two', ...r })),
    );
    // A run that stopped on an error may now be `failed`; nothing else.
    await knex('imports').where({ id: 'imp_none' }).update({ status: 'failed' });
    await expect(knex('imports').where({ id: 'imp_none' }).update({ status: 'stuck' })).rejects.toThrow(
      /imports_status_check/,
    );

    await migrateTo(knex, '013-one-copy');
    const back = await knex('imports').orderBy('id').select('id', 'status', 'refused');
    expect(back).toEqual([
      { id: 'imp_none', status: 'running', refused: [] },
      { id: 'imp_two', status: 'completed', refused },
    ]);
    await migrateLatest(knex, { useAdvisoryLock: false });
    expect(await knex('import_refusals').count({ n: '*' }).first()).toEqual({ n: '2' });
  });
});
