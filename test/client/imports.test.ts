import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TallyClient, ValidationFailedError } from '../../packages/client/src';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';

const PASSWORD = 'correct horse battery';
const FIXTURE = readFileSync(path.join(__dirname, '../fixtures/splitwise-export.csv'), 'utf8');

/** Imports through the SDK (API.md §6b): `tally.imports.create` and `get`, the same file twice. */
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
});
