/**
 * The stored totals of the statistics (API.md §14.2, migration 027), by property: random sequences
 * of writes through the real API (create, PUT, PATCH of amount, split, date, category and currency,
 * delete, restore, duplicate, a category's merge and delete, a pending member's claim; negative
 * amounts, three currencies, dates over several months) on real PostgreSQL. After each sequence the stored totals equal their
 * recomputation from the rows (here, in TypeScript), and the answers of both statistics routes for
 * random ranges equal those of the same service reading every expense row (`source: 'rows'`).
 */

import fc from 'fast-check';
import { createGroupRates } from '../../apps/api/src/fx/group-rates';
import { createStatsService } from '../../apps/api/src/stats/stats.service';
import { storedAndRecomputedTotals } from '../support/expense-totals';
import { testSeed, withSeed } from '../support/random';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

const CURRENCIES = ['EUR', 'USD', 'INR'] as const;
const MONTHS = ['2025-01', '2025-02', '2025-03', '2025-04', '2025-05'];
const START = Date.parse('2025-01-01T00:00:00Z');
const END = Date.parse('2025-06-01T00:00:00Z');

type Fields = {
  amount: number;
  currency: (typeof CURRENCIES)[number];
  occurredAt: string;
  category: number;
  payer: number;
  between: number[];
};
type Op =
  | { kind: 'create'; fields: Fields }
  | { kind: 'put'; target: number; fields: Fields }
  | { kind: 'patch'; target: number; patch: Partial<Fields> }
  | { kind: 'delete' | 'restore'; target: number }
  | { kind: 'duplicate'; target: number; occurredAt: string }
  | { kind: 'merge' | 'deleteCategory'; own: number; into: number }
  | { kind: 'claim' };

/** An instant in the months of the test: often a month's first instant (an edge of a range). */
const instant = fc.oneof(
  fc.integer({ min: START, max: END - 1 }),
  fc.constantFrom(...MONTHS.map((m) => Date.parse(`${m}-01T00:00:00Z`))),
);
const iso = instant.map((ms) => new Date(ms).toISOString());
const fields: fc.Arbitrary<Fields> = fc.record({
  amount: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: -100_000, max: -1 })),
  currency: fc.constantFrom(...CURRENCIES),
  occurredAt: iso,
  category: fc.integer({ min: 0, max: 4 }),
  payer: fc.integer({ min: 0, max: 3 }),
  between: fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
});
const target = fc.nat(30);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fields.map((f) => ({ kind: 'create' as const, fields: f })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('put' as const), target, fields }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('patch' as const),
      target,
      patch: fields.chain((f) =>
        fc
          .subarray(['amount', 'currency', 'occurredAt', 'category', 'between'] as const, { minLength: 1 })
          .map((keys) => Object.fromEntries(keys.map((k) => [k, f[k]])) as Partial<Fields>),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constantFrom('delete' as const, 'restore' as const), target }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('duplicate' as const),
      target,
      occurredAt: iso,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom('merge' as const, 'deleteCategory' as const),
      own: fc.nat(1),
      into: fc.nat(2),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'claim' as const }) },
);
/** A range of the statistics: each end open, a month's first instant, or any instant. */
const range = fc.record({ from: iso, to: iso }, { requiredKeys: [] });

