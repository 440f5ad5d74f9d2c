/**
 * Bounded tables (migration 003): `events`, `idempotency_records` and `idempotency_claims` are
 * partitioned by time and old partitions are dropped whole. Here: the migration on a database that
 * already has rows (and back), and exactly-once across the slot boundaries of the idempotency
 * tables, with 2-second slots so that a real boundary passes during the test.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  IDEMPOTENCY_DROP_MARGIN_MS,
  listPartitions,
  maintainPartitions,
  migrateLatest,
  migrateTo,
  raw,
} from '@tally/db';
import { createDurableRecords, type DurableRecord } from '@tally/idempotency';
import { Redis } from 'ioredis';
import { knex as createKnex, type Knex } from 'knex';
import { Client } from 'pg';
import request from 'supertest';
import { createIdMaker } from '../../apps/api/src/ids';
import { durableRecordInsert } from '../../apps/api/src/ledger/group-change';
import { createWriteRunner } from '../../apps/api/src/ledger/write-runner';
import { TestSocket } from '../gateway/ws-client';
import { currentRunId, databasePrefix } from '../support/run-info';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { ensureRedis, type RunningService } from '../support/services';
import { databaseUrl, dropDatabase } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import { until } from '../support/until';
import { countRows, lockWaiters } from './operations-helpers';

const DAY = 86_400_000;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** PostgreSQL's clock, in epoch ms: slots are computed from it (`now()`). */
async function dbNow(knex: Knex): Promise<number> {
  const [row] = rowsOf<{ ms: string }>(
    await knex.raw('select extract(epoch from clock_timestamp()) * 1000 as ms'),
  );
  return Number(row?.ms);
}

