import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ProcessUser, registerUser } from '../cross-process/http';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { ensureRedis, findRedisServer, probeRedis, type RunningService } from '../support/services';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { newKey } from '../support/test-server';
import { until } from '../support/until';
import { countRows, sampleOf } from './operations-helpers';

/** Redis brought back on the port the API process keeps reconnecting to. */
async function restartRedisOn(port: string): Promise<{ stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-redis-again-'));
  // biome-ignore format: one flag per line
  const child: ChildProcess = spawn(findRedisServer(), [
    '--port', port,
    '--bind', '127.0.0.1',
    '--save', '',
    '--appendonly', 'no',
    '--dir', dir,
  ], { stdio: 'ignore' });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(() => probeRedis(`redis://127.0.0.1:${port}`, 500), 'Redis to answer again');
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

type Readyz = { status: number; body: { status?: string; checks?: Record<string, string> } };

describe('an API process losing Redis under a stream of keyed writes', () => {
  let db: TestDatabase;
  let redis: RunningService;
  let redisAgain: { stop(): Promise<void> } | undefined;
  let api: ServerProcess;
  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await ensureRedis({ ephemeral: true });
    api = await spawnServer({ ROLE: 'api', DATABASE_URL: db.url, REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await api?.kill('SIGKILL');
    await redisAgain?.stop();
    await redis?.stop();
    await db?.drop();
  });

  /** Every /readyz answer the test saw, so that it can check none was a 503. */
  const seen: Readyz[] = [];
  const readyz = async (): Promise<Readyz> => {
    const res = await fetch(`${api.url}/readyz`);
    const answer = { status: res.status, body: (await res.json()) as Readyz['body'] };
    seen.push(answer);
    return answer;
  };
  const redisUp = async () =>
    sampleOf(await (await fetch(`${api.url}/metrics`)).text(), 'tally_dependency_up', 'dependency="redis"');

  it('stays ready (reporting Redis down, then up again) and keeps every write exactly-once', async () => {
    expect(await readyz()).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'up', redis: 'up' } },
    });
    expect(await redisUp()).toBe(1);

    const ada: ProcessUser = await registerUser(api.url, 'Ada');
    const headers = { ...ada.headers, 'Content-Type': 'application/json' };
    const group = (await (
      await fetch(`${api.url}/v1/groups`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Outage' }),
      })
    ).json()) as { id: string };

    // Four clients, each posting new expenses and retrying each key until it is acknowledged.
    const acknowledged = new Map<string, string>();
    const failures: (number | string)[] = [];
    let running = true;
    const post = async (key: string, amount: number) => {
      const res = await fetch(`${api.url}/v1/expenses`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': key },
        body: JSON.stringify({
          groupId: group.id,
          description: `Round ${amount}`,
          amount,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        }),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: res.status, body: (await res.json()) as { id?: string } };
    };
    const client = async (lane: number) => {
      for (let n = 1; running; n++) {
        const key = newKey();
        for (;;) {
          const answer: { status: number | string; body: { id?: string } } = await post(
            key,
            lane * 1000 + n,
          ).catch((error: Error) => ({ status: error.name, body: {} }));
          if (answer.status === 201 && answer.body.id) {
            acknowledged.set(key, answer.body.id);
            break;
          }
          failures.push(answer.status);
        }
      }
    };
    const clients = [1, 2, 3, 4].map(client);
    try {
      await until(() => acknowledged.size >= 20, 'writes before the outage');

      await redis.stop();
      await until(async () => (await readyz()).body.checks?.redis === 'down', '/readyz to report Redis down');
      expect(await redisUp()).toBe(0);
      const atOutage = acknowledged.size;
      await until(
        async () => (await readyz()).status === 200 && acknowledged.size >= atOutage + 30,
        'writes acknowledged while Redis is down',
      );
      expect((await readyz()).body).toEqual({ status: 'ready', checks: { database: 'up', redis: 'down' } });

      redisAgain = await restartRedisOn(new URL(redis.url).port);
      await until(async () => (await readyz()).body.checks?.redis === 'up', '/readyz to report Redis up');
      expect(await redisUp()).toBe(1);
      const atRecovery = acknowledged.size;
      await until(() => acknowledged.size >= atRecovery + 20, 'writes after Redis is back');
    } finally {
      running = false;
      await Promise.all(clients);
    }

    expect(seen.filter((r) => r.status !== 200)).toEqual([]);
    // No answer but 201 in the whole run: not a 5xx, not a 409 left over from a lost claim.
    expect(failures).toEqual([]);
    // Exactly once: one expense per acknowledged key, and the ids are the acknowledged ones.
    const rows = await db.knex('expenses').where({ group_id: group.id }).select('id');
    expect(rows.map((r: { id: string }) => r.id).sort()).toEqual([...acknowledged.values()].sort());
    expect(await countRows(db.knex('idempotency_records').whereIn('key', [...acknowledged.keys()]))).toBe(
      acknowledged.size,
    );
    // A retry of any key replays its expense.
    for (const [key, id] of [...acknowledged].slice(0, 30)) {
      const replay = await post(
        key,
        Number((await db.knex('expenses').where({ id }).first('amount')).amount),
      );
      expect(replay).toEqual({ status: 201, body: expect.objectContaining({ id }) });
    }
  });
});