describe('stored totals of the statistics', () => {
  let t: TestServer;
  let users: TestUser[];
  let oracle: ReturnType<typeof createStatsService>;

  beforeAll(async () => {
    t = await startTestServer();
    users = [await t.register('Ada'), await t.register('Bob'), await t.register('Cara')];
    const knex = t.server.knex;
    // Bob's login email counts as verified (API.md §2.5): he may claim the pending member added with it.
    await knex('users')
      .where({ id: user(1).id })
      .update({ email_verified_at: new Date() });
    oracle = createStatsService({ knex, source: 'rows', groupRates: createGroupRates({ knex }).get });
  });
  afterAll(() => t.stop());

  const user = (i: number) => users[i % users.length] as TestUser;
  const ada = () => user(0);

  /**
   * One write by Ada in a group of Ada, Bob, Cara and a pending member (`people`) added with Bob's
   * email, whom Bob may claim (then they are one member: a list naming both is refused, 422).
   */
  async function write(
    groupId: string,
    people: string[],
    categories: (string | null)[],
    expenses: string[],
    o: Op,
  ) {
    const body = (f: Partial<Fields>) => ({
      ...(f.amount === undefined ? {} : { amount: f.amount }),
      ...(f.currency === undefined ? {} : { currency: f.currency }),
      ...(f.occurredAt === undefined ? {} : { occurredAt: f.occurredAt }),
      ...(f.category === undefined ? {} : { categoryId: categories[f.category] ?? null }),
      ...(f.between === undefined
        ? {}
        : { split: { type: 'equal', between: f.between.map((i) => people[i]) } }),
      ...(f.payer === undefined ? {} : { paidBy: people[f.payer] }),
    });
    const keyed = (req: ReturnType<typeof t.request.post>) =>
      req.set(ada().auth).set('Idempotency-Key', newKey());
    const id = expenses[(o as { target: number }).target % Math.max(1, expenses.length)];
    switch (o.kind) {
      case 'create': {
        const res = await keyed(t.request.post('/v1/expenses')).send({
          groupId,
          description: 'Thing',
          ...body(o.fields),
        });
        // A category merged or deleted before is unknown (422): nothing moves then.
        expect([201, 422]).toContain(res.status);
        if (res.status === 201) expenses.push(res.body.id);
        return;
      }
      case 'put':
        if (!id) return;
        // A deleted expense (404) or a category gone (422): nothing moves then.
        expect([200, 404, 422]).toContain(
          (
            await keyed(t.request.put(`/v1/expenses/${id}`)).send({
              groupId,
              description: 'Put',
              ...body(o.fields),
            })
          ).status,
        );
        return;
      case 'patch': {
        if (!id) return;
        const res = await keyed(t.request.patch(`/v1/expenses/${id}`)).send(body(o.patch));
        // A new amount the stored payers no longer add up to, a category gone (422): nothing moves then.
        expect([200, 404, 422]).toContain(res.status);
        return;
      }
      case 'delete':
        if (id) expect((await keyed(t.request.delete(`/v1/expenses/${id}`))).status).toBe(204);
        return;
      case 'restore':
        if (id) expect((await keyed(t.request.post(`/v1/expenses/${id}/restore`))).status).toBe(200);
        return;
      case 'duplicate': {
        if (!id) return;
        const res = await keyed(t.request.post(`/v1/expenses/${id}/duplicate`)).send({
          occurredAt: o.occurredAt,
        });
        expect([201, 404]).toContain(res.status);
        if (res.status === 201) expenses.push(res.body.id);
        return;
      }
      case 'claim': {
        const res = await t.request
          .post(`/v1/groups/${groupId}/members/${people[3]}/claim`)
          .set(user(1).auth)
          .send({});
        expect(res.status).toBe(200);
        return;
      }
      default: {
        // The group's own categories are the last two; a merge into itself is refused.
        const own = categories[3 + o.own] as string;
        const base = `/v1/groups/${groupId}/categories/${own}`;
        const res =
          o.kind === 'merge'
            ? await keyed(t.request.post(`${base}/merge`)).send({ into: categories[o.into] ?? 'other' })
            : await keyed(t.request.delete(base));
        expect(res.status).toBeLessThan(500);
      }
    }
  }

  it('equal a recomputation from the rows, and the answers equal those from the rows, after any writes (property)', async () => {
    await withSeed(testSeed(), (seed) =>
      fc.assert(
        fc.asyncProperty(
          fc.array(op, { minLength: 1, maxLength: 25 }),
          fc.array(range, { minLength: 3, maxLength: 3 }),
          async (ops, ranges) => {
            const groupId = await t.createGroup(ada(), [user(1), user(2)]);
            const pending = await t.request
              .post(`/v1/groups/${groupId}/members`)
              .set(ada().auth)
              .send({ name: 'Bob too', email: user(1).email });
            expect(pending.status).toBe(201);
            const people = [...users.map((u) => u.id), pending.body.userId as string];
            const categories: (string | null)[] = ['food', 'travel', null];
            for (const name of ['Own A', 'Own B']) {
              const res = await t.request
                .post(`/v1/groups/${groupId}/categories`)
                .set(ada().auth)
                .set('Idempotency-Key', newKey())
                .send({ name });
              categories.push(res.body.id);
            }
            const expenses: string[] = [];
            for (const o of ops) await write(groupId, people, categories, expenses, o);

            const { stored, expected } = await storedAndRecomputedTotals(t.server.knex, groupId);
            expect(stored).toEqual(expected);
            for (const q of ranges) {
              for (const by of ['category', 'member', 'month'] as const) {
                const res = await t.request
                  .get(`/v1/groups/${groupId}/stats`)
                  .query({ by, ...q })
                  .set(ada().auth);
                expect(res.status).toBe(200);
                expect(res.body).toEqual(
                  JSON.parse(JSON.stringify(await oracle.group(ada().id, groupId, by, q))),
                );
              }
              for (const by of ['category', 'group', 'month'] as const) {
                const res = await t.request
                  .get('/v1/me/stats')
                  .query({ by, ...q })
                  .set(user(1).auth);
                expect(res.status).toBe(200);
                expect(res.body).toEqual(JSON.parse(JSON.stringify(await oracle.mine(user(1).id, by, q))));
              }
            }
          },
        ),
        { numRuns: 15, seed },
      ),
    );
  });
});