describe('migration 003 on a database that already has rows', () => {
  const serverUrl = databaseUrl();
  const name = `${databasePrefix(currentRunId())}${randomBytes(4).toString('hex')}`;
  let knex: Knex;
  let now: number;

  beforeAll(async () => {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    knex = createKnex({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 4 } });
    await migrateTo(knex, '002-one-statement-writes');
    now = await dbNow(knex);
    const at = (offsetMs: number) => new Date(now + offsetMs);
    await knex('users').insert({
      id: 'usr_a',
      email: 'a@example.com',
      email_normalized: 'a@example.com',
      name: 'A',
      password_hash: 'x',
      created_at: at(-50 * DAY),
    });
    await knex('groups').insert({
      id: 'grp_a',
      name: 'Old',
      currency: 'INR',
      last_seq: 4,
      created_at: at(-50 * DAY),
      updated_at: at(-50 * DAY),
    });
    await knex('group_members').insert({ group_id: 'grp_a', user_id: 'usr_a', joined_at: at(-50 * DAY) });
    const event = (seq: number, offsetMs: number, published: boolean) => ({
      id: `evt_${seq}`,
      group_id: 'grp_a',
      seq,
      type: 'group.updated',
      actor_id: 'usr_a',
      occurred_at: at(offsetMs),
      data: JSON.stringify({ seq }),
      published_at: published ? at(offsetMs) : null,
    });
    await knex('events').insert([
      event(1, -40 * DAY, true),
      event(2, -3 * DAY, true),
      event(3, -3_600_000, true),
      event(4, 0, false),
    ]);
    const record = (key: string, createdMs: number, expiresMs: number) => ({
      user_id: 'usr_a',
      key,
      path: '/v1/expenses',
      fingerprint: `fp-${key}`,
      status: 201,
      headers: JSON.stringify({ 'content-type': 'application/json' }),
      body: `{"key":"${key}"}`,
      created_at: at(createdMs),
      expires_at: at(expiresMs),
    });
    await knex('idempotency_records').insert([
      record('live', -2 * 3_600_000, 22 * 3_600_000),
      record('live-long', -3 * DAY, DAY),
      record('expired', -2 * DAY, -DAY),
    ]);
    await migrateLatest(knex);
  });
  afterAll(async () => {
    await knex?.destroy();
    await dropDatabase(serverUrl, name);
  });

  it('turns events into a partitioned table keeping every row, older days in one partition below', async () => {
    const [kind] = rowsOf<{ relkind: string }>(
      await knex.raw("select relkind from pg_class where relname = 'events'"),
    );
    expect(kind?.relkind).toBe('p');
    const rows = rowsOf<{ partition: string; seq: string; published: boolean }>(
      await knex.raw(
        `select tableoid::regclass::text as partition, seq, published_at is not null as published
           from events order by seq`,
      ),
    );
    expect(rows.map((r) => [Number(r.seq), r.published])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
    ]);
    // Before one width (a day) ago: the partition below; from then on, a partition per day.
    expect(rows[0]?.partition).toBe('events_p_before');
    expect(rows[1]?.partition).toBe('events_p_before');
    expect(rows[3]?.partition).toMatch(/^events_p\d{8}$/);
    const partitions = await listPartitions(knex, 'events');
    const last = (list: typeof partitions) => Math.max(...list.map((p) => p.to?.getTime() ?? 0));
    // The migration makes tomorrow's; the maintainer (at an API process's boot) the rest, a week on
    // at least, as wide as the retention asks: kept for ever, a quarter each.
    expect(last(partitions)).toBeGreaterThan(now + DAY);
    const made = await maintainPartitions(knex, { idempotencyTtlSeconds: 86_400, wait: true });
    // The idempotency partitions below yesterday are due by the retention of this maintainer (a day),
    // but hold live-long (a record of a longer retention): they stay.
    expect(made.dropped).toEqual([]);
    const after = await listPartitions(knex, 'events');
    expect(last(after)).toBeGreaterThan(now + 7 * DAY);
    const widest = Math.max(
      ...after.filter((p) => p.from !== null).map((p) => (p.to?.getTime() ?? 0) - (p.from?.getTime() ?? 0)),
    );
    expect(widest).toBe(90 * DAY);
  });

  it('keeps (group_id, seq) unique within a partition', async () => {
    const duplicate = knex('events').insert({
      id: 'evt_dup',
      group_id: 'grp_a',
      seq: 4,
      type: 'group.updated',
      actor_id: 'usr_a',
      occurred_at: new Date(now),
      data: '{}',
    });
    await expect(duplicate).rejects.toMatchObject({ code: '23505' });
  });

  it('copies the live idempotency records (with their claims), not the expired ones, and they still hold their keys', async () => {
    const records = await knex('idempotency_records').orderBy('key').select('key');
    expect(records.map((r: { key: string }) => r.key)).toEqual(['live', 'live-long']);
    // live-long: written three days ago, expiring in a day: claims the five days in between.
    expect(await countRows(knex('idempotency_claims').where({ key: 'live-long' }))).toBe(5);
    const durable = createDurableRecords({ knex });
    const writes = createWriteRunner({ knex, newId: createIdMaker() });
    const attempt = (key: string): DurableRecord => ({
      userId: 'usr_a',
      key,
      path: '/v1/expenses',
      fingerprint: 'another',
      response: { status: 201, headers: {}, body: '{}' },
      expiresAt: new Date(Date.now() + DAY),
    });
    expect(await writes.recordAlone(attempt('live'))).toBe(false);
    expect(await writes.recordAlone(attempt('live-long'))).toBe(false);
    expect((await durable.find('usr_a', 'live-long', '/v1/expenses'))?.fingerprint).toBe('fp-live-long');
    // An expired record counts as unseen.
    expect(await writes.recordAlone(attempt('expired'))).toBe(true);
  });

  it('can be undone (down) and done again, keeping the rows', async () => {
    await migrateTo(knex, '002-one-statement-writes');
    const [kind] = rowsOf<{ relkind: string }>(
      await knex.raw("select relkind from pg_class where relname = 'events'"),
    );
    expect(kind?.relkind).toBe('r');
    expect(await countRows(knex('events'))).toBe(4);
    expect(
      (await knex('idempotency_records').orderBy('key').select('key')).map((r: { key: string }) => r.key),
    ).toEqual(['expired', 'live', 'live-long']);
    await migrateLatest(knex);
    expect(await countRows(knex('events'))).toBe(4);
    expect(await countRows(knex('idempotency_records'))).toBe(3);
  });
});

