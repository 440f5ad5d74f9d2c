/**
 * API.md §6b: importing a Splitwise export, against real PostgreSQL and Redis. The crash and size
 * tests are in test/cross-process/imports-crash.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import { balancesOf, expectProblem, netsIn } from './component-helpers';

const FIXTURE = readFileSync(path.join(__dirname, '../fixtures/splitwise-export.csv'), 'utf8');
const PEOPLE = ['Ada Lovelace', 'Bob Smith', 'Carol "CJ" Jones'] as const;
/** The fixture's "Total balance" row, in cents. */
const FILE_TOTAL = [-2083, 717, 1366];

describe('imports (Splitwise)', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestServer({ env: { REDIS_URL: redisUrl() } });
    ada = await t.register('Ada');
    bob = await t.register('Bob');
  });
  afterAll(async () => {
    await t.stop();
  });

  /** A group of Ada, Bob and a pending member Carol; the mapping of the fixture's columns. */
  async function groupWithCarol() {
    const groupId = await t.createGroup(ada, [bob], { currency: 'EUR' });
    const added = await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ name: 'Carol' });
    expect(added.status).toBe(201);
    const carol = added.body.userId as string;
    const members = { [PEOPLE[0]]: ada.id, [PEOPLE[1]]: bob.id, [PEOPLE[2]]: carol };
    return { groupId, carol, members };
  }

  const upload = (groupId: string, body: object, key = newKey()) =>
    t.request.post(`/v1/groups/${groupId}/imports`).set(ada.auth).set('Idempotency-Key', key).send(body);

  const counts = async (groupId: string) => {
    const knex = t.db!.knex;
    const [expenses] = await knex('expenses').where({ group_id: groupId }).count<{ count: string }[]>();
    const [settlements] = await knex('settlements').where({ group_id: groupId }).count<{ count: string }[]>();
    const [imports] = await knex('imports').where({ group_id: groupId }).count<{ count: string }[]>();
    return {
      expenses: Number(expenses!.count),
      settlements: Number(settlements!.count),
      imports: Number(imports!.count),
    };
  };

  it('imports every row once, each member’s net as the file says; the same file again creates nothing', async () => {
    const { groupId, carol, members } = await groupWithCarol();
    const body = { format: 'splitwise-csv', csv: FIXTURE, members };
    const first = await upload(groupId, body);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      groupId,
      status: 'completed',
      rows: 7,
      created: 7,
      existing: 0,
      refused: [],
    });
    expect(first.headers.location).toBe(`/v1/groups/${groupId}/imports/${first.body.id}`);
    expect(await counts(groupId)).toEqual({ expenses: 5, settlements: 2, imports: 1 });

    const nets = netsIn((await balancesOf(t, ada, groupId)).currencies, 'EUR');
    expect(nets).toEqual({ [ada.id]: FILE_TOTAL[0], [bob.id]: FILE_TOTAL[1], [carol]: FILE_TOTAL[2] });

    // The dinner: Bob paid 90.00 and owes 30.00 of it (net +60.00); Ada and Carol owe 30.00 each.
    const expenses = await t.request.get(`/v1/groups/${groupId}/expenses?limit=100`).set(ada.auth);
    const dinner = expenses.body.data.find(
      (e: { description: string }) => e.description === 'Dinner, Trattoria Roma',
    );
    expect(dinner).toMatchObject({
      amount: 9000,
      currency: 'EUR',
      category: 'Dining out',
      occurredAt: '2024-01-07T00:00:00.000Z',
      paidBy: [{ userId: bob.id, amount: 9000 }],
    });
    expect(new Map(dinner.shares.map((s: { userId: string; owed: number }) => [s.userId, s.owed]))).toEqual(
      new Map([
        [ada.id, 3000],
        [bob.id, 3000],
        [carol, 3000],
      ]),
    );
    expect(dinner.id).toMatch(/^exp_i[0-9a-f]{64}$/);

    // "Ada L. paid Bob S." 10.00: a settlement from Ada to Bob.
    const settlements = await t.request.get(`/v1/groups/${groupId}/settlements?limit=100`).set(ada.auth);
    expect(settlements.body.data).toContainEqual(
      expect.objectContaining({
        fromUserId: ada.id,
        toUserId: bob.id,
        amount: 1000,
        note: 'Ada L. paid Bob S.',
      }),
    );

    const second = await upload(groupId, body);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ id: first.body.id, created: 0, existing: 7, refused: [] });
    expect(await counts(groupId)).toEqual({ expenses: 5, settlements: 2, imports: 1 });
    expect(netsIn((await balancesOf(t, ada, groupId)).currencies, 'EUR')).toEqual(nets);

    const report = await t.request.get(`/v1/groups/${groupId}/imports/${first.body.id}`).set(ada.auth);
    expect(report.status).toBe(200);
    expect(report.body).toEqual(second.body);
    // A non-member is told the import does not exist.
    const stranger = await t.register('Stranger');
    expectProblem(
      await t.request.get(`/v1/groups/${groupId}/imports/${first.body.id}`).set(stranger.auth),
      404,
      'not_found',
    );

    const events = await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(ada.auth);
    const types = events.body.data.map((e: { type: string }) => e.type);
    expect(types.filter((x: string) => x === 'import.started')).toHaveLength(2);
    expect(types.filter((x: string) => x === 'import.completed')).toHaveLength(2);
    expect(types.filter((x: string) => x === 'expense.created')).toHaveLength(5);
  });

  it('imports the same file into two groups as two sets of records', async () => {
    const one = await groupWithCarol();
    const two = await groupWithCarol();
    const first = await upload(one.groupId, { format: 'splitwise-csv', csv: FIXTURE, members: one.members });
    const second = await upload(two.groupId, { format: 'splitwise-csv', csv: FIXTURE, members: two.members });
    expect(first.body).toMatchObject({ created: 7, existing: 0 });
    expect(second.body).toMatchObject({ created: 7, existing: 0 });
    expect(second.body.id).not.toBe(first.body.id);
    expect(await counts(two.groupId)).toEqual({ expenses: 5, settlements: 2, imports: 1 });
  });

  it('replays the answer for the same key', async () => {
    const { groupId, members } = await groupWithCarol();
    const key = newKey();
    const first = await upload(groupId, { format: 'splitwise-csv', csv: FIXTURE, members }, key);
    const again = await upload(groupId, { format: 'splitwise-csv', csv: FIXTURE, members }, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('refuses rows it cannot import with their line and reason, and imports the rest', async () => {
    const { groupId, members } = await groupWithCarol();
    const csv = FIXTURE.replace('2024-01-12,Wine,Liquor,20.00', '2024-01-32,Wine,Liquor,20.00').replace(
      '2024-01-15,Cinema,Entertainment,24.00,EUR,0.00,-12.00,12.00',
      '2024-01-15,Cinema,Entertainment,24.00,EUR,0.00,-12.00,11.00',
    );
    const res = await upload(groupId, { format: 'splitwise-csv', csv, members });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ created: 5, existing: 0 });
    expect(res.body.refused).toEqual([
      { line: 5, reason: expect.stringContaining('is not a date') },
      { line: 6, reason: expect.stringContaining('add up to -1.00, not to 0') },
      { line: 10, reason: expect.stringContaining('the total balance does not match the rows') },
    ]);
  });

  describe('refused whole, nothing written', () => {
    it.each([
      ['a record with a missing field', (csv: string) => csv.replace('-15.00,-15.00\r\n', '-15.00\r\n'), 2],
      [
        'an unclosed quote',
        (csv: string) => csv.replace('"Dinner, Trattoria Roma"', '"Dinner, Trattoria Roma'),
        3,
      ],
      ['a header that is not Splitwise’s', (csv: string) => csv.replace('Date,Description', 'When,What'), 1],
    ])('%s: 422 naming the line', async (_name, broken, line) => {
      const { groupId, members } = await groupWithCarol();
      const res = await upload(groupId, { format: 'splitwise-csv', csv: broken(FIXTURE), members });
      expectProblem(res, 422, 'validation_failed');
      expect(res.body.errors).toEqual([
        { path: 'csv', message: expect.stringMatching(new RegExp(`^line ${line}: `)) },
      ]);
      expect(res.body.detail).toContain(`line ${line}`);
      expect(await counts(groupId)).toEqual({ expenses: 0, settlements: 0, imports: 0 });
    });

    it('a person column without a member, or a name that is no column: 422 naming them', async () => {
      const { groupId, members } = await groupWithCarol();
      const { [PEOPLE[2]]: _carol, ...partial } = members;
      const res = await upload(groupId, {
        format: 'splitwise-csv',
        csv: FIXTURE,
        members: { ...partial, Dave: bob.id },
      });
      expectProblem(res, 422, 'validation_failed');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([
        `members.${PEOPLE[2]}`,
        'members.Dave',
      ]);
      expect(await counts(groupId)).toEqual({ expenses: 0, settlements: 0, imports: 0 });
    });

    it('a member who is not in the group: 422 not_a_member', async () => {
      const { groupId, members } = await groupWithCarol();
      const stranger = await t.register('Stranger');
      const res = await upload(groupId, {
        format: 'splitwise-csv',
        csv: FIXTURE,
        members: { ...members, [PEOPLE[1]]: stranger.id },
      });
      expectProblem(res, 422, 'not_a_member');
      expect(await counts(groupId)).toEqual({ expenses: 0, settlements: 0, imports: 0 });
    });

    it('no Idempotency-Key: 400', async () => {
      const { groupId, members } = await groupWithCarol();
      const res = await t.request
        .post(`/v1/groups/${groupId}/imports`)
        .set(ada.auth)
        .send({ format: 'splitwise-csv', csv: FIXTURE, members });
      expectProblem(res, 400, 'idempotency_key_missing');
    });
  });
});

