/**
 * Group commit (apps/api/src/ledger/write-batch.ts) when a batch fails: the pool is exhausted while
 * the batch waits for a connection, the batch's connection is lost, a statement of it waits for a
 * row lock another process holds, or one statement raises while others would wait for locks. Each
 * test checks what the clients see, that nothing is written twice or half, the metric that counts
 * the failure, and (last) that the writes sent again hold no more connections than the batch did.
 */
import { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type request from 'supertest';
import { ensureRedis, type RunningService } from '../support/services';
import { newKey, startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { inOneBatch, metricOf } from './group-commit-helpers';
import { countRows, lockWaiters, shapeOf, unavailableShape } from './operations-helpers';

/** A server, Ada, and `n` groups of hers, each written once (so the server has them cached). */
async function setUp(env: Record<string, string>, n: number) {
  const t = await startTestServer({ env });
  const ada = await t.register('Ada');
  const post = (groupId: string, key: string) => t.postOwnExpense(ada, groupId, key);
  const groups: string[] = [];
  for (let i = 0; i < n; i++) {
    const groupId = await t.createGroup(ada);
    expect((await post(groupId, newKey())).status).toBe(201);
    groups.push(groupId);
  }
  return { t, ada, post, groups };
}

type Suite = Awaited<ReturnType<typeof setUp>> & { poolMax: number };

/** A server of the describe block's own (`setUp`), started before its tests and stopped after. */
function suiteServer(env: Record<string, string> | (() => Record<string, string>), n: number): { s: Suite } {
  const box = {} as { s: Suite };
  beforeAll(async () => {
    const resolved = typeof env === 'function' ? env() : env;
    box.s = { ...(await setUp(resolved, n)), poolMax: Number(resolved.DB_POOL_MAX) };
  });
  afterAll(async () => {
    await box.s?.t.stop();
  });
  return box;
}

/** One write to each of `groupIds` (keyed `keys`) in ONE batch, behind blockers on `blockerGroups`. */
const batchOf = (s: Suite, blockerGroups: [string, string], groupIds: string[], keys: string[]) =>
  inOneBatch(s.t, {
    poolMax: s.poolMax,
    blockers: [() => s.post(blockerGroups[0], newKey()), () => s.post(blockerGroups[1], newKey())],
    writes: groupIds.map((groupId, i) => () => s.post(groupId, keys[i] as string)),
  });

/** How much each of `metrics` grew since `before` (its `samples`). */
const growth = async (t: TestServer, metrics: string[], before: number[]) =>
  (await samples(t, metrics)).map((value, i) => value - (before[i] as number));

/** The samples of `metrics` (a name, or `name{labels}`). */
async function samples(t: TestServer, metrics: string[]): Promise<number[]> {
  const values: number[] = [];
  for (const m of metrics) {
    const brace = m.indexOf('{');
    values.push(await (brace < 0 ? metricOf(t, m) : metricOf(t, m.slice(0, brace), m.slice(brace + 1, -1))));
  }
  return values;
}

/**
 * Nothing of the batch was written (`countsBefore` still), then each client's retry with its
 * key runs fresh, once: every group one expense more, its events gapless.
 */
async function expectNothingWrittenThenRetried(
  s: Suite,
  groupIds: string[],
  keys: string[],
  countsBefore: number[],
) {
  const knex = s.t.db!.knex;
  expect(await expenseCounts(knex, groupIds)).toEqual(countsBefore);
  await expectRetriesRunFresh(
    s.post,
    groupIds.map((groupId, i) => [groupId, keys[i] as string]),
  );
  expect(await expenseCounts(knex, groupIds)).toEqual(countsBefore.map((n) => n + 1));
  await expectGapless(knex, groupIds);
}

/** The expenses of each group. */
const expenseCounts = (knex: Knex, groupIds: string[]) =>
  Promise.all(groupIds.map((id) => countRows(knex('expenses').where({ group_id: id }))));

/** Each group's events are 1..last_seq: no gap, no duplicate. */
async function expectGapless(knex: Knex, groupIds: string[]) {
  for (const groupId of groupIds) {
    const [{ last_seq }] = await knex('groups').where({ id: groupId }).select('last_seq');
    const seqs = (await knex('events').where({ group_id: groupId }).orderBy('seq').select('seq')).map((r) =>
      Number(r.seq),
    );
    expect(seqs).toEqual(Array.from({ length: Number(last_seq) }, (_, i) => i + 1));
  }
}

/** Sends each key's write again (a client's retry): each runs now, for the first time. */
async function expectRetriesRunFresh(
  post: (groupId: string, key: string) => request.Test,
  writes: [string, string][],
) {
  for (const [groupId, key] of writes) {
    const again = await post(groupId, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  }
}

/** A transaction of the test's own holding `groupId`'s row lock, and its backend's pid. */
async function lockGroup(knex: Knex, groupId: string) {
  const trx = await knex.transaction();
  await trx('groups').where({ id: groupId }).forUpdate().first();
  const { rows } = await trx.raw('select pg_backend_pid() as pid');
  return { trx, pid: Number(rows[0].pid) };
}

const FAILED = 'write_batches_failed_total';

describe('a batch whose connection the exhausted pool never gives', () => {
  const box = suiteServer({ DB_POOL_MAX: '2', DB_POOL_ACQUIRE_TIMEOUT_MS: '1000' }, 5);

  it('answers each of its writes 503 with Retry-After, sends none of them again, writes nothing', async () => {
    const { s } = box;
    const [a, b, ...batched] = s.groups as [string, string, ...string[]];
    const metrics = [
      `${FAILED}{reason="pool_exhausted"}`,
      'write_statements_resent_total',
      'write_statements_expired_total',
    ];
    const [counts, before] = [await expenseCounts(s.t.db!.knex, batched), await samples(s.t, metrics)];
    const keys = batched.map(() => newKey());
    const answers = await inOneBatch(s.t, {
      poolMax: s.poolMax,
      blockers: [() => s.post(a, newKey()), () => s.post(b, newKey())],
      writes: batched.map((groupId, i) => () => s.post(groupId, keys[i] as string)),
      holdPoolUntilAnswered: true,
    });
    for (const res of [...answers.blockers, ...answers.writes])
      expect(shapeOf(res)).toEqual(unavailableShape('1'));
    // The batch went (none expired in the queue), found no connection, and was not sent again.
    expect(await growth(s.t, metrics, before)).toEqual([1, 0, 0]);
    await expectNothingWrittenThenRetried(s, batched, keys, counts);
  });
});

describe('a batch whose connection is lost while it waits for a row lock', () => {
  const box = suiteServer(
    { DB_POOL_MAX: '3', DB_POOL_ACQUIRE_TIMEOUT_MS: '30000', DB_LOCK_TIMEOUT_MS: '30000' },
    5,
  );

  it('answers each of its writes 503 with Retry-After, sends none of them again, writes nothing', async () => {
    const { s } = box;
    const [a, b, ...batched] = s.groups as [string, string, string, ...string[]];
    const knex = s.t.db!.knex;
    const metrics = [`${FAILED}{reason="connection_lost"}`, 'write_statements_resent_total'];
    const [counts, before] = [await expenseCounts(knex, batched), await samples(s.t, metrics)];
    const holder = await lockGroup(knex, batched[0] as string);
    const keys = batched.map(() => newKey());
    let answers: Awaited<ReturnType<typeof inOneBatch>>;
    try {
      const answered = batchOf(s, [a, b], batched, keys);
      // The batch waits at the held row lock: its backend is ended under it.
      await until(async () => (await lockWaiters(knex, s.t.db!.name)) === 1, 'the batch at the lock');
      const { rows } = await knex.raw(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = ? and ? = any(pg_blocking_pids(pid))`,
        [s.t.db!.name, holder.pid],
      );
      expect(rows).toEqual([{ ended: true }]);
      answers = await answered;
    } finally {
      await holder.trx.commit();
    }
    expect(answers.blockers.map((r) => r.status)).toEqual([201, 201]);
    for (const res of answers.writes) expect(shapeOf(res)).toEqual(unavailableShape('2'));
    // Not sent again: the batch might have committed just before its connection went.
    expect(await growth(s.t, metrics, before)).toEqual([1, 0]);
    await expectNothingWrittenThenRetried(s, batched, keys, counts);
  });
});

describe('a batch with a statement that waits for another process’s row lock', () => {
  const box = suiteServer(
    { DB_POOL_MAX: '3', DB_POOL_ACQUIRE_TIMEOUT_MS: '30000', DB_LOCK_TIMEOUT_MS: '1000' },
    5,
  );

  it('answers that write 503 with Retry-After at the lock timeout, and commits the others, sent again alone', async () => {
    const { s } = box;
    const [a, b, locked, ...free] = s.groups as [string, string, string, ...string[]];
    const knex = s.t.db!.knex;
    const metrics = [
      `${FAILED}{reason="lock_timeout"}`,
      'write_batches_retried_total',
      'write_statements_resent_total',
    ];
    const [counts, before] = [await expenseCounts(knex, [locked, ...free]), await samples(s.t, metrics)];
    const holder = await lockGroup(knex, locked);
    const keys = [newKey(), ...free.map(() => newKey())];
    let answers: Awaited<ReturnType<typeof inOneBatch>>;
    try {
      answers = await batchOf(s, [a, b], [locked, ...free], keys);
    } finally {
      await holder.trx.commit();
    }
    expect(answers.blockers.map((r) => r.status)).toEqual([201, 201]);
    const [atLock, ...others] = answers.writes;
    expect(shapeOf(atLock as request.Response)).toEqual(unavailableShape('1'));
    expect(others.map((r) => r.status)).toEqual(free.map(() => 201));
    // The others were sent again, not the one at the lock: it would only wait as long again.
    expect(await growth(s.t, metrics, before)).toEqual([1, 1, free.length]);
    expect(await expenseCounts(knex, free)).toEqual(counts.slice(1).map((n) => n + 1));
    await expectNothingWrittenThenRetried(s, [locked], [keys[0] as string], [counts[0] as number]);
  });
});

describe('the writes of a batch undone by one statement, sent again while others hold their groups', () => {
  let redis: Redis;
  // A throwaway Redis of this suite's own: FLUSHDB here must not touch anybody else's keys.
  let ownRedis: RunningService;
  beforeAll(async () => {
    ownRedis = await ensureRedis({ ephemeral: true });
    redis = new Redis(ownRedis.url);
  });
  const box = suiteServer(
    () => ({
      REDIS_URL: ownRedis.url,
      DB_POOL_MAX: '3',
      DB_POOL_ACQUIRE_TIMEOUT_MS: '30000',
      DB_LOCK_TIMEOUT_MS: '30000',
    }),
    6,
  );
  afterAll(async () => {
    await redis?.quit();
    await ownRedis?.stop();
  });

  it('go one at a time on the batch’s own connection: one backend, one lock wait, however many wait', async () => {
    const { s } = box;
    const { t, post } = s;
    const [a, b, ...rest] = s.groups as [string, string, ...string[]];
    // The batch goes in group order: the duplicate's group first, so it raises before any lock wait.
    const [dupGroup, ...lockedGroups] = [...rest].sort() as [string, ...string[]];
    const knex = t.db!.knex;
    // A key whose durable record is live in PostgreSQL while Redis lost it: its statement raises TY001.
    const dupKey = newKey();
    const first = await post(dupGroup, dupKey);
    expect(first.status).toBe(201);
    await redis.flushdb();
    const metrics = [
      `${FAILED}{reason="statement_error"}`,
      'write_batches_retried_total',
      'write_statements_resent_total',
    ];
    const [counts, before] = [await expenseCounts(knex, lockedGroups), await samples(t, metrics)];
    const holders = [];
    for (const groupId of lockedGroups) holders.push(await lockGroup(knex, groupId));
    /** Per step of the retry: the backend waiting at the held group, and how many wait for a lock. */
    const seen: { pid: number; waiting: number }[] = [];
    const blockedBy = async (holderPid: number) =>
      (
        await knex.raw(
          `select pid from pg_stat_activity where datname = ? and ? = any(pg_blocking_pids(pid))`,
          [t.db!.name, holderPid],
        )
      ).rows.map((r: { pid: number }) => Number(r.pid));
    let answers: Awaited<ReturnType<typeof inOneBatch>>;
    try {
      const answered = inOneBatch(t, {
        poolMax: s.poolMax,
        blockers: [() => post(a, newKey()), () => post(b, newKey())],
        writes: [
          () => post(dupGroup, dupKey),
          ...lockedGroups.map((groupId) => () => post(groupId, newKey())),
        ],
      });
      // The retry reaches each held group in turn: it waits there until the test lets it go.
      for (const holder of holders) {
        await until(
          async () => (await blockedBy(holder.pid)).length === 1,
          'the retry at the next held group',
        );
        const [pid] = await blockedBy(holder.pid);
        seen.push({ pid: pid as number, waiting: await lockWaiters(knex, t.db!.name) });
        await holder.trx.commit();
      }
      answers = await answered;
    } finally {
      for (const holder of holders) if (!holder.trx.isCompleted()) await holder.trx.commit();
    }
    // However many writes wait for locks, the retry sends them one at a time, all on the one
    // connection the batch had: one backend, one lock wait at a time.
    const batchBackend = seen[0]?.pid;
    expect(seen).toEqual(lockedGroups.map(() => ({ pid: batchBackend, waiting: 1 })));
    expect(answers.blockers.map((r) => r.status)).toEqual([201, 201]);
    const [dup, ...waited] = answers.writes;
    expect(dup?.status).toBe(201);
    expect(dup?.headers['idempotent-replayed']).toBe('true');
    expect(dup?.body).toEqual(first.body);
    expect(waited.map((r) => r.status)).toEqual(lockedGroups.map(() => 201));
    // Every write of the batch was sent again: the duplicate and each at its lock.
    expect(await growth(t, metrics, before)).toEqual([1, 1, 1 + lockedGroups.length]);
    expect(await expenseCounts(knex, lockedGroups)).toEqual(counts.map((n) => n + 1));
    await expectGapless(knex, [dupGroup, ...lockedGroups]);
  });
});
