import { createKnex, migrateLatest } from '@tally/db';
import { Client } from 'pg';
import { databaseUnavailable } from '../../apps/api/src/db-errors';
import { registerUser } from '../cross-process/http';
import { spawnServer } from '../support/server-process';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { UNTIL_TIMEOUT_MS, until } from '../support/until';
import { countRows, lockWaiters, shapeOf, unavailableShape } from './operations-helpers';

/** Without the limits these requests would hang; this is only the point where the test gives up. */
const GIVE_UP = { response: UNTIL_TIMEOUT_MS };

const expenseBody = (groupId: string, payer: TestUser) => ({
  groupId,
  description: 'Ferry',
  amount: 1200,
  paidBy: payer.id,
  split: { type: 'equal', between: [payer.id] },
});

const postExpense = (t: TestServer, user: TestUser, key: string, body: object) =>
  t.request.post('/v1/expenses').set(user.auth).set('Idempotency-Key', key).send(body).timeout(GIVE_UP);

/** What a refused keyed write must not have left behind: no expense, no event, no durable record. */
async function traces(t: TestServer, groupId: string, key: string) {
  const knex = t.db!.knex;
  return {
    expenses: await countRows(knex('expenses').where({ group_id: groupId })),
    events: await countRows(knex('events').where({ group_id: groupId })),
    records: await countRows(knex('idempotency_records').where({ key })),
  };
}

describe('statement and lock timeouts on every connection', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { DB_LOCK_TIMEOUT_MS: '300', DB_STATEMENT_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('sets them on the pooled connections', async () => {
    const show = async (name: string) =>
      ((await t.server.knex.raw(`show ${name}`)) as { rows: Record<string, string>[] }).rows[0]?.[name];
    expect(await show('lock_timeout')).toBe('300ms');
    expect(await show('statement_timeout')).toBe('1s');
    expect(await show('idle_in_transaction_session_timeout')).toBe('10s');
  });

  it('answers a write stuck behind a held group lock 503 with Retry-After, writes nothing, and runs it once the lock is gone', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    const key = newKey();
    const before = await traces(t, groupId, key);
    const holder = await t.db!.knex.transaction();
    try {
      await holder('groups').where({ id: groupId }).forUpdate().first();
      const refused = await postExpense(t, ada, key, expenseBody(groupId, ada));
      expect(shapeOf(refused)).toEqual(unavailableShape('1'));
      expect(JSON.stringify(refused.body)).not.toMatch(/lock|select|groups|55P03/i);
      expect(await traces(t, groupId, key)).toEqual(before);
    } finally {
      await holder.rollback();
    }
    const retried = await postExpense(t, ada, key, expenseBody(groupId, ada));
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await traces(t, groupId, key)).toEqual({
      expenses: 1,
      events: before.events + 1,
      records: 1,
    });
  });

  it('cancels a statement slower than DB_STATEMENT_TIMEOUT_MS: 503 with Retry-After, nothing written, then it works', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    const key = newKey();
    const before = await traces(t, groupId, key);
    const knex = t.db!.knex;
    // A slow statement in the write path itself: inserting an expense now takes 20 s.
    await knex.raw(
      `create or replace function tally_test_slow() returns trigger language plpgsql as $$
       begin perform pg_sleep(20); return new; end $$`,
    );
    await knex.raw(
      'create trigger tally_test_slow before insert on expenses for each row execute procedure tally_test_slow()',
    );
    try {
      const refused = await postExpense(t, ada, key, expenseBody(groupId, ada));
      expect(shapeOf(refused)).toEqual(unavailableShape('2'));
      expect(JSON.stringify(refused.body)).not.toMatch(/cancel|statement|pg_sleep|57014/i);
      expect(await traces(t, groupId, key)).toEqual(before);
    } finally {
      await knex.raw('drop trigger tally_test_slow on expenses');
    }
    const retried = await postExpense(t, ada, key, expenseBody(groupId, ada));
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect((await traces(t, groupId, key)).expenses).toBe(1);
  });
});

