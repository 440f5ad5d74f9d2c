/**
 * API.md §14: categories (the defaults and a group's own: CRUD, merge, validation, who may) and
 * statistics against a hand-computed fixture in two currencies, with from/to bounds and conversion.
 */

import fc from 'fast-check';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectProblem, expectValidationFailed, postExpense, postSettlement } from './component-helpers';

describe('categories and statistics', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cara: TestUser;
  let eve: TestUser;

  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    bob = await t.register('Bob');
    cara = await t.register('Cara');
    eve = await t.register('Eve');
  });
  afterAll(async () => {
    await t.stop();
  });

  const base = (groupId: string) => `/v1/groups/${groupId}/categories`;
  const create = (user: TestUser, groupId: string, body: unknown, key = newKey()) =>
    t.request
      .post(base(groupId))
      .set(user.auth)
      .set('Idempotency-Key', key)
      .send(body as object);
  const patch = (user: TestUser, groupId: string, id: string, body: unknown) =>
    t.request
      .patch(`${base(groupId)}/${id}`)
      .set(user.auth)
      .set('Idempotency-Key', newKey())
      .send(body as object);
  const merge = (user: TestUser, groupId: string, id: string, into: string) =>
    t.request
      .post(`${base(groupId)}/${id}/merge`)
      .set(user.auth)
      .set('Idempotency-Key', newKey())
      .send({ into });
  const remove = (user: TestUser, groupId: string, id: string) =>
    t.request
      .delete(`${base(groupId)}/${id}`)
      .set(user.auth)
      .set('Idempotency-Key', newKey());
  const list = async (user: TestUser, groupId: string) => {
    const res = await t.request.get(base(groupId)).set(user.auth);
    expect(res.status).toBe(200);
    return res.body.data as { id: string; name: string; default: boolean }[];
  };
  const eventsOf = async (groupId: string) =>
    (await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(ada.auth)).body.data as {
      type: string;
      data: Record<string, unknown>;
    }[];

  it('lists the defaults, creates, renames and deletes the group’s own, each a keyed write with its event', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const before = await list(bob, groupId);
    expect(before.map((c) => c.id)).toEqual([
      'food',
      'groceries',
      'transport',
      'travel',
      'home',
      'utilities',
      'entertainment',
      'health',
      'shopping',
      'other',
    ]);
    const key = newKey();
    const created = await create(ada, groupId, { name: 'Bouldering', icon: '🧗', color: '#112233' }, key);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^cat_/),
      groupId,
      name: 'Bouldering',
      icon: '🧗',
      color: '#112233',
      default: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(created.headers.location).toBe(`${base(groupId)}/${created.body.id}`);
    expect(created.headers['x-seq']).toMatch(new RegExp(`^${groupId}:\\d+$`));
    // A retry with the same key is the same category, not a second one.
    const retried = await create(ada, groupId, { name: 'Bouldering', icon: '🧗', color: '#112233' }, key);
    expect(retried.body).toEqual(created.body);
    expect((await list(bob, groupId)).filter((c) => !c.default)).toHaveLength(1);

    const expense = await postExpense(t, bob, groupId, bob, 900, [ada, bob], { categoryId: created.body.id });
    expect(expense.status).toBe(201);
    expect(expense.body.categoryId).toBe(created.body.id);

    const renamed = await patch(bob, groupId, created.body.id, { name: 'Climbing', color: null });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: created.body.id, name: 'Climbing', icon: '🧗', color: null });
    // The expense refers by id: the new name is what its category reads as, and the expense did not change.
    const read = await t.request.get(`/v1/expenses/${expense.body.id}`).set(ada.auth);
    expect(read.body).toMatchObject({ categoryId: created.body.id, version: 1 });
    expect((await list(ada, groupId)).find((c) => c.id === created.body.id)?.name).toBe('Climbing');
    // The filter finds it by id.
    const filtered = await t.request
      .get(`/v1/groups/${groupId}/expenses`)
      .query({ categoryId: created.body.id })
      .set(ada.auth);
    expect(filtered.body.data.map((e: { id: string }) => e.id)).toEqual([expense.body.id]);

    expect((await remove(ada, groupId, created.body.id)).status).toBe(204);
    expectProblem(await remove(ada, groupId, created.body.id), 404, 'not_found');
    const after = await t.request.get(`/v1/expenses/${expense.body.id}`).set(ada.auth);
    expect(after.body).toMatchObject({ categoryId: null, version: 2 });
    expect((await list(ada, groupId)).some((c) => c.id === created.body.id)).toBe(false);

    const types = (await eventsOf(groupId)).map((e) => e.type).filter((type) => type.startsWith('category.'));
    expect(types).toEqual(['category.created', 'category.updated', 'category.deleted']);
    const deleted = (await eventsOf(groupId)).find((e) => e.type === 'category.deleted');
    expect(deleted?.data).toMatchObject({ uncategorized: 1 });
  });

  it('merges a category into another: every live expense moves in one write, versions bumped, the source gone', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const a = (await create(ada, groupId, { name: 'Pizza' })).body;
    const b = (await create(ada, groupId, { name: 'Takeaway' })).body;
    const inA = await Promise.all(
      [100, 200, 300].map((amount) =>
        postExpense(t, ada, groupId, ada, amount, [ada, bob], { categoryId: a.id }),
      ),
    );
    const inB = await postExpense(t, ada, groupId, ada, 400, [ada], { categoryId: b.id });
    const gone = await postExpense(t, ada, groupId, ada, 500, [ada], { categoryId: a.id });
    await t.request.delete(`/v1/expenses/${gone.body.id}`).set(ada.auth).set('Idempotency-Key', newKey());

    expectProblem(await merge(ada, groupId, a.id, 'cat_00000000000000000000000000'), 422, 'unknown_category');
    expectValidationFailed(await merge(ada, groupId, a.id, a.id), 'into');
    expectProblem(await merge(ada, groupId, 'food', 'other'), 404, 'not_found');

    const merged = await merge(bob, groupId, a.id, b.id);
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ category: b, moved: 3 });
    for (const e of inA) {
      const now = (await t.request.get(`/v1/expenses/${e.body.id}`).set(ada.auth)).body;
      expect(now).toMatchObject({ categoryId: b.id, version: 2 });
    }
    expect((await t.request.get(`/v1/expenses/${inB.body.id}`).set(ada.auth)).body.version).toBe(1);
    expect((await list(ada, groupId)).some((c) => c.id === a.id)).toBe(false);
    const event = (await eventsOf(groupId)).find((e) => e.type === 'category.merged');
    expect(event?.data).toMatchObject({ category: { id: a.id }, into: { id: b.id }, moved: 3 });
    // A default can be a target too; the merged-away category is unknown from now on.
    const c = (await create(ada, groupId, { name: 'Snacks' })).body;
    expect((await merge(ada, groupId, c.id, 'food')).body).toMatchObject({
      category: { id: 'food' },
      moved: 0,
    });
    expectProblem(
      await postExpense(t, ada, groupId, ada, 100, [ada], { categoryId: a.id }),
      422,
      'unknown_category',
    );
  });

  it('refuses bad input with problem details and writes nothing', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    expectValidationFailed(await create(ada, groupId, { name: '' }), 'name');
    expectValidationFailed(await create(ada, groupId, { name: 'x'.repeat(41) }), 'name');
    expectValidationFailed(await create(ada, groupId, { name: 'Ok', color: 'red' }), 'color');
    expectValidationFailed(await create(ada, groupId, { name: 'Ok', icon: 'x'.repeat(17) }), 'icon');
    expectValidationFailed(await create(ada, groupId, { name: 'Ok', extra: 1 }), 'extra');
    expectProblem(await create(ada, groupId, { name: 'groceries' }), 409, 'category_name_taken');
    const own = (await create(ada, groupId, { name: 'Pets' })).body;
    expectProblem(await create(ada, groupId, { name: 'PETS' }), 409, 'category_name_taken');
    expectProblem(await patch(ada, groupId, 'food', { name: 'Eating' }), 404, 'not_found');
    expectValidationFailed(await patch(ada, groupId, own.id, {}));
    expectProblem(
      await postExpense(t, ada, groupId, ada, 100, [ada], { categoryId: 'cat_00000000000000000000000000' }),
      422,
      'unknown_category',
    );
    expectValidationFailed(
      await postExpense(t, ada, groupId, ada, 100, [ada], { categoryId: 'Food!' }),
      'categoryId',
    );
    expectValidationFailed(
      await t.request.get(`/v1/groups/${groupId}/stats`).query({ by: 'day' }).set(ada.auth),
      'by',
    );
    expectValidationFailed(
      await t.request.get(`/v1/groups/${groupId}/stats`).query({ from: 'yesterday' }).set(ada.auth),
      'from',
    );
    // Another group's own category is unknown here.
    const other = await t.createGroup(bob, []);
    const theirs = (await create(bob, other, { name: 'Theirs' })).body;
    expectProblem(
      await postExpense(t, ada, groupId, ada, 100, [ada], { categoryId: theirs.id }),
      422,
      'unknown_category',
    );
    expect((await list(ada, groupId)).filter((c) => !c.default).map((c) => c.name)).toEqual(['Pets']);
  });

  it('answers a non-member 404 on every category route and on the group’s stats', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    const own = (await create(ada, groupId, { name: 'Secret' })).body;
    expectProblem(await t.request.get(base(groupId)).set(eve.auth), 404, 'not_found');
    expectProblem(await create(eve, groupId, { name: 'Mine' }), 404, 'not_found');
    expectProblem(await patch(eve, groupId, own.id, { name: 'Mine' }), 404, 'not_found');
    expectProblem(await merge(eve, groupId, own.id, 'food'), 404, 'not_found');
    expectProblem(await remove(eve, groupId, own.id), 404, 'not_found');
    expectProblem(await t.request.get(`/v1/groups/${groupId}/stats`).set(eve.auth), 404, 'not_found');
    expect((await list(ada, groupId)).find((c) => c.id === own.id)?.name).toBe('Secret');
    // Eve's own statistics do not include a group she is not in.
    const mine = await t.request.get('/v1/me/stats').set(eve.auth);
    expect(mine.status).toBe(200);
    expect(mine.body.currencies).toEqual([]);
  });

  describe('statistics of a hand-computed fixture', () => {
    let groupId: string;
    let own: string;

    beforeAll(async () => {
      groupId = await t.createGroup(ada, [bob, cara], { currency: 'EUR' });
      own = (await create(ada, groupId, { name: 'Bouldering' })).body.id;
      const at = (day: string) => ({ occurredAt: `${day}T12:00:00Z` });
      const ok = async (res: Promise<{ status: number }>) => expect((await res).status).toBe(201);
      await ok(
        postExpense(t, ada, groupId, ada, 900, [ada, bob, cara], { categoryId: 'food', ...at('2026-01-10') }),
      );
      await ok(
        postExpense(t, bob, groupId, bob, 1000, [ada, bob], { categoryId: 'transport', ...at('2026-01-20') }),
      );
      await ok(
        postExpense(t, cara, groupId, cara, 700, [ada, bob, cara], {
          categoryId: own,
          currency: 'USD',
          ...at('2026-02-05'),
        }),
      );
      await ok(postExpense(t, ada, groupId, ada, 100, [ada], at('2026-02-15')));
      // Settlements are not spending; deleted expenses are not either.
      await ok(postSettlement(t, bob, groupId, bob, ada, 300));
      const gone = await postExpense(t, ada, groupId, ada, 5000, [ada], {
        categoryId: 'food',
        ...at('2026-01-11'),
      });
      await t.request.delete(`/v1/expenses/${gone.body.id}`).set(ada.auth).set('Idempotency-Key', newKey());
    });

    const stats = async (query: Record<string, string>) => {
      const res = await t.request.get(`/v1/groups/${groupId}/stats`).query(query).set(bob.auth);
      expect(res.status).toBe(200);
      return res.body;
    };
    const m = (user: TestUser, share: number, paid: number) => ({ userId: user.id, share, paid });
    const sorted = <T extends { userId: string }>(list: T[]) =>
      [...list].sort((a, b) => (a.userId < b.userId ? -1 : 1));

    it('by category: totals, each member’s share and payments, per currency', async () => {
      const body = await stats({ by: 'category' });
      expect(body).toMatchObject({
        groupId,
        by: 'category',
        from: null,
        to: null,
        converted: null,
        unconverted: [],
      });
      const [eur, usd] = body.currencies;
      expect(eur).toEqual({
        currency: 'EUR',
        total: 2000,
        expenses: 3,
        members: sorted([m(ada, 900, 1000), m(bob, 800, 1000), m(cara, 300, 0)]),
        buckets: [
          {
            key: 'food',
            total: 900,
            expenses: 1,
            members: sorted([m(ada, 300, 900), m(bob, 300, 0), m(cara, 300, 0)]),
          },
          {
            key: 'transport',
            total: 1000,
            expenses: 1,
            members: sorted([m(ada, 500, 0), m(bob, 500, 1000)]),
          },
          { key: null, total: 100, expenses: 1, members: [m(ada, 100, 100)] },
        ],
      });
      expect(usd).toEqual({
        currency: 'USD',
        total: 700,
        expenses: 1,
        members: sorted([m(ada, 234, 0), m(bob, 233, 0), m(cara, 233, 700)]),
        buckets: [
          {
            key: own,
            total: 700,
            expenses: 1,
            members: sorted([m(ada, 234, 0), m(bob, 233, 0), m(cara, 233, 700)]),
          },
        ],
      });
    });

    it('by month and by member', async () => {
      const months = await stats({ by: 'month' });
      expect(
        months.currencies.map((c: { buckets: { key: string; total: number }[] }) =>
          c.buckets.map((b) => [b.key, b.total]),
        ),
      ).toEqual([
        [
          ['2026-01', 1900],
          ['2026-02', 100],
        ],
        [['2026-02', 700]],
      ]);
      const members = await stats({ by: 'member' });
      const eur = members.currencies[0];
      expect(eur.total).toBe(2000);
      expect(eur.expenses).toBe(3);
      expect(eur.buckets.map((b: { key: string; total: number }) => [b.key, b.total])).toEqual(
        [
          [ada.id, 900],
          [bob.id, 800],
          [cara.id, 300],
        ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
      );
    });

    it('counts from ≤ occurredAt < to', async () => {
      const body = await stats({ from: '2026-01-20T12:00:00Z', to: '2026-02-15T12:00:00Z' });
      expect(body.from).toBe('2026-01-20T12:00:00.000Z');
      expect(body.currencies.map((c: { currency: string; total: number }) => [c.currency, c.total])).toEqual([
        ['EUR', 1000],
        ['USD', 700],
      ]);
      const empty = await stats({ from: '2030-01-01T00:00:00Z' });
      expect(empty.currencies).toEqual([]);
    });

    it('converts with the group’s rates, and says which currencies it could not', async () => {
      const none = await stats({ currency: 'EUR' });
      expect(none.converted).toBeNull();
      expect(none.unconverted).toEqual(['USD']);
      const rates = await t.request
        .put(`/v1/groups/${groupId}/rates`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ base: 'EUR', rates: { USD: '2' }, asOf: '2026-02-01' });
      expect(rates.status).toBe(200);
      const body = await stats({ currency: 'EUR', by: 'category' });
      expect(body.unconverted).toEqual([]);
      expect(body.converted).toMatchObject({
        currency: 'EUR',
        total: 2350,
        buckets: [
          { key: 'food', total: 900 },
          { key: 'transport', total: 1000 },
          { key: own, total: 350 },
          { key: null, total: 100 },
        ].sort((a, b) => (a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1)),
      });
      const converted = body.converted.members as { userId: string; share: number; paid: number }[];
      expect(converted.find((x) => x.userId === ada.id)).toEqual(m(ada, 900 + 117, 1000));
      expect(converted.reduce((s, x) => s + x.share, 0)).toBe(2350);
    });

    it('my statistics: my share and payments across my groups', async () => {
      const res = await t.request.get('/v1/me/stats').query({ by: 'category' }).set(ada.auth);
      expect(res.status).toBe(200);
      const eur = res.body.currencies.find((c: { currency: string }) => c.currency === 'EUR');
      const usd = res.body.currencies.find((c: { currency: string }) => c.currency === 'USD');
      // Ada is in other groups of this file too: the fixture's group alone, by group.
      const byGroup = await t.request.get('/v1/me/stats').query({ by: 'group' }).set(ada.auth);
      const here = byGroup.body.currencies.map(
        (c: { currency: string; buckets: { key: string; share: number; paid: number }[] }) => [
          c.currency,
          c.buckets.find((b) => b.key === groupId),
        ],
      );
      expect(here).toEqual(
        expect.arrayContaining([
          ['EUR', { key: groupId, share: 900, paid: 1000, expenses: 3 }],
          ['USD', { key: groupId, share: 234, paid: 0, expenses: 1 }],
        ]),
      );
      expect(eur.share).toBeGreaterThanOrEqual(900);
      expect(usd.share).toBe(234);
    });
  });

  it('the Splitwise import maps its category names, creating the group’s own once; the CSV names them', async () => {
    const groupId = await t.createGroup(ada, [bob], { currency: 'EUR' });
    const existing = (await create(ada, groupId, { name: 'Bouldering' })).body.id;
    const rows = [
      '2024-01-01,Pizza,Dining out,10.00,EUR,5.00,-5.00',
      '2024-01-02,Bus,Bus/train,10.00,EUR,5.00,-5.00',
      '2024-01-03,Gym,Bouldering,10.00,EUR,5.00,-5.00',
      '2024-01-04,Kayak,Kayaking,10.00,EUR,5.00,-5.00',
      '2024-01-05,Kayak again,kayaking,10.00,EUR,5.00,-5.00',
    ];
    const csv = `Date,Description,Category,Cost,Currency,Ada,Bob\r\n${rows.join('\r\n')}\r\n`;
    const res = await t.request
      .post(`/v1/groups/${groupId}/imports`)
      .set(ada.auth)
      .set('Idempotency-Key', newKey())
      .send({ format: 'splitwise-csv', csv, members: { Ada: ada.id, Bob: bob.id } });
    expect(res.status).toBe(201);
    const kayaking = (await list(ada, groupId)).find((c) => c.name === 'Kayaking');
    expect(kayaking).toBeDefined();
    expect(res.body.categories).toEqual([
      { name: 'Dining out', categoryId: 'food', created: false },
      { name: 'Bus/train', categoryId: 'transport', created: false },
      { name: 'Bouldering', categoryId: existing, created: false },
      { name: 'Kayaking', categoryId: kayaking?.id, created: true },
    ]);
    const listed = await t.request.get(`/v1/groups/${groupId}/expenses?limit=10`).set(ada.auth);
    const byDescription = Object.fromEntries(
      listed.body.data.map((e: { description: string; categoryId: string | null }) => [
        e.description,
        e.categoryId,
      ]),
    );
    expect(byDescription).toEqual({
      Pizza: 'food',
      Bus: 'transport',
      Gym: existing,
      Kayak: kayaking?.id,
      'Kayak again': kayaking?.id,
    });
    const report = await t.request.get(`/v1/groups/${groupId}/imports/${res.body.id}`).set(ada.auth);
    expect(report.body.categories).toEqual(res.body.categories);
    // The CSV's Category column names the category (a default's name, the group's own name).
    await patch(ada, groupId, existing, { name: 'Climbing' });
    const exported = await t.request.get(`/v1/groups/${groupId}/export.csv`).set(ada.auth);
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(',Pizza,Food & drink,');
    expect(exported.text).toContain(',Gym,Climbing,');
    expect(exported.text).toContain(',Kayak,Kayaking,');
  });

  it('the group total is the sum of the live amounts, for any expenses (property)', async () => {
    const groupId = await t.createGroup(ada, [bob]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 100000 }), { minLength: 1, maxLength: 5 }),
        async (amounts) => {
          const before = (await stats(groupId)).total as number;
          for (const amount of amounts) await postExpense(t, ada, groupId, ada, amount, [ada, bob]);
          const after = await stats(groupId);
          expect(after.total - before).toBe(amounts.reduce((s, a) => s + a, 0));
          expect(after.members.reduce((s: number, x: { share: number }) => s + x.share, 0)).toBe(after.total);
        },
      ),
      { numRuns: 8 },
    );
    async function stats(id: string) {
      const res = await t.request.get(`/v1/groups/${id}/stats`).set(ada.auth);
      return res.body.currencies[0] ?? { total: 0, members: [] };
    }
  });
});
