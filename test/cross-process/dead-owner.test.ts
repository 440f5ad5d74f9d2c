import { sampleOf } from '../operations/operations-helpers';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { newKey } from '../support/test-server';
import { until } from '../support/until';
import { type Attempt, type ProcessUser, postExpense, registerUser } from './http';

/** The default liveness TTL of an API process (`idem:alive:<processId>`, PX 2000). */
const LIVENESS_TTL_MS = 2000;
type Timed = Attempt & { sentAfterMs: number };

/**
 * ARCHITECTURE.md#the-idempotency-layer-around-it (Liveness): a process SIGKILLed in the middle of a
 * keyed write stops refreshing its liveness key, and a retry on another process takes the key over as
 * soon as that key has expired, instead of waiting for the whole lease. Real processes, real SIGKILL, the
 * default lease and liveness settings.
 */
describe('a key whose owner process was SIGKILLed', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  let survivor: ServerProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { NODE_ENV: 'test', ROLE: 'api', DATABASE_URL: db.url, REDIS_URL: redisUrl() };
    survivor = await spawnServer(env);
  });
  afterAll(async () => {
    await survivor?.kill('SIGKILL');
    await db.drop();
  });

  /** Leases the survivor took over from a dead process. */
  async function takeOvers(): Promise<number> {
    const metrics = await (await fetch(`${survivor.url}/metrics`)).text();
    return sampleOf(metrics, 'idempotency_outcomes_total', 'outcome="taken_over"') ?? 0;
  }

  async function setUpGroup(): Promise<{ user: ProcessUser; groupId: string }> {
    const user = await registerUser(survivor.url, 'Owner');
    const res = await fetch(`${survivor.url}/v1/groups`, {
      method: 'POST',
      headers: { ...user.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Dead owner' }),
    });
    return { user, groupId: ((await res.json()) as { id: string }).id };
  }

  it.each(['after-claim', 'before-commit', 'after-commit'])(
    'killed %s: a retry on another process succeeds once the owner is seen dead, well within the lease',
    async (point) => {
      const { user, groupId } = await setUpGroup();
      const takeOversBefore = await takeOvers();
      const victim = await spawnServer({ ...env, TALLY_TEST_FAULT_POINT: point });
      const key = newKey();
      const body = {
        groupId,
        description: `Killed ${point}`,
        amount: 4200,
        paidBy: user.id,
        split: { type: 'equal', between: [user.id] },
      };
      const first = await postExpense(victim.url, user, key, body);
      expect(first.status).toBe('network-error');
      expect((await victim.exited).signal).toBe('SIGKILL');
      const killedAt = Date.now();

      // A client retrying every 100 ms against the other process (as behind a load balancer).
      const attempts: Timed[] = [];
      await until(
        async () => {
          const sentAfterMs = Date.now() - killedAt;
          const attempt = await postExpense(survivor.url, user, key, body);
          attempts.push({ ...attempt, sentAfterMs });
          if (attempt.status !== 201) throw new Error(`answered ${JSON.stringify(attempt)}`);
        },
        { what: 'a successful retry', intervalMs: 100 },
      );
      const recoveredMs = Date.now() - killedAt;
      expect(attempts.slice(0, -1).filter((a) => a.status !== 409)).toEqual([]);
      const conflicts = attempts.filter((a) => a.status === 409);
      console.log(
        `killed ${point}: kill → successful retry ${recoveredMs} ms, ${attempts.length} attempts, ` +
          `last 409 sent ${conflicts.at(-1)?.sentAfterMs ?? '–'} ms after the kill`,
      );

      const success = attempts.at(-1) as { status: number; id: string; replayed: boolean };
      const rows = await db.knex('expenses').where({ group_id: groupId });
      expect(rows).toHaveLength(1);
      expect(success.id).toBe(rows[0].id);
      // After the commit, the retry must replay the dead owner's durable record.
      if (point === 'after-commit') expect(success.replayed).toBe(true);
      // Once the dead owner's liveness key has expired, no retry is told "in progress" any more
      // (250 ms of slack for the clocks of this process and Redis).
      expect(conflicts.filter((a) => a.sentAfterMs > LIVENESS_TTL_MS + 250)).toEqual([]);
      // Taken over from the dead process (its liveness key gone), not after its whole lease: the
      // survivor says so, however long that took.
      expect(await takeOvers()).toBe(takeOversBefore + 1);
    },
  );
});
