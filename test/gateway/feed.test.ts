import { randomBytes } from 'node:crypto';
import {
  createEventLog,
  createInProcessBus,
  type EventLog,
  eventAsLogged,
  eventMessage,
  type GroupEvent,
  messageText,
} from '@tally/events';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Connection, PreparedFrame } from '../../apps/gateway/src/connection';
import { createFeeds, type Feed, type Feeds, type Subscription } from '../../apps/gateway/src/feed';
import { createGatewayMetrics } from '../../apps/gateway/src/gateway-metrics';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { until } from '../support/until';
import { socketPair, type TestSocket } from './ws-client';

/**
 * Feeds on their own: a real event log on PostgreSQL (events written straight into it), the
 * in-process bus with the test ringing the doorbell, and real sockets as subscribers.
 */
describe('feeds', () => {
  let db: TestDatabase;
  let reads = 0;
  let log: EventLog;
  /** The event log without the count: what a read returns, for comparisons. */
  let real: EventLog;
  const bus = createInProcessBus();
  const metrics = createGatewayMetrics(new Registry());
  const removed: Subscription[] = [];
  let feeds: Feeds;
  const pairs: { close(): Promise<void> }[] = [];

  const newGroup = async () => {
    const id = `grp_${randomBytes(6).toString('hex')}`;
    await db
      .knex('groups')
      .insert({ id, name: 'G', currency: 'INR', created_at: new Date(), updated_at: new Date() });
    return id;
  };
  /** Appends events to the group's log; returns the last seq. */
  const append = async (groupId: string, count: number, data: (seq: number) => object = () => ({})) => {
    const { last_seq } = await db.knex('groups').where({ id: groupId }).first('last_seq');
    const from = Number(last_seq) + 1;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `evt_${groupId}_${from + i}`,
      group_id: groupId,
      seq: from + i,
      type: 'group.updated',
      actor_id: 'usr_x',
      occurred_at: new Date(),
      data: JSON.stringify(data(from + i)),
    }));
    await db.knex.batchInsert('events', rows, 200);
    await db
      .knex('groups')
      .where({ id: groupId })
      .update({ last_seq: from + count - 1 });
    return from + count - 1;
  };
  const ring = (groupId: string, seq: number) =>
    bus.publish({ kind: 'event', groupId, seq, eventId: `evt_${seq}` });
  const subscriber = async (feed: Feed, lastSeq: number, userId = 'usr_reader') => {
    const pair = await socketPair();
    pairs.push(pair);
    const conn = new Connection(pair.server, userId, { metrics, onClose: () => {} });
    const sub: Subscription = {
      conn,
      feed,
      lastSeq,
      held: false,
      live: true,
      ended: false,
      running: undefined,
      again: false,
    };
    feed.refs++;
    feed.subs.add(sub);
    return { sub, client: pair.client };
  };
  const seqsOf = (client: TestSocket, groupId: string) => client.seqs(groupId);
  /**
   * Commits the group's next event as the API's write does (`occurred_at` from a Date, `data` as
   * the JSON text of the object, cast to json, as a write does) and returns the event as the writer holds it.
   */
  const commit = async (groupId: string, data: Record<string, unknown>): Promise<GroupEvent> => {
    const { last_seq } = await db.knex('groups').where({ id: groupId }).first('last_seq');
    const seq = Number(last_seq) + 1;
    const at = new Date();
    const event: GroupEvent = {
      id: `evt_${groupId}_${seq}`,
      seq,
      type: 'expense.created',
      groupId,
      actorId: 'usr_writer',
      occurredAt: at.toISOString(),
      data,
    };
    await db.knex.raw(
      `insert into events (id, group_id, seq, type, actor_id, occurred_at, data)
       values (?::text, ?::text, ?::bigint, ?::text, ?::text, ?::timestamptz, ?::json)`,
      [event.id, groupId, seq, event.type, event.actorId, at, JSON.stringify(event.data)],
    );
    await db.knex('groups').where({ id: groupId }).update({ last_seq: seq });
    return event;
  };
  /** What the gateway's `event` frame of `event` is when it comes from a read of the log. */
  const frameFromLog = async (groupId: string, seq: number) => {
    const [event] = await real.read(groupId, seq - 1, 1);
    return Buffer.from(JSON.stringify({ type: 'event', groupId, seq, event }), 'utf8');
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    real = createEventLog({ knex: db.knex });
    log = {
      ...real,
      read: (...args) => {
        reads++;
        return real.read(...args);
      },
    };
    feeds = createFeeds({
      eventLog: log,
      bus,
      metrics,
      logger: pino({ level: 'silent' }),
      onSelfRemoved: (sub) => {
        removed.push(sub);
        sub.ended = true;
      },
      onPresenceChange: () => {},
    });
  });
  afterAll(async () => {
    feeds.closeAll();
    for (const pair of pairs) await pair.close();
    await db.drop();
  });

  /** A new group with one event (`seed`), its feed, two subscribers at seq 1, and the counters then. */
  const feedWithTwo = async (seed: (groupId: string) => Promise<unknown>) => {
    const groupId = await newGroup();
    await seed(groupId);
    const feed = feeds.acquire(groupId);
    await feed.ready;
    expect(feed.head).toBe(1);
    const a = await subscriber(feed, 1);
    const b = await subscriber(feed, 1);
    const gapsBefore = (await metrics.gapFills.get()).values[0]?.value ?? 0;
    return { groupId, feed, a, b, gapsBefore, readsBefore: reads };
  };

  it('reads the log once per notification for all its subscribers, and repairs one that skipped ahead', async () => {
    const { groupId, a, b, gapsBefore, readsBefore } = await feedWithTwo((g) => append(g, 1));
    const last = await append(groupId, 3);
    await ring(groupId, last); // the notifications of seq 2 and 3 never came
    await until(() => seqsOf(a.client, groupId).length === 3 && seqsOf(b.client, groupId).length === 3);
    expect(seqsOf(a.client, groupId)).toEqual([2, 3, 4]);
    expect(seqsOf(b.client, groupId)).toEqual([2, 3, 4]);
    expect(reads - readsBefore).toBe(1);
    expect((await metrics.gapFills.get()).values[0]?.value).toBe(gapsBefore + 2);
    // Each event's frame was serialised once and is identical for both.
    expect(a.client.messages).toEqual(b.client.messages);
  });

  it('catches a subscription far behind the cache up from the log, in order', async () => {
    const groupId = await newGroup();
    const feed = feeds.acquire(groupId);
    await feed.ready;
    const last = await append(groupId, 400);
    await feeds.refresh(feed);
    expect(feed.cache.length).toBeLessThan(400);
    const { sub, client } = await subscriber(feed, 0);
    await feeds.pump(sub);
    await until(() => seqsOf(client, groupId).length === last);
    expect(seqsOf(client, groupId)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
  });

  it('sends nothing to a held subscription, and ends one at the member.removed of its own user', async () => {
    const groupId = await newGroup();
    const feed = feeds.acquire(groupId);
    await feed.ready;
    const { sub, client } = await subscriber(feed, 0, 'usr_leaving');
    sub.held = true;
    await append(groupId, 2);
    await feeds.refresh(feed);
    await feeds.pump(sub);
    expect(seqsOf(client, groupId)).toEqual([]);
    sub.held = false;
    await append(groupId, 2, (seq) => (seq === 3 ? { userId: 'usr_leaving' } : {}));
    await db.knex('events').where({ group_id: groupId, seq: 3 }).update({ type: 'member.removed' });
    await feeds.refresh(feed);
    await feeds.pump(sub);
    await until(() => removed.includes(sub));
    await until(() => seqsOf(client, groupId).length === 3);
    expect(seqsOf(client, groupId)).toEqual([1, 2, 3]);
    expect(sub.lastSeq).toBe(3); // and seq 4 was never sent
  });

  it('announces an event exactly as the log returns it, whatever its data', async () => {
    const groupId = await newGroup();
    // Keys out of jsonb's order (shorter first, then by bytes), integer-like and non-ASCII keys,
    // nested arrays and objects, what JSON leaves out or turns (undefined, a Date), awkward numbers.
    const data = {
      description: 'Thé « vert »',
      zz: 1,
      a: { long_key: [3, { y: 2, x: 1 }], b: null, é: 'e', e: 'é', '10': 'ten', '9': 'nine' },
      '2': 2,
      ab: 0.1 + 0.2,
      big: 1e21,
      neg: -0,
      gone: undefined,
      at: new Date('2026-01-02T03:04:05.678Z'),
      emoji: '👍 \u2028',
      nested: [[{ b: 1, a: 2 }], []],
      ...JSON.parse('{"__proto__": {"z": 1, "a": 2}}'),
    };
    const events = [
      await commit(groupId, data),
      await commit(groupId, {}),
      await commit(groupId, { x: 'y' }),
    ];
    const logged = await real.read(groupId, 0, 10);
    expect(logged).toHaveLength(3);
    for (const [i, event] of events.entries()) {
      const message = eventMessage(event);
      // As the in-process bus hands it over, and as Redis carries it (JSON text and back), put in
      // the log's form as the gateway does when it takes it.
      const carried = [message, JSON.parse(messageText(message))].map((m) => m.event as GroupEvent);
      for (const it of carried) {
        expect(eventAsLogged(it)).toEqual(logged[i]);
        expect(JSON.stringify(eventAsLogged(it))).toBe(JSON.stringify(logged[i]));
      }
    }
    // The log keeps the writer's JSON text (a `json` column, migration 013): what the writer's own
    // object serialises to, `undefined` left out and the Date as its string.
    expect(JSON.stringify(logged[0])).toBe(JSON.stringify(events[0]));
    expect(Object.keys(logged[0]?.data ?? {})).not.toContain('gone');
  });

  it('takes a contiguous announced event from its message with no read; a gap, a bare doorbell or a large event reads the log', async () => {
    const { groupId, feed, a, b, gapsBefore, readsBefore } = await feedWithTwo((g) => commit(g, { n: 0 }));

    // Contiguous events announced with their body: delivered to both, and nothing read.
    for (let n = 1; n <= 3; n++) await bus.publish(eventMessage(await commit(groupId, { who: 'Ada', n })));
    await until(() => seqsOf(a.client, groupId).length === 3 && seqsOf(b.client, groupId).length === 3);
    expect(reads - readsBefore).toBe(0);
    expect(feed.head).toBe(4);
    // The bytes every subscriber got are those a read of the log would have produced.
    for (const seq of [2, 3, 4])
      expect(feed.frames.get(seq)?.bytes).toEqual(new PreparedFrame(await frameFromLog(groupId, seq)).bytes);

    // A gap: seq 5's announcement was lost, seq 6's carries its event. The log fills the gap.
    await commit(groupId, { n: 4 });
    await bus.publish(eventMessage(await commit(groupId, { n: 5 })));
    await until(() => seqsOf(a.client, groupId).length === 5 && seqsOf(b.client, groupId).length === 5);
    expect(reads - readsBefore).toBe(1);
    expect((await metrics.gapFills.get()).values[0]?.value).toBe(gapsBefore + 1);

    // An announcement without the event (the relay's, an older writer's): the log is read.
    const bare = await commit(groupId, { n: 6 });
    await ring(groupId, bare.seq);
    await until(() => seqsOf(a.client, groupId).length === 6);
    expect(reads - readsBefore).toBe(2);

    // An event too large to travel with its announcement: announced bare, read from the log.
    const large = await commit(groupId, { n: 7, note: 'x'.repeat(5000) });
    // Redis carries the message as its text (this in-process bus hands objects over, any size).
    const message = JSON.parse(messageText(eventMessage(large)));
    expect(message).toEqual({ kind: 'event', groupId, seq: large.seq, eventId: large.id });
    await bus.publish(message);
    await until(() => seqsOf(a.client, groupId).length === 7);
    expect(reads - readsBefore).toBe(3);

    // An announcement whose event is not the one it names is not trusted: the log is read.
    const next = await commit(groupId, { n: 8 });
    await bus.publish({ ...eventMessage(next), event: { ...eventAsLogged(next), seq: next.seq + 1 } });
    await until(() => seqsOf(a.client, groupId).length === 8 && seqsOf(b.client, groupId).length === 8);
    expect(reads - readsBefore).toBe(4);

    // A duplicate or a late announcement changes nothing.
    await bus.publish(eventMessage(next));
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads - readsBefore).toBe(4);

    const all = Array.from({ length: 8 }, (_, i) => i + 2);
    expect(seqsOf(a.client, groupId)).toEqual(all);
    expect(seqsOf(b.client, groupId)).toEqual(all);
    expect(a.client.messages).toEqual(b.client.messages);
    for (const m of a.client.messages)
      expect(JSON.stringify(m)).toBe(String(await frameFromLog(groupId, m['seq'] as number)));
  });

  it('drops a feed, and stops hearing its group, when the last hold is given back', async () => {
    const groupId = await newGroup();
    const one = feeds.acquire(groupId);
    const two = feeds.acquire(groupId);
    expect(two).toBe(one);
    await one.ready;
    const size = feeds.size();
    feeds.release(one);
    expect(feeds.get(groupId)).toBe(one);
    feeds.release(two);
    expect(feeds.get(groupId)).toBeUndefined();
    expect(feeds.size()).toBe(size - 1);
    expect((await metrics.feeds.get()).values[0]?.value).toBe(feeds.size());
    const readsBefore = reads;
    await append(groupId, 1);
    await ring(groupId, 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(readsBefore);
  });
});
