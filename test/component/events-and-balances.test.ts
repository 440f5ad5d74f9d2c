import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';
import {
  balancesOf,
  type CurrencyBalances,
  expectProblem,
  expectValidationFailed,
  idPattern,
  netsIn,
  postExpense,
  postSettlement,
  RFC3339_UTC,
} from './component-helpers';

type GroupEvent = {
  id: string;
  seq: number;
  type: string;
  groupId: string;
  actorId: string;
  occurredAt: string;
  data: Record<string, unknown> & { balances?: CurrencyBalances[] };
};

const MONEY_EVENTS = [
  'expense.created',
  'expense.updated',
  'expense.deleted',
  'settlement.created',
  'settlement.deleted',
];

/** The §6 invariants of one currency: nets add up to 0, and `simplified` settles them with few transfers. */
function expectConsistent(entry: CurrencyBalances, memberIds: string[]) {
  const nets = new Map(entry.members.map((m) => [m.userId, m.net]));
  expect([...nets.keys()].sort()).toEqual([...memberIds].sort());
  for (const net of nets.values()) expect(Number.isSafeInteger(net)).toBe(true);
  expect([...nets.values()].reduce((a, b) => a + b, 0)).toBe(0);

  const remaining = new Map(nets);
  for (const transfer of entry.simplified) {
    expect(Object.keys(transfer).sort()).toEqual(['amount', 'from', 'to']);
    expect(Number.isSafeInteger(transfer.amount) && transfer.amount > 0).toBe(true);
    expect(nets.get(transfer.from)).toBeLessThan(0);
    expect(nets.get(transfer.to)).toBeGreaterThan(0);
    remaining.set(transfer.from, (remaining.get(transfer.from) ?? Number.NaN) + transfer.amount);
    remaining.set(transfer.to, (remaining.get(transfer.to) ?? Number.NaN) - transfer.amount);
  }
  for (const left of remaining.values()) expect(left).toBe(0);
  const nonZero = [...nets.values()].filter((n) => n !== 0).length;
  expect(entry.simplified.length).toBeLessThanOrEqual(Math.max(0, nonZero - 1));
}

