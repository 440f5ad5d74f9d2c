/**
 * Activity across a user's groups (API.md §8a): the feed's order and cursors while other clients
 * write, membership (from the join on, nothing after leaving), the read marker and `unread`.
 */
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

type Item = { id: string; groupId: string; groupName: string; seq: number; type: string; occurredAt: string };
type Page = {
  data: Item[];
  nextCursor: string | null;
  unread: number;
  unreadCapped: boolean;
  readUpTo: string | null;
};

describe('GET /v1/me/activity', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cat: TestUser;

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    cat = await t.register('Cat');
  });
  afterAll(async () => {
    await t?.stop();
  });

  const feed = async (user: TestUser, query: { limit?: number; cursor?: string } = {}): Promise<Page> => {
    const res = await t.request.get('/v1/me/activity').query(query).set(user.auth);
    expect(res.status).toBe(200);
    return res.body as Page;
  };
  /** Every item, page by page, running `between` after each page. */
  const walk = async (user: TestUser, limit: number, between: () => Promise<unknown> = async () => {}) => {
    const items: Item[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await feed(user, cursor ? { limit, cursor } : { limit });
      items.push(...page.data);
      if (!page.nextCursor) return items;
      cursor = page.nextCursor;
      await between();
    }
  };
  const spend = (user: TestUser, groupId: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        t.postOwnExpense(user, groupId, newKey(), { description: `e${i}` }).expect(201),
      ),
    );

  it('lists the events of every group the caller is in, newest first, with the group’s name', async () => {
    const trip = await t.createGroup(ada, [bob], { name: 'Trip' });
    const flat = await t.createGroup(bob, [ada], { name: 'Flat' });
    const elsewhere = await t.createGroup(cat, [], { name: 'Elsewhere' });
    await spend(ada, trip, 3);
    await spend(bob, flat, 2);
    await spend(cat, elsewhere, 2);
    const items = await walk(ada, 100);
    expect(new Set(items.map((i) => i.groupId))).toEqual(new Set([trip, flat]));
    expect(items.filter((i) => i.groupId === trip).every((i) => i.groupName === 'Trip')).toBe(true);
    expect(items.filter((i) => i.type === 'expense.created')).toHaveLength(5);
    // Newest first: occurredAt never increases down the feed; within a group, seq decreases.
    for (let i = 1; i < items.length; i++) {
      expect(items[i - 1]!.occurredAt >= items[i]!.occurredAt).toBe(true);
    }
    const tripSeqs = items.filter((i) => i.groupId === trip).map((i) => i.seq);
    expect(tripSeqs).toEqual([...tripSeqs].sort((a, b) => b - a));
    expect(items[0]).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/^evt_/),
        actorId: expect.any(String),
        data: expect.any(Object),
      }),
    );
  });

  it('shows a group from the time the caller joined it, and nothing of it once they left', async () => {
    const dee = await t.register('Dee');
    const groupId = await t.createGroup(ada, [], { name: 'Later' });
    await spend(ada, groupId, 2);
    expect(await walk(dee, 100)).toEqual([]);
    await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: dee.id }).expect(201);
    await spend(ada, groupId, 1);
    const seen = await walk(dee, 100);
    // Their own member.added, then the expense after it; nothing from before.
    expect(seen.map((i) => i.type)).toEqual(['expense.created', 'member.added']);
    await t.request.delete(`/v1/groups/${groupId}/members/${dee.id}`).set(ada.auth).expect(204);
    expect(await walk(dee, 100)).toEqual([]);
  });

  it('pages exactly while other clients write: no item twice, none skipped', async () => {
    const eve = await t.register('Eve');
    const one = await t.createGroup(eve, [bob], { name: 'One' });
    const two = await t.createGroup(bob, [eve], { name: 'Two' });
    await Promise.all([spend(eve, one, 15), spend(bob, two, 15)]);
    const before = await walk(eve, 100);
    // Pages of 4, with writes to both groups (by both members) landing between every two pages.
    let round = 0;
    const paged = await walk(eve, 4, () =>
      Promise.all([spend(bob, round % 2 ? one : two, 2), spend(eve, round++ % 2 ? two : one, 1)]),
    );
    expect(round).toBeGreaterThan(5);
    expect(new Set(paged.map((i) => i.id)).size).toBe(paged.length);
    expect(paged.map((i) => i.id)).toEqual(before.map((i) => i.id));
    // What was written meanwhile is at the top of a new first page.
    const after = await walk(eve, 100);
    expect(after.length).toBe(before.length + round * 3);
    expect(after.slice(round * 3).map((i) => i.id)).toEqual(before.map((i) => i.id));
  });

  it('answers 422 for a cursor it did not issue and a limit out of range', async () => {
    for (const query of [{ cursor: 'nope' }, { limit: 0 }, { limit: 101 }, { other: 1 }]) {
      const res = await t.request.get('/v1/me/activity').query(query).set(ada.auth);
      expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
    }
  });

  describe('the read marker', () => {
    it('counts the items newer than the marker, and only moves forward', async () => {
      const fay = await t.register('Fay');
      const groupId = await t.createGroup(fay, [], { name: 'Marks' });
      await spend(fay, groupId, 4);
      const first = await feed(fay);
      // The creator's member.added and the four expenses, all unread: no marker yet.
      expect(first).toEqual(expect.objectContaining({ unread: 5, unreadCapped: false, readUpTo: null }));
      const [newest, , third] = first.data;
      const marked = await t.request.post('/v1/me/activity/read').set(fay.auth).send({ upTo: third!.id });
      expect(marked.status).toBe(200);
      expect(marked.body).toEqual({ unread: 2, unreadCapped: false, readUpTo: third!.id });
      // Backwards: ignored.
      const back = await t.request
        .post('/v1/me/activity/read')
        .set(fay.auth)
        .send({ upTo: first.data[3]!.id });
      expect(back.body).toEqual({ unread: 2, unreadCapped: false, readUpTo: third!.id });
      await spend(fay, groupId, 1);
      expect(await feed(fay, { limit: 1 })).toEqual(
        expect.objectContaining({ unread: 3, readUpTo: third!.id }),
      );
      const top = (await feed(fay, { limit: 1 })).data[0]!;
      expect(top.id).not.toBe(newest!.id);
      const all = await t.request.post('/v1/me/activity/read').set(fay.auth).send({ upTo: top.id });
      expect(all.body).toEqual({ unread: 0, unreadCapped: false, readUpTo: top.id });
    });

    it('answers 404 for an item not in the caller’s feed and 422 for a bad body', async () => {
      const gus = await t.register('Gus');
      const theirs = await t.createGroup(cat, [], { name: 'Not Gus’s' });
      await spend(cat, theirs, 1);
      const other = (await feed(cat, { limit: 1 })).data[0]!;
      for (const upTo of [other.id, 'evt_unknown']) {
        const res = await t.request.post('/v1/me/activity/read').set(gus.auth).send({ upTo });
        expect([res.status, res.body.code]).toEqual([404, 'not_found']);
      }
      for (const body of [{}, { upTo: 7 }, { upTo: 'evt_x', more: true }]) {
        const res = await t.request.post('/v1/me/activity/read').set(gus.auth).send(body);
        expect([res.status, res.body.code]).toEqual([422, 'validation_failed']);
      }
    });

    it('caps unread at 100', async () => {
      const hal = await t.register('Hal');
      const groupId = await t.createGroup(hal, [], { name: 'Busy' });
      for (let i = 0; i < 6; i++) await spend(hal, groupId, 18);
      expect(await feed(hal, { limit: 1 })).toEqual(
        expect.objectContaining({ unread: 100, unreadCapped: true }),
      );
      const page = await feed(hal, { limit: 10 });
      const marked = await t.request
        .post('/v1/me/activity/read')
        .set(hal.auth)
        .send({ upTo: page.data[9]!.id });
      expect(marked.body).toEqual({ unread: 9, unreadCapped: false, readUpTo: page.data[9]!.id });
    });
  });
});
