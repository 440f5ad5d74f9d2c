/**
 * The outbox of `@tally/client` with entries first sent longer ago than the server keeps their keys:
 * resolved by reading the current state, not resent blindly, also after the server really forgot
 * the key.
 */
import {
  MemoryOutboxStorage,
  MemoryTokenStore,
  type OutboxEntry,
  type OutboxOptions,
  type OutboxRejection,
  type OutboxSettled,
  type Settlement,
  TallyClient,
} from '../../packages/client/src';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import {
  ada,
  bob,
  clientFor,
  DAY_MS,
  direct,
  expenseBody,
  recorder,
  settledOf,
  t,
  useOutboxServer,
} from './outbox-fixture';

describe('the outbox against the real server', () => {
  useOutboxServer();

  describe('an entry first sent longer ago than the key retention', () => {
    let g3: string;
    beforeAll(async () => {
      g3 = await t.createGroup(ada, [bob]);
    });

    /**
     * Stores writes as a process two days ago did, marked as sent then; `apply` (a direct request
     * with the entry's key) makes some of them reach the server. Returns a client two days later.
     */
    const twoDaysLater = async (
      make: (outbox: TallyClient['outbox']) => Promise<OutboxEntry[]>,
      options: OutboxOptions = {},
    ) => {
      const storage = new MemoryOutboxStorage();
      const before = clientFor(ada, { storage, autoStart: false }, { now: () => Date.now() - 2 * DAY_MS });
      const entries = await make(before.outbox);
      for (const stored of await storage.load()) {
        await storage.put({ ...stored, sentAt: new Date(Date.now() - 2 * DAY_MS).toISOString() });
      }
      const after = clientFor(ada, { ...options, storage, autoStart: false });
      return { client: after, entries, settled: settledOf(after) };
    };
    const apply = (entry: OutboxEntry) =>
      direct(ada).http.request({
        method: entry.method,
        path: entry.path,
        ...('body' in entry.operation ? { body: entry.operation.body } : {}),
        idempotencyKey: entry.idempotencyKey,
      });

    it('reads the current state and resolves each kind of write, reporting what it did', async () => {
      const rejections: OutboxRejection[] = [];
      const server = direct(ada);
      const edited = await server.expenses.create(expenseBody(g3, 'to edit'));
      const editedByBob = await server.expenses.create(expenseBody(g3, 'bob edits it too'));
      const conditional = await server.expenses.create(expenseBody(g3, 'conditional'));
      const doomed = await server.expenses.create(expenseBody(g3, 'to delete'));
      const undone = await server.settlements.create({
        groupId: g3,
        fromUserId: bob.id,
        toUserId: ada.id,
        amount: 99,
      });
      const settlement = { groupId: g3, fromUserId: bob.id, toUserId: ada.id, amount: 4242, note: 'same' };

      const { client, entries, settled } = await twoDaysLater(
        async (o) => [
          await o.createExpense(expenseBody(g3, 'created then')), // 0 applied
          await o.createExpense(expenseBody(g3, 'never arrived')), // 1 not applied
          await o.patchExpense(edited, { description: 'edited then' }), // 2 applied
          await o.patchExpense(editedByBob, { description: 'ada wanted this' }), // 3 not applied
          await o.patchExpense(conditional, { amount: 1 }, { ifMatch: `"v${conditional.version}"` }), // 4 conflict
          await o.deleteExpense(doomed), // 5 applied
          await o.createSettlement(settlement), // 6 applied
          await o.createSettlement(settlement), // 7 identical, not applied
          await o.deleteSettlement({ id: undone.id, groupId: g3 }), // 8 not applied
        ],
        { onRejected: (r) => void rejections.push(r) },
      );
      for (const i of [0, 2, 5, 6]) await apply(entries[i] as OutboxEntry);
      await server.expenses.patch(editedByBob.id, { description: 'bob changed it' });
      await server.expenses.patch(conditional.id, { description: 'changed meanwhile' });
      const requestsBefore = recorder.log.length;

      await client.outbox.start();
      await client.outbox.whenIdle();

      const byEntry = entries.map((e) => settled.find((s) => s.entry.id === e.id)?.outcome);
      const summary = byEntry.map((o) => {
        if (o?.type === 'applied') return `applied ${o.status} ${o.resolution?.action}`;
        if (o?.type === 'rejected') return `rejected ${o.resolution?.action}`;
        return o?.type;
      });
      expect(summary).toEqual([
        'found',
        'applied 201 resent',
        'found',
        'applied 200 resent',
        'rejected conflict',
        'found',
        'found',
        'applied 201 resent',
        'applied 204 resent',
      ]);
      for (const o of byEntry) {
        if (o && 'resolution' in o && o.resolution) {
          expect(o.resolution.ageMs).toBeGreaterThan(DAY_MS);
          expect(o.resolution.summary).toEqual(expect.any(String));
        }
      }
      // What was sent again carries a new key; what was found was not sent at all.
      const sentAfter = recorder.log.slice(requestsBefore).filter((r) => r.method !== 'GET');
      expect(sentAfter.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
        [1, 3, 7, 8]
          .map((i) => `${(entries[i] as OutboxEntry).method} ${(entries[i] as OutboxEntry).path}`)
          .sort(),
      );
      for (const r of sentAfter) expect(entries.map((e) => e.idempotencyKey)).not.toContain(r.key);
      const resent = settled.find((s) => s.entry.id === entries[3]?.id)?.outcome;
      expect(resent?.type === 'applied' && resent.resolution?.previousKeys).toEqual([
        entries[3]?.idempotencyKey,
      ]);
      expect(rejections.map((r) => [r.entry.id, r.error.status, r.resolution?.action])).toEqual([
        [entries[4]?.id, 412, 'conflict'],
      ]);
      const found = byEntry[6];
      expect(found?.type === 'found' && (found.current as Settlement).note).toBe('same');

      // The server holds each write once.
      const settlements = await t.db!.knex('settlements').where({ group_id: g3, amount: 4242 });
      expect(settlements).toHaveLength(2);
      expect((await server.expenses.get(editedByBob.id)).description).toBe('ada wanted this');
      expect((await server.expenses.get(conditional.id)).amount).toBe(1000);
      expect(await t.db!.knex('expenses').where({ group_id: g3, description: 'created then' })).toHaveLength(
        1,
      );
      await expect(server.settlements.get(undone.id)).rejects.toMatchObject({ status: 404 });
    });
  });
});