describe('events and balances (API.md §6, §8)', () => {
  let t: TestServer;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let dee: TestUser;

  beforeAll(async () => {
    t = await startTestServer();
    [ada, bob, cy, dee] = await Promise.all([
      t.register('Ada'),
      t.register('Bob'),
      t.register('Cy'),
      t.register('Dee'),
    ]);
  });
  afterAll(async () => {
    await t.stop();
  });

  async function allEvents(user: TestUser, groupId: string): Promise<GroupEvent[]> {
    const res = await t.request.get(`/v1/groups/${groupId}/events?limit=100`).set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    return res.body.data;
  }

  describe('the event log', () => {
    let groupId: string;
    /** What GET balances answered right after each money write, by the seq it reported. */
    const balancesAtSeq = new Map<number, CurrencyBalances[]>();
    const expected: { type: string; actorId: string }[] = [];
    let expenseId: string;
    let settlementId: string;

    async function snapshot() {
      const balances = await balancesOf(t, ada, groupId);
      balancesAtSeq.set(balances.asOfSeq, balances.currencies);
    }

    beforeAll(async () => {
      const created = await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Log' });
      groupId = created.body.id;
      expected.push({ type: 'member.added', actorId: ada.id });

      expect(
        (await t.request.post(`/v1/groups/${groupId}/members`).set(ada.auth).send({ userId: bob.id })).status,
      ).toBe(201);
      expected.push({ type: 'member.added', actorId: ada.id });
      expect(
        (await t.request.post(`/v1/groups/${groupId}/members`).set(bob.auth).send({ email: cy.email }))
          .status,
      ).toBe(201);
      expected.push({ type: 'member.added', actorId: bob.id });
      expect(
        (await t.request.patch(`/v1/groups/${groupId}`).set(bob.auth).send({ name: 'Renamed log' })).status,
      ).toBe(200);
      expected.push({ type: 'group.updated', actorId: bob.id });

      const expense = await postExpense(t, ada, groupId, ada, 900, [ada, bob, cy]);
      expect(expense.status).toBe(201);
      expenseId = expense.body.id;
      expected.push({ type: 'expense.created', actorId: ada.id });
      await snapshot();

      const patched = await t.request
        .patch(`/v1/expenses/${expenseId}`)
        .set(cy.auth)
        .set('Idempotency-Key', newKey())
        .send({ amount: 1200 });
      expect(patched.status).toBe(200);
      expected.push({ type: 'expense.updated', actorId: cy.id });
      await snapshot();

      const settlement = await postSettlement(t, bob, groupId, bob, ada, 400);
      expect(settlement.status).toBe(201);
      settlementId = settlement.body.id;
      expected.push({ type: 'settlement.created', actorId: bob.id });
      await snapshot();

      const undone = await t.request
        .delete(`/v1/settlements/${settlementId}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(undone.status).toBe(204);
      expected.push({ type: 'settlement.deleted', actorId: ada.id });
      await snapshot();

      const deleted = await t.request
        .delete(`/v1/expenses/${expenseId}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(deleted.status).toBe(204);
      expected.push({ type: 'expense.deleted', actorId: ada.id });
      await snapshot();

      expect((await t.request.delete(`/v1/groups/${groupId}/members/${cy.id}`).set(cy.auth)).status).toBe(
        204,
      );
      expected.push({ type: 'member.removed', actorId: cy.id });
    });

    it('numbers the events 1, 2, 3… per group, starting with member.added for the creator', async () => {
      const events = await allEvents(ada, groupId);
      expect(events.map((e) => e.seq)).toEqual(expected.map((_, i) => i + 1));
      expect(events.map((e) => ({ type: e.type, actorId: e.actorId }))).toEqual(expected);
      expect(events[0]?.data).toEqual({ member: expect.objectContaining({ userId: ada.id }) });
    });

    it('gives every event the documented shape', async () => {
      const events = await allEvents(bob, groupId);
      for (const event of events) {
        expect(Object.keys(event).sort()).toEqual([
          'actorId',
          'data',
          'groupId',
          'id',
          'occurredAt',
          'seq',
          'type',
        ]);
        expect(event.id).toMatch(idPattern('evt'));
        expect(event.groupId).toBe(groupId);
        expect(event.occurredAt).toMatch(RFC3339_UTC);
        expect(typeof event.data).toBe('object');
      }
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      const times = events.map((e) => Date.parse(e.occurredAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });

    it('keeps a separate sequence for every group', async () => {
      const other = await t.createGroup(bob, [ada]);
      const events = await allEvents(ada, other);
      expect(events.map((e) => [e.seq, e.type])).toEqual([
        [1, 'member.added'],
        [2, 'member.added'],
      ]);
    });

    it('puts the resource after the change in data', async () => {
      const events = await allEvents(ada, groupId);
      const byType = (type: string) => events.filter((e) => e.type === type);
      expect(byType('member.added')[1]?.data['member']).toEqual(
        expect.objectContaining({ userId: bob.id, name: 'Bob' }),
      );
      expect(byType('group.updated')[0]?.data['group']).toEqual(
        expect.objectContaining({ id: groupId, name: 'Renamed log' }),
      );
      expect(byType('expense.created')[0]?.data['expense']).toEqual(
        expect.objectContaining({ id: expenseId, amount: 900 }),
      );
      expect(byType('expense.updated')[0]?.data['expense']).toEqual(
        expect.objectContaining({ id: expenseId, amount: 1200 }),
      );
      expect(byType('settlement.created')[0]?.data['settlement']).toEqual(
        expect.objectContaining({ id: settlementId, fromUserId: bob.id, toUserId: ada.id, amount: 400 }),
      );
      expect(byType('settlement.deleted')[0]?.data['settlement']).toEqual(
        expect.objectContaining({ id: settlementId }),
      );
      expect(
        byType('expense.deleted')[0]?.data['expense'] ?? byType('expense.deleted')[0]?.data['expenseId'],
      ).toBeDefined();
      expect(JSON.stringify(byType('member.removed')[0]?.data)).toContain(cy.id);
    });

    it('carries in every money event data.balances equal to GET balances right after it', async () => {
      const events = await allEvents(ada, groupId);
      const money = events.filter((e) => MONEY_EVENTS.includes(e.type));
      expect(money.map((e) => e.type)).toEqual([
        'expense.created',
        'expense.updated',
        'settlement.created',
        'settlement.deleted',
        'expense.deleted',
      ]);
      for (const event of money) {
        expect(balancesAtSeq.has(event.seq)).toBe(true);
        // Events carry the nets and simplified debts; the original ones only GET balances (API.md §6).
        const read = balancesAtSeq.get(event.seq) as { original?: unknown }[] | undefined;
        expect({ seq: event.seq, balances: event.data.balances }).toEqual({
          seq: event.seq,
          balances: read?.map(({ original: _original, ...rest }) => rest),
        });
      }
      const afterCreate = money[0]?.data.balances ?? [];
      expect(netsIn(afterCreate, 'INR')).toEqual({ [ada.id]: 600, [bob.id]: -300, [cy.id]: -300 });
      const afterUpdate = money[1]?.data.balances ?? [];
      expect(netsIn(afterUpdate, 'INR')).toEqual({ [ada.id]: 800, [bob.id]: -400, [cy.id]: -400 });
      expect(money[4]?.data.balances).toEqual([]);
    });

    it('answers afterSeq with the events after it, oldest first', async () => {
      const res = await t.request.get(`/v1/groups/${groupId}/events?afterSeq=3`).set(ada.auth);
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: GroupEvent) => e.seq)).toEqual(expected.slice(3).map((_, i) => i + 4));
      expect(res.body.nextCursor).toBeNull();

      const past = await t.request
        .get(`/v1/groups/${groupId}/events?afterSeq=${expected.length}`)
        .set(ada.auth);
      expect(past.status).toBe(200);
      expect(past.body).toEqual({ data: [], nextCursor: null });
    });

    it('pages with limit and cursor, every event exactly once, the last page with nextCursor null', async () => {
      const seqs: number[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await t.request.get(`/v1/groups/${groupId}/events${query}`).set(ada.auth);
        expect(res.status).toBe(200);
        sizes.push(res.body.data.length);
        seqs.push(...res.body.data.map((e: GroupEvent) => e.seq));
        cursor = res.body.nextCursor;
      } while (cursor !== null && sizes.length < 20);
      expect(seqs).toEqual(expected.map((_, i) => i + 1));
      expect(sizes).toEqual([3, 3, 3, 1]);
    });

    it('combines afterSeq with limit', async () => {
      const res = await t.request.get(`/v1/groups/${groupId}/events?afterSeq=2&limit=2`).set(ada.auth);
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: GroupEvent) => e.seq)).toEqual([3, 4]);
      expect(res.body.nextCursor).toEqual(expect.any(String));
      const next = await t.request
        .get(`/v1/groups/${groupId}/events?limit=2&cursor=${encodeURIComponent(res.body.nextCursor)}`)
        .set(ada.auth);
      expect(next.body.data.map((e: GroupEvent) => e.seq)).toEqual([5, 6]);
    });

    it.each([
      ['afterSeq=-1', 'afterSeq'],
      ['afterSeq=abc', 'afterSeq'],
      ['afterSeq=1.5', 'afterSeq'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['cursor=garbage', 'cursor'],
      [`cursor=${Buffer.from(JSON.stringify(['abc'])).toString('base64url')}`, 'cursor'],
    ])('rejects %s with 422 validation_failed', async (query, path) => {
      const res = await t.request.get(`/v1/groups/${groupId}/events?${query}`).set(ada.auth);
      expectValidationFailed(res, path);
    });

    it('hides the log from non-members, including a removed member (404 not_found)', async () => {
      expectProblem(await t.request.get(`/v1/groups/${groupId}/events`).set(dee.auth), 404, 'not_found');
      expectProblem(await t.request.get(`/v1/groups/${groupId}/events`).set(cy.auth), 404, 'not_found');
    });

    it('appends no event for a write that changes nothing', async () => {
      const before = await allEvents(ada, groupId);
      const samePatch = await t.request
        .patch(`/v1/groups/${groupId}`)
        .set(ada.auth)
        .send({ name: 'Renamed log' });
      expect(samePatch.status).toBe(200);
      const existing = await t.request
        .post(`/v1/groups/${groupId}/members`)
        .set(ada.auth)
        .send({ userId: bob.id });
      expect(existing.status).toBe(200);
      const again = await t.request
        .delete(`/v1/settlements/${settlementId}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(again.status).toBe(204);
      const failed = await t.request.delete(`/v1/groups/${groupId}/members/${dee.id}`).set(ada.auth);
      expect(failed.status).toBe(404);
      expect(await allEvents(ada, groupId)).toEqual(before);
    });
  });

  describe('balances', () => {
    let groupId: string;
    let usdExpenseId: string;

    beforeAll(async () => {
      groupId = await t.createGroup(ada, [bob, cy, dee]);
      // INR: Ada pays 1000 for Ada, Bob, Cy (334, 333, 333); Dee pays 700 for Cy and Dee (350 each).
      expect((await postExpense(t, ada, groupId, ada, 1000, [ada, bob, cy])).status).toBe(201);
      expect((await postExpense(t, dee, groupId, dee, 700, [cy, dee])).status).toBe(201);
      // USD, in an INR group: Bob pays 500 for Ada and Bob.
      const usd = await postExpense(t, bob, groupId, bob, 500, [ada, bob], { currency: 'USD' });
      expect(usd.status).toBe(201);
      expect(usd.body.currency).toBe('USD');
      usdExpenseId = usd.body.id;
    });

    it('answers {groupId, asOfSeq, currencies} with nets per currency, never converted', async () => {
      const balances = await balancesOf(t, cy, groupId);
      expect(Object.keys(balances).sort()).toEqual(['asOfSeq', 'currencies', 'groupId', 'simplifyDebts']);
      expect(balances.groupId).toBe(groupId);
      expect(balances.currencies.map((c) => c.currency).sort()).toEqual(['INR', 'USD']);
      expect(netsIn(balances.currencies, 'INR')).toEqual({
        [ada.id]: 666,
        [bob.id]: -333,
        [cy.id]: -683,
        [dee.id]: 350,
      });
      expect(netsIn(balances.currencies, 'USD')).toEqual({
        [ada.id]: -250,
        [bob.id]: 250,
        [cy.id]: 0,
        [dee.id]: 0,
      });
    });

    it('lists every member in every currency, nets adding up to 0, simplified settling every net', async () => {
      const balances = await balancesOf(t, ada, groupId);
      for (const entry of balances.currencies) expectConsistent(entry, [ada.id, bob.id, cy.id, dee.id]);
      const usd = balances.currencies.find((c) => c.currency === 'USD');
      expect(usd?.simplified).toEqual([{ from: ada.id, to: bob.id, amount: 250 }]);
    });

    it('reports as asOfSeq the seq of the last event', async () => {
      const balances = await balancesOf(t, ada, groupId);
      const events = await allEvents(ada, groupId);
      expect(balances.asOfSeq).toBe(events[events.length - 1]?.seq);
      expect(balances.asOfSeq).toBe(7);

      expect((await postSettlement(t, cy, groupId, cy, dee, 350)).status).toBe(201);
      const after = await balancesOf(t, ada, groupId);
      expect(after.asOfSeq).toBe(8);
      expect(netsIn(after.currencies, 'INR')[cy.id]).toBe(-333);
      expect(netsIn(after.currencies, 'INR')[dee.id]).toBe(0);
      for (const entry of after.currencies) expectConsistent(entry, [ada.id, bob.id, cy.id, dee.id]);
    });

    it('drops a currency from the list once its only expense is deleted', async () => {
      const deleted = await t.request
        .delete(`/v1/expenses/${usdExpenseId}`)
        .set(ada.auth)
        .set('Idempotency-Key', newKey());
      expect(deleted.status).toBe(204);
      const balances = await balancesOf(t, ada, groupId);
      expect(balances.currencies.map((c) => c.currency)).toEqual(['INR']);
      const events = await allEvents(ada, groupId);
      expect(balances.asOfSeq).toBe(events[events.length - 1]?.seq);
      expect(events[events.length - 1]?.type).toBe('expense.deleted');
    });

    it('answers an empty currency list for a group without money, at asOfSeq of its member events', async () => {
      const fresh = await t.createGroup(ada, [bob]);
      const balances = await balancesOf(t, bob, fresh);
      expect(balances).toEqual({ groupId: fresh, asOfSeq: 2, currencies: [], simplifyDebts: true });
    });

    it('keeps every invariant across many writes in three currencies', async () => {
      const members = [ada, bob, cy, dee];
      const gid = await t.createGroup(ada, [bob, cy, dee]);
      const currencies = ['INR', 'USD', 'JPY'];
      for (let i = 0; i < 12; i++) {
        const payer = members[i % 4]!;
        const between = members.filter((_, j) => (i + j) % 3 !== 0);
        const res = await postExpense(t, payer, gid, payer, 1001 + i * 37, between, {
          currency: currencies[i % 3],
        });
        expect(res.status).toBe(201);
      }
      expect((await postSettlement(t, bob, gid, bob, cy, 123, { currency: 'JPY' })).status).toBe(201);
      const balances = await balancesOf(t, dee, gid);
      expect(balances.currencies.map((c) => c.currency).sort()).toEqual(['INR', 'JPY', 'USD']);
      for (const entry of balances.currencies)
        expectConsistent(
          entry,
          members.map((m) => m.id),
        );
      const events = await allEvents(dee, gid);
      expect(balances.asOfSeq).toBe(events.length);
      expect(events[events.length - 1]?.data.balances).toEqual(
        balances.currencies.map(({ original: _original, ...rest }) => rest),
      );
    });
  });
});
