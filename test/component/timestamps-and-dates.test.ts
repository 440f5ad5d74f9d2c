/**
 * API.md §1: one rule for every timestamp and every date, in bodies and queries: a real calendar
 * date (and time) within years 0001–9999, else `422 validation_failed` naming the field. Nothing
 * PostgreSQL would refuse reaches it (year 0000 and six-digit years were 500s), nothing is silently
 * moved (`2026-02-30` was stored as March 2nd), and a bare date is no timestamp.
 */

import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import { expectValidationFailed } from './component-helpers';

/** Timestamps that are not a real date and time within 0001–9999, with an offset. */
const BAD_TIMESTAMPS = [
  '0000-01-01T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '+010000-01-01T00:00:00.000Z',
  '2026-02-30T00:00:00Z',
  '2025-02-29T12:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01',
  '2026-01-01T00:00:00',
  '0001-01-01T00:30:00+01:00',
  '9999-12-31T23:30:00-01:00',
];

describe('timestamps and dates (API.md §1)', () => {
  let t: TestServer;
  let ada: TestUser;
  let groupId: string;
  beforeAll(async () => {
    t = await startTestServer();
    ada = await t.register('Ada');
    groupId = await t.createGroup(ada);
  });
  afterAll(async () => {
    await t.stop();
  });

  const body = (extra: Record<string, unknown> = {}) => ({
    groupId,
    description: 'Dinner',
    amount: 1000,
    paidBy: ada.id,
    split: { type: 'equal', between: [ada.id] },
    ...extra,
  });
  const head = async () => (await t.db!.knex('groups').where({ id: groupId }).first('last_seq')).last_seq;
  const expenseCount = async () =>
    Number((await t.db!.knex('expenses').where({ group_id: groupId }).count({ n: '*' }))[0]?.n);

  it.each(BAD_TIMESTAMPS)(
    'refuses occurredAt %s on POST, PUT and PATCH (422 at occurredAt, nothing written)',
    async (occurredAt) => {
      const existing = await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send(body());
      expect(existing.status).toBe(201);
      const [seq, count] = [await head(), await expenseCount()];

      const posted = await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send(body({ occurredAt }));
      expectValidationFailed(posted, 'occurredAt');
      const put = await t.request
        .put(`/v1/expenses/client-chosen-${newKey()}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send(body({ occurredAt }));
      expectValidationFailed(put, 'occurredAt');
      const patched = await t.request
        .patch(`/v1/expenses/${existing.body.id}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send({ occurredAt });
      expectValidationFailed(patched, 'occurredAt');

      expect([await head(), await expenseCount()]).toEqual([seq, count]);
      const read = await t.request.get(`/v1/expenses/${existing.body.id}`).set(ada.auth);
      expect(read.body.occurredAt).toBe(existing.body.occurredAt);
    },
  );

  it('stores a real occurredAt as the instant it names, in UTC, at the ends of the range too', async () => {
    const cases: [string, string][] = [
      ['2026-06-01T12:00:00+05:30', '2026-06-01T06:30:00.000Z'],
      ['2024-02-29T23:59:59.999Z', '2024-02-29T23:59:59.999Z'],
      ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
      ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
      ['2026-06-01t12:00:00z', '2026-06-01T12:00:00.000Z'],
    ];
    const group = await t.createGroup(ada);
    for (const [occurredAt, stored] of cases) {
      const res = await t.request
        .post('/v1/expenses')
        .set(ada.auth)
        .set('Idempotency-Key', newKey())
        .send(body({ groupId: group, occurredAt }));
      expect({ occurredAt, status: res.status, stored: res.body.occurredAt }).toEqual({
        occurredAt,
        status: 201,
        stored,
      });
    }
    // the list pages through all of them, year 0001 and 9999 included
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.request
        .get(`/v1/groups/${group}/expenses`)
        .query({ limit: 1, ...(cursor ? { cursor } : {}) })
        .set(ada.auth);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((e: { occurredAt: string }) => e.occurredAt));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...cases.map(([, stored]) => stored)].sort().reverse());
    // and so do the filters
    const filtered = await t.request
      .get(`/v1/groups/${group}/expenses`)
      .query({ from: '0001-01-01T00:00:00Z', to: '9999-12-31T23:59:59.999Z', limit: 100 })
      .set(ada.auth);
    expect(filtered.body.data).toHaveLength(cases.length - 1);
  });

  it.each(BAD_TIMESTAMPS)('refuses %s in the from, to and updatedAfter filters', async (value) => {
    for (const field of ['from', 'to', 'updatedAfter']) {
      const res = await t.request
        .get(`/v1/groups/${groupId}/expenses`)
        .query({ [field]: value })
        .set(ada.auth);
      expectValidationFailed(res, field);
    }
  });

  it('refuses dates that are not real calendar dates: recurring startsOn/until, rates asOf', async () => {
    const template = {
      description: 'Rent',
      amount: 1000,
      paidBy: ada.id,
      split: { type: 'equal', between: [ada.id] },
    };
    for (const date of ['2027-02-30', '2027-13-01', '0000-01-01', '1999-12-31', '2027-2-1', '+02027-01-01']) {
      for (const field of ['startsOn', 'until']) {
        const schedule = { every: 'month', startsOn: '2027-01-31', timeZone: 'UTC', [field]: date };
        const res = await t.request
          .post(`/v1/groups/${groupId}/recurring`)
          .set(ada.auth)
          .set('Idempotency-Key', newKey())
          .send({ expense: template, schedule });
        expectValidationFailed(res, `schedule.${field}`);
      }
    }
    for (const asOf of ['2026-02-30', '0000-01-01', '2026-13-01', '+02026-01-01', '2026-01-01T00:00:00Z']) {
      const res = await t.request
        .put(`/v1/groups/${groupId}/rates`)
        .set(ada.auth)
        .send({ base: 'EUR', rates: {}, asOf });
      expectValidationFailed(res, 'asOf');
    }
    // every real date of 0001–9999 is a date: year 0001 (which Date.UTC would read as 1901) too
    for (const asOf of ['0001-01-01', '0004-02-29', '9999-12-31']) {
      const res = await t.request
        .put(`/v1/groups/${groupId}/rates`)
        .set(ada.auth)
        .send({ base: 'EUR', rates: {}, asOf });
      expect({ asOf, status: res.status, stored: res.body.asOf }).toEqual({
        asOf,
        status: 200,
        stored: asOf,
      });
    }
  });
});
