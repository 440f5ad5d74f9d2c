import { randomBytes } from 'node:crypto';
import { createEventLog, createInProcessBus, type EventLog } from '@tally/events';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Connection } from '../../apps/gateway/src/connection';
import { createFeeds, type Feed, type Feeds, type Subscription } from '../../apps/gateway/src/feed';
import { createGatewayMetrics } from '../../apps/gateway/src/gateway-metrics';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { eventually, socketPair, type TestSocket } from './ws-client';

/**
 * Feeds on their own: a real event log on PostgreSQL (events written straight into it), the
 * in-process bus with the test ringing the doorbell, and real sockets as subscribers.
 */
describe('feeds', () => {
  let db: TestDatabase;
  let reads = 0;
  let log: EventLog;
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

  beforeAll(async () => {
    db = await createTestDatabase();
    const real = createEventLog({ knex: db.knex });
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

  it('reads the log once per notification for all its subscribers, and repairs one that skipped ahead', async () => {
    const groupId = await newGroup();
    await append(groupId, 1);
    const feed = feeds.acquire(groupId);
    await feed.ready;
    expect(feed.head).toBe(1);
    const a = await subscriber(feed, 1);
    const b = await subscriber(feed, 1);
    const gapsBefore = (await metrics.gapFills.get()).values[0]?.value ?? 0;
    const readsBefore = reads;
    const last = await append(groupId, 3);
    await ring(groupId, last); // the notifications of seq 2 and 3 never came
    await eventually(() => seqsOf(a.client, groupId).length === 3 && seqsOf(b.client, groupId).length === 3);
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
    await eventually(() => seqsOf(client, groupId).length === last);
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
    await eventually(() => removed.includes(sub));
    await eventually(() => seqsOf(client, groupId).length === 3);
    expect(seqsOf(client, groupId)).toEqual([1, 2, 3]);
    expect(sub.lastSeq).toBe(3); // and seq 4 was never sent
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
