import WebSocket from 'ws';
import { type GroupEvent, type RealtimeClient, TallyClient } from '../../packages/client/src';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { uniqueEmail } from '../support/test-server';
import { until } from '../support/until';

/**
 * The realtime client across a gateway restart (SIGTERM: the server closes sockets with 1012) and a
 * crash (SIGKILL: the sockets just die), with a writer that keeps writing through both: the client
 * reconnects, resumes every group with afterSeq, and delivers exactly seq 1..N, in order.
 */
describe('realtime client across a gateway restart and a SIGKILL', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;
  let port: number;
  let env: Record<string, string>;
  let rt: RealtimeClient | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = {
      ROLE: 'all',
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      WS_HEARTBEAT_MS: '500',
      IDEMPOTENCY_LEASE_SECONDS: '1',
      RATE_LIMIT_PER_MINUTE: '1000000',
      SHUTDOWN_TIMEOUT_SECONDS: '5',
    };
    server = await spawnServer(env);
    port = server.port;
  });
  afterAll(async () => {
    rt?.close();
    await server?.kill('SIGKILL');
    await db.drop();
  });

  it('delivers exactly seq 1..N in order, with no event missed or repeated', async () => {
    const baseUrl = `http://127.0.0.1:${port}`;
    // Generous retries: writes must outlast the restarts (each takes a second or two).
    const retry = { baseDelayMs: 50, maxDelayMs: 500, maxAttempts: 200, attemptTimeoutMs: 3000 };
    const ada = new TallyClient({ baseUrl, retry });
    const bob = new TallyClient({ baseUrl, retry });
    const adaUser = (
      await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: 'password-1' })
    ).user;
    const bobUser = (
      await bob.auth.register({ email: uniqueEmail('bob'), name: 'Bob', password: 'password-1' })
    ).user;
    const group = await ada.groups.create({ name: 'Restarts' });
    await ada.groups.addMember(group.id, { userId: bobUser.id });

    rt = bob.realtime({ WebSocket, reconnectBaseDelayMs: 50, maxReconnectDelayMs: 500 });
    const delivered: GroupEvent[] = [];
    const states: string[] = [];
    rt.on('state', (s) => states.push(s));
    rt.subscribe(group.id, { afterSeq: 0, onEvent: (e) => delivered.push(e) });

    let writing = true;
    let written = 0;
    const write = async () => {
      await ada.expenses.create({
        groupId: group.id,
        description: `write ${written}`,
        amount: 100 + written,
        paidBy: adaUser.id,
        split: { type: 'equal', between: [adaUser.id, bobUser.id] },
      });
      written++;
    };
    const writer = (async () => {
      while (writing) {
        await write();
        // Pacing only: a steady stream of writes across the restarts, not a busy loop on 2 cores.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const progress = async (more: number) => {
      const target = written + more;
      await until(() => written >= target);
    };
    const reconnects = () => states.filter((s) => s === 'reconnecting').length;

    await progress(15);
    // A graceful restart: SIGTERM drains, closes the WebSockets with 1012; a new process on the same port.
    const first = server as ServerProcess;
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    server = await spawnServer(env, { port });
    await progress(15);

    // A crash: SIGKILL mid-stream, then a new process on the same port once the client saw the loss.
    // The client is back on the new process first: a kill while it still reconnects shows no new loss.
    await until(() => states.at(-1) === 'open', { what: 'the client back on the restarted process' });
    const before = reconnects();
    await (server as ServerProcess).kill('SIGKILL');
    await until(() => reconnects() > before);
    server = await spawnServer(env, { port });
    await progress(15);

    writing = false;
    await writer;
    // One more write once the writer has stopped: once its event is delivered, everything the
    // server sent before it has been too (one ordered socket).
    await write();
    const lastSeq = Number((await db.knex('groups').where({ id: group.id }).first('last_seq')).last_seq);
    expect(lastSeq).toBe(2 + written);
    await until(() => delivered.some((e) => e.seq === lastSeq));

    expect(delivered.map((e) => e.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
    // The very events of the log, not just the right numbers.
    const log: string[] = [];
    for await (const event of bob.groups.allEvents(group.id, { limit: 100 })) log.push(event.id);
    expect(delivered.map((e) => e.id)).toEqual(log);
    expect(rt.stats().connections).toBeGreaterThanOrEqual(3);
    expect(reconnects()).toBeGreaterThanOrEqual(2);
  });
});
