/**
 * The durable outbox of `@tally/client` against the real server: stored before sent, creates as PUT at
 * an id made on the device, per-group order, final 4xx answers surfaced through `onRejected` (never
 * retried), a pause when the session is over, offline writes sent when the network returns, entries
 * left by an earlier process sent by the next one, realtime events settling creates still in the
 * outbox, and the storage adapters (file, AsyncStorage-shaped, memory). Stale entries:
 * outbox-stale.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import {
  asyncStorageOutbox,
  fileOutbox,
  MemoryOutboxStorage,
  type OutboxEntry,
  type OutboxRejection,
  type OutboxStorage,
  TallyClient,
  TallyError,
} from '../../packages/client/src';
import { FaultProxy } from './fault-proxy';
import {
  ada,
  bob,
  clientFor,
  direct,
  eventsOf,
  expenseBody,
  g1,
  g2,
  InspectableStorage,
  requestsFor,
  settledOf,
  t,
  useOutboxServer,
} from './outbox-fixture';
import { SwitchableProxy } from './switchable-proxy';

describe('the outbox against the real server', () => {
  useOutboxServer();

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
