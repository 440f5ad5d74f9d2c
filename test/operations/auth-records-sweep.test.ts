/**
 * Bounded auth tables (API.md §2.3, §2.4; migration 016): ended and expired sessions, expired
 * refresh tokens and spent password reset tokens are deleted after their retention, in slices of a
 * bounded size, a bounded number per run, holding no lock between slices. Here: which rows go and
 * which stay, the slices, the run's bound, and the sweep an API process runs at start-up.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ENDED_SESSION_RETENTION_MS, sweepAuthRecords } from '@tally/api';
import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { countRows } from './operations-helpers';

const DAY = 86_400_000;
const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** A user, and rows of the three tables dated relative to `now` (negative offsets: in the past). */
async function seed(knex: Knex, now: number) {
  const userId = `usr_${randomBytes(6).toString('hex')}`;
  await knex('users').insert({
    id: userId,
    email: `${userId}@example.com`,
    email_normalized: `${userId}@example.com`,
    name: 'Sweep',
    password_hash: 'x',
    created_at: new Date(now - 100 * DAY),
  });
  const at = (offset: number) => new Date(now + offset);
  const sessions = (n: number, tag: string, row: (i: number) => Record<string, unknown>) =>
    knex('sessions').insert(
      Array.from({ length: n }, (_, i) => ({
        id: `rtk_${tag}_${i}_${userId}`,
        user_id: userId,
        user_agent: 'Phone',
        ip: '203.0.113.1',
        created_at: at(-90 * DAY),
        last_used_at: at(-40 * DAY),
        ...row(i),
      })),
    );
  const tokens = (n: number, tag: string, expiresIn: number) =>
    knex('refresh_tokens').insert(
      Array.from({ length: n }, (_, i) => ({
        id: `rtk_${tag}_${i}_${userId}`,
        token_hash: hash(`${tag}-${i}-${userId}`),
        family_id: `rtk_fam_${userId}`,
        user_id: userId,
        created_at: at(expiresIn - 30 * DAY),
        expires_at: at(expiresIn),
      })),
    );
  const resets = (n: number, tag: string, expiresIn: number) =>
    knex('password_resets').insert(
      Array.from({ length: n }, (_, i) => ({
        token_hash: hash(`reset-${tag}-${i}-${userId}`),
        user_id: userId,
        created_at: at(expiresIn - 1800_000),
        expires_at: at(expiresIn),
        used_at: i % 2 === 0 ? at(expiresIn - 1000_000) : null,
      })),
    );
  // Ended 31 days ago (go) and 29 days ago (stay).
  await sessions(25, 'ended_old', () => ({ revoked_at: at(-31 * DAY), revoked_reason: 'logout' }));
  await sessions(3, 'ended_new', () => ({ revoked_at: at(-29 * DAY), revoked_reason: 'revoked' }));
  // Never ended, last used 61 days ago (expired 31 days ago: go) and 59 days ago (stay), and live.
  await sessions(12, 'idle_old', () => ({ last_used_at: at(-61 * DAY) }));
  await sessions(2, 'idle_new', () => ({ last_used_at: at(-59 * DAY) }));
  await sessions(2, 'live', () => ({ last_used_at: at(-DAY) }));
  // Refresh tokens expired an hour ago (go) and expiring in an hour (stay).
  await tokens(23, 'expired', -3600_000);
  await tokens(4, 'live', 3600_000);
  // Reset tokens expired 25 hours ago (go), 23 hours ago (stay), and live.
  await resets(7, 'old', -25 * 3600_000);
  await resets(2, 'recent', -23 * 3600_000);
  await resets(1, 'live', 600_000);
  return userId;
}

