import { readFileSync } from 'node:fs';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { splitwiseExport } from '../support/splitwise-export';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { newKey } from '../support/test-server';
import { until } from '../support/until';
import { type ProcessUser, registerUser } from './http';

/**
 * API.md §6b, exactly once at any size: an import whose server process is SIGKILLed halfway is
 * retried with the same key on a new process and resumes, one record per row; a 10,000-row import
 * keeps the server's memory bounded. Real server processes, real SIGKILL, PostgreSQL and Redis.
 */
/** The server's old-space limit in the size test (its heap at rest is well under it). */
const HEAP_CAP_MIB = 160;

describe('imports across a crash, and at size', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url, REDIS_URL: redisUrl(), LOG_LEVEL: 'error' };
  });
  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = undefined;
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
    server = await spawnServer(env);
    const { ada, ids, groupId } = await groupOf(server.url);
    const file = splitwiseExport(600, { tag: 'crash ' });
    const body = {
      format: 'splitwise-csv',
      csv: file.csv,
      members: Object.fromEntries(file.people.map((p, i) => [p, ids[i]])),
    };
    const key = newKey();
    const first = post(server.url, ada, groupId, key, body).catch(() => 'network-error' as const);
    // Killed once part of the file is in: some rows written, most not.
    await until(
      async () => {
        if ((await recordsOf(groupId)) < 100) throw new Error('not yet 100 rows');
      },
      { what: '100 rows imported', intervalMs: 20 },
    );
    await server.kill('SIGKILL');
    expect(await first).toBe('network-error');
    const before = await recordsOf(groupId);
    expect(before).toBeGreaterThanOrEqual(100);
    expect(before).toBeLessThan(600);
    const [progress] = await db.knex('imports').where({ group_id: groupId });
    expect(progress).toMatchObject({ status: 'running', created: before });

    server = await spawnServer(env);
    let res: Response | undefined;
    // The dead process's lease is taken over once its liveness mark lapses (409 until then).
    await until(
      async () => {
        res = await post(server!.url, ada, groupId, key, body);
        if (res.status === 409) throw new Error('still in progress');
      },
      { what: 'the retry to run', intervalMs: 200 },
    );
    expect(res!.status).toBe(201);
    const report = (await res!.json()) as { created: number; existing: number; refused: unknown[] };
    expect(report).toMatchObject({ created: 600, existing: 0, refused: [] });
    expect(await recordsOf(groupId)).toBe(600);
    expect(await netsOf(groupId, ids)).toEqual(file.totals);
    // Every row's record is there once, under its derived id.
    const expenseIds = await db.knex('expenses').where({ group_id: groupId }).pluck('id');
    expect(new Set(expenseIds).size).toBe(540);
  }, 300_000);

  it('imports 10,000 rows with the server’s memory bounded', async () => {
    // The heap capped: an import that kept anything per row would run out of it (and the process
    // would die) long before 10,000 rows; within it the garbage collector may still let RSS grow.
    server = await spawnServer({ ...env, NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MIB}` });
    const { ada, ids, groupId } = await groupOf(server.url);
    const file = splitwiseExport(10_000, { tag: 'big ' });
    const body = {
      format: 'splitwise-csv',
      csv: file.csv,
      members: Object.fromEntries(file.people.map((p, i) => [p, ids[i]])),
    };
    const rssOf = () => {
      const status = readFileSync(`/proc/${server!.child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    };
    // Memory bounded, not merely small: a 2,000-row import first (what every import loads, and
    // the heap the garbage collector lets grow, are then in), then one five times as large. Holding
    // anything per row would make the second's peak grow with its rows.
    const warm = splitwiseExport(2_000, { tag: 'warm ' });
    const baseline = rssOf();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf());
    }, 100);
    const first = await post(server.url, ada, groupId, newKey(), { ...body, csv: warm.csv });
    expect(first.status).toBe(201);
    const warmPeak = Math.max(peak, rssOf());
    const res = await post(server.url, ada, groupId, newKey(), body);
    clearInterval(sampler);
    peak = Math.max(peak, rssOf());
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ rows: 10_000, created: 10_000, existing: 0, refused: [] });
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
    console.log(
      `server RSS: ${mib(baseline)} MiB before; peak ${mib(warmPeak)} MiB over a 2,000-row import; ` +
        `peak ${mib(peak)} MiB over the 10,000-row import (${mib(file.csv.length)} MiB file) after it`,
    );
    // Five times the rows: the peak stays within the heap's cap of the first import's.
    expect((peak - warmPeak) / 2 ** 20).toBeLessThan(HEAP_CAP_MIB / 2);
    expect((peak - baseline) / 2 ** 20).toBeLessThan(HEAP_CAP_MIB);
    expect(await netsOf(groupId, ids)).toEqual(file.totals.map((t, i) => t + warm.totals[i]!));
  }, 900_000);
});
