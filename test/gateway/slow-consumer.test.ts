import { startTestServer, type TestServer } from '../support/test-server';
import { TestSocket } from './ws-client';

describe('a client too slow to read', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('is closed with 1013 once more than 1 MiB is buffered for it', async () => {
    const ada = await t.register('Ada');
    const groupId = await t.createGroup(ada);
    // A long history of large events, written straight into the log (12 MiB in all).
    const knex = t.db!.knex;
    await knex.raw(
      `insert into events (id, group_id, seq, type, actor_id, occurred_at, data, published_at)
       select 'evt_slow_' || s, ?, s, 'group.updated', ?, now(), jsonb_build_object('padding', repeat('x', 8192)), now()
       from generate_series(2, 1501) as s`,
      [groupId, ada.id],
    );
    await knex('groups').where({ id: groupId }).update({ last_seq: 1501 });

    const socket = await TestSocket.open(t.url, ada.accessToken);
    await socket.next((m) => m.type === 'welcome');
    socket.send({ type: 'subscribe', id: 's', groupId, afterSeq: 0 });
    // Stop reading: the kernel buffers fill, then the server's own buffer for this client grows.
    const raw = (socket.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    raw.resume();
    const closed = await socket.closed;
    expect(closed.code).toBe(1013);
    // It got a prefix of the log, in order, and not all of it.
    const seqs = socket.seqs(groupId);
    expect(seqs.length).toBeLessThan(1501);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const metrics = await t.request.get('/metrics');
    expect(metrics.text).toMatch(/ws_slow_consumer_closes_total 1/);
  });
});
