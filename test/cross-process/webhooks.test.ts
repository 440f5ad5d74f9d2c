import Redis from 'ioredis';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { ensureRedis } from '../support/services';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';
import { type Received, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { callJson, type ProcessUser, registerUser } from './http';

/**
 * API.md §12.3 across real API processes sharing one database: deliveries come from the event log,
 * any number of processes share them without two sending one endpoint's at once, and a process
 * SIGKILLed mid-batch (with Redis flushed after it) loses no event; what it had sent but not yet
 * recorded comes again with the same `webhook-id`.
 */
describe('webhooks across processes', () => {
  let db: TestDatabase;
  let redis: { url: string; stop(): Promise<void> };
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    // A Redis of this file's own: the test flushes it.
    redis = await ensureRedis({ ephemeral: true });
    receiver = await startWebhookReceiver();
    env = {
      ROLE: 'api',
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      NODE_ENV: 'test',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_LEASE_MS: '2500',
      WEBHOOK_RETRY_DELAYS_MS: '200,200,200,200,200',
    };
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGKILL')));
    await receiver?.close();
    await redis?.stop();
    await db?.drop();
  });

  const start = async () => {
    const server = await spawnServer(env);
    servers.push(server);
    return server;
  };
  const call = callJson;
  const expense = (base: string, user: ProcessUser, groupId: string) =>
    call(base, user, 'POST', '/v1/expenses', {
      groupId,
      description: 'Shared',
      amount: 100,
      paidBy: user.id,
      split: { type: 'equal', between: [user.id] },
    });
  const attemptsOf = async (server: ServerProcess): Promise<number> => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('webhook_attempts_total{outcome="ok"}'));
    return line ? Number(line.split(' ')[1]) : 0;
  };
  /** Each event once at least; every copy of one event the same id and body; first arrivals in seq order. */
  const expectAtLeastOnceInOrder = (got: Received[], seqs: number[]) => {
    const firsts = new Map<number, Received>();
    for (const r of got) {
      const first = firsts.get(r.seq);
      if (first === undefined) firsts.set(r.seq, r);
      else
        expect({ seq: r.seq, id: r.id, body: r.body }).toEqual({
          seq: r.seq,
          id: first.id,
          body: first.body,
        });
    }
    expect([...firsts.keys()]).toEqual(seqs);
  };

  it('shares the endpoints between processes, one sender per endpoint at a time, in order', async () => {
    const [a, b] = [await start(), await start()];
    const ada = await registerUser(a.url, 'Ada');
    const paths: { path: string; groupId: string; secret: string; from: number }[] = [];
    for (let g = 0; g < 6; g++) {
      const groupId = (await call(a.url, ada, 'POST', '/v1/groups', { name: `G${g}` })).id as string;
      for (let e = 0; e < 2; e++) {
        const path = `/shared-${g}-${e}`;
        const hook = await call(b.url, ada, 'POST', `/v1/groups/${groupId}/webhooks`, {
          url: `${receiver.url}${path}`,
        });
        paths.push({ path, groupId, secret: hook.secret as string, from: hook.deliveredSeq as number });
      }
    }
    const answer = receiver.answer;
    receiver.answer = () => ({ status: 200, delayMs: 10 });
    try {
      const groups = [...new Set(paths.map((p) => p.groupId))];
      await Promise.all(
        groups.map(async (groupId, i) => {
          for (let n = 0; n < 8; n++) await expense(n % 2 === i % 2 ? a.url : b.url, ada, groupId);
        }),
      );
      await until(() => paths.every((p) => receiver.of(p.path).length >= 8), 'every event at every endpoint');
    } finally {
      receiver.answer = answer;
    }
    for (const p of paths) {
      const got = receiver.of(p.path);
      // No crash here: exactly once, in order.
      expect(got.map((r) => r.seq)).toEqual(Array.from({ length: 8 }, (_, i) => p.from + 1 + i));
      receiver.verifyAll(p.path, p.secret);
    }
    // Never two requests of one endpoint at once, and both processes did part of the work.
    expect(receiver.maxInFlight()).toBe(1);
    expect(await attemptsOf(a)).toBeGreaterThan(0);
    expect(await attemptsOf(b)).toBeGreaterThan(0);
    await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
  });

  it('loses nothing when the delivering process is killed mid-batch and Redis is flushed', async () => {
    const a = await start();
    const ada = await registerUser(a.url, 'Ada');
    const groupId = (await call(a.url, ada, 'POST', '/v1/groups', { name: 'Killed' })).id as string;
    const hook = await call(a.url, ada, 'POST', `/v1/groups/${groupId}/webhooks`, {
      url: `${receiver.url}/killed`,
    });
    const from = hook.deliveredSeq as number;
    const answer = receiver.answer;
    // Slow answers: the kill lands while a batch is being sent.
    receiver.answer = () => ({ status: 200, delayMs: 60 });
    try {
      // A second process polls all along: it cannot take the endpoint while A holds it.
      const b = await start();
      for (let n = 0; n < 25; n++) await expense(a.url, ada, groupId);
      await until(() => receiver.of('/killed').length >= 5, 'the batch under way');
      await a.kill('SIGKILL');
      // Mid-batch indeed: the process died with events of its batch still to send.
      expect(new Set(receiver.of('/killed').map((r) => r.seq)).size).toBeLessThan(25);
      const flushed = new Redis(redis.url);
      await flushed.flushall();
      flushed.disconnect();
      for (let n = 0; n < 5; n++) await expense(b.url, ada, groupId);
      const seqs = Array.from({ length: 30 }, (_, i) => from + 1 + i);
      await until(() => new Set(receiver.of('/killed').map((r) => r.seq)).size === 30, {
        what: 'all 30 events after the kill',
        timeoutMs: 45_000,
      });
      expectAtLeastOnceInOrder(receiver.of('/killed'), seqs);
      receiver.verifyAll('/killed', hook.secret as string);
      // At most the attempt in flight at the kill came twice.
      expect(receiver.of('/killed').length - 30).toBeLessThanOrEqual(1);
      expect(receiver.maxInFlight()).toBe(1);
    } finally {
      receiver.answer = answer;
    }
  });
});
