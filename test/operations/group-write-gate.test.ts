import { AppError } from '@tally/http-kit';
import { createGroupGate } from '../../apps/api/src/ledger/group-access';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { countRows, lockWaiters, sampleOf, shapeOf, unavailableShape } from './operations-helpers';

const refusal = (error: unknown) =>
  error instanceof AppError ? { status: error.status, code: error.code, headers: error.headers } : error;
const REFUSED = { status: 503, code: 'unavailable', headers: { 'Retry-After': '1' } };

describe('the group gate', () => {
  it('lets one write through, queues the rest up to maxWaiting, refuses one more at once', async () => {
    const gate = createGroupGate({ maxWaiting: 3, waitTimeoutMs: 60_000 });
    const order: string[] = [];
    const first = await gate.enter('grp_a');
    const inOrder = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const second = gate.enter('grp_a').then(inOrder('second'));
    const third = gate.enter('grp_a').then(inOrder('third'));
    expect(refusal(await gate.enter('grp_a').catch((e: unknown) => e))).toEqual(REFUSED);
    // Another group is not affected.
    (await gate.enter('grp_b'))();

    first();
    (await second)();
    (await third)();
    expect(order).toEqual(['second', 'third']);
    // Every place is free again: three writes are let in (one runs, two queue), a fourth is not.
    const again = [gate.enter('grp_a'), gate.enter('grp_a'), gate.enter('grp_a')];
    expect(refusal(await gate.enter('grp_a').catch((e: unknown) => e))).toEqual(REFUSED);
    for (const entered of again) (await entered)();
  });

  it('refuses a write that waited longer than waitTimeoutMs, and frees its place', async () => {
    const gate = createGroupGate({ maxWaiting: 2, waitTimeoutMs: 50 });
    const running = await gate.enter('grp_a');
    expect(refusal(await gate.enter('grp_a').catch((e: unknown) => e))).toEqual(REFUSED);
    const waiting = gate.enter('grp_a');
    running();
    (await waiting)();
  });
});

const BOUND = 4;
const body = (groupId: string, ada: TestUser, bob: TestUser) => ({
  groupId,
  description: 'Round',
  amount: 1000,
  paidBy: ada.id,
  split: { type: 'equal', between: [ada.id, bob.id] },
});

describe('writes waiting on one hot group', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        MAX_WRITES_WAITING_PER_GROUP: String(BOUND),
        DB_POOL_MAX: '4',
        // The writes let in wait for the held lock as long as the test holds it.
        DB_LOCK_TIMEOUT_MS: '30000',
        DB_POOL_ACQUIRE_TIMEOUT_MS: '30000',
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('are bounded: one more gets 503 with Retry-After at once, the group holds one connection, the rest succeed', async () => {
    const [ada, bob] = [await t.register('Ada'), await t.register('Bob')];
    const hot = await t.createGroup(ada, [bob]);
    const quiet = await t.createGroup(ada, [bob]);
    const post = (groupId: string, key: string) =>
      t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', key)
        .send(body(groupId, ada, bob));

    const knex = t.db!.knex;
    const holder = await knex.transaction();
    const keys = Array.from({ length: 10 }, () => newKey());
    const answers = new Map<string, Awaited<ReturnType<typeof post>>>();
    let sent: Promise<unknown>[] = [];
    try {
      await holder('groups').where({ id: hot }).forUpdate().first();
      sent = keys.map((key) => post(hot, key).then((res) => answers.set(key, res)));
      await until(() => answers.size === keys.length - BOUND, 'the writes over the bound to be refused');
      for (const res of answers.values()) expect(shapeOf(res)).toEqual(unavailableShape('1'));
      await until(async () => (await lockWaiters(knex, t.db!.name)) === 1, 'one write at the lock');
      expect(answers.size).toBe(keys.length - BOUND);

      // The hot group left the rest of the pool to everyone else.
      expect((await post(quiet, newKey())).status).toBe(201);
      expect((await t.request.get('/v1/groups').set(ada.auth)).status).toBe(200);
      const metrics = (await t.request.get('/metrics')).text;
      expect(sampleOf(metrics, 'group_writes_refused_total', 'reason="queue_full"')).toBe(
        keys.length - BOUND,
      );
    } finally {
      await holder.commit();
      await Promise.all(sent);
    }

    const admitted = keys.filter((key) => answers.get(key)?.status === 201);
    expect(admitted).toHaveLength(BOUND);
    // The refused writes did nothing: retried with the same keys they run now, for the first time.
    for (const key of keys.filter((k) => !admitted.includes(k))) {
      const retried = await post(hot, key);
      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await countRows(knex('expenses').where({ group_id: hot }))).toBe(keys.length);
    expect(await countRows(knex('events').where({ group_id: hot, type: 'expense.created' }))).toBe(
      keys.length,
    );
    const balances = await t.request.get(`/v1/groups/${hot}/balances`).set(ada.auth);
    expect(balances.body.currencies).toEqual([
      expect.objectContaining({
        currency: 'INR',
        members: expect.arrayContaining([
          { userId: ada.id, net: 500 * keys.length },
          { userId: bob.id, net: -500 * keys.length },
        ]),
      }),
    ]);
  });
});

describe('a write queued on a hot group for too long', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        MAX_WRITES_WAITING_PER_GROUP: String(BOUND),
        DB_POOL_ACQUIRE_TIMEOUT_MS: '500',
        DB_LOCK_TIMEOUT_MS: '30000',
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('gets 503 with Retry-After after the pool acquire timeout, while the write at the lock still succeeds', async () => {
    const [ada, bob] = [await t.register('Ada'), await t.register('Bob')];
    const hot = await t.createGroup(ada, [bob]);
    const knex = t.db!.knex;
    const holder = await knex.transaction();
    const answers: { status: number }[] = [];
    let sent: Promise<unknown>[] = [];
    try {
      await holder('groups').where({ id: hot }).forUpdate().first();
      sent = Array.from({ length: BOUND }, () =>
        t.request
          .post('/v1/expenses')
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .send(body(hot, ada, bob))
          .then((res) => answers.push(res)),
      );
      await until(() => answers.length === BOUND - 1, 'the queued writes to give up');
      for (const res of answers) expect(shapeOf(res as never)).toEqual(unavailableShape('1'));
      expect(await lockWaiters(knex, t.db!.name)).toBe(1);
    } finally {
      await holder.commit();
      await Promise.all(sent);
    }
    expect(answers.map((a) => a.status).sort()).toEqual([201, 503, 503, 503]);
    const metrics = (await t.request.get('/metrics')).text;
    // They waited behind the write at the lock: each decided on the state it will leave, and queued
    // for group commit after it (apps/api/src/ledger/write-batch.ts), not in the group's gate.
    const expired = metrics.split('\n').find((l) => l.startsWith('write_statements_expired_total '));
    expect(Number(expired?.split(' ')[1])).toBe(BOUND - 1);
    expect(await countRows(knex('expenses').where({ group_id: hot }))).toBe(1);
  });
});
