/**
 * The durable outbox of `@tally/client` against the real server: stored before sent, creates as PUT at
 * an id made on the device, per-group order, final 4xx answers surfaced through `onRejected` (never
 * retried), a pause when the session is over, offline writes sent when the network returns, entries
 * left by an earlier process sent by the next one, stale entries resolved by reading the current state
 * (also after the server really forgot the key), realtime events settling creates still in the outbox,
 * and the storage adapters (file, AsyncStorage-shaped, memory).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import {
  asyncStorageOutbox,
  fileOutbox,
  type GroupEvent,
  MemoryOutboxStorage,
  MemoryTokenStore,
  type OutboxEntry,
  type OutboxOptions,
  type OutboxRejection,
  type OutboxSettled,
  type OutboxStorage,
  type Settlement,
  TallyClient,
  type TallyClientOptions,
  TallyError,
} from '../../packages/client/src';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { FaultProxy } from './fault-proxy';
import { SwitchableProxy } from './switchable-proxy';

const DAY_MS = 86_400_000;

/** A memory storage that also answers synchronously what it holds (to check "stored before sent"). */
class InspectableStorage extends MemoryOutboxStorage {
  readonly held = new Map<string, OutboxEntry>();
  override async put(entry: OutboxEntry): Promise<void> {
    await super.put(entry);
    this.held.set(entry.id, JSON.parse(JSON.stringify(entry)));
  }
  override async remove(id: string): Promise<void> {
    await super.remove(id);
    this.held.delete(id);
  }
}

const settledOf = (client: TallyClient): OutboxSettled[] => {
  const settled: OutboxSettled[] = [];
  client.outbox.on('settled', (s) => settled.push(s));
  return settled;
};

