import { Socket } from 'node:net';
import {
  type BusMessage,
  channelOf,
  createEventLog,
  type EventLog,
  eventAsLogged,
  type GroupEvent,
} from '@tally/events';
import { Redis } from 'ioredis';
import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';
import { type GatewayHarness, startGateway } from './harness';
import { TestSocket } from './ws-client';

/**
 * What makes the gateway fast at 10,000 connections, pinned without timing anything (the timings
 * are `npm run bench`'s): the database is read per user and group, not per connection, and each
 * event is serialised once per feed, every subscriber's socket being handed the same bytes.
 */
describe('the cost of many connections', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let g: GatewayHarness;
  /** The gateway's reads of the database, by event-log method (each one query). */
  const reads = { isMember: 0, lastSeq: 0, read: 0 };
  const sockets: TestSocket[] = [];

  const open = async (user: TestUser) => {
    const socket = await TestSocket.open(g.url, user.accessToken);
    sockets.push(socket);
    await socket.next((m) => m.type === 'welcome');
    return socket;
  };
  /** `count` connections of `user` subscribed to the group, all subscribes sent at once. */
  const subscribed = async (user: TestUser, groupId: string, count: number) => {
    const opened = await Promise.all(Array.from({ length: count }, () => open(user)));
    for (const socket of opened) socket.send({ type: 'subscribe', id: 's', groupId });
    await Promise.all(opened.map((s) => s.next((m) => m['id'] === 's')));
    for (const socket of opened) expect(socket.all('subscribed', groupId)).toHaveLength(1);
    return opened;
  };
  const addExpense = (groupId: string) =>
    t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Tea',
        amount: 300,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      })
      .expect(201);
  const total = () => reads.isMember + reads.lastSeq + reads.read;

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    carol = await t.register('Carol');
    const count =
      <K extends keyof typeof reads>(method: K, log: EventLog) =>
      (...args: Parameters<EventLog[K]>) => {
        reads[method]++;
        return (log[method] as (...a: Parameters<EventLog[K]>) => ReturnType<EventLog[K]>)(...args);
      };
    g = await startGateway(t, {
      // No heartbeat during the test: its safety read of each feed's log would add reads.
      heartbeatMs: 600_000,
      limits: { maxConnectionsPerUser: 200 },
      eventLog: (log) => ({
        ...log,
        isMember: count('isMember', log),
        lastSeq: count('lastSeq', log),
        read: count('read', log),
      }),
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await g.close();
    await t.stop();
  });

  it('reads membership per user and group, not per connection: more connections read nothing more', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const before = { ...reads };
    await Promise.all([subscribed(ada, groupId, 20), subscribed(bob, groupId, 20)]);
    // One position read for the group's feed, and a few membership reads for each of the two users
    // (subscribes arriving together share one), however many connections they have.
    expect(reads.lastSeq - before.lastSeq).toBe(1);
    expect(reads.isMember - before.isMember).toBeGreaterThanOrEqual(2);
    expect(reads.isMember - before.isMember).toBeLessThanOrEqual(8);
    // Now that the feed vouches for both users, 60 more connections cost no query at all.
    const settled = total();
    await Promise.all([subscribed(ada, groupId, 30), subscribed(bob, groupId, 30)]);
    expect(total()).toBe(settled);
  });

  it('reads the membership again once the user is removed: a removed member gets nothing more', async () => {
    const groupId = await t.createGroup(ada, [carol]);
    const [first] = await subscribed(carol, groupId, 3);
    const watcher = (await subscribed(ada, groupId, 1))[0] as TestSocket;
    // The feed vouches for Carol now: another connection of hers is not checked again…
    const vouched = reads.isMember;
    await subscribed(carol, groupId, 1);
    expect(reads.isMember).toBe(vouched);
    // …until the feed reads her removal: her subscriptions end, and a new subscribe is refused.
    await t.request.delete(`/v1/groups/${groupId}/members/${carol.id}`).set(ada.auth).expect(204);
    await first?.next((m) => m.type === 'unsubscribed' && m['reason'] === 'removed');
    const late = await open(carol);
    late.send({ type: 'subscribe', id: 'late', groupId });
    expect(await late.next((m) => m['id'] === 'late')).toEqual({
      type: 'error',
      id: 'late',
      code: 'not_found',
    });
    expect(reads.isMember).toBeGreaterThan(vouched);
    await addExpense(groupId);
    await watcher.next((m) => m.type === 'event' && m['seq'] === 4);
    late.send({ type: 'ping', id: 'sync' });
    await late.next((m) => m.type === 'pong');
    expect(late.all('event')).toEqual([]);
    // Added back, she is read once more and subscribes again.
    await t.request
      .post(`/v1/groups/${groupId}/members`)
      .set(ada.auth)
      .send({ userId: carol.id })
      .expect(201);
    const again = await open(carol);
    again.send({ type: 'subscribe', id: 'again', groupId });
    expect(await again.next((m) => m['id'] === 'again')).toMatchObject({ type: 'subscribed', groupId });
  });

  it('serialises and frames each event once per feed and writes every subscriber’s socket the same bytes', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const clients = [...(await subscribed(ada, groupId, 6)), ...(await subscribed(bob, groupId, 6))];
    const write = jest.spyOn(Socket.prototype, 'write');
    try {
      const readsBefore = reads.read;
      await addExpense(groupId);
      // Seq 3, after the group's creation and Bob's arrival.
      await Promise.all(clients.map((c) => c.next((m) => m.type === 'event' && m['seq'] === 3)));
      // The gateway's sockets were each written the event's frame once: a server's text frame
      // (FIN and opcode 1, no mask: a client's frames are masked) carrying the event…
      const frames = write.mock.calls
        .map(([data]) => data)
        .filter(
          (data): data is Buffer =>
            Buffer.isBuffer(data) && data[0] === 0x81 && ((data[1] as number) & 0x80) === 0,
        )
        .filter((data) => data.includes('"type":"event"'));
      expect(frames).toHaveLength(clients.length);
      // …the very same Buffer for all of them (one JSON.stringify, one UTF-8 encoding, one framing),
      expect(new Set(frames).size).toBe(1);
      // …and not read from the log at all: the writer's announcement carried the event.
      expect(reads.read - readsBefore).toBe(0);
      const frame = frames[0] as Buffer;
      const length = frame[1] === 126 ? frame.readUInt16BE(2) : (frame[1] as number);
      const payload = frame.subarray(frame[1] === 126 ? 4 : 2);
      expect(payload.length).toBe(length);
      expect(JSON.parse(payload.toString('utf8'))).toMatchObject({ type: 'event', groupId, seq: 3 });
    } finally {
      write.mockRestore();
    }
  });

  it('announces a write’s event, which the gateway sends exactly as the log returns it, and reads the log only at a gap', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const [client] = await subscribed(ada, groupId, 1);
    const listener = new Redis(redisUrl());
    const heard: BusMessage[] = [];
    try {
      listener.on('message', (_channel: string, raw: string) => heard.push(JSON.parse(raw) as BusMessage));
      await listener.subscribe(channelOf(groupId));
      const readsBefore = reads.read;
      for (let i = 0; i < 3; i++) await addExpense(groupId);
      await client?.next((m) => m.type === 'event' && m['seq'] === 5);
      expect(reads.read - readsBefore).toBe(0);
      // What the API published is the log's event: put in the log's form (as the gateway does when
      // it takes it), field for field and byte for byte.
      const log = createEventLog({ knex: t.db?.knex as NonNullable<typeof t.db>['knex'] });
      const logged = await log.read(groupId, 2, 10);
      expect(logged.map((e) => e.seq)).toEqual([3, 4, 5]);
      for (const event of logged) {
        const message = heard.find((m) => m.kind === 'event' && m.seq === event.seq);
        expect(message).toMatchObject({ kind: 'event', groupId, seq: event.seq, eventId: event.id });
        const carried = message?.kind === 'event' ? message.event : undefined;
        expect(carried).toBeDefined();
        expect(eventAsLogged(carried as GroupEvent)).toEqual(event);
        expect(JSON.stringify(eventAsLogged(carried as GroupEvent))).toBe(JSON.stringify(event));
        // And the subscriber got the log's event.
        const sent = client?.messages.find((m) => m.type === 'event' && m['seq'] === event.seq);
        expect(sent?.['event']).toEqual(event);
      }
      // An announcement beyond the next seq (a gap: seq 6 is not in the log yet) makes the feed read
      // the log, once; the next write's own announcement (seq 6) is taken from the message again.
      const publisher = new Redis(redisUrl());
      await publisher.publish(
        channelOf(groupId),
        JSON.stringify({ kind: 'event', groupId, seq: 7, eventId: 'evt_x' }),
      );
      publisher.disconnect();
      await until(() => reads.read - readsBefore === 1);
      await addExpense(groupId);
      await client?.next((m) => m.type === 'event' && m['seq'] === 6);
      expect(reads.read - readsBefore).toBe(1);
    } finally {
      listener.disconnect();
    }
  });
});