describe('the sweep of ended sessions and spent tokens', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('deletes what is past its retention in slices of at most sliceRows, at most maxSlices a run, and keeps the rest', async () => {
    const { knex } = db;
    const now = Date.now();
    const userId = await seed(knex, now);
    const left = async () => ({
      sessions: await countRows(knex('sessions').where({ user_id: userId })),
      tokens: await countRows(knex('refresh_tokens').where({ user_id: userId })),
      resets: await countRows(knex('password_resets').where({ user_id: userId })),
    });
    expect(await left()).toEqual({ sessions: 44, tokens: 27, resets: 10 });

    // Between two slices the sweep holds no lock: a row it is about to delete can be locked at once.
    let between = 0;
    const probe = async () => {
      between++;
      await knex.transaction(async (trx) => {
        await trx.raw(
          `select id from sessions where id like 'rtk_ended_old_%' or id like 'rtk_idle_old_%' for update nowait`,
        );
      });
    };
    const first = await sweepAuthRecords(knex, {
      now: new Date(now),
      sliceRows: 10,
      maxSlices: 2,
      betweenSlices: probe,
    });
    expect(first.ran).toBe(true);
    expect(first.slices).toEqual({
      ended_sessions: [10, 10],
      expired_sessions: [10, 2],
      refresh_tokens: [10, 10],
      password_resets: [7],
    });
    expect(first.unfinished).toEqual(['ended_sessions', 'refresh_tokens']);
    expect(between).toBe(3);
    expect(await left()).toEqual({ sessions: 44 - 32, tokens: 27 - 20, resets: 3 });

    const second = await sweepAuthRecords(knex, { now: new Date(now), sliceRows: 10, maxSlices: 2 });
    expect(second.slices).toEqual({
      ended_sessions: [5],
      expired_sessions: [0],
      refresh_tokens: [3],
      password_resets: [0],
    });
    expect(second.unfinished).toEqual([]);
    // What stays: sessions ended 29 days ago, idle 59 days, live; live tokens; recent and live resets.
    const ids = (await knex('sessions').where({ user_id: userId }).pluck('id')) as string[];
    expect(ids.map((id) => id.replace(/^rtk_(.*)_\d+_usr_.*$/, '$1')).sort()).toEqual(
      [...Array(3).fill('ended_new'), ...Array(2).fill('idle_new'), ...Array(2).fill('live')].sort(),
    );
    expect(await left()).toEqual({ sessions: 7, tokens: 4, resets: 3 });
    expect(
      await countRows(
        knex('refresh_tokens').where({ user_id: userId }).where('expires_at', '<', new Date(now)),
      ),
    ).toBe(0);
  });

  it('leaves rows locked by a request to the next run, and stops when another process is sweeping', async () => {
    const { knex } = db;
    const now = Date.now();
    const userId = await seed(knex, now);
    const doomed = `rtk_ended_old_0_${userId}`;
    const trx = await knex.transaction();
    try {
      await trx.raw('select id from sessions where id = ? for update', [doomed]);
      const run = await sweepAuthRecords(knex, { now: new Date(now) });
      expect(run.slices.ended_sessions).toEqual([24]);
      expect(await countRows(knex('sessions').where({ id: doomed }))).toBe(1);
    } finally {
      await trx.rollback();
    }
    // Another process holds the sweep's lock: this run does nothing.
    const other = await knex.transaction();
    try {
      await other.raw('select pg_advisory_xact_lock(7340216)');
      const skipped = await sweepAuthRecords(knex, { now: new Date(now) });
      expect(skipped.ran).toBe(false);
      expect(await countRows(knex('sessions').where({ id: doomed }))).toBe(1);
    } finally {
      await other.rollback();
    }
    expect((await sweepAuthRecords(knex, { now: new Date(now) })).slices.ended_sessions).toEqual([1]);
  });
});

describe('an API process sweeps at start-up', () => {
  let db: TestDatabase;
  let t: TestServer | undefined;
  afterAll(async () => {
    await t?.stop();
    await db?.drop();
  });

  it('deletes a session ended longer ago than the retention, and keeps a live one', async () => {
    db = await createTestDatabase();
    const now = Date.now();
    const userId = await seed(db.knex, now);
    const ended = (
      await db.knex('sessions').where({ user_id: userId }).whereNotNull('revoked_at').pluck('revoked_at')
    ).map((d: Date) => d.getTime());
    expect(Math.min(...ended)).toBeLessThan(now - ENDED_SESSION_RETENTION_MS);
    t = await startTestServer({ env: { DATABASE_URL: db.url } });
    await until(async () => (await countRows(db.knex('sessions').where({ user_id: userId }))) === 7);
    expect(await countRows(db.knex('password_resets').where({ user_id: userId }))).toBe(3);
    expect(await countRows(db.knex('refresh_tokens').where({ user_id: userId }))).toBe(4);
  });
});