describe('exactly-once across the slot boundaries of the idempotency tables', () => {
  const SLOT_MS = 2000;
  const TTL_SECONDS = 8;
  let redisServer: RunningService;
  let redis: Redis;
  let t: TestServer;
  let knex: Knex;
  let ada: TestUser;
  let groupId: string;

  const body = (amount: number) => ({
    groupId,
    description: 'Taxi',
    amount,
    paidBy: ada.id,
    split: { type: 'equal', between: [ada.id] },
  });
  const post = (key: string, amount = 500) =>
    t.request.post('/v1/expenses').set(ada.auth).set('Idempotency-Key', key).send(body(amount));
  const expenses = () => countRows(knex('expenses').where({ group_id: groupId }));
  const recordOf = async (key: string) =>
    (await knex('idempotency_records').where({ key }).first()) as
      | { slot: Date; created_at: Date; expires_at: Date }
      | undefined;
  /** Waits until PostgreSQL's clock is at least `phaseMs` into a slot. */
  const latePhase = (phaseMs: number) =>
    until(async () => (await dbNow(knex)) % SLOT_MS >= phaseMs, `${phaseMs} ms into a slot`);
  const pastTime = (at: number) => until(async () => (await dbNow(knex)) >= at, 'PostgreSQL time');

  beforeAll(async () => {
    // A Redis of this file's own: FLUSHDB (the store losing its copy) must not touch anybody else's keys.
    redisServer = await ensureRedis({ ephemeral: true });
    redis = new Redis(redisServer.url);
    t = await startTestServer({
      env: { REDIS_URL: redisServer.url, IDEMPOTENCY_TTL_SECONDS: String(TTL_SECONDS) },
    });
    knex = t.db!.knex;
    // 2-second slots for this database, on fresh partitions of that width.
    await knex.raw(
      "update tally_partitioning set width = '2 seconds', ahead = 60 where name = 'idempotency'",
    );
    for (const table of ['idempotency_records', 'idempotency_claims']) {
      for (const p of await listPartitions(knex, table)) await knex.raw(`drop table ${p.name}`);
    }
    const made = await maintainPartitions(knex, { idempotencyTtlSeconds: TTL_SECONDS, wait: true });
    expect(made.created.filter((n) => n.startsWith('idempotency_claims_p')).length).toBeGreaterThan(30);
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
  });
  afterAll(async () => {
    await t?.stop();
    await redis?.quit();
    await redisServer?.stop();
  });

  let key: string;
  let first: { status: number; body: { id: string } };
  /** The group's expenses once the key is recorded: one per attempt at recording it late in a slot. */
  let recorded: number;
  let record: { slot: Date; created_at: Date; expires_at: Date };

  it('replays a key recorded just before a boundary after it, from PostgreSQL, while within the retention', async () => {
    // Record the key in the last 600 ms of a slot (again, if the request happened to cross the boundary).
    for (let attempt = 0; ; attempt++) {
      await latePhase(SLOT_MS - 600);
      key = newKey();
      first = await post(key);
      expect(first.status).toBe(201);
      const found = await recordOf(key);
      if (!found) throw new Error('no durable record');
      record = found;
      if (new Date(record.created_at).getTime() - new Date(record.slot).getTime() >= SLOT_MS - 600) break;
      if (attempt > 5) throw new Error('could not record a key late in a slot');
    }
    recorded = await expenses();
    const slot = new Date(record.slot).getTime();
    const expiresAt = new Date(record.expires_at).getTime();
    // Its claims: its own slot up to the slot of its expiry.
    const claims = (await knex('idempotency_claims').where({ key }).orderBy('slot').select('slot')).map(
      (c: { slot: Date }) => new Date(c.slot).getTime() - slot,
    );
    expect(claims[0]).toBe(0);
    expect(claims[1]).toBe(SLOT_MS);
    expect(claims.length).toBeGreaterThanOrEqual((TTL_SECONDS * 1000) / SLOT_MS);

    // The next slot, well within the retention; Redis forgets the key, so only PostgreSQL can tell.
    await pastTime(slot + SLOT_MS + 100);
    await redis.flushdb();
    const retry = await post(key);
    const after = await dbNow(knex);
    expect(after).toBeLessThan(expiresAt);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await expenses()).toBe(recorded);
    // The retry wrote nothing, in its own slot either.
    expect(await countRows(knex('idempotency_records').where({ key }))).toBe(1);

    // Another body with the key, two slots on: refused, not executed.
    await pastTime(slot + 2 * SLOT_MS + 100);
    await redis.flushdb();
    const other = await post(key, 700);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await expenses()).toBe(recorded);
  });

  it('treats the key as unseen once its retention has passed, a few slots later', async () => {
    await pastTime(new Date(record.expires_at).getTime() + 100);
    await redis.flushdb();
    const later = await post(key);
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await expenses()).toBe(recorded + 1);
  });

  /** Two transactions with the same key, one started in a slot and one in the next (`now()` is a transaction's start). */
  async function straddle(outcome: 'commit' | 'rollback') {
    const url = t.db!.url;
    const early = new Client({ connectionString: url });
    const late = new Client({ connectionString: url });
    await early.connect();
    await late.connect();
    try {
      const straddleKey = newKey();
      const insert = (fingerprint: string) => {
        const statement = durableRecordInsert(
          {
            userId: ada.id,
            key: straddleKey,
            path: '/v1/straddle',
            fingerprint,
            response: { status: 201, headers: {}, body: '{}' },
            expiresAt: new Date(Date.now() + TTL_SECONDS * 1000),
          },
          raw('(select 1) as alone'),
        );
        return { text: statement.text, values: [...statement.values] };
      };
      await latePhase(SLOT_MS / 2);
      await early.query('begin');
      const [{ at: earlyAt }] = (await early.query('select extract(epoch from now()) * 1000 as at')).rows;
      await pastTime(Math.floor(Number(earlyAt) / SLOT_MS) * SLOT_MS + SLOT_MS + 50);
      await late.query('begin');
      const [{ at: lateAt }] = (await late.query('select extract(epoch from now()) * 1000 as at')).rows;
      expect(Math.floor(Number(lateAt) / SLOT_MS)).toBe(Math.floor(Number(earlyAt) / SLOT_MS) + 1);

      await early.query(insert('early'));
      const second = late.query(insert('late')).then(
        () => 'inserted',
        (error: { code?: string }) => error.code,
      );
      // The late insert waits on the early one's claim of the late slot.
      await until(async () => (await lockWaiters(knex, t.db!.name)) > 0, 'the late insert to wait');
      await early.query(outcome);
      const result = await second;
      await late.query(result === 'inserted' ? 'commit' : 'rollback');
      const kept = await knex('idempotency_records').where({ key: straddleKey }).select('fingerprint');
      return { result, kept: kept.map((r: { fingerprint: string }) => r.fingerprint) };
    } finally {
      await early.end();
      await late.end();
    }
  }

  it('lets one of two concurrent attempts straddling a boundary commit: the other is refused (TY001)', async () => {
    expect(await straddle('commit')).toEqual({ result: 'TY001', kept: ['early'] });
  });

  it('lets the late attempt in when the early one rolls back (it waited, it was not refused blindly)', async () => {
    expect(await straddle('rollback')).toEqual({ result: 'inserted', kept: ['late'] });
  });

  it('drops idempotency partitions whole once past the retention, as time moves forward', async () => {
    const durable = createDurableRecords({ knex });
    const future = Date.now() + IDEMPOTENCY_DROP_MARGIN_MS + 60_000;
    const result = await maintainPartitions(knex, {
      now: new Date(future),
      idempotencyTtlSeconds: TTL_SECONDS,
      wait: true,
    });
    expect(result.dropped.length).toBeGreaterThan(0);
    expect(await countRows(knex('idempotency_records').where({ key }))).toBe(0);
    expect(await durable.find(ada.id, key, '/v1/expenses')).toBeUndefined();
    for (const table of ['idempotency_records', 'idempotency_claims']) {
      const left = await listPartitions(knex, table);
      for (const p of left) {
        expect(
          (p.to?.getTime() ?? Infinity) + TTL_SECONDS * 1000 + IDEMPOTENCY_DROP_MARGIN_MS,
        ).toBeGreaterThan(future);
      }
      // …and partitions are ready ahead of that time.
      expect(Math.max(...left.map((p) => p.to?.getTime() ?? 0))).toBeGreaterThan(future + TTL_SECONDS * 1000);
    }
  });
});

