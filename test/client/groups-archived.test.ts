/**
 * `GET /v1/groups?archived=` (API.md §3): the archived groups only, the others only, or all of them,
 * through the SDK (`groups.list({archived})`, `listAll`) and over HTTP (a bad value is `422`).
 */
import type { TallyClient } from '@tally/client';
import { startTestServer, type TestServer, uniqueEmail } from '../support/test-server';
import { PASSWORD, quickClient } from './sdk-setup';

describe('listing groups by archived', () => {
  let t: TestServer;
  let ada: TallyClient;
  let token: string;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    ada = quickClient(t.url);
    const session = await ada.auth.register({ email: uniqueEmail('ada'), name: 'Ada', password: PASSWORD });
    token = session.accessToken;
    for (const name of ['One', 'Two', 'Three']) ids.push((await ada.groups.create({ name })).id);
    const archived = await t.request
      .post(`/v1/groups/${ids[1]}/archive`)
      .set({ Authorization: `Bearer ${token}` });
    expect(archived.status).toBe(200);
  });
  afterAll(() => t.stop());

  const idsOf = (page: { data: { id: string }[] }) => page.data.map((g) => g.id);

  it('keeps the archived groups only, or the others only, or all when not asked', async () => {
    const [one, two, three] = ids;
    expect(idsOf(await ada.groups.list({ archived: true }))).toEqual([two]);
    expect(idsOf(await ada.groups.list({ archived: false }))).toEqual([three, one]);
    expect(idsOf(await ada.groups.list())).toEqual([three, two, one]);
  });

  it('pages through a filtered list with its cursor', async () => {
    const first = await ada.groups.list({ archived: false, limit: 1 });
    expect(idsOf(first)).toEqual([ids[2]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const next = await ada.groups.list({ archived: false, limit: 1, cursor: first.nextCursor as string });
    expect(idsOf(next)).toEqual([ids[0]]);
    expect(next.nextCursor).toBeNull();
    const all: string[] = [];
    for await (const g of ada.groups.listAll({ archived: false, limit: 1 })) all.push(g.id);
    expect(all).toEqual([ids[2], ids[0]]);
  });

  it('refuses a value that is not a boolean with 422 validation_failed at archived', async () => {
    const res = await t.request.get('/v1/groups?archived=maybe').set({ Authorization: `Bearer ${token}` });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['archived']);
  });
});
