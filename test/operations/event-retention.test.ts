/**
 * EVENT_RETENTION_DAYS: events live in daily partitions of `events` and go a whole partition at a
 * time once older than the retention (`maintainPartitions`, run with the time moved forward). A
 * client resuming from before what is kept gets an explicit answer, never a silent gap: HTTP
 * `410 resync_required`, WebSocket `resync_required`, and the SDK's `resync_required` event.
 */
import { listPartitions, maintainPartitions } from '@tally/db';
import type { Knex } from 'knex';
import WebSocket from 'ws';
import { type GroupEvent, RealtimeClient, ResyncRequiredError, TallyClient } from '../../packages/client/src';
import { expectProblem } from '../component/component-helpers';
import { TestSocket } from '../gateway/ws-client';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { until } from '../support/until';

const DAY = 86_400_000;
const RETENTION_DAYS = 30;
const TTL_SECONDS = 86_400;

describe('event retention (EVENT_RETENTION_DAYS)', () => {
  let t: TestServer;
  let knex: Knex;
  let ada: TestUser;
  let eve: TestUser;
  let groupId: string;
  /** The last seq written before the old events were aged: everything up to it is dropped. */
  let oldHead: number;
  const sockets: TestSocket[] = [];

  const addExpense = async (amount = 300) => {
    const res = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Tea',
        amount,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      });
    expect(res.status).toBe(201);
  };
  const lastSeq = async () =>
    Number((await knex('groups').where({ id: groupId }).first('last_seq')).last_seq);
  const loggedSeqs = async () =>
    (await knex('events').where({ group_id: groupId }).orderBy('seq').select('seq')).map(
      (r: { seq: string }) => Number(r.seq),
    );
  const events = (afterSeq?: number, extra = '') =>
    t.request
      .get(`/v1/groups/${groupId}/events?${afterSeq === undefined ? '' : `afterSeq=${afterSeq}`}${extra}`)
      .set(ada.auth);
  const open = async (user: TestUser) => {
    const socket = await TestSocket.open(t.url, user.accessToken);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    t = await startTestServer({ env: { EVENT_RETENTION_DAYS: String(RETENTION_DAYS) } });
    knex = t.db!.knex;
    ada = await t.register('Ada');
    eve = await t.register('Eve');
    groupId = await t.createGroup(ada);
    await addExpense();
    await addExpense();
    oldHead = await lastSeq();
    // Forty days ago: partitions made then (maintenance with the time moved back), and this group's
    // events so far moved into them.
    await maintainPartitions(knex, {
      now: new Date(Date.now() - 40 * DAY),
      eventRetentionDays: RETENTION_DAYS,
      idempotencyTtlSeconds: TTL_SECONDS,
      wait: true,
    });
    await knex.raw("update events set occurred_at = occurred_at - interval '40 days' where group_id = ?", [
      groupId,
    ]);
    await addExpense();
    await addExpense();
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });

  it('drops the partitions older than the retention, whole, and keeps the newer ones', async () => {
    expect(await loggedSeqs()).toEqual([...Array(oldHead + 2).keys()].map((i) => i + 1));
    const before = await listPartitions(knex, 'events');
    const result = await maintainPartitions(knex, {
      eventRetentionDays: RETENTION_DAYS,
      idempotencyTtlSeconds: TTL_SECONDS,
      wait: true,
    });
    expect(result.ran).toBe(true);
    const now = Date.now();
    const old = before.filter((p) => p.to !== null && p.to.getTime() + RETENTION_DAYS * DAY <= now);
    expect(old.length).toBeGreaterThan(0);
    expect(result.dropped).toEqual(expect.arrayContaining(old.map((p) => p.name)));
    const after = await listPartitions(knex, 'events');
    expect(after.filter((p) => old.some((o) => o.name === p.name))).toEqual([]);
    // Today's partition and a week ahead are there.
    expect(after.some((p) => (p.from?.getTime() ?? 0) <= now && (p.to?.getTime() ?? 0) > now)).toBe(true);
    expect(Math.max(...after.map((p) => p.to?.getTime() ?? 0))).toBeGreaterThan(now + 7 * DAY);
    // The aged events are gone; the newer ones stay, gapless.
    expect(await loggedSeqs()).toEqual([oldHead + 1, oldHead + 2]);
  });

  it('answers 410 resync_required over HTTP when the events after afterSeq are gone', async () => {
    for (const afterSeq of [undefined, 0, 1, oldHead - 1]) {
      const res = await events(afterSeq);
      expectProblem(res, 410, 'resync_required');
      expect(res.body.type).toBe('/problems/resync-required');
    }
    const kept = await events(oldHead);
    expect(kept.status).toBe(200);
    expect(kept.body.data.map((e: GroupEvent) => e.seq)).toEqual([oldHead + 1, oldHead + 2]);
    // Paging through what is kept.
    const page = await events(oldHead, '&limit=1');
    expect(page.body.data.map((e: GroupEvent) => e.seq)).toEqual([oldHead + 1]);
    const next = await t.request
      .get(`/v1/groups/${groupId}/events?cursor=${encodeURIComponent(page.body.nextCursor)}`)
      .set(ada.auth);
    expect(next.body.data.map((e: GroupEvent) => e.seq)).toEqual([oldHead + 2]);
    // At the head: an empty page, as before.
    expect((await events(oldHead + 2)).body).toEqual({ data: [], nextCursor: null });
    // A non-member still learns nothing: 404.
    expectProblem(await events(0).set(eve.auth), 404, 'not_found');
  });

  it('answers resync_required on the WebSocket, subscribing nothing, and catches up from what is kept', async () => {
    const socket = await open(ada);
    socket.send({ type: 'subscribe', id: 'old', groupId, afterSeq: 1 });
    const resync = await socket.next((m) => m['id'] === 'old');
    expect(resync).toEqual({ type: 'resync_required', id: 'old', groupId, seq: oldHead + 2 });
    socket.send({ type: 'ping', id: 'p' });
    await socket.next((m) => m.type === 'pong');
    expect(socket.all('event', groupId)).toEqual([]);
    expect(socket.all('subscribed', groupId)).toEqual([]);

    // From the oldest kept: the catch-up, then live events.
    socket.send({ type: 'subscribe', id: 'kept', groupId, afterSeq: oldHead });
    const subscribed = await socket.next((m) => m.type === 'subscribed');
    expect(subscribed['seq']).toBe(oldHead + 2);
    expect(socket.seqs(groupId)).toEqual([oldHead + 1, oldHead + 2]);
    await addExpense();
    await socket.next((m) => m.type === 'event' && m['seq'] === oldHead + 3);
    expect(socket.seqs(groupId)).toEqual([oldHead + 1, oldHead + 2, oldHead + 3]);
  });

  it('tells the SDK, which resubscribes from the group’s seq and goes on with the live events', async () => {
    const resyncs: { groupId: string; seq: number }[] = [];
    const handled: number[] = [];
    const delivered: number[] = [];
    const rt = new RealtimeClient({
      url: t.url,
      getAccessToken: () => ada.accessToken,
      WebSocket: WebSocket as never,
    });
    rt.on('resync_required', (info) => resyncs.push(info));
    let subscribedAt: number | undefined;
    rt.on('subscribed', (info) => {
      subscribedAt = info.seq;
    });
    try {
      const head = await lastSeq();
      rt.subscribe(groupId, {
        afterSeq: 0,
        onEvent: (e) => delivered.push(e.seq),
        onResyncRequired: (info) => handled.push(info.seq),
      });
      await until(() => subscribedAt !== undefined, 'the resubscription');
      expect(resyncs).toEqual([{ groupId, seq: head }]);
      expect(handled).toEqual([head]);
      expect(subscribedAt).toBe(head);
      expect(delivered).toEqual([]);
      await addExpense();
      await until(() => delivered.length === 1, 'the live event');
      expect(delivered).toEqual([head + 1]);
    } finally {
      rt.close();
    }
  });

  it('types the HTTP answer in the SDK as ResyncRequiredError', async () => {
    const client = new TallyClient({ baseUrl: t.url, retry: { baseDelayMs: 10, attemptTimeoutMs: 5000 } });
    await client.auth.login({ email: ada.email, password: 'correct horse battery' });
    const error = await client.groups.events(groupId, { afterSeq: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResyncRequiredError);
    expect((error as ResyncRequiredError).status).toBe(410);
    expect((await client.groups.events(groupId, { afterSeq: oldHead })).data.length).toBeGreaterThan(0);
  });

  it('moves time forward: today’s partition goes after the retention too, writes go on in new partitions with gapless seq', async () => {
    const head = await lastSeq();
    const future = Date.now() + (RETENTION_DAYS + 2) * DAY;
    const result = await maintainPartitions(knex, {
      now: new Date(future),
      eventRetentionDays: RETENTION_DAYS,
      idempotencyTtlSeconds: TTL_SECONDS,
      wait: true,
    });
    expect(result.dropped.some((name) => name.startsWith('events_p'))).toBe(true);
    expect(await loggedSeqs()).toEqual([]);
    expectProblem(await events(head - 1), 410, 'resync_required');
    // At the head nothing is missing: an empty page.
    expect((await events(head)).status).toBe(200);
    // Maintenance at the real time again makes today's partition; the next write numbers on.
    await maintainPartitions(knex, {
      eventRetentionDays: RETENTION_DAYS,
      idempotencyTtlSeconds: TTL_SECONDS,
      wait: true,
    });
    await addExpense();
    expect(await loggedSeqs()).toEqual([head + 1]);
    expect((await events(head)).body.data.map((e: GroupEvent) => e.seq)).toEqual([head + 1]);
  });
});
