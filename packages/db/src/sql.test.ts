import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { join, raw, runSql, sql, toKnexRaw } from './sql';

describe('runSql', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("gives knex a '?' per value and escapes the text's own '?'", () => {
    const statement = sql`select ${1}::int, '{"a":1}'::jsonb ? ${'a'} as has`;
    expect(toKnexRaw(statement)).toEqual([`select ?::int, '{"a":1}'::jsonb \\? ? as has`, [1, 'a']]);
    // A value right after a '?' of the text, or after another value: never read as '??'.
    expect(toKnexRaw(sql`select '{}'::jsonb ?${'a'}, ${1}${2}`)).toEqual([
      `select '{}'::jsonb \\? ?, ? ?`,
      ['a', 1, 2],
    ]);
  });

  it('runs a composed statement with its values, on the pool, in a transaction and named', async () => {
    const where = join([sql`n > ${1}`, sql`n < ${4}`], ' and ');
    const statement = sql`select n from generate_series(${0}::int, ${5}::int) n where ${where} and ${raw('true')} order by n`;
    expect(await runSql<{ n: number }>(db.knex, statement)).toEqual([{ n: 2 }, { n: 3 }]);
    expect(await db.knex.transaction((trx) => runSql<{ n: number }>(trx, statement))).toEqual([
      { n: 2 },
      { n: 3 },
    ]);
    expect(await runSql<{ n: number }>(db.knex, statement, 'sql_test_named')).toEqual([{ n: 2 }, { n: 3 }]);
    const has = await runSql<{ has: boolean; tight: boolean }>(
      db.knex,
      sql`select '{"a":1}'::jsonb ? ${'a'} as has, '{"a":1}'::jsonb ?${'b'} as tight`,
    );
    expect(has).toEqual([{ has: true, tight: false }]);
  });
});