describe('imports on the embedded database (PGlite, `npm start`)', () => {
  // A server process without DATABASE_URL, as `npm start` runs (PGlite cannot load in jest's
  // sandbox without --experimental-vm-modules; see embedded-smoke.test.ts).
  let proc: ServerProcess;
  let agent: ReturnType<typeof request.agent>;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tally-import-embedded-'));
  beforeAll(async () => {
    // PGlite's first boot (initdb, the migrations) can outlast 30 s on a loaded machine.
    proc = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { bootTimeoutMs: 80_000 });
    agent = request.agent(proc.url);
  }, 90_000);
  afterAll(async () => {
    await proc?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const register = async (name: string) => {
    const res = await agent
      .post('/v1/auth/register')
      .send({ email: uniqueEmail(name), name, password: 'correct horse battery' });
    expect(res.status).toBe(201);
    return { id: res.body.user.id as string, auth: { Authorization: `Bearer ${res.body.accessToken}` } };
  };

  it('imports the sample export for a claimed pending member as for anyone, once', async () => {
    expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    const ada = await register('Ada');
    const bob = await register('Bob');
    const groupId = (await agent.post('/v1/groups').set(ada.auth).send({ name: 'Trip' })).body.id as string;
    expect(
      (await agent.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: bob.id })).status,
    ).toBe(201);
    const added = await agent.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ name: 'Carol' });
    const code = (await agent.post(`/v1/groups/${groupId}/invites`).set(ada.auth)).body.code as string;
    const cara = await register('Cara');
    const accepted = await agent
      .post(`/v1/invites/${code}/accept`)
      .set(cara.auth)
      .send({ asMember: added.body.userId });
    expect(accepted.status).toBe(201);
    const members = { [PEOPLE[0]]: ada.id, [PEOPLE[1]]: bob.id, [PEOPLE[2]]: added.body.userId };
    const send = () =>
      agent
        .post(`/v1/groups/${groupId}/imports`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ format: 'splitwise-csv', csv: FIXTURE, members });
    expect((await send()).body).toMatchObject({ created: 7, existing: 0, refused: [] });
    expect((await send()).body).toMatchObject({ created: 0, existing: 7, refused: [] });
    // The claimed pending member's net is the account's that took over (API.md §3.3).
    const balances = await agent.get(`/v1/groups/${groupId}/balances`).set(ada.auth);
    expect(netsIn(balances.body.currencies, 'EUR')).toEqual({
      [ada.id]: FILE_TOTAL[0],
      [bob.id]: FILE_TOTAL[1],
      [cara.id]: FILE_TOTAL[2],
    });
  });
});
