/**
 * Group commit (write-batch.ts): concurrent writes of one process go to PostgreSQL as ONE batch,
 * one round trip and one commit, and each keeps its own guard, durable record and outcome. Here a
 * batch is filled deterministically, with no test hook (`inOneBatch`): the pool is taken, two
 * writes hold both batch slots, and the writes of the test queue behind them until the pool is back. "Another process" writes two of the groups first, as its
 * statements would (the next seq and its event), so that the writes built on this process's
 * cached state are out of date when their batch runs.
 */
import { Redis } from 'ioredis';
import { Client } from 'pg';
import type request from 'supertest';
import { ensureRedis, type RunningService } from '../support/services';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { inOneBatch as fillOneBatch, metricOf } from './group-commit-helpers';

/** The server's pool: `inOneBatch` takes all of it for a moment. */
const POOL_MAX = 4;

describe('group commit: one batch with a stale write, an invalid write and a duplicate key', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let other: Client;
  /** The groups of `inOneBatch`'s two blockers (written once: in the server's cache). */
  let blockerGroups: string[];
  let redis: Redis;
  // A throwaway Redis of this file's own: FLUSHDB here must not touch anybody else's keys.
  let ownRedis: RunningService;

  beforeAll(async () => {
    ownRedis = await ensureRedis({ ephemeral: true });
    redis = new Redis(ownRedis.url);
    t = await startTestServer({
      env: {
        REDIS_URL: ownRedis.url,
        DB_POOL_MAX: String(POOL_MAX),
        // While `inOneBatch` holds the pool, nothing may give up waiting for it.
        DB_POOL_ACQUIRE_TIMEOUT_MS: '30000',
      },
    });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    blockerGroups = [await t.createGroup(ada), await t.createGroup(ada)];
    for (const groupId of blockerGroups) expect((await expense(groupId, newKey())).status).toBe(201);
    other = new Client({ connectionString: t.db?.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await t?.stop();
    await redis?.quit();
    await ownRedis?.stop();
  });

  /** Another process's change to the group: the next seq and its event, committed (and `also`). */
  const writeElsewhere = async (groupId: string, also?: () => Promise<unknown>) => {
    await other.query('begin');
    const { rows } = await other.query<{ last_seq: string }>(
      'update groups set last_seq = last_seq + 1, version = version + 1 where id = $1 returning last_seq',
      [groupId],
    );
    await other.query(
      `insert into events (id, group_id, seq, type, actor_id, occurred_at, data)
       values ($1, $2, $3, 'group.updated', $4, now(), '{"group": {}}')`,
      [`evt_elsewhere_${groupId}_${rows[0]?.last_seq}`, groupId, rows[0]?.last_seq, ada.id],
    );
    await also?.();
    await other.query('commit');
  };

  const expense = (groupId: string, key: string, between: TestUser[] = [ada]) =>
    t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', key)
      .send({
        groupId,
        description: 'Dinner',
        amount: 1200 * between.length,
        paidBy: ada.id,
        split: { type: 'equal', between: between.map((u) => u.id) },
      });

  const counts = async (groupIds: string[]) => {
    const result: number[] = [];
    for (const groupId of groupIds) result.push(await expenseCount(groupId));
    return result;
  };
  const expenseCount = async (groupId: string) =>
    Number(
      (await other.query('select count(*) as n from expenses where group_id = $1', [groupId])).rows[0].n,
    );
  const seqs = async (groupId: string) =>
    (
      await other.query<{ seq: string }>('select seq from events where group_id = $1 order by seq', [groupId])
    ).rows.map((r) => Number(r.seq));
  const lastSeq = async (groupId: string) =>
    Number((await other.query('select last_seq from groups where id = $1', [groupId])).rows[0].last_seq);
  const metric = (name: string) => metricOf(t, name);

  /** Sends `writes` as ONE batch (see `group-commit-helpers.ts`); `whileQueued` runs once all are queued. */
  async function inOneBatch(
    writes: Array<() => request.Test>,
    whileQueued?: () => Promise<void>,
  ): Promise<request.Response[]> {
    const answers = await fillOneBatch(t, {
      poolMax: POOL_MAX,
      blockers: [
        () => expense(blockerGroups[0] as string, newKey()),
        () => expense(blockerGroups[1] as string, newKey()),
      ],
      writes,
      whileQueued,
    });
    expect(answers.blockers.map((r) => r.status)).toEqual([201, 201]);
    return answers.writes;
  }

  /** Five groups, each written once by this process (so it holds their state in its cache). */
  async function fiveGroups() {
    const groups = {
      ok1: await t.createGroup(ada),
      ok2: await t.createGroup(ada),
      stale: await t.createGroup(ada),
      invalid: await t.createGroup(ada, [bob]),
      dup: await t.createGroup(ada),
    };
    for (const groupId of Object.values(groups)) expect((await expense(groupId, newKey())).status).toBe(201);
    return groups;
  }

  type FiveGroups = Awaited<ReturnType<typeof fiveGroups>>;

  /**
   * Another process writes `stale`, and removes Bob from `invalid`: this process's cached state of
   * both is out of date.
   */
  async function outOfDateElsewhere(g: FiveGroups) {
    await writeElsewhere(g.stale);
    await writeElsewhere(g.invalid, () =>
      other.query('delete from group_members where group_id = $1 and user_id = $2', [g.invalid, bob.id]),
    );
  }

  /** One expense to each of the five groups, in one batch: the one to `invalid` names Bob, the one to `dup` uses `dupKey`. */
  const oneWriteEachInOneBatch = (g: FiveGroups, dupKey: string) =>
    inOneBatch([
      () => expense(g.ok1, newKey()),
      () => expense(g.ok2, newKey()),
      () => expense(g.stale, newKey()),
      () => expense(g.invalid, newKey(), [ada, bob]),
      () => expense(g.dup, dupKey),
    ]);

  /** Every group's events are 1..last_seq, no gap, no duplicate. */
  async function expectGapless(groupIds: string[]) {
    for (const groupId of groupIds) {
      const last = await lastSeq(groupId);
      expect(await seqs(groupId)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    }
  }

  it('commits every other write once, re-runs the stale one, answers the invalid one 422, replays the duplicate', async () => {
    const g = await fiveGroups();
    // The duplicate: a key whose durable record is live in PostgreSQL, while Redis lost it.
    const dupKey = newKey();
    const first = await expense(g.dup, dupKey);
    expect(first.status).toBe(201);
    await redis.flushdb();
    await outOfDateElsewhere(g);
    const before = {
      counts: await counts(Object.values(g)),
      retried: await metric('write_batches_retried_total'),
    };

    const [ok1, ok2, stale, invalid, dup] = await oneWriteEachInOneBatch(g, dupKey);

    expect(ok1?.status).toBe(201);
    expect(ok2?.status).toBe(201);
    expect(stale?.status).toBe(201);
    expect(invalid?.status).toBe(422);
    expect(invalid?.body.code).toBe('not_a_member');
    expect(dup?.status).toBe(201);
    expect(dup?.headers['idempotent-replayed']).toBe('true');
    expect(dup?.body).toEqual(first.body);

    const after = await counts(Object.values(g));
    expect(after).toEqual([
      (before.counts[0] as number) + 1,
      (before.counts[1] as number) + 1,
      (before.counts[2] as number) + 1,
      before.counts[3],
      before.counts[4],
    ]);
    await expectGapless(Object.values(g));
    // The duplicate's TY001 undid the batch: it went again, one statement per write.
    expect(await metric('write_batches_retried_total')).toBe(before.retried + 1);
  });

  /**
   * Ada's net in each `expense.created` event of the group, in seq order: every event's balances
   * must be what the expenses before it and itself add up to, whatever batch or retry it went in.
   */
  const adaNets = async (groupId: string) =>
    (
      await other.query<{
        data: { balances: { currency: string; members: { userId: string; net: number }[] }[] };
      }>(`select data from events where group_id = $1 and type = 'expense.created' order by seq`, [groupId])
    ).rows.map((r) => r.data.balances[0]?.members.find((m) => m.userId === ada.id)?.net);

  it('puts writes to one group in one batch, each building on the one before it, with consecutive seqs', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    expect((await expense(groupId, newKey(), [ada, bob])).status).toBe(201);
    const before = {
      count: await expenseCount(groupId),
      seq: await lastSeq(groupId),
      batches: await metric('write_batch_size_count'),
      small: await metric('write_batch_size_bucket{le="4"}'),
      retried: await metric('write_batches_retried_total'),
    };
    // Five writes to ONE group queue together: each was decided on the state the one before leaves.
    const responses = await inOneBatch(
      Array.from({ length: 5 }, () => () => expense(groupId, newKey(), [ada, bob])),
    );
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(5);
    expect(await expenseCount(groupId)).toBe(before.count + 5);
    expect(await lastSeq(groupId)).toBe(before.seq + 5);
    await expectGapless([groupId]);
    expect(await adaNets(groupId)).toEqual([1200, 2400, 3600, 4800, 6000, 7200]);
    // One batch of five (above the le="4" bucket) after the blockers' two lone ones, nothing undone.
    expect(await metric('write_batch_size_count')).toBe(before.batches + 3);
    expect(await metric('write_batch_size_bucket{le="4"}')).toBe(before.small + 2);
    expect(await metric('write_batches_retried_total')).toBe(before.retried);
  });

  it('re-runs the writes of a group built on one that did not apply, never on another write that took its seq', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    expect((await expense(groupId, newKey(), [ada, bob])).status).toBe(201);
    // A key whose durable record is live in PostgreSQL while Redis lost it: the third write's.
    const dupKey = newKey();
    const first = await expense(groupId, dupKey, [ada, bob]);
    expect(first.status).toBe(201);
    await redis.flushdb();
    const count = await expenseCount(groupId);
    const [w1, w2, dup, w4] = await inOneBatch(
      [
        () => expense(groupId, newKey(), [ada, bob]),
        () => expense(groupId, newKey(), [ada, bob]),
        () => expense(groupId, dupKey, [ada, bob]),
        () => expense(groupId, newKey(), [ada, bob]),
      ],
      // Another process takes the seq the first queued write was built for: that write is stale,
      // and the second, built on it, must not apply on the other process's change in its place.
      () => writeElsewhere(groupId),
    );
    expect([w1?.status, w2?.status, dup?.status, w4?.status]).toEqual([201, 201, 201, 201]);
    expect(dup?.headers['idempotent-replayed']).toBe('true');
    expect(dup?.body).toEqual(first.body);
    expect(await expenseCount(groupId)).toBe(count + 3);
    await expectGapless([groupId]);
    // Every event's balances are the sum of the expenses up to it: no write applied on a state it was not decided on.
    expect(await adaNets(groupId)).toEqual([1200, 2400, 3600, 4800, 6000]);
  });

  it('commits a batch with a stale and an invalid write in one piece, and re-runs only those two', async () => {
    const g = await fiveGroups();
    await outOfDateElsewhere(g);
    const before = {
      counts: await counts(Object.values(g)),
      retried: await metric('write_batches_retried_total'),
      batches: await metric('write_batch_size_count'),
      small: await metric('write_batch_size_bucket{le="4"}'),
    };
    const [ok1, ok2, stale, invalid, dup] = await oneWriteEachInOneBatch(g, newKey());
    expect([ok1?.status, ok2?.status, stale?.status, invalid?.status, dup?.status]).toEqual([
      201, 201, 201, 422, 201,
    ]);
    const after = await counts(Object.values(g));
    expect(after).toEqual([
      (before.counts[0] as number) + 1,
      (before.counts[1] as number) + 1,
      (before.counts[2] as number) + 1,
      before.counts[3],
      (before.counts[4] as number) + 1,
    ]);
    await expectGapless(Object.values(g));
    // No statement raised: nothing went again one by one. One batch of five, then the two re-runs.
    expect(await metric('write_batches_retried_total')).toBe(before.retried);
    expect(await metric('write_batch_size_count')).toBeGreaterThan(before.batches);
    // The batch of five is above the le="4" bucket: that bucket grew by the re-runs only.
    expect((await metric('write_batch_size_count')) - before.batches).toBeGreaterThan(
      (await metric('write_batch_size_bucket{le="4"}')) - before.small,
    );
  });
});
