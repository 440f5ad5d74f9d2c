/**
 * What the write path relies on inside `pg` and `knex` (pg-internals.ts; knex's are checked by packages/db/src/knex-internals.test.ts): when
 * an upgrade changes any of it, this fails, naming what changed, before group commit breaks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { acquireTimeoutOf, isPgServer } from '@tally/db';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import {
  PG_VERSION_RELIED_ON,
  type PipelineError,
  prepareValue,
  sendPipeline,
  type WireConnection,
  withPgClient,
} from './pg-internals';
import { batchFailureOf } from './write-batch';

const apiPackage = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const installed = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

describe('the versions the adapters were written for', () => {
  it.each([['pg', PG_VERSION_RELIED_ON]])(
    '%s is pinned to exactly %s, and that is the one installed',
    (name, version) => {
      // An upgrade: check what pg-internals.ts relies on, then move the pin and the constant together.
      expect(apiPackage.dependencies[name]).toBe(version);
      expect(installed(name)).toBe(version);
    },
  );
});

describe('pg internals', () => {
  it('prepareValue (pg/lib/utils) turns values into what a Query binds', () => {
    expect(typeof prepareValue).toBe('function');
    expect(prepareValue(null)).toBeNull();
    expect(prepareValue(42)).toBe('42');
    expect(prepareValue({ a: 1 })).toBe('{"a":1}');
    expect(prepareValue(['x', null])).toBe('{"x",NULL}');
    expect(typeof prepareValue(new Date(0))).toBe('string');
  });

  it('a Client’s connection has the messages, stream, event and statement cache a pipeline uses', () => {
    const client = new pg.Client() as unknown as { connection: Record<string, unknown> };
    for (const message of ['parse', 'bind', 'describe', 'execute', 'sync', 'on', 'removeListener'])
      expect([message, typeof client.connection[message]]).toEqual([message, 'function']);
    expect(client.connection.parsedStatements).toEqual({});
    expect(client.connection.stream).toBeDefined();
  });
});

describe('a pipeline on a pooled connection (PostgreSQL)', () => {
  let db: TestDatabase;
  let knex: Knex;
  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    knex = knexFactory({
      client: 'pg',
      connection: db.url,
      pool: { min: 0, max: 1 },
      acquireConnectionTimeout: 300,
    });
  });
  afterAll(async () => {
    await knex?.destroy();
    await db?.drop();
  });

  const one = (n: number) => ({ name: 'pipeline_one', text: 'select $1::int as n', values: [n] });

  it('runs named statements in one round trip, each with its rows typed, and prepares each name once', async () => {
    await withPgClient(knex, async (client) => {
      const rows = await sendPipeline(client, [
        one(1),
        one(2),
        {
          name: 'pipeline_json',
          text: 'select $1::jsonb as j, $2::timestamptz as t',
          values: [{ a: [1] }, new Date(0)],
        },
      ]);
      expect(rows).toEqual([[{ n: 1 }], [{ n: 2 }], [{ j: { a: [1] }, t: new Date(0) }]]);
      // The connection's statement cache, shared with pg's own Query, knows both names now.
      expect((client.connection as unknown as WireConnection).parsedStatements).toMatchObject({
        pipeline_one: 'select $1::int as n',
        pipeline_json: 'select $1::jsonb as j, $2::timestamptz as t',
      });
      // pg's public named query reuses the statement the pipeline prepared, and the other way round.
      const viaQuery = (await client.query({ ...one(3), values: [3] })).rows;
      expect(viaQuery).toEqual([{ n: 3 }]);
      expect(await sendPipeline(client, [one(4)])).toEqual([[{ n: 4 }]]);
    });
  });

  it('commits all or nothing, and names the statement that failed', async () => {
    await withPgClient(knex, async (client) => {
      await client.query('create temp table t (n int check (n < 10))');
      const insert = (n: number) => ({
        name: 'pipeline_insert',
        text: 'insert into t values ($1)',
        values: [n],
      });
      const error = (await sendPipeline(client, [insert(1), insert(2), insert(99), insert(3)]).catch(
        (e: unknown) => e,
      )) as PipelineError & { code: string };
      expect([error.code, error.failedAt]).toEqual(['23514', 2]);
      expect(batchFailureOf(error)).toBe('statement_error');
      expect((await client.query('select count(*)::int as n from t')).rows).toEqual([{ n: 0 }]);
      await sendPipeline(client, [insert(1), insert(2)]);
      expect((await client.query('select count(*)::int as n from t')).rows).toEqual([{ n: 2 }]);
    });
  });

  it('reads the pool’s settings, and an exhausted pool fails with KnexTimeoutError after its acquire timeout', async () => {
    expect(isPgServer(knex)).toBe(true);
    expect(acquireTimeoutOf(knex)).toBe(300);
    const error = await withPgClient(knex, () => withPgClient(knex, async () => 'never')).catch(
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe('KnexTimeoutError');
    expect(batchFailureOf(error)).toBe('pool_exhausted');
  });

  it('a connection ended under a pipeline fails it as connection_lost', async () => {
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      const error = await withPgClient(knex, async (client) => {
        const pid = (await client.query('select pg_backend_pid() as pid')).rows[0].pid;
        const sent = sendPipeline(client, [
          { name: 'pipeline_sleep', text: 'select pg_sleep(30)', values: [] },
        ]);
        await other.query('select pg_terminate_backend($1)', [pid]);
        return sent.catch((e: unknown) => e);
      });
      expect(batchFailureOf(error)).toBe('connection_lost');
    } finally {
      await other.end();
    }
  });
});