describe('on embedded PGlite (a server process, as npm start runs it)', () => {
  // PGlite cannot load inside jest's module sandbox (see test/component/embedded-smoke.test.ts).
  let proc: ServerProcess;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-embedded-'));
    proc = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', EVENT_RETENTION_DAYS: '30' });
  }, 60_000);
  afterAll(async () => {
    await proc?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes and replays keys and reads the log, over HTTP and the WebSocket catch-up', async () => {
    const agent = request.agent(proc.url);
    const registered = await agent
      .post('/v1/auth/register')
      .send({ email: uniqueEmail('Ada'), name: 'Ada', password: 'correct horse battery' });
    const ada = registered.body.user as { id: string };
    const token = registered.body.accessToken as string;
    const auth = { Authorization: `Bearer ${token}` };
    const groupId = (await agent.post('/v1/groups').set(auth).send({ name: 'Tea' })).body.id as string;
    const key = newKey();
    const post = () =>
      agent
        .post('/v1/expenses')
        .set(auth)
        .set('Idempotency-Key', key)
        .send({
          groupId,
          description: 'Tea',
          amount: 300,
          paidBy: ada.id,
          split: { type: 'equal', between: [ada.id] },
        });
    expect((await post()).status).toBe(201);
    const replay = await post();
    expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([201, 'true']);
    const events = await agent.get(`/v1/groups/${groupId}/events?afterSeq=0`).set(auth);
    expect(events.body.data.map((e: { seq: number }) => e.seq)).toEqual([1, 2]);
    const socket = await TestSocket.open(proc.url, token);
    try {
      socket.send({ type: 'subscribe', id: 's', groupId, afterSeq: 0 });
      const subscribed = await socket.next((m) => m.type === 'subscribed');
      expect(subscribed['seq']).toBe(2);
      expect(socket.seqs(groupId)).toEqual([1, 2]);
    } finally {
      socket.close();
    }
    // The database is PGlite's, in DATA_DIR.
    expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
  });
});
