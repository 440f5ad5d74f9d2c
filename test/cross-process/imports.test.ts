import { type ServerProcess, spawnServer } from '../support/server-process';
import { splitwiseExport } from '../support/splitwise-export';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { newKey } from '../support/test-server';
import { until } from '../support/until';
import { type ProcessUser, registerUser } from './http';

/**
 * API.md §6b, exactly once across a crash: an import whose server process is SIGKILLed halfway is
 * retried with the same key on a new process and resumes, one record per row, under its one
 * `import.started`. Real server processes, real SIGKILL, PostgreSQL and Redis. What needs no second
 * process (the largest import allowed, bounds, failures and resumes, slices) is in
 * test/component/imports.test.ts.
 */
describe('imports across a crash', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    // A one-second lease: the retry takes over the dead process's key soon after the kill.
    env = { DATABASE_URL: db.url, REDIS_URL: redisUrl(), LOG_LEVEL: 'error', IDEMPOTENCY_LEASE_SECONDS: '1' };
  });
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.kill('SIGKILL')));
    servers = [];
  });
  afterAll(async () => {
    await db.drop();
  });

  async function groupOf(url: string) {
    const ada = await registerUser(url, 'Ada');
    const bob = await registerUser(url, 'Bob');
    const carol = await registerUser(url, 'Carol');
    const json = { 'Content-Type': 'application/json' };
    const created = await fetch(`${url}/v1/groups`, {
      method: 'POST',
      headers: { ...ada.headers, ...json },
      body: JSON.stringify({ name: 'Imported', currency: 'EUR' }),
    });
    const groupId = ((await created.json()) as { id: string }).id;
    for (const member of [bob, carol]) {
      await fetch(`${url}/v1/groups/${groupId}/members`, {
        method: 'POST',
        headers: { ...ada.headers, ...json },
        body: JSON.stringify({ userId: member.id }),
      });
    }
    return { ada, ids: [ada.id, bob.id, carol.id], groupId };
  }

  const post = (url: string, user: ProcessUser, groupId: string, key: string, body: object) =>
    fetch(`${url}/v1/groups/${groupId}/imports`, {
      method: 'POST',
      headers: { ...user.headers, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
    });

  const recordsOf = async (groupId: string) => {
    const [e] = await db.knex('expenses').where({ group_id: groupId }).count<{ count: string }[]>();
    const [s] = await db.knex('settlements').where({ group_id: groupId }).count<{ count: string }[]>();
    return Number(e!.count) + Number(s!.count);
  };

  const netsOf = async (groupId: string, ids: string[]) => {
    const rows = await db
      .knex('balances')
      .where({ group_id: groupId, currency: 'EUR' })
      .select('user_id', 'net');
    const byUser = new Map(rows.map((r: { user_id: string; net: string }) => [r.user_id, Number(r.net)]));
    return ids.map((id) => byUser.get(id) ?? 0);
  };

  it('SIGKILLed mid-import, the retry with the same key resumes: exactly one record per row', async () => {
    // Two processes on one database, started together: the first dies mid-import, the second
    // takes the retry.
    servers = await Promise.all([spawnServer(env), spawnServer(env)]);
    const [doomed, survivor] = servers as [ServerProcess, ServerProcess];
    const { ada, ids, groupId } = await groupOf(doomed.url);
    const rows = 150;
    const file = splitwiseExport(rows, { tag: 'crash ' });
    const body = {
      format: 'splitwise-csv',
      csv: file.csv,
      members: Object.fromEntries(file.people.map((p, i) => [p, ids[i]])),
    };
    const key = newKey();
    const first = post(doomed.url, ada, groupId, key, body).catch(() => 'network-error' as const);
    // Killed once part of the file is in: some rows written, most not.
    await until(
      async () => {
        if ((await recordsOf(groupId)) < 20) throw new Error('not yet 20 rows');
      },
      { what: '20 rows imported', intervalMs: 10 },
    );
    await doomed.kill('SIGKILL');
    expect(await first).toBe('network-error');
    const before = await recordsOf(groupId);
    expect(before).toBeGreaterThanOrEqual(20);
    expect(before).toBeLessThan(rows);
    const [progress] = await db.knex('imports').where({ group_id: groupId });
    expect(progress).toMatchObject({ status: 'running', created: before });

    let res: Response | undefined;
    // The dead process's lease is taken over once its liveness mark lapses (409 until then).
    await until(
      async () => {
        res = await post(survivor.url, ada, groupId, key, body);
        if (res.status === 409) throw new Error('still in progress');
      },
      { what: 'the retry to run', intervalMs: 200 },
    );
    expect(res!.status).toBe(201);
    expect(await res!.json()).toMatchObject({
      status: 'completed',
      created: rows,
      existing: 0,
      refusedCount: 0,
      refused: [],
    });
    expect(await recordsOf(groupId)).toBe(rows);
    expect(await netsOf(groupId, ids)).toEqual(file.totals);
    // Every row's record is there once, under its derived id.
    const expenseIds = await db.knex('expenses').where({ group_id: groupId }).pluck('id');
    expect(new Set(expenseIds).size).toBe(rows - rows / 10);
    // One run, resumed: one import.started, one import.completed.
    const types = await db.knex('events').where({ group_id: groupId }).pluck('type');
    expect(types.filter((type: string) => type === 'import.started')).toHaveLength(1);
    expect(types.filter((type: string) => type === 'import.completed')).toHaveLength(1);
  }, 120_000);
});
