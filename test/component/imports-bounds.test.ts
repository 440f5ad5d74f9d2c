/**
 * API.md §6b: the bounds of a Splitwise import (the largest allowed, person columns, body size),
 * the slices it works in, and on the embedded database that other requests are answered while an
 * import runs.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
import { newKey, uniqueEmail } from '../support/test-server';
import { expectProblem, netsIn } from './component-helpers';
import {
  ada,
  counts,
  eventTypes,
  FILE_TOTAL,
  FIXTURE,
  fileOf,
  goodRow,
  groupOfTwo,
  PEOPLE,
  type Refusal,
  refusedRow,
  t,
  upload,
  useImportsServer,
} from './imports-fixture';

describe('imports (Splitwise)', () => {
  useImportsServer();

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
