import { fingerprintOf } from '@tally/idempotency';
import { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { ensureRedis, type RunningService } from '../support/services';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

/**
 * One copy of each fact (migration 013): a keyed creation's durable record points at its event
 * instead of copying the expense's JSON, and a replay, from Redis or from PostgreSQL, still answers
 * the original response byte for byte after the expense was edited and deleted. Records written in
 * the format of before 013 (the body copied) still replay.
 */
describe('the durable record of a creation points at its event', () => {
  let t: TestServer;
  let knex: Knex;
  let redis: Redis;
  // A throwaway Redis of this file's own: FLUSHDB here must not touch anybody else's keys.
  let ownRedis: RunningService;
  let ada: TestUser;
  let bob: TestUser;
  let groupId: string;

  beforeAll(async () => {
    ownRedis = await ensureRedis({ ephemeral: true });
    redis = new Redis(ownRedis.url);
    t = await startTestServer({ env: { REDIS_URL: ownRedis.url } });
    knex = t.db!.knex;
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    groupId = await t.createGroup(ada, [bob]);
  });
  afterAll(async () => {
    await t?.stop();
    await redis?.quit();
    await ownRedis?.stop();
  });

  const body = () => ({
    groupId,
    description: 'Dîner ☃ "quoted" \\ \u2028\tand a tab',
    amount: 90001,
    paidBy: ada.id,
    split: { type: 'equal', between: [ada.id, bob.id] },
    category: 'food and \\drink',
  });
  const post = (key: string, sent: object) =>
    t.request.post('/v1/expenses').set(ada.auth).set('Idempotency-Key', key).send(sent);
  const expectSameResponse = (
    again: Awaited<ReturnType<typeof post>>,
    first: Awaited<ReturnType<typeof post>>,
  ) => {
    expect(again.status).toBe(first.status);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
  };

  it('keeps no copy of the body and replays the original after an edit and a delete, from Redis and from PostgreSQL', async () => {
    const key = newKey();
    const sent = body();
    const first = await post(key, sent);
    expect(first.status).toBe(201);
    const id = first.body.id as string;

    // The record has no body of its own: it names the event, whose `data.expense` is the body's text.
    const record = await knex('idempotency_records').where({ user_id: ada.id, key }).first();
    expect(record.body).toBeNull();
    expect(record.body_event_group).toBe(groupId);
    expect(record.body_event_field).toBe('expense');
    const event = (
      (await knex.raw(
        `select (data -> 'expense')::text as text, type from events where group_id = ? and seq = ? and occurred_at = ?`,
        [record.body_event_group, record.body_event_seq, record.body_event_at],
      )) as { rows: { text: string; type: string }[] }
    ).rows[0];
    expect(event?.type).toBe('expense.created');
    expect(event?.text).toBe(first.text);

    // The expense changes, then goes.
    const patched = await t.request
      .patch(`/v1/expenses/${id}`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ description: 'Lunch' });
    expect(patched.status).toBe(200);
    const deleted = await t.request
      .delete(`/v1/expenses/${id}`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey());
    expect(deleted.status).toBe(204);

    // From Redis (one GET): the original.
    expectSameResponse(await post(key, sent), first);
    // From PostgreSQL (Redis lost everything): the original, rebuilt from the event.
    await redis.flushdb();
    expectSameResponse(await post(key, sent), first);
    // …and recorded in Redis again from there: the same bytes.
    expect(await redis.dbsize()).toBeGreaterThan(0);
    expectSameResponse(await post(key, sent), first);
    expect(Number((await knex('expenses').where({ group_id: groupId }).count({ n: '*' }))[0]?.n)).toBe(1);
  });

  it('replays a record written before migration 013, with its body copied', async () => {
    const key = newKey();
    const sent = { ...body(), description: 'Old record' };
    const oldBody = JSON.stringify({ id: 'exp_written_before_013', note: 'the copied body' });
    // The insert of before 013: the body copied, no event named.
    await knex.raw(
      `insert into idempotency_records (user_id, key, path, slot, fingerprint, status, headers, body, created_at, expires_at)
       values (?, ?, '/v1/expenses', tally_idempotency_slot(now()), ?, 201, ?::jsonb, ?, now(), now() + interval '1 hour')`,
      [
        ada.id,
        key,
        fingerprintOf('POST', sent),
        JSON.stringify({
          Location: '/v1/expenses/exp_written_before_013',
          'Content-Type': 'application/json',
        }),
        oldBody,
      ],
    );
    await redis.flushdb();
    const replayed = await post(key, sent);
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.text).toBe(oldBody);
    expect(replayed.headers.location).toBe('/v1/expenses/exp_written_before_013');
    // Then from Redis, the same.
    const again = await post(key, sent);
    expect(again.text).toBe(oldBody);
  });
});
