import { startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { TestSocket } from './ws-client';

/** Writes `count` events of about `bytes` each straight into a group's log, after its seq 1. */
async function insertLargeEvents(
  t: TestServer,
  groupId: string,
  actor: TestUser,
  count: number,
  bytes: number,
) {
  const knex = t.db!.knex;
  await knex.raw(
    `insert into events (id, group_id, seq, type, actor_id, occurred_at, data, published_at)
     select 'evt_big_' || ? || '_' || s, ?, s, 'group.updated', ?, now(),
            jsonb_build_object('description', repeat('x', ?)), now()
     from generate_series(2, ?) as s`,
    [groupId, groupId, actor.id, bytes, count + 1],
  );
  await knex('groups')
    .where({ id: groupId })
    .update({ last_seq: count + 1 });
}

const metricValue = async (t: TestServer, name: string) => {
  const text = (await t.request.get('/metrics')).text;
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
};

describe('a client that reads slowly', () => {
  let t: TestServer;
  let ada: TestUser;
  beforeAll(async () => {
    // A short heartbeat, so that a client that stops reading is found soon; pings queue behind data.
    t = await startTestServer({ env: { WS_HEARTBEAT_MS: '1000' } });
    ada = await t.register('Ada');
  });
  afterAll(async () => {
    await t.stop();
  });

  it('is sent a long catch-up of large events as its socket drains: all of them, in order, no 1013', async () => {
    const groupId = await t.createGroup(ada);
    await insertLargeEvents(t, groupId, ada, 400, 20_000); // about 8 MB
    const socket = await TestSocket.open(t.url, ada.accessToken);
    await socket.next((m) => m.type === 'welcome');
    // Read a little at a time: one turn of the event loop in every 10 ms.
    const raw = socket.raw();
    raw.pause();
    const reader = setInterval(() => {
      raw.resume();
      setImmediate(() => raw.pause());
    }, 10);
    try {
      socket.send({ type: 'subscribe', id: 's', groupId, afterSeq: 0 });
      const subscribed = await socket.next((m) => m.type === 'subscribed' || m.type === 'error', 60_000);
      expect(subscribed).toEqual({ type: 'subscribed', id: 's', groupId, seq: 401 });
    } finally {
      clearInterval(reader);
      raw.resume();
    }
    expect(socket.seqs(groupId)).toEqual(Array.from({ length: 401 }, (_, i) => i + 1));
    expect(socket.closedWith).toBeUndefined();
    expect(await metricValue(t, 'ws_slow_consumer_closes_total')).toBe(0);
    socket.close();
  });

  it('is closed with 1013 when it stops reading while events wait for it', async () => {
    const groupId = await t.createGroup(ada);
    await insertLargeEvents(t, groupId, ada, 400, 20_000);
    const socket = await TestSocket.open(t.url, ada.accessToken);
    await socket.next((m) => m.type === 'welcome');
    socket.send({ type: 'subscribe', id: 's', groupId, afterSeq: 0 });
    // Stop reading: the kernel buffers fill, then the server's own buffer for this client.
    const raw = socket.raw();
    raw.pause();
    await until(async () => (await metricValue(t, 'ws_slow_consumer_closes_total')) === 1);
    raw.resume();
    expect((await socket.closed).code).toBe(1013);
    // It got a prefix of the log, in order, and not all of it.
    const seqs = socket.seqs(groupId);
    expect(seqs.length).toBeLessThan(401);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
  });
});
