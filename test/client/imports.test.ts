import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LimitExceededError, TallyClient, ValidationFailedError } from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';

const PASSWORD = 'correct horse battery';
const FIXTURE = readFileSync(path.join(__dirname, '../fixtures/splitwise-export.csv'), 'utf8');

/**
 * Imports through the SDK (API.md §6b): `tally.imports.create` and `get`, the same file twice; the
 * refused rows page by page (`allRefusals`); a file over the row bound.
 */
describe('imports through the SDK', () => {
  let t: TestServer;
  let ada: TallyClient;

  beforeAll(async () => {
    t = await startTestServer();
    ada = new TallyClient({ baseUrl: t.url, retry: { baseDelayMs: 10 } });
    await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: PASSWORD });
  });
  afterAll(async () => {
    await t.stop();
  });

  it('imports a Splitwise export, then finds every row present the second time', async () => {
    const me = await ada.auth.me();
    const group = await ada.groups.create({ name: 'Trip', currency: 'EUR' });
    const bob = await ada.groups.addMember(group.id, { name: 'Bob' });
    const carol = await ada.groups.addMember(group.id, { name: 'Carol' });
    const members = { 'Ada Lovelace': me.id, 'Bob Smith': bob.userId, 'Carol "CJ" Jones': carol.userId };

    const report = await ada.imports.create(group.id, { csv: FIXTURE, members });
    expect(report).toMatchObject({ status: 'completed', rows: 7, created: 7, existing: 0, refused: [] });
    const again = await ada.imports.create(group.id, { csv: FIXTURE, members });
    expect(again).toMatchObject({ id: report.id, created: 0, existing: 7 });
    expect(await ada.imports.get(group.id, report.id)).toEqual(again);

    const error = await ada.imports
      .create(group.id, { csv: 'Date,What\n', members })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).errors).toEqual([
      { path: 'csv', message: expect.stringMatching(/^line 1: /) },
    ]);
  });

  it('counts the refused rows, lists the first 20, and pages them all; over the row bound: LimitExceededError', async () => {
    const me = await ada.auth.me();
    const group = await ada.groups.create({ name: 'Refusals', currency: 'EUR' });
    const bob = await ada.groups.addMember(group.id, { name: 'Bob' });
    const rows = Array.from({ length: 25 }, (_, i) => `2024-01-01,Row ${i},General,10.00,EUR,5.00,-4.00`);
    const csv = `Date,Description,Category,Cost,Currency,Ada,Bob\n${rows.join('\n')}\n`;
    const members = { Ada: me.id, Bob: bob.userId };
    const report = await ada.imports.create(group.id, { csv, members });
    expect(report).toMatchObject({ status: 'completed', created: 0, refusedCount: 25 });
    expect(report.refused.map((r) => r.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    const all = [];
    for await (const refusal of ada.imports.allRefusals(group.id, report.id, { limit: 10 }))
      all.push(refusal);
    expect(all.map((r) => r.line)).toEqual(Array.from({ length: 25 }, (_, i) => i + 2));

    const tooMany = `${csv}${Array.from({ length: 10_000 }, (_, i) => `2024-01-02,More ${i},General,1.00,EUR,1.00,-1.00`).join('\n')}\n`;
    const error = await ada.imports.create(group.id, { csv: tooMany, members }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).limit).toEqual({ name: 'importRows', max: 10_000 });
  });
});
