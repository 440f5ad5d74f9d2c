/**
 * Readiness you can await, and errors that say what happened (issue 19): an awaited subscribe()
 * sees every write made after it, even without `afterSeq`; a subscription that ends first rejects;
 * `outbox.ready` before `pending()`; `NetworkError` carries its reason in the message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import {
  fileOutbox,
  type GroupEvent,
  MemoryTokenStore,
  NetworkError,
  type OutboxPaused,
  type RealtimeClient,
  RetryExhaustedError,
  SubscriptionEndedError,
  TallyClient,
} from '../../packages/client/src';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';

describe('readiness and errors', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let groupId: string;
  const realtimes: RealtimeClient[] = [];
  const tally = (user: TestUser) =>
    new TallyClient({
      baseUrl: t.url,
      tokenStore: new MemoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken }),
    });

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    outsider = await t.register('Outsider');
    groupId = await t.createGroup(ada, [bob]);
  });
  afterAll(async () => {
    for (const rt of realtimes) rt.close();
    await t.stop();
  });

  it('resolves subscribe() at the server confirmation; a write right after it is delivered live', async () => {
    for (let round = 0; round < 5; round++) {
      const client = tally(ada);
      const rt = client.realtime({ WebSocket });
      realtimes.push(rt);
      const events: GroupEvent[] = [];
      const confirmed = await rt.subscribe(groupId, { onEvent: (e) => events.push(e) }).confirmed;
      expect(confirmed).toEqual({ groupId, seq: expect.any(Number), unsubscribe: expect.any(Function) });
      const expense = await client.expenses.create({
        groupId,
        description: `Round ${round}`,
        amount: 100,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id, bob.id] },
      });
      await until(() => events.some((e) => e.type === 'expense.created' && e.data.expense.id === expense.id));
      expect(events[0]?.seq).toBe(confirmed.seq + 1);
      confirmed.unsubscribe();
      rt.close();
    }
  });

  it('keeps the returned value callable: calling it unsubscribes, as before', async () => {
    const rt = tally(ada).realtime({ WebSocket });
    realtimes.push(rt);
    const stop = rt.subscribe(groupId);
    expect(typeof stop).toBe('function');
    await stop.confirmed;
    stop();
    rt.close();
  });

  it('rejects with SubscriptionEndedError when the caller is not a member', async () => {
    const rt = tally(outsider).realtime({ WebSocket });
    realtimes.push(rt);
    const ended: string[] = [];
    const error = await rt.subscribe(groupId, { onEnded: (reason) => ended.push(reason) }).confirmed.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SubscriptionEndedError);
    expect(error).toMatchObject({ name: 'SubscriptionEndedError', groupId, reason: 'not_found' });
    expect(ended).toEqual(['not_found']);
    const replaced = rt.subscribe('grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC');
    rt.unsubscribe('grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC');
    await expect(replaced.confirmed).rejects.toBeInstanceOf(SubscriptionEndedError);
    rt.close();
  });

  it('loads the stored outbox behind `ready`: pending() lists it once ready resolves', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tally-ready-'));
    try {
      const file = path.join(dir, 'outbox.json');
      const first = new TallyClient({
        baseUrl: 'http://127.0.0.1:9', // never reached: autoStart is off
        outbox: { storage: fileOutbox(file), autoStart: false },
      });
      await first.outbox.createExpense({
        groupId,
        description: 'Left by an earlier run',
        amount: 100,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      });
      const second = new TallyClient({
        baseUrl: 'http://127.0.0.1:9',
        outbox: { storage: fileOutbox(file), autoStart: false },
      });
      expect(second.outbox.pending()).toEqual([]); // not loaded yet
      await second.outbox.ready;
      expect(second.outbox.pending().map((e) => e.operation.type)).toEqual(['expense.create']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pauses a signed-out outbox with a typed reason, and resumes it at the login', async () => {
    const client = new TallyClient({ baseUrl: t.url });
    const paused: OutboxPaused[] = [];
    client.outbox.on('paused', (p) => {
      const code: 'unauthenticated' = p.error.code; // narrowed by the union
      expect(code).toBe('unauthenticated');
      paused.push(p);
    });
    await client.outbox.createExpense({
      groupId,
      description: 'Before signing in',
      amount: 100,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    });
    await until(() => paused.length === 1);
    await client.auth.login({ email: ada.email, password: 'correct horse battery' });
    await client.outbox.whenIdle();
    expect(client.outbox.pending()).toEqual([]);
  });

  it('says why a request got no response: NetworkError carries the cause in its message', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const client = new TallyClient({ baseUrl: `http://127.0.0.1:${closed}`, retry: { maxAttempts: 1 } });
    const error = await client.groups.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryExhaustedError);
    const cause = (error as RetryExhaustedError).lastError;
    expect(cause).toBeInstanceOf(NetworkError);
    expect(cause.message).toBe(`GET /v1/groups: fetch failed: connect ECONNREFUSED 127.0.0.1:${closed}`);
  });
});
