/**
 * API.md §6b: importing a Splitwise export, against real PostgreSQL and Redis: rows, replays,
 * refusals and their pages, failures and resumes, files refused whole. The bounds, the slices an
 * import works in and the embedded database: imports-bounds.test.ts; the SIGKILL test is in
 * test/cross-process/imports.test.ts.
 */
import { fileHashOf, importIdOf } from '../../apps/api/src/imports/imports.service';
import { newKey } from '../support/test-server';
import { balancesOf, expectProblem, netsIn } from './component-helpers';
import {
  ada,
  bob,
  counts,
  eventTypes,
  FILE_TOTAL,
  FIXTURE,
  fileOf,
  goodRow,
  groupOfTwo,
  groupWithCarol,
  PEOPLE,
  type Refusal,
  refusedRow,
  t,
  upload,
  useImportsServer,
} from './imports-fixture';

describe('imports (Splitwise)', () => {
  useImportsServer();

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
