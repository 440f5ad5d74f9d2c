/**
 * API.md §5.1: the expense list's search and filters equal a brute-force filter of the same data.
 *
 * fast-check makes a group with random expenses (descriptions and categories with accents, case,
 * compatibility forms and `like` wildcards; random payers, splits, dates with ties; some edited,
 * some deleted), then random filter combinations; each is listed through the API with a random page
 * size, every page followed with its cursor, and the union must equal, in order, the filter applied
 * in JavaScript to the rows read straight from the database (their own columns: description,
 * category, paid_by, split, occurred_at, updated_at, deleted_at; never the search columns).
 */
import { normalizeSearchText, searchWordsOf } from '@tally/domain';
import fc from 'fast-check';
import { testSeed, withSeed } from '../support/random';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

const WORDS = [
  'Café',
  'cafe',
  'CRÈME',
  'brûlée',
  'Dîner',
  'taxi',
  'ﬁsh',
  'Pizza',
  '50%_off',
  'a\\b',
  'İstanbul',
];
const CATEGORIES = [null, 'Food', 'Travel', 'café', 'FOOD'];
const TIMES = ['2026-01-01T10:00:00.000Z', '2026-01-02T10:00:00.000Z', '2026-01-03T10:00:00.000Z'];
const QUERY_WORDS = [
  'caf',
  'CAFÉ',
  'eme',
  'brulee',
  'diner',
  'fish',
  'fi',
  'zz',
  '%',
  '_',
  '\\',
  'istan',
  'nope',
  'o',
];

type Spec = {
  description: string[];
  category: string | null;
  payer: number;
  between: number[];
  at: number;
  edit: { description: string[] } | null;
  deleted: boolean;
};
type Filter = {
  q?: string;
  category?: string;
  paidBy?: number;
  involves?: number;
  from?: number;
  to?: number;
  updatedAfterIndex?: number;
  includeDeleted?: boolean;
  limit: number;
};