describe('an exhausted connection pool', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        DB_POOL_MAX: '2',
        DB_POOL_ACQUIRE_TIMEOUT_MS: '1000',
        // No database limit frees the two connections held below: only the pool's timeout answers.
        DB_LOCK_TIMEOUT_MS: '0',
        DB_STATEMENT_TIMEOUT_MS: '0',
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers 503 with Retry-After instead of hanging, records no key, and serves again once connections are free', async () => {
    const ada = await t.register('Ada');
    const [first, second, third] = [
      await t.createGroup(ada),
      await t.createGroup(ada),
      await t.createGroup(ada),
    ];
    const knex = t.db!.knex;
    const holder = await knex.transaction();
    let stuck: Promise<{ status: number }>[] = [];
    try {
      await holder('groups').whereIn('id', [first, second]).forUpdate();
      // Two writes take the pool's two connections and wait for the locks held here.
      stuck = [first, second].map((groupId) =>
        postExpense(t, ada, newKey(), expenseBody(groupId, ada)).then((r) => r),
      );
      await until(async () => (await lockWaiters(knex, t.db!.name)) === 2, 'two blocked writes');

      const read = await t.request.get('/v1/groups').set(ada.auth).timeout(GIVE_UP);
      expect(shapeOf(read)).toEqual(unavailableShape('1'));
      const key = newKey();
      const write = await postExpense(t, ada, key, expenseBody(third, ada));
      expect(shapeOf(write)).toEqual(unavailableShape('1'));
      expect(await traces(t, third, key)).toMatchObject({ expenses: 0, records: 0 });

      await holder.commit();
      expect((await Promise.all(stuck)).map((r) => r.status)).toEqual([201, 201]);
      expect((await t.request.get('/v1/groups').set(ada.auth)).status).toBe(200);
      const retried = await postExpense(t, ada, key, expenseBody(third, ada));
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
      await Promise.allSettled(stuck);
    }
  });
});

describe('a transaction left idle', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('is ended by PostgreSQL after DB_IDLE_IN_TRANSACTION_TIMEOUT_MS, freeing its locks; the next query maps to 503', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    const knex = createKnex({ databaseUrl: t.db!.url, dataDir: '', idleInTransactionTimeoutMs: 200 });
    try {
      const stalled = await knex.transaction();
      const { rows } = (await stalled.raw('select pg_backend_pid() as pid')) as { rows: { pid: number }[] };
      await stalled('groups').where({ id: groupId }).forUpdate().first();
      await until(
        async () => (await countRows(t.db!.knex('pg_stat_activity').where({ pid: rows[0]?.pid }))) === 0,
        'the idle session to be ended',
      );
      // Its row lock went with it.
      const other = await t.db!.knex.transaction();
      await expect(
        other('groups').where({ id: groupId }).forUpdate().noWait().first(),
      ).resolves.toBeDefined();
      await other.rollback();

      const error = await stalled.raw('select 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeDefined();
      expect(databaseUnavailable(error)).toMatchObject({ status: 503, code: 'unavailable' });
      await stalled.rollback().catch(() => {});
      // The pool let go of the dead connection.
      expect((await knex.raw('select 1 as ok')).rows).toEqual([{ ok: 1 }]);
    } finally {
      await knex.destroy();
    }
  });

  it('does not cut short a migration that waits for another pod holding the migration lock', async () => {
    const knex = createKnex({
      databaseUrl: t.db!.url,
      dataDir: '',
      lockTimeoutMs: 100,
      statementTimeoutMs: 200,
    });
    const otherPod = new Client({ connectionString: t.db!.url });
    await otherPod.connect();
    try {
      await otherPod.query('select pg_advisory_lock(7340211)');
      const migrated = migrateLatest(knex).then(
        () => 'migrated',
        (error: unknown) => error,
      );
      // Waiting for longer than both limits.
      await until(async () => {
        const { rows } = await otherPod.query(
          `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and query like '%pg_advisory_lock%'
                and now() - query_start > interval '1 second'`,
        );
        return rows[0].n === 1;
      }, 'the migration to wait on the advisory lock');
      await otherPod.query('select pg_advisory_unlock(7340211)');
      expect(await migrated).toBe('migrated');
      // Connections go back to the pool with their limits.
      expect((await knex.raw('show lock_timeout')).rows).toEqual([{ lock_timeout: '100ms' }]);
    } finally {
      await otherPod.end();
      await knex.destroy();
    }
  });
});

describe('the embedded database (PGlite) with the same settings', () => {
  // A real process: PGlite cannot load inside jest's module sandbox (see embedded-smoke.test.ts).
  it('serves writes and reports the database in /readyz', async () => {
    const server = await spawnServer({
      DB_STATEMENT_TIMEOUT_MS: '1000',
      DB_LOCK_TIMEOUT_MS: '500',
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '1000',
      DB_POOL_ACQUIRE_TIMEOUT_MS: '1000',
    });
    try {
      const ada = await registerUser(server.url, 'Ada');
      const headers = { ...ada.headers, 'Content-Type': 'application/json' };
      const group = await fetch(`${server.url}/v1/groups`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Embedded' }),
      });
      const { id } = (await group.json()) as { id: string };
      const expense = await fetch(`${server.url}/v1/expenses`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': newKey() },
        body: JSON.stringify({
          groupId: id,
          description: 'Ferry',
          amount: 1200,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        }),
      });
      expect(expense.status).toBe(201);
      const ready = await fetch(`${server.url}/readyz`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({
        status: 200,
        body: { status: 'ready', checks: { database: 'up' } },
      });
    } finally {
      await server.kill('SIGTERM');
    }
  });
});
