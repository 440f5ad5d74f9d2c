/**
 * The main flow on the embedded database (PGlite in a temporary DATA_DIR, no DATABASE_URL): the
 * same answers as on PostgreSQL for register → group → expense → balances → events.
 *
 * In-process this is `startTestServer({ embedded: true })`. PGlite loads Node built-ins with dynamic
 * `import()`, which jest's module sandbox only allows under `--experimental-vm-modules`; `npm test`
 * runs jest without that flag, and there the same flow runs against a real server process on PGlite
 * (`node --import tsx apps/server/src/main.ts`, as `npm start` runs it) instead.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isEmbedded } from '@tally/db';
import request from 'supertest';
import { spawnServer } from '../support/server-process';
import { newKey, startTestServer, type TestUser, uniqueEmail } from '../support/test-server';

type EmbeddedServer = {
  how: string;
  request: ReturnType<typeof request.agent>;
  /** True when the server demonstrably runs on PGlite files in its DATA_DIR. */
  onPglite(): boolean;
  stop(): Promise<void>;
};

const vmModules = /--experimental-vm-modules/.test(
  `${process.env['NODE_OPTIONS'] ?? ''} ${process.execArgv.join(' ')}`,
);

async function startEmbedded(): Promise<EmbeddedServer> {
  if (vmModules) {
    const t = await startTestServer({ embedded: true });
    return {
      how: 'in-process startTestServer({ embedded: true })',
      request: t.request,
      onPglite: () => t.db === undefined && isEmbedded(t.server.knex),
      stop: () => t.stop(),
    };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-embedded-'));
  const proc = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { entry: 'npm-start' });
  return {
    how: 'server process without DATABASE_URL',
    request: request.agent(proc.url),
    onPglite: () => existsSync(path.join(dataDir, 'pg', 'PG_VERSION')),
    async stop() {
      await proc.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('main flow on embedded PGlite', () => {
  let t: EmbeddedServer;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let groupId: string;
  let expense: Record<string, unknown> & { id: string };

  beforeAll(async () => {
    t = await startEmbedded();
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  const register = async (name: string): Promise<TestUser> => {
    const email = uniqueEmail(name);
    const res = await t.request
      .post('/v1/auth/register')
      .send({ email, name, password: 'correct horse battery' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user: { email, name }, accessToken: expect.any(String) });
    const { user, accessToken, refreshToken } = res.body;
    return { ...user, accessToken, refreshToken, auth: { Authorization: `Bearer ${accessToken}` } };
  };

  it('runs on PGlite, without a PostgreSQL database', () => {
    expect({ how: t.how, onPglite: t.onPglite() }).toEqual({ how: t.how, onPglite: true });
  });

  it('registers users and creates a group with its members', async () => {
    ada = await register('Ada');
    bob = await register('Bob');
    cy = await register('Cy');
    expect(ada.id).toMatch(/^usr_[0-9A-HJKMNP-TV-Z]{26}$/);
    const created = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Trip' });
    expect(created.status).toBe(201);
    groupId = created.body.id;
    for (const member of [bob, cy]) {
      const added = await t.request
        .post(`/v1/groups/${groupId}/members`)
        .set(ada.auth)
        .send({ userId: member.id });
      expect(added.status).toBe(201);
    }
    const group = await t.request.get(`/v1/groups/${groupId}`).set(bob.auth);
    expect(group.status).toBe(200);
    expect(group.body).toMatchObject({ id: groupId, name: 'Trip', currency: 'INR' });
    expect(group.body.members.map((m: { userId: string }) => m.userId)).toEqual([ada.id, bob.id, cy.id]);
  });

  it('creates an expense with exact largest-remainder shares', async () => {
    const res = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Dinner',
        amount: 100000,
        paidBy: ada.id,
        occurredAt: '2026-11-25T19:30:00.000Z',
        split: { type: 'equal', between: [ada.id, bob.id, cy.id] },
      });
    expect(res.status).toBe(201);
    expect(res.headers['location']).toBe(`/v1/expenses/${res.body.id}`);
    expect(res.headers['etag']).toEqual(expect.any(String));
    expect(res.body).toMatchObject({
      groupId,
      currency: 'INR',
      paidBy: [{ userId: ada.id, amount: 100000 }],
      occurredAt: '2026-11-25T19:30:00.000Z',
      shares: [
        { userId: ada.id, owed: 33334 },
        { userId: bob.id, owed: 33333 },
        { userId: cy.id, owed: 33333 },
      ],
      version: 1,
    });
    expense = res.body;

    const read = await t.request.get(`/v1/expenses/${expense.id}`).set(cy.auth);
    expect(read.status).toBe(200);
    expect(read.headers['cache-control']).toBe('private, no-cache');
    expect(read.body).toEqual(expense);
    const notModified = await t.request
      .get(`/v1/expenses/${expense.id}`)
      .set(cy.auth)
      .set('If-None-Match', read.headers['etag'] as string);
    expect(notModified.status).toBe(304);
  });

  it('repeats the same PUT as a no-op on PGlite too', async () => {
    const { id, createdBy, createdAt, updatedAt, version, shares, recurringId, ...rest } = expense;
    const body = { ...rest, paidBy: ada.id };
    const res = await t.request
      .put(`/v1/expenses/${id}`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expense);
  });

  it('reads balances that add up to zero, with a simplified plan', async () => {
    const res = await t.request.get(`/v1/groups/${groupId}/balances`).set(bob.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      groupId,
      asOfSeq: 4,
      currencies: [
        {
          currency: 'INR',
          members: [
            { userId: ada.id, net: 66666 },
            { userId: bob.id, net: -33333 },
            { userId: cy.id, net: -33333 },
          ],
          simplified: expect.arrayContaining([
            { from: bob.id, to: ada.id, amount: 33333 },
            { from: cy.id, to: ada.id, amount: 33333 },
          ]),
        },
      ],
    });
    expect(res.body.currencies[0].simplified).toHaveLength(2);
  });

  it('lists the events in order, the money event carrying the balances after it', async () => {
    const res = await t.request.get(`/v1/groups/${groupId}/events?afterSeq=0`).set(cy.auth);
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    const events = res.body.data as {
      id: string;
      seq: number;
      type: string;
      groupId: string;
      actorId: string;
      data: Record<string, unknown>;
    }[];
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'member.added'],
      [2, 'member.added'],
      [3, 'member.added'],
      [4, 'expense.created'],
    ]);
    for (const e of events) {
      expect(e.id).toMatch(/^evt_/);
      expect(e.groupId).toBe(groupId);
      expect(e.actorId).toBe(ada.id);
    }
    const created = events[3]!;
    expect(created.data['expense']).toEqual(expense);
    expect(created.data['balances']).toEqual([
      {
        currency: 'INR',
        members: [
          { userId: ada.id, net: 66666 },
          { userId: bob.id, net: -33333 },
          { userId: cy.id, net: -33333 },
        ],
        simplified: expect.any(Array),
      },
    ]);
    const after = await t.request.get(`/v1/groups/${groupId}/events?afterSeq=3`).set(cy.auth);
    expect(after.body.data.map((e: { seq: number }) => e.seq)).toEqual([4]);
  });

  it('deletes and restores the expense, keeping balances in step', async () => {
    const removed = await t.request
      .delete(`/v1/expenses/${expense.id}`)
      .set(bob.auth)
      .set('Idempotency-Key', newKey());
    expect(removed.status).toBe(204);
    const empty = await t.request.get(`/v1/groups/${groupId}/balances`).set(ada.auth);
    expect(empty.body).toEqual({ groupId, asOfSeq: 5, currencies: [] });
    const restored = await t.request
      .post(`/v1/expenses/${expense.id}/restore`)
      .set(bob.auth)
      .set('Idempotency-Key', newKey());
    expect(restored.status).toBe(200);
    const back = await t.request.get(`/v1/groups/${groupId}/balances`).set(ada.auth);
    expect(back.body.asOfSeq).toBe(6);
    expect(back.body.currencies[0].members).toEqual([
      { userId: ada.id, net: 66666 },
      { userId: bob.id, net: -33333 },
      { userId: cy.id, net: -33333 },
    ]);
    // Its history (API.md §15) reads the same events on PGlite, by the same indexes (migration 026).
    const history = await t.request.get(`/v1/expenses/${expense.id}/history`).set(ada.auth);
    expect(history.status).toBe(200);
    expect(
      history.body.data.map((v: { action: string; changes: unknown[] | null }) => [v.action, v.changes]),
    ).toEqual([
      ['created', null],
      ['deleted', []],
      ['restored', []],
    ]);
  });

  it('answers errors as problem+json on PGlite too', async () => {
    const res = await t.request
      .post('/v1/expenses')
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({
        groupId,
        description: 'Bad',
        amount: 100.5,
        paidBy: ada.id,
        split: { type: 'equal', between: [ada.id] },
      });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'validation_failed', type: '/problems/validation-failed' });
  });
});
