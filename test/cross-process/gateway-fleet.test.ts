import { createRedisPresenceStore } from '@tally/events';
import { Redis } from 'ioredis';
import { TestSocket } from '../gateway/ws-client';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { createTestDatabase, redisUrl, type TestDatabase } from '../support/test-database';
import { newKey } from '../support/test-server';
import { until } from '../support/until';
import { type ProcessUser, registerUser } from './http';

/**
 * Two API and two gateway processes on one PostgreSQL and one Redis, as behind a load balancer:
 * ordered, gap-free delivery across the fleet, resume after a gateway dies, repair of lost
 * notifications, and presence across gateways.
 */
describe('a fleet of two API and two gateway processes', () => {
  let db: TestDatabase;
  let apis: ServerProcess[] = [];
  let gateways: ServerProcess[] = [];
  let redis: Redis;
  let ada: ProcessUser & { token: string };
  let bob: ProcessUser & { token: string };
  let groupId: string;
  const sockets: TestSocket[] = [];

  const tokenOf = (user: ProcessUser) => user.headers.Authorization?.replace('Bearer ', '') ?? '';
  const open = async (gateway: ServerProcess, user: { token: string }) => {
    const socket = await TestSocket.open(gateway.url, user.token);
    sockets.push(socket);
    await socket.next((m) => m.type === 'welcome');
    return socket;
  };
  const post = async (api: ServerProcess, user: ProcessUser, amount: number) => {
    for (;;) {
      const res = await fetch(`${api.url}/v1/expenses`, {
        method: 'POST',
        headers: { ...user.headers, 'Content-Type': 'application/json', 'Idempotency-Key': newKey() },
        body: JSON.stringify({
          groupId,
          description: 'Round',
          amount,
          paidBy: user.id,
          split: { type: 'equal', between: [ada.id, bob.id] },
        }),
      });
      if (res.status === 201) return;
      if (res.status !== 409) throw new Error(`write failed: ${res.status} ${await res.text()}`);
    }
  };
  const lastSeq = async () =>
    Number((await db.knex('groups').where({ id: groupId }).first('last_seq')).last_seq);

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = new Redis(redisUrl());
    const env = { NODE_ENV: 'test', DATABASE_URL: db.url, REDIS_URL: redisUrl(), WS_HEARTBEAT_MS: '500' };
    apis = await Promise.all([spawnServer({ ...env, ROLE: 'api' }), spawnServer({ ...env, ROLE: 'api' })]);
    gateways = await Promise.all([
      spawnServer({ ...env, ROLE: 'gateway' }),
      spawnServer({ ...env, ROLE: 'gateway' }),
    ]);
    const [apiA] = apis as [ServerProcess];
    const a = await registerUser(apiA.url, 'Ada');
    const b = await registerUser(apiA.url, 'Bob');
    ada = { ...a, token: tokenOf(a) };
    bob = { ...b, token: tokenOf(b) };
    const group = await fetch(`${apiA.url}/v1/groups`, {
      method: 'POST',
      headers: { ...ada.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Fleet' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    groupId = group.id;
    await fetch(`${apiA.url}/v1/groups/${groupId}/members`, {
      method: 'POST',
      headers: { ...ada.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: bob.id }),
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([...apis, ...gateways].map((p) => p.kill('SIGKILL')));
    await redis.quit();
    await db.drop();
  });

  it('delivers the writes of both API processes to a client on gateway B in order, without gaps or duplicates', async () => {
    const [apiA, apiB] = apis as [ServerProcess, ServerProcess];
    const gatewayB = gateways[1] as ServerProcess;
    const socket = await open(gatewayB, ada);
    socket.send({ type: 'subscribe', id: 's', groupId });
    const from = (await socket.next((m) => m.type === 'subscribed'))['seq'] as number;
    // Five concurrent writers, alternating between the two API processes.
    await Promise.all(
      [0, 1, 2, 3, 4].map(async (writer) => {
        for (let i = 0; i < 8; i++)
          await post(writer % 2 === 0 ? apiA : apiB, writer % 2 ? bob : ada, 100 + i);
      }),
    );
    const to = await lastSeq();
    expect(to - from).toBe(40);
    // One more write after them all: once its event is here, everything sent before it is too.
    await post(apiA, ada, 1);
    await socket.next((m) => m.type === 'event' && m['seq'] === to + 1);
    expect(socket.seqs(groupId)).toEqual(Array.from({ length: 41 }, (_, i) => from + 1 + i));
  });

  it('resumes on gateway A with afterSeq after gateway B is SIGKILLed, with exactly the missed events', async () => {
    const [apiA, apiB] = apis as [ServerProcess, ServerProcess];
    const [gatewayA, gatewayB] = gateways as [ServerProcess, ServerProcess];
    const socket = await open(gatewayB, bob);
    socket.send({ type: 'subscribe', id: 's', groupId });
    await socket.next((m) => m.type === 'subscribed');
    await post(apiA, ada, 1);
    await until(() => socket.seqs(groupId).length === 1);
    const delivered = socket.seqs(groupId).at(-1) as number;

    await gatewayB.kill('SIGKILL');
    await socket.closed;
    await post(apiB, ada, 2);
    await post(apiA, bob, 3);
    await post(apiB, ada, 4);

    const resumed = await open(gatewayA, bob);
    resumed.send({ type: 'subscribe', id: 'r', groupId, afterSeq: delivered });
    const subscribed = await resumed.next((m) => m.type === 'subscribed');
    expect(subscribed['seq']).toBe(delivered + 3);
    expect(resumed.seqs(groupId)).toEqual([delivered + 1, delivered + 2, delivered + 3]);
    gateways[1] = await spawnServer(
      { DATABASE_URL: db.url, REDIS_URL: redisUrl(), WS_HEARTBEAT_MS: '500', ROLE: 'gateway' },
      { port: gatewayB.port },
    );
  });

  it('repairs a notification that skipped ahead or never came, from the log', async () => {
    const gatewayA = gateways[0] as ServerProcess;
    const socket = await open(gatewayA, ada);
    socket.send({ type: 'subscribe', id: 's', groupId });
    const from = (await socket.next((m) => m.type === 'subscribed'))['seq'] as number;
    // Write two events straight into the log, as a writer would, but ring the doorbell only for the second.
    const insert = async (seq: number) => {
      await db.knex.transaction(async (trx) => {
        await trx('groups').where({ id: groupId }).update({ last_seq: seq });
        await trx('events').insert({
          id: `evt_test_${seq}_${Date.now()}`,
          group_id: groupId,
          seq,
          type: 'group.updated',
          actor_id: ada.id,
          occurred_at: new Date(),
          data: JSON.stringify({ group: { id: groupId } }),
          published_at: new Date(),
        });
      });
    };
    await insert(from + 1);
    await insert(from + 2);
    await redis.publish(
      `tally:group:${groupId}`,
      JSON.stringify({ kind: 'event', groupId, seq: from + 2, eventId: 'evt_x' }),
    );
    await until(() => socket.seqs(groupId).length === 2);
    expect(socket.seqs(groupId)).toEqual([from + 1, from + 2]);
  });

  it('delivers an event whose writer died between commit and publish, through the relay', async () => {
    // A gateway whose heartbeat (and so its safety poll of the log) is too slow to matter here:
    // five minutes, ten times until()'s deadline.
    const quiet = await spawnServer({
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      ROLE: 'gateway',
      WS_HEARTBEAT_MS: '300000',
    });
    gateways.push(quiet);
    const socket = await open(quiet, ada);
    socket.send({ type: 'subscribe', id: 's', groupId });
    const from = (await socket.next((m) => m.type === 'subscribed'))['seq'] as number;
    // A third API process that kills itself right after its commit: its publish never happens.
    const doomed = await spawnServer({
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl(),
      ROLE: 'api',
      NODE_ENV: 'test',
      TALLY_TEST_FAULT_POINT: 'after-commit',
    });
    await post(doomed, ada, 999).catch(() => undefined);
    await doomed.exited;
    expect(await lastSeq()).toBe(from + 1);
    const unpublished = await db
      .knex('events')
      .where({ group_id: groupId, seq: from + 1 })
      .first('published_at');
    expect(unpublished.published_at).toBeNull();
    // Through the relay (its grace period plus one pass): there is no next event, and the gateway's
    // heartbeat is minutes away, however slow the machine.
    await until(() => socket.seqs(groupId).length === 1, 'the event');
    expect(socket.seqs(groupId)).toEqual([from + 1]);
    // The relay marks what it republished (its transaction commits just after the publish).
    await until(async () => {
      const relayed = await db
        .knex('events')
        .where({ group_id: groupId, seq: from + 1 })
        .first('published_at');
      return relayed.published_at !== null;
    }, 'the relay to mark the event published');
  });

  it('shows presence across both gateways, and drops a SIGKILLed gateway’s users within about two heartbeats', async () => {
    const [gatewayA, gatewayB] = gateways as [ServerProcess, ServerProcess];
    // Only this test's connections count as online: the earlier ones have closed and left.
    for (const s of sockets.splice(0)) s.close();
    const store = createRedisPresenceStore({ redis });
    await until(async () => (await store.online(groupId)).length === 0);
    const watcher = await open(gatewayA, ada);
    watcher.send({ type: 'subscribe', id: 'w', groupId });
    await watcher.next((m) => m.type === 'subscribed');
    const remote = await open(gatewayB, bob);
    remote.send({ type: 'subscribe', id: 'r', groupId });
    await remote.next((m) => m.type === 'subscribed');
    const both = JSON.stringify([ada.id, bob.id].sort());
    await watcher.next((m) => m.type === 'presence' && JSON.stringify(m['online']) === both);

    await gatewayB.kill('SIGKILL');
    const beatsAtKill = watcher.pings;
    await watcher.next(
      (m) => m.type === 'presence' && JSON.stringify(m['online']) === JSON.stringify([ada.id]),
    );
    // Entries expire two heartbeats after their last refresh, noticed at the next tick: counted in
    // gateway A's own heartbeats (each pings the watcher once), which a slow machine only spaces out.
    expect(watcher.pings - beatsAtKill).toBeLessThanOrEqual(4);
  });
});