describe('a settlement create after the server really forgot its key', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let groupId: string;
  beforeAll(async () => {
    t = await startTestServer({ env: { IDEMPOTENCY_TTL_SECONDS: '1' } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    groupId = await t.createGroup(ada, [bob]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('is found in the group, not sent again (a blind resend would have made a second payment)', async () => {
    const tokens = () =>
      new MemoryTokenStore({ accessToken: ada.accessToken, refreshToken: ada.refreshToken });
    const storage = new MemoryOutboxStorage();
    const before = new TallyClient({
      baseUrl: t.url,
      tokenStore: tokens(),
      outbox: { storage, autoStart: false },
    });
    const entry = await before.outbox.createSettlement({
      groupId,
      fromUserId: bob.id,
      toUserId: ada.id,
      amount: 777,
    });
    // Its attempt went through; the answer was lost, and the process died.
    const body = entry.operation.type === 'settlement.create' ? entry.operation.body : undefined;
    await before.http.request({
      method: 'POST',
      path: '/v1/settlements',
      body,
      idempotencyKey: entry.idempotencyKey,
    });
    await storage.put({ ...entry, sentAt: new Date().toISOString() });

    // Wait until the server no longer keeps the key (its durable record has expired).
    const knex = t.db!.knex;
    for (;;) {
      const live = await knex('idempotency_records')
        .where({ key: entry.idempotencyKey })
        .andWhere('expires_at', '>', knex.fn.now());
      if (live.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const after = new TallyClient({
      baseUrl: t.url,
      tokenStore: tokens(),
      outbox: { storage, idempotencyTtlSeconds: 1, staleMarginSeconds: 0.5 },
    });
    const settled = new Promise<OutboxSettled>((resolve) => after.outbox.on('settled', resolve));
    const outcome = (await settled).outcome;
    await after.outbox.stop();
    expect(outcome.type).toBe('found');
    expect(await knex('settlements').where({ group_id: groupId })).toHaveLength(1);

    // The same request with the old key now executes again: the resolution was needed.
    const blind = await before.http.request({
      method: 'POST',
      path: '/v1/settlements',
      body,
      idempotencyKey: entry.idempotencyKey,
    });
    expect(blind.status).toBe(201);
    expect(blind.replayed).toBe(false);
    expect(await knex('settlements').where({ group_id: groupId })).toHaveLength(2);
  });
});
