/**
 * API.md §6b: importing a Splitwise export, against real PostgreSQL and Redis: rows, refusals and
 * their pages, the bounds, failures and resumes, the slices an import works in; and on the embedded
 * database, that other requests are answered while an import runs. The SIGKILL test is in
 * test/cross-process/imports.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createExpensesService } from '../../apps/api/src/expenses/expenses.service';
import { createIdMaker } from '../../apps/api/src/ids';
import {
  createImportsService,
  fileHashOf,
  importIdOf,
  REPORT_REFUSALS,
  WRITE_SLICE,
} from '../../apps/api/src/imports/imports.service';
import { checkSplitwiseFile, nextTurn, PARSE_SLICE_RECORDS } from '../../apps/api/src/imports/splitwise-csv';
import { createWriteRunner } from '../../apps/api/src/ledger/write-runner';
import { createSettlementsService } from '../../apps/api/src/settlements/settlements.service';
import { type ServerProcess, spawnServer } from '../support/server-process';
import { redisUrl } from '../support/test-database';
import { newKey, startTestServer, type TestServer, type TestUser, uniqueEmail } from '../support/test-server';
import { balancesOf, expectProblem, netsIn } from './component-helpers';

const TWO = 'Date,Description,Category,Cost,Currency,Ada,Bob';
/** A row of Ada and Bob: Ada paid 10.00 for both (`tag` makes it unique). */
const goodRow = (date: string, tag: string) => `${date},${tag},General,10.00,EUR,5.00,-5.00`;
/** A row whose nets do not add up: refused alone. */
const refusedRow = (tag: string) => `2024-01-01,${tag},General,10.00,EUR,5.00,-4.00`;
const fileOf = (rows: string[]) => `${TWO}\r\n${rows.join('\r\n')}\r\n`;
type Refusal = { line: number; reason: string };

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
    // The fingerprint holds the file by its hash: another file with the key is another request.
    const other = await upload(groupId, { format: 'splitwise-csv', csv: `${FIXTURE}\r\n`, members }, key);
    expectProblem(other, 409, 'idempotency_key_reused');
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

  /** A group of Ada and Bob, and the mapping of the `TWO` columns. */
  async function groupOfTwo() {
    const groupId = await t.createGroup(ada, [bob], { currency: 'EUR' });
    return { groupId, members: { Ada: ada.id, Bob: bob.id } };
  }

  const eventTypes = async (groupId: string) => {
    const types: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.request
        .get(`/v1/groups/${groupId}/events`)
        .query({ limit: 100, ...(cursor ? { cursor } : {}) })
        .set(ada.auth);
      types.push(...page.body.data.map((e: { type: string }) => e.type));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    const count = (type: string) => types.filter((x) => x === type).length;
    return {
      started: count('import.started'),
      completed: count('import.completed'),
      expenses: count('expense.created'),
    };
  };

  it('refuses a row dated 0000-01-01 as a row: the import completes with the rows around it (issue 30)', async () => {
    const { groupId, members } = await groupOfTwo();
    const csv = fileOf([
      goodRow('2024-01-01', 'Before'),
      goodRow('0000-01-01', 'Year zero'),
      goodRow('2024-01-02', 'After'),
    ]);
    const res = await upload(groupId, { format: 'splitwise-csv', csv, members });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'completed',
      rows: 3,
      created: 2,
      existing: 0,
      refusedCount: 1,
      refused: [{ line: 3, reason: expect.stringContaining('"0000-01-01" is not a date') }],
    });
    expect(await eventTypes(groupId)).toEqual({ started: 1, completed: 1, expenses: 2 });
    // Every retry answers the same, and writes nothing more.
    const again = await upload(groupId, { format: 'splitwise-csv', csv, members });
    expect(again.body).toMatchObject({ status: 'completed', created: 0, existing: 2, refusedCount: 1 });
    expect(await counts(groupId)).toEqual({ expenses: 2, settlements: 0, imports: 1 });
  });

  it('refuses a row whose write the database refuses, and goes on', async () => {
    const { groupId, members } = await groupOfTwo();
    const knex = t.db!.knex;
    // A value PostgreSQL refuses (a data exception, as year 0 was), for one row only.
    await knex.raw(`create function import_test_poison() returns trigger language plpgsql as $$
      begin
        if new.description = 'Poisoned' then raise exception 'out of range' using errcode = '22008'; end if;
        return new;
      end $$`);
    await knex.raw(
      'create trigger import_test_poison before insert on expenses for each row execute function import_test_poison()',
    );
    try {
      const csv = fileOf([
        goodRow('2024-01-01', 'One'),
        goodRow('2024-01-02', 'Poisoned'),
        goodRow('2024-01-03', 'Three'),
      ]);
      const res = await upload(groupId, { format: 'splitwise-csv', csv, members });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: 'completed',
        created: 2,
        refusedCount: 1,
        refused: [{ line: 3, reason: 'the row holds a value the ledger cannot store' }],
      });
    } finally {
      await knex.raw('drop trigger import_test_poison on expenses');
      await knex.raw('drop function import_test_poison()');
    }
  });

  it('ends failed on an error it cannot refuse; a retry resumes there, once, with no second import.started', async () => {
    const { groupId, members } = await groupOfTwo();
    const knex = t.db!.knex;
    const rows = Array.from({ length: 12 }, (_, i) => goodRow('2024-01-01', `Row ${i + 1}`));
    const csv = fileOf(rows);
    const importId = importIdOf(groupId, fileHashOf(csv));
    // The database goes wrong at row 7 (not a problem of the row's values: the import stops there).
    await knex.raw(`create function import_test_fail() returns trigger language plpgsql as $$
      begin
        if new.description = 'Row 7' then raise exception 'the disk is on fire'; end if;
        return new;
      end $$`);
    await knex.raw(
      'create trigger import_test_fail before insert on expenses for each row execute function import_test_fail()',
    );
    const key = newKey();
    let first: Awaited<ReturnType<typeof upload>>;
    try {
      first = await upload(groupId, { format: 'splitwise-csv', csv, members }, key);
    } finally {
      await knex.raw('drop trigger import_test_fail on expenses');
      await knex.raw('drop function import_test_fail()');
    }
    expectProblem(first, 500, 'internal_error');
    const failed = await t.request.get(`/v1/groups/${groupId}/imports/${importId}`).set(ada.auth);
    expect(failed.body).toMatchObject({ status: 'failed', created: 6, existing: 0, refusedCount: 0 });
    expect(await eventTypes(groupId)).toEqual({ started: 1, completed: 0, expenses: 6 });

    // A 500 is not recorded (API.md §7): the same key runs again, and resumes at row 7.
    const retry = await upload(groupId, { format: 'splitwise-csv', csv, members }, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({
      status: 'completed',
      rows: 12,
      created: 12,
      existing: 0,
      refusedCount: 0,
    });
    expect(await eventTypes(groupId)).toEqual({ started: 1, completed: 1, expenses: 12 });
    const ids = await knex('expenses').where({ group_id: groupId }).pluck('description');
    expect(ids.sort()).toEqual(rows.map((_, i) => `Row ${i + 1}`).sort());
  });

  describe(`the largest import allowed, ${(10_000).toLocaleString('en')} rows`, () => {
    let groupId: string;
    let members: Record<string, string>;
    let key: string;
    let first: Awaited<ReturnType<typeof upload>>;
    /** 10,000 rows, one in a hundred an expense: 100 created, 9,900 refused. */
    const csv = fileOf(
      Array.from({ length: 10_000 }, (_, i) =>
        i % 100 === 3 ? goodRow('2024-03-01', `Kept ${i}`) : refusedRow(`Refused ${i}`),
      ),
    );
    const refusedLines = Array.from({ length: 10_000 }, (_, i) => i)
      .filter((i) => i % 100 !== 3)
      .map((i) => i + 2);

    beforeAll(async () => {
      ({ groupId, members } = await groupOfTwo());
      key = newKey();
      first = await upload(groupId, { format: 'splitwise-csv', csv, members }, key);
    }, 300_000);

    it('answers counts and the first refusals: an answer of bounded size', () => {
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        status: 'completed',
        rows: 10_000,
        created: 100,
        refusedCount: 9_900,
      });
      expect(first.body.refused).toEqual(
        refusedLines
          .slice(0, REPORT_REFUSALS)
          .map((line) => ({ line, reason: expect.stringContaining('add up to') })),
      );
      expect(Buffer.byteLength(JSON.stringify(first.body))).toBeLessThan(4_000);
    });

    it('pages every refusal exactly once, by line', async () => {
      const seen: Refusal[] = [];
      let cursor: string | undefined;
      do {
        const page = await t.request
          .get(`/v1/groups/${groupId}/imports/${first.body.id}/refusals`)
          .query({ limit: 100, ...(cursor ? { cursor } : {}) })
          .set(ada.auth);
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(100);
        seen.push(...page.body.data);
        cursor = page.body.nextCursor ?? undefined;
      } while (cursor);
      expect(seen.map((r) => r.line)).toEqual(refusedLines);
      expect(seen.every((r) => /add up to 1.00, not to 0/.test(r.reason))).toBe(true);
    });

    it('replays the same key as a lookup: the same small answer, nothing run again', async () => {
      const before = await eventTypes(groupId);
      const replay = await upload(groupId, { format: 'splitwise-csv', csv, members }, key);
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(await eventTypes(groupId)).toEqual(before);
      const report = await t.request.get(`/v1/groups/${groupId}/imports/${first.body.id}`).set(ada.auth);
      expect(report.body.updatedAt).toBe(first.body.updatedAt);
    });

    it('refuses a row more, whole, naming the bound: nothing written', async () => {
      const other = await groupOfTwo();
      const res = await upload(other.groupId, {
        format: 'splitwise-csv',
        csv: `${csv}${refusedRow('One too many')}\r\n`,
        members: other.members,
      });
      expectProblem(res, 422, 'limit_exceeded');
      expect(res.body.limit).toEqual({ name: 'importRows', max: 10_000 });
      expect(await counts(other.groupId)).toEqual({ expenses: 0, settlements: 0, imports: 0 });
    });
  });

  it('pages refusals with any limit; a forged cursor is 422, a non-member 404', async () => {
    const { groupId, members } = await groupOfTwo();
    const csv = fileOf(Array.from({ length: 45 }, (_, i) => refusedRow(`R${i}`)));
    const res = await upload(groupId, { format: 'splitwise-csv', csv, members });
    expect(res.body).toMatchObject({ refusedCount: 45 });
    const path = `/v1/groups/${groupId}/imports/${res.body.id}/refusals`;
    const lines: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.request
        .get(path)
        .query({ limit: 7, ...(cursor ? { cursor } : {}) })
        .set(ada.auth);
      lines.push(...page.body.data.map((r: Refusal) => r.line));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(lines).toEqual(Array.from({ length: 45 }, (_, i) => i + 2));
    const forged = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
    for (const cursor of ['not-ours', forged([2 ** 40]), forged([-1]), forged(['2']), forged([1.5])]) {
      expectProblem(await t.request.get(path).query({ cursor }).set(ada.auth), 422, 'validation_failed');
    }
    const stranger = await t.register('Stranger');
    expectProblem(await t.request.get(path).set(stranger.auth), 404, 'not_found');
  });

  it('refuses a file over 200 person columns, and a body over IMPORT_MAX_BYTES', async () => {
    const { groupId, members } = await groupOfTwo();
    const people = Array.from({ length: 201 }, (_, i) => `P${i}`);
    const wide = `Date,Description,Category,Cost,Currency,${people.join(',')}\r\n2024-01-01,X,General,10.00,EUR,5.00,-5.00${',0'.repeat(199)}\r\n`;
    const tooWide = await upload(groupId, { format: 'splitwise-csv', csv: wide, members });
    expectProblem(tooWide, 422, 'limit_exceeded');
    expect(tooWide.body.limit).toEqual({ name: 'importPeople', max: 200 });
    // 5 MiB by default.
    const big = `${fileOf([goodRow('2024-01-01', 'x')])}${' '.repeat(5 * 1024 * 1024)}`;
    expectProblem(
      await upload(groupId, { format: 'splitwise-csv', csv: big, members }),
      413,
      'payload_too_large',
    );
    expect(await counts(groupId)).toEqual({ expenses: 0, settlements: 0, imports: 0 });
  });

  it(`works in slices: at most ${WRITE_SLICE} rows between two turns of the event loop, each new row one`, async () => {
    const { groupId, members } = await groupOfTwo();
    const knex = t.db!.knex;
    const newId = createIdMaker();
    const expenses = createExpensesService({ knex, newId });
    // 250 rows: every fifth one an expense (50 new rows), the others refused.
    const csv = fileOf(
      Array.from({ length: 250 }, (_, i) =>
        i % 5 === 0 ? goodRow('2024-01-01', `S${i}`) : refusedRow(`S${i}`),
      ),
    );
    const importId = importIdOf(groupId, fileHashOf(csv));
    // At each turn: the rows the import has dealt with, as its row says; and whether a request made
    // at the first turn has been answered.
    const done: number[] = [];
    let asked: Promise<unknown> | undefined;
    let answeredAt: number | undefined;
    const pause = async () => {
      const [row] = await knex('imports')
        .where({ id: importId })
        .select('created', 'existing', 'refused_count');
      done.push(row ? row.created + row.existing + row.refused_count : 0);
      asked ??= t.request
        .get('/v1/me')
        .set(ada.auth)
        .then((res) => {
          expect(res.status).toBe(200);
          answeredAt = done.length;
        });
      await nextTurn();
    };
    const imports = createImportsService({
      knex,
      writes: createWriteRunner({ knex, newId, statementPrefix: 'import_slices' }),
      expenses,
      settlements: createSettlementsService({ knex, newId }),
      pause,
    });
    const file = await checkSplitwiseFile(csv, { maxRows: 10_000 });
    const reply = await imports.run(
      ada.id,
      {
        groupId,
        format: 'splitwise-csv',
        csv,
        members,
        file,
        fileHash: fileHashOf(csv),
      },
      () => {},
    );
    expect(reply.body).toMatchObject({ status: 'completed', created: 50, refusedCount: 200 });
    // A turn after each new row, after each slice of rows written, after each slice of records read.
    expect(done.length).toBe(50 + Math.ceil(250 / WRITE_SLICE) + Math.floor(250 / PARSE_SLICE_RECORDS));
    const steps = done.map((n, i) => n - (done[i - 1] ?? 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(WRITE_SLICE);
    expect(done[done.length - 1]).toBe(250);
    // The request made at the first turn was answered while the import still ran.
    await asked;
    expect(answeredAt).toBeLessThan(done.length);
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

  it('answers other requests while an import runs: its own report, mid-way (issue 30)', async () => {
    // On PGlite a query never hands the event loop back by itself: only the import's slices do.
    const ada = await register('Ada');
    const bob = await register('Bob');
    const groupId = (await agent.post('/v1/groups').set(ada.auth).send({ name: 'Big' })).body.id as string;
    await agent.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: bob.id });
    const rows = 5_000;
    const csv = fileOf(Array.from({ length: rows }, (_, i) => refusedRow(`Row ${i}`)));
    const importId = importIdOf(groupId, fileHashOf(csv));
    let finished = false;
    const posted = agent
      .post(`/v1/groups/${groupId}/imports`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ format: 'splitwise-csv', csv, members: { Ada: ada.id, Bob: bob.id } })
      .then((res) => {
        finished = true;
        return res;
      });
    const midway: number[] = [];
    while (!finished) {
      const report = await agent.get(`/v1/groups/${groupId}/imports/${importId}`).set(ada.auth);
      if (report.status === 200 && report.body.status === 'running') midway.push(report.body.refusedCount);
    }
    expect((await posted).body).toMatchObject({ status: 'completed', refusedCount: rows });
    // Reports read while the import ran, with part of its rows done.
    expect(midway.some((done) => done > 0 && done < rows)).toBe(true);
  });
});
