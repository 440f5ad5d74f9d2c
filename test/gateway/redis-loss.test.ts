import { type ProcessUser, registerUser } from '../cross-process/http';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { ensureRedis, type ThrowawayService } from '../support/services';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { newKey } from '../support/test-server';
import { until } from '../support/until';
import { TestSocket } from './ws-client';

const metricValue = async (server: ServerProcess, name: string) => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1]);
};

/**
 * A ROLE=gateway process whose Redis dies and comes back while writes go through a ROLE=api process.
 * The heartbeat is a minute long, so only the gateway's own polling (while the bus is down) or a push
 * (once it is back) can deliver within the test.
 */
describe('a gateway that loses Redis', () => {
  let redis: ThrowawayService;
  let db: TestDatabase;
  let api: ServerProcess;
  let gateway: ServerProcess;
  let ada: ProcessUser;
  let groupId: string;

  const addExpense = async (amount: number) => {
    const res = await fetch(`${api.url}/v1/expenses`, {
      method: 'POST',
      headers: { ...ada.headers, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() },
      body: JSON.stringify({
        groupId,
        description: 'Fuel',
        amount,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      }),
    });
    if (res.status !== 201) throw new Error(`write failed: ${res.status} ${await res.text()}`);
  };
  const readiness = async () => {
    const res = await fetch(`${gateway.url}/readyz`);
    return {
      status: res.status,
      body: (await res.json()) as { status: string; checks?: Record<string, string> },
    };
  };

  beforeAll(async () => {
    redis = await ensureRedis({ ephemeral: true });
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url, WS_HEARTBEAT_MS: '60000' };
    [api, gateway] = await Promise.all([
      spawnServer({ ...env, ROLE: 'api' }),
      spawnServer({ ...env, ROLE: 'gateway' }),
    ]);
    ada = await registerUser(api.url, 'Ada');
    const group = await fetch(`${api.url}/v1/groups`, {
      method: 'POST',
      headers: { ...ada.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Road trip' }),
    });
    groupId = ((await group.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await Promise.all([api?.kill('SIGKILL'), gateway?.kill('SIGKILL')]);
    await db?.drop();
    await redis?.stop();
  });

  it('keeps its sockets and delivers in order by polling the log, then by push once Redis is back', async () => {
    const socket = await TestSocket.open(gateway.url, ada.headers.Authorization?.replace('Bearer ', ''));
    await socket.next((m) => m.type === 'welcome');
    socket.send({ type: 'subscribe', id: 's', groupId });
    const from = (await socket.next((m) => m.type === 'subscribed'))['seq'] as number;
    await addExpense(100);
    await until(() => socket.seqs(groupId).length === 1);
    await until(async () => (await metricValue(gateway, 'ws_bus_connected')) === 1);

    await redis.down();
    await until(async () => (await metricValue(gateway, 'ws_bus_connected')) === 0);
    for (let i = 0; i < 3; i++) await addExpense(200 + i);
    await until(() => socket.seqs(groupId).length === 4);
    expect(await metricValue(gateway, 'ws_log_polls_total')).toBeGreaterThan(0);
    const down = await readiness();
    expect(down.status).toBe(200);
    expect(down.body).toEqual({ status: 'ready', checks: { database: 'up', redis: 'down' } });

    await redis.up();
    await until(async () => (await metricValue(gateway, 'ws_bus_connected')) === 1);
    const polls = await metricValue(gateway, 'ws_log_polls_total');
    for (let i = 0; i < 2; i++) await addExpense(300 + i);
    await until(() => socket.seqs(groupId).length === 6);
    expect(await metricValue(gateway, 'ws_log_polls_total')).toBe(polls);
    expect((await readiness()).body.checks).toEqual({ database: 'up', redis: 'up' });

    expect(socket.seqs(groupId)).toEqual(Array.from({ length: 6 }, (_, i) => from + 1 + i));
    expect(socket.closedWith).toBeUndefined();
  });
});