describe('the outbox against the real server', () => {
  let t: TestServer;
  let recorder: FaultProxy;
  let ada: TestUser;
  let bob: TestUser;
  let g1: string;
  let g2: string;
  const clients: TallyClient[] = [];

  const clientFor = (
    user: TestUser | undefined,
    outbox: OutboxOptions,
    extra: Partial<TallyClientOptions> = {},
  ): TallyClient => {
    const client = new TallyClient({
      baseUrl: recorder.url,
      tokenStore: new MemoryTokenStore(
        user ? { accessToken: user.accessToken, refreshToken: user.refreshToken } : undefined,
      ),
      retry: { baseDelayMs: 10, maxDelayMs: 100, attemptTimeoutMs: 2000 },
      outbox,
      ...extra,
    });
    clients.push(client);
    return client;
  };
  const direct = (user: TestUser) =>
    new TallyClient({
      baseUrl: t.url,
      tokenStore: new MemoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken }),
    });
  const requestsFor = (key: string) => recorder.log.filter((r) => r.key === key);
  const eventsOf = async (groupId: string): Promise<GroupEvent[]> => {
    const events: GroupEvent[] = [];
    for await (const e of direct(ada).groups.allEvents(groupId, { limit: 100 })) events.push(e);
    return events;
  };
  const expenseBody = (groupId: string, description: string, amount = 1000) => ({
    groupId,
    description,
    amount,
    paidBy: ada.id,
    split: { type: 'equal' as const, between: [ada.id, bob.id] },
  });

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    g1 = await t.createGroup(ada, [bob]);
    g2 = await t.createGroup(ada, [bob]);
    recorder = await FaultProxy.start({
      target: t.url,
      weights: { forward: 1, delay: 0, slow: 0, 'reset-before': 0, 'drop-response': 0 },
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.outbox.stop()));
  });
  afterAll(async () => {
    await recorder?.close();
    await t?.stop();
  });

  it('stores each write before sending it and sends the writes of a group in the order they were made', async () => {
    const storage = new InspectableStorage();
    const client = clientFor(ada, { storage });
    const settled = settledOf(client);
    const notStoredWhenSent: string[] = [];
    client.outbox.on('sending', ({ entry }) => {
      const held = storage.held.get(entry.id);
      if (!held || held.sentAt === undefined || held.idempotencyKey !== entry.idempotencyKey) {
        notStoredWhenSent.push(entry.id);
      }
    });

    // Made without waiting for one another: the order of the calls is the order on the server.
    const { outbox } = client;
    const lunch = outbox.createExpense(expenseBody(g1, 'lunch'), { meta: { local: 1 } });
    const taxi = outbox.createExpense(expenseBody(g2, 'taxi'));
    const lunchId = (await lunch).expenseId;
    const writes = await Promise.all([
      lunch,
      taxi,
      outbox.patchExpense({ id: lunchId, groupId: g1 }, { description: 'lunch (edited)', amount: 1200 }),
      outbox.createSettlement({
        groupId: g1,
        fromUserId: bob.id,
        toUserId: ada.id,
        amount: 300,
        note: 'back',
      }),
      outbox.createExpense(expenseBody(g1, 'coffee', 400)),
    ]);
    const coffeeId = (writes[4] as { expenseId: string }).expenseId;
    writes.push(await outbox.deleteExpense({ id: coffeeId, groupId: g1 }));
    expect(outbox.pending().map((e) => e.seq)).toEqual(
      [...outbox.pending()].map((e) => e.seq).sort((a, b) => a - b),
    );
    expect(lunchId).toMatch(/^exp_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect((await lunch).meta).toEqual({ local: 1 });

    await outbox.whenIdle();
    expect(notStoredWhenSent).toEqual([]);
    expect(outbox.pending()).toEqual([]);
    expect(await storage.load()).toEqual([]);

    // One settled event per entry, each with the server's answer.
    expect(settled.map((s) => [s.entry.operation.type, s.outcome.type])).toEqual(
      expect.arrayContaining([
        ['expense.create', 'applied'],
        ['expense.create', 'applied'],
        ['expense.patch', 'applied'],
        ['settlement.create', 'applied'],
        ['expense.create', 'applied'],
        ['expense.delete', 'applied'],
      ]),
    );
    expect(settled).toHaveLength(6);
    const statusOf = (id: string) => {
      const outcome = settled.find((s) => s.entry.id === id)?.outcome;
      return outcome?.type === 'applied' ? outcome.status : undefined;
    };
    expect(writes.map((w) => statusOf(w.id))).toEqual([201, 201, 200, 201, 201, 204]);

    // Creates went out as PUT at the id made on the device.
    for (const w of writes.filter((e) => e.operation.type === 'expense.create')) {
      expect(requestsFor(w.idempotencyKey).map((r) => `${r.method} ${r.path}`)).toEqual([`PUT ${w.path}`]);
    }
    expect((await direct(ada).expenses.get(lunchId)).description).toBe('lunch (edited)');

    // The group's log has the writes in the order they were made.
    const log = (await eventsOf(g1)).filter((e) => e.type !== 'member.added');
    expect(log.map((e) => e.type)).toEqual([
      'expense.created',
      'expense.updated',
      'settlement.created',
      'expense.created',
      'expense.deleted',
    ]);
  });

  it('surfaces 412, 404 and 422 through onRejected with the entry, sends each once, and goes on', async () => {
    const existing = await direct(ada).expenses.create(expenseBody(g2, 'hotel', 5000));
    const rejections: OutboxRejection[] = [];
    const client = clientFor(ada, { onRejected: (r) => void rejections.push(r) });
    const settled = settledOf(client);
    const { outbox } = client;
    const stale = await outbox.patchExpense(existing, { amount: 6000 }, { ifMatch: '"v99"' });
    const missing = await outbox.deleteExpense({ id: 'exp_nothing_here_at_all', groupId: g2 });
    const mismatch = await outbox.createExpense({
      ...expenseBody(g2, 'bad split', 1000),
      split: { type: 'exact', between: [{ userId: ada.id, amount: 1 }] },
    });
    const fine = await outbox.createExpense(expenseBody(g2, 'fine', 700));
    await outbox.whenIdle();

    expect(rejections.map((r) => [r.entry.id, r.error.status, r.error.code])).toEqual([
      [stale.id, 412, 'precondition_failed'],
      [missing.id, 404, 'not_found'],
      [mismatch.id, 422, 'split_mismatch'],
    ]);
    expect(settled.map((s) => s.outcome.type)).toEqual(['rejected', 'rejected', 'rejected', 'applied']);
    for (const entry of [stale, missing, mismatch, fine])
      expect(requestsFor(entry.idempotencyKey)).toHaveLength(1);
    expect((await direct(ada).expenses.get(existing.id)).amount).toBe(5000);
    expect((await direct(ada).expenses.get(fine.expenseId)).description).toBe('fine');
  });

  it('pauses when the session is over and resumes with the next session', async () => {
    const client = clientFor(undefined, {});
    const paused = new Promise<unknown>((resolve) => client.outbox.on('paused', resolve));
    const entry = await client.outbox.createExpense(expenseBody(g1, 'while signed out'));
    expect(await paused).toMatchObject({ reason: 'unauthenticated' });
    expect(client.outbox.pending().map((e) => e.id)).toEqual([entry.id]);

    await client.auth.login({ email: ada.email, password: 'correct horse battery' });
    await client.outbox.whenIdle();
    expect((await direct(ada).expenses.get(entry.expenseId)).description).toBe('while signed out');
  });

  it('keeps a write made offline and sends it when the network returns', async () => {
    const network = await SwitchableProxy.start(t.url);
    try {
      network.offline();
      // A backoff of ten minutes: only wake() can send it again within the test's time.
      const client = clientFor(
        ada,
        { retry: { baseDelayMs: 600_000, maxDelayMs: 600_000 } },
        { baseUrl: network.url, random: () => 0.99 },
      );
      const failed = new Promise<unknown>((resolve) =>
        client.outbox.on('retry', ({ error }) => resolve(error)),
      );
      const entry = await client.outbox.createExpense(expenseBody(g1, 'offline'));
      expect(await failed).toMatchObject({ name: 'NetworkError' });
      expect(client.outbox.pending()).toHaveLength(1);

      network.online();
      client.outbox.wake();
      await client.outbox.whenIdle();
      expect((await direct(ada).expenses.get(entry.expenseId)).description).toBe('offline');
    } finally {
      await network.close();
    }
  });

  it('sends the entries an earlier process left in the file, answered from their keys', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-outbox-'));
    try {
      const file = path.join(dir, 'outbox.json');
      // The first process stores two writes and dies before sending them (autoStart: false) ...
      const first = clientFor(ada, { storage: fileOutbox(file), autoStart: false });
      const sentBefore = await first.outbox.createExpense(expenseBody(g2, 'sent before the crash'));
      const neverSent = await first.outbox.createSettlement({
        groupId: g2,
        fromUserId: bob.id,
        toUserId: ada.id,
        amount: 250,
      });
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { entries: OutboxEntry[] };
      expect(stored.entries.map((e) => [e.operation.type, e.method, e.path])).toEqual([
        ['expense.create', 'PUT', `/v1/expenses/${sentBefore.expenseId}`],
        ['settlement.create', 'POST', '/v1/settlements'],
      ]);
      expect(stored.entries[0]).toMatchObject({
        idempotencyKey: sentBefore.idempotencyKey,
        createdAt: expect.any(String),
        groupId: g2,
        operation: { expenseId: sentBefore.expenseId, body: { description: 'sent before the crash' } },
      });
      // ... after one of them reached the server (its answer was lost).
      await direct(ada).http.request({
        method: 'PUT',
        path: sentBefore.path,
        body: sentBefore.operation.type === 'expense.create' ? sentBefore.operation.body : undefined,
        idempotencyKey: sentBefore.idempotencyKey,
      });

      const second = clientFor(ada, { storage: fileOutbox(file) });
      const settled = settledOf(second);
      await second.outbox.whenIdle();
      expect(
        settled.map((s) => [s.entry.id, s.outcome.type, s.outcome.type === 'applied' && s.outcome.replayed]),
      ).toEqual([
        [sentBefore.id, 'applied', true],
        [neverSent.id, 'applied', false],
      ]);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, entries: [] });
      const rows = await t.db!.knex('expenses').where({ id: sentBefore.expenseId });
      expect(rows).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('settles a create still in the outbox from the realtime event with its id', async () => {
    // Every answer is lost on the way back: only the event can tell the app the expense exists.
    const deaf = await FaultProxy.start({
      target: t.url,
      weights: { forward: 0, delay: 0, slow: 0, 'reset-before': 0, 'drop-response': 1 },
    });
    try {
      const client = clientFor(ada, {}, { baseUrl: deaf.url });
      const realtime = client.realtime({ WebSocket: WebSocket as never, url: t.url });
      const subscribed = new Promise((resolve) => realtime.on('subscribed', resolve));
      client.outbox.attach(realtime);
      realtime.subscribe(g2);
      await subscribed;
      const settled = settledOf(client);
      const entry = await client.outbox.createExpense(expenseBody(g2, 'seen live'));
      await client.outbox.whenIdle();
      realtime.close();
      expect(settled).toHaveLength(1);
      const outcome = settled[0]?.outcome;
      expect(outcome?.type).toBe('observed');
      if (outcome?.type !== 'observed' || outcome.event.type !== 'expense.created')
        throw new Error('no event');
      expect(outcome.event.data.expense.id).toBe(entry.expenseId);
      expect(await t.db!.knex('expenses').where({ id: entry.expenseId })).toHaveLength(1);
    } finally {
      await deaf.close();
    }
  });

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

describe('outbox storage adapters', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tally-outbox-storage-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const entry = (seq: number): OutboxEntry => ({
    id: `entry-${String(seq).padStart(4, '0')}`,
    seq,
    groupId: 'grp_1',
    operation: {
      type: 'settlement.create',
      body: { groupId: 'grp_1', fromUserId: 'usr_a', toUserId: 'usr_b', amount: seq },
    },
    method: 'POST',
    path: '/v1/settlements',
    idempotencyKey: `key-${seq}`,
    createdAt: new Date(0).toISOString(),
  });
  const roundTrip = async (make: () => OutboxStorage) => {
    const storage = make();
    // 100 changes at once (group commit), then some removals and a replacement
    await Promise.all(Array.from({ length: 100 }, (_, i) => storage.put(entry(i + 1))));
    await Promise.all([
      storage.remove('entry-0001'),
      storage.remove('entry-0050'),
      storage.remove('nothing'),
    ]);
    await storage.put({ ...entry(2), sentAt: 'then' });
    const reloaded = await make().load();
    expect(reloaded).toHaveLength(98);
    expect(reloaded.find((e) => e.id === 'entry-0002')?.sentAt).toBe('then');
    expect(reloaded.some((e) => e.id === 'entry-0050')).toBe(false);
  };

  it('file: survives a new instance; a leftover temporary file is ignored; a torn file is an error', async () => {
    const file = path.join(dir, 'nested', 'outbox.json');
    await roundTrip(() => fileOutbox(file));
    writeFileSync(`${file}.tmp`, '{"version":1,"entr');
    expect(await fileOutbox(file).load()).toHaveLength(98);

    writeFileSync(file, '{"version":1,"entr');
    await expect(fileOutbox(file).load()).rejects.toBeInstanceOf(TallyError);
    const client = new TallyClient({ baseUrl: 'http://127.0.0.1:9', outbox: { storage: fileOutbox(file) } });
    await expect(client.outbox.ready).rejects.toThrow(/not valid JSON/);
    await expect(
      client.outbox.createExpense({
        groupId: 'grp_1',
        description: 'x',
        amount: 1,
        paidBy: 'usr_a',
        split: { type: 'equal', between: ['usr_a'] },
      }),
    ).rejects.toThrow(/not valid JSON/);
  });

  it('AsyncStorage-shaped: the whole outbox under one key', async () => {
    const values = new Map<string, string>();
    const asyncStorage = {
      getItem: async (key: string) => values.get(key) ?? null,
      setItem: async (key: string, value: string) => {
        values.set(key, value);
      },
    };
    await roundTrip(() => asyncStorageOutbox(asyncStorage, 'outbox'));
    expect([...values.keys()]).toEqual(['outbox']);
    expect(JSON.parse(values.get('outbox') as string).entries).toHaveLength(98);
  });

  it('memory: keeps copies, not the caller’s objects', async () => {
    const storage = new MemoryOutboxStorage();
    const e = entry(1);
    await storage.put(e);
    e.seq = 99;
    expect((await storage.load())[0]?.seq).toBe(1);
  });
});