const specArb: fc.Arbitrary<Spec> = fc.record({
  description: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  category: fc.constantFrom(...CATEGORIES),
  payer: fc.integer({ min: 0, max: 3 }),
  between: fc.shuffledSubarray([0, 1, 2, 3], { minLength: 1 }),
  at: fc.integer({ min: 0, max: TIMES.length - 1 }),
  edit: fc.option(
    fc.record({ description: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }) }),
    {
      nil: null,
    },
  ),
  deleted: fc.boolean(),
});
const filterArb: fc.Arbitrary<Filter> = fc.record(
  {
    q: fc.array(fc.constantFrom(...QUERY_WORDS, ' '), { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')),
    category: fc.constantFrom('Food', 'café', 'Travel', 'FOOD'),
    paidBy: fc.integer({ min: 0, max: 3 }),
    involves: fc.integer({ min: 0, max: 3 }),
    from: fc.integer({ min: 0, max: TIMES.length - 1 }),
    to: fc.integer({ min: 0, max: TIMES.length - 1 }),
    updatedAfterIndex: fc.integer({ min: 0, max: 30 }),
    includeDeleted: fc.boolean(),
    limit: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: ['limit'] },
);

type Row = {
  id: string;
  description: string;
  category: string | null;
  paid_by: { userId: string }[];
  split: { type: string; between: (string | { userId: string })[] };
  occurred_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
};

describe('the expense list with filters equals a brute-force filter of the same rows', () => {
  let t: TestServer;
  let users: TestUser[];

  beforeAll(async () => {
    t = await startTestServer();
    users = [];
    for (const name of ['Owner', 'Bea', 'Cal', 'Dee']) users.push(await t.register(name));
  });
  afterAll(async () => {
    await t.stop();
  });

  async function write(req: ReturnType<TestServer['request']['post']>, expected: number) {
    const res = await req;
    if (res.status !== expected) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }

  async function seedGroup(groupId: string, specs: Spec[]) {
    const owner = users[0] as TestUser;
    for (const spec of specs) {
      const created = await write(
        t.request
          .post('/v1/expenses')
          .set(owner.auth)
          .set('Idempotency-Key', newKey())
          .send({
            groupId,
            description: spec.description.join(' '),
            category: spec.category,
            amount: 1200,
            paidBy: (users[spec.payer] as TestUser).id,
            occurredAt: TIMES[spec.at],
            split: { type: 'equal', between: spec.between.map((i) => (users[i] as TestUser).id) },
          }),
        201,
      );
      const id: string = created.body.id;
      if (spec.edit) {
        await write(
          t.request
            .patch(`/v1/expenses/${id}`)
            .set(owner.auth)
            .set('Idempotency-Key', newKey())
            .send({ description: spec.edit.description.join(' ') }),
          200,
        );
      }
      if (spec.deleted) {
        await write(
          t.request.delete(`/v1/expenses/${id}`).set(owner.auth).set('Idempotency-Key', newKey()),
          204,
        );
      }
    }
  }

  /** The filter in JavaScript over the rows' own columns, in the list's order. */
  function bruteForce(rows: Row[], f: Filter, updatedAfter: Date | undefined): string[] {
    const ids = (i: number | undefined) => (i === undefined ? undefined : (users[i] as TestUser).id);
    const words = f.q === undefined ? [] : searchWordsOf(f.q);
    const kept = rows.filter((r) => {
      const payers = r.paid_by.map((p) => p.userId);
      const split = r.split.between.map((b) => (typeof b === 'string' ? b : b.userId));
      const text = [normalizeSearchText(r.description), normalizeSearchText(r.category ?? '')];
      return (
        (f.includeDeleted || r.deleted_at === null) &&
        words.every((w) => text.some((part) => part.includes(w))) &&
        (f.category === undefined || r.category === f.category) &&
        (f.paidBy === undefined || payers.includes(ids(f.paidBy) as string)) &&
        (f.involves === undefined || [...payers, ...split].includes(ids(f.involves) as string)) &&
        (f.from === undefined || r.occurred_at.getTime() >= Date.parse(TIMES[f.from] as string)) &&
        (f.to === undefined || r.occurred_at.getTime() < Date.parse(TIMES[f.to] as string)) &&
        (updatedAfter === undefined || r.updated_at.getTime() > updatedAfter.getTime())
      );
    });
    const byId = (a: Row, b: Row) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    if (updatedAfter !== undefined) {
      return kept
        .sort((a, b) => a.updated_at.getTime() - b.updated_at.getTime() || byId(a, b))
        .map((r) => r.id);
    }
    return kept
      .sort((a, b) => b.occurred_at.getTime() - a.occurred_at.getTime() || byId(b, a))
      .map((r) => r.id);
  }

  async function listAll(groupId: string, f: Filter, updatedAfter: Date | undefined) {
    const query: Record<string, string> = { limit: String(f.limit) };
    if (f.q !== undefined) query.q = f.q;
    if (f.category !== undefined) query.category = f.category;
    if (f.paidBy !== undefined) query.paidBy = (users[f.paidBy] as TestUser).id;
    if (f.involves !== undefined) query.involves = (users[f.involves] as TestUser).id;
    if (f.from !== undefined) query.from = TIMES[f.from] as string;
    if (f.to !== undefined) query.to = TIMES[f.to] as string;
    if (updatedAfter !== undefined) query.updatedAfter = updatedAfter.toISOString();
    if (f.includeDeleted !== undefined) query.includeDeleted = String(f.includeDeleted);
    const listed: { id: string; deletedAt?: string | null }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await t.request
        .get(`/v1/groups/${groupId}/expenses`)
        .query(cursor ? { ...query, cursor } : query)
        .set((users[1] as TestUser).auth);
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      expect(res.body.data.length).toBeLessThanOrEqual(f.limit);
      listed.push(...res.body.data);
      if (res.body.nextCursor === null) return { listed, query };
      cursor = res.body.nextCursor;
    }
    throw new Error('more pages than expenses');
  }

  it('for random expenses and random filter combinations, every page followed', async () => {
    await withSeed(testSeed(), (seed) =>
      fc.assert(
        fc.asyncProperty(
          fc.array(specArb, { maxLength: 12 }),
          fc.array(filterArb, { minLength: 1, maxLength: 8 }),
          async (specs, filters) => {
            const groupId = await t.createGroup(users[0] as TestUser, users.slice(1));
            await seedGroup(groupId, specs);
            const rows: Row[] = await t.db!.knex('expenses').where({ group_id: groupId });
            const updatedTimes = [...new Set(rows.map((r) => r.updated_at.getTime()))].sort((a, b) => a - b);
            for (const f of filters) {
              const picked =
                f.updatedAfterIndex === undefined ? undefined : updatedTimes[f.updatedAfterIndex];
              const updatedAfter =
                f.updatedAfterIndex === undefined
                  ? undefined
                  : new Date(picked ?? Date.parse('2020-01-01T00:00:00Z'));
              const { listed, query } = await listAll(groupId, f, updatedAfter);
              const expected = bruteForce(rows, f, updatedAfter);
              expect({ query, ids: listed.map((e) => e.id) }).toEqual({ query, ids: expected });
              if (f.includeDeleted) {
                for (const e of listed) {
                  const row = rows.find((r) => r.id === e.id) as Row;
                  expect(e.deletedAt).toEqual(row.deleted_at === null ? null : row.deleted_at.toISOString());
                }
              } else {
                for (const e of listed) expect(e).not.toHaveProperty('deletedAt');
              }
            }
          },
        ),
        { numRuns: 15, seed },
      ),
    );
  }, 300_000);
});
