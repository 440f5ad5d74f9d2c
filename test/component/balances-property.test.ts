/**
 * API.md §6: balances "must always equal a full recomputation from the live expenses and
 * settlements (no drift after edits, deletes, restores, currency changes or member removal)".
 *
 * fast-check drives random sequences of writes against a fresh group of 4 members; after every
 * write, GET balances is compared with `recomputeNets` over the live rows read straight from the
 * database, and the §6 invariants (nets sum to 0, every member listed, `simplified` settles every
 * net with at most nonzero − 1 transfers, currencies = those with a live record) are checked, and
 * the original debts (`original`) equal a recomputation of the pairs from the same rows and add up
 * to the nets. Expenses may be negative (income, reimbursements: API.md §4).
 */
import {
  allocateLargestRemainder,
  diffPairEffects,
  expensePairEffect,
  recomputeNets,
  settlementPairEffect,
} from '@tally/domain';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { testSeed, withSeed } from '../support/random';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

const CURRENCIES = ['INR', 'USD'] as const;
const SPLIT_TYPES = ['equal', 'exact', 'percent', 'shares'] as const;
const MEMBER_COUNT = 4;

type SplitType = (typeof SPLIT_TYPES)[number];
type ExpenseSpec = {
  amount: number;
  currency: (typeof CURRENCIES)[number] | undefined;
  payers: number[];
  payerWeights: number[];
  singlePayerAsId: boolean;
  splitType: SplitType;
  participants: number[];
  weights: number[];
  /** Nudge one exact amount or percent so that the split no longer adds up (expect 422). */
  corrupt: boolean;
};
type Op =
  | { kind: 'create'; spec: ExpenseSpec }
  | { kind: 'put'; target: number; fresh: boolean; spec: ExpenseSpec }
  | {
      kind: 'patch';
      target: number;
      amount: number | undefined;
      currency: string | undefined;
      split: ExpenseSpec | undefined;
    }
  | { kind: 'delete'; target: number }
  | { kind: 'restore'; target: number }
  | { kind: 'settle'; from: number; to: number; amount: number; currency: string | undefined }
  | { kind: 'unsettle'; target: number }
  | { kind: 'remove'; member: number }
  | { kind: 'readd'; member: number };

// ---- arbitraries ---------------------------------------------------------------------------------
const memberIndex = fc.integer({ min: 0, max: MEMBER_COUNT - 1 });
const someMembers = fc.shuffledSubarray([0, 1, 2, 3], { minLength: 1 });
const weights = fc.array(fc.integer({ min: 1, max: 100 }), {
  minLength: MEMBER_COUNT,
  maxLength: MEMBER_COUNT,
});
const amountArb = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1_000_000_000 }));
const currencyArb = fc.option(fc.constantFrom(...CURRENCIES), { nil: undefined });
/** An expense's amount: negative ones (income, a reimbursement) mixed in. */
const expenseAmountArb = fc.oneof(
  { weight: 3, arbitrary: amountArb },
  { weight: 1, arbitrary: amountArb.map((n) => -n) },
);

/** `amount` (of either sign) in parts by weight, each of its sign. */
const partsOf = (amount: number, w: number[]) =>
  allocateLargestRemainder(Math.abs(amount), w).map((part) => (amount < 0 ? 0 - part : part));

const specArb: fc.Arbitrary<ExpenseSpec> = fc.record({
  amount: expenseAmountArb,
  currency: currencyArb,
  payers: someMembers,
  payerWeights: weights,
  singlePayerAsId: fc.boolean(),
  splitType: fc.constantFrom(...SPLIT_TYPES),
  participants: someMembers,
  weights,
  corrupt: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
});
const target = fc.nat({ max: 1000 });

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('create' as const), spec: specArb }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('put' as const), target, fresh: fc.boolean(), spec: specArb }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('patch' as const),
      target,
      amount: fc.option(expenseAmountArb, { nil: undefined }),
      currency: currencyArb,
      split: fc.option(specArb, { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), target }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const), target }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      from: memberIndex,
      to: memberIndex,
      amount: amountArb,
      currency: currencyArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unsettle' as const), target }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('remove' as const), member: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('readd' as const), member: fc.integer({ min: 1, max: 3 }) }),
  },
);

// ---- bodies --------------------------------------------------------------------------------------
function splitOf(spec: ExpenseSpec, amount: number, ids: string[]) {
  const who = spec.participants.map((i) => ids[i]!);
  const w = spec.weights.slice(0, who.length);
  switch (spec.splitType) {
    case 'equal':
      return { type: 'equal', between: who };
    case 'shares':
      return { type: 'shares', between: who.map((userId, i) => ({ userId, shares: w[i]! })) };
    case 'exact': {
      const parts = partsOf(amount, w);
      if (spec.corrupt) parts[0] = parts[0]! + 1;
      return { type: 'exact', between: who.map((userId, i) => ({ userId, amount: parts[i]! })) };
    }
    case 'percent': {
      const bp = allocateLargestRemainder(10_000, w);
      if (spec.corrupt) bp[0] = bp[0]! + 1;
      return { type: 'percent', between: who.map((userId, i) => ({ userId, percent: bp[i]! / 100 })) };
    }
  }
}

function paidByOf(spec: ExpenseSpec, ids: string[]) {
  const who = spec.payers.map((i) => ids[i]!);
  if (who.length === 1 && spec.singlePayerAsId) return who[0]!;
  const parts = partsOf(spec.amount, spec.payerWeights.slice(0, who.length));
  return who.map((userId, i) => ({ userId, amount: parts[i]! })).filter((p) => p.amount !== 0);
}

function expenseBody(spec: ExpenseSpec, groupId: string, ids: string[]) {
  return {
    groupId,
    description: `${spec.splitType} ${spec.amount}`,
    amount: spec.amount,
    ...(spec.currency ? { currency: spec.currency } : {}),
    paidBy: paidByOf(spec, ids),
    split: splitOf(spec, spec.amount, ids),
  };
}

// ---- the test ------------------------------------------------------------------------------------
describe('balances always equal a full recomputation from the live rows', () => {
  let t: TestServer;
  let users: TestUser[];

  beforeAll(async () => {
    // A generous rate limit: one user issues every request of every run.
    t = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    users = [];
    for (const name of ['Owner', 'Bea', 'Cal', 'Dee']) users.push(await t.register(name));
  });
  afterAll(async () => {
    await t.stop();
  });

  const owner = () => users[0]!;
  const ids = () => users.map((u) => u.id);

  /** currency → userId → net, recomputed from the live rows of the database; and the members. */
  async function recompute(groupId: string) {
    const k = t.db!.knex;
    const expenses = await k('expenses')
      .where({ group_id: groupId })
      .whereNull('deleted_at')
      .select('currency', 'paid_by', 'shares');
    const settlements = await k('settlements')
      .where({ group_id: groupId })
      .whereNull('deleted_at')
      .select('currency', 'from_user_id', 'to_user_id', 'amount');
    const members = new Set<string>(await k('group_members').where({ group_id: groupId }).pluck('user_id'));
    const liveExpenses = expenses.map((r) => ({ currency: r.currency, paidBy: r.paid_by, shares: r.shares }));
    const liveSettlements = settlements.map((r) => ({
      currency: r.currency,
      fromUserId: r.from_user_id,
      toUserId: r.to_user_id,
      amount: Number(r.amount),
    }));
    const nets = recomputeNets(liveExpenses, liveSettlements);
    // The original debts from scratch: every live record's pairs, summed (as `diff` from nothing).
    const pairs = diffPairEffects(
      [],
      [...liveExpenses.flatMap(expensePairEffect), ...liveSettlements.flatMap(settlementPairEffect)],
    );
    const original = pairs.map((p) =>
      p.net > 0
        ? { currency: p.currency, from: p.lowId, to: p.highId, amount: p.net }
        : { currency: p.currency, from: p.highId, to: p.lowId, amount: -p.net },
    );
    return { nets, members, original };
  }

  async function checkBalances(groupId: string) {
    const { nets, members, original: recomputed } = await recompute(groupId);
    const res = await t.request.get(`/v1/groups/${groupId}/balances`).set(owner().auth);
    expect(res.status).toBe(200);
    const lastSeq = await t.db!.knex('groups').where({ id: groupId }).first('last_seq');
    expect(res.body.groupId).toBe(groupId);
    expect(res.body.asOfSeq).toBe(Number(lastSeq.last_seq));

    type Listed = {
      currency: string;
      members: { userId: string; net: number }[];
      simplified: Transfer[];
      original: Transfer[];
    };
    type Transfer = { from: string; to: string; amount: number };
    const listed = res.body.currencies as Listed[];
    // Currencies listed == currencies with at least one live record.
    expect(listed.map((c) => c.currency).sort()).toEqual([...nets.keys()].sort());

    expect(res.body.simplifyDebts).toBe(true);
    for (const { currency, members: got, simplified, original } of listed) {
      // The original debts: as recomputed, sorted, each positive, and they add up to the nets.
      const byPair = (a: Transfer, b: Transfer) =>
        a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0;
      expect(original).toEqual(
        recomputed
          .filter((p) => p.currency === currency)
          .map(({ from, to, amount }) => ({ from, to, amount }))
          .sort(byPair),
      );
      const fromPairs = new Map<string, number>();
      for (const { from, to, amount } of original) {
        expect(amount).toBeGreaterThan(0);
        fromPairs.set(from, (fromPairs.get(from) ?? 0) - amount);
        fromPairs.set(to, (fromPairs.get(to) ?? 0) + amount);
      }
      for (const m of got) expect(fromPairs.get(m.userId) ?? 0).toBe(m.net);
      const expected = new Map<string, number>([...members].map((id) => [id, 0]));
      for (const [userId, net] of nets.get(currency)!)
        if (net !== 0 || members.has(userId)) expected.set(userId, net);
      const byId = (a: { userId: string }, b: { userId: string }) => (a.userId < b.userId ? -1 : 1);
      expect([...got].sort(byId)).toEqual([...expected].map(([userId, net]) => ({ userId, net })).sort(byId));
      expect(got.reduce((s, m) => s + m.net, 0)).toBe(0);

      const remaining = new Map(got.map((m) => [m.userId, m.net]));
      const nonZero = got.filter((m) => m.net !== 0).length;
      expect(simplified.length).toBeLessThanOrEqual(Math.max(0, nonZero - 1));
      for (const { from, to, amount } of simplified) {
        expect(Number.isSafeInteger(amount) && amount > 0).toBe(true);
        expect(remaining.get(from)!).toBeLessThan(0);
        expect(remaining.get(to)!).toBeGreaterThan(0);
        remaining.set(from, remaining.get(from)! + amount);
        remaining.set(to, remaining.get(to)! - amount);
      }
      expect([...remaining.values()].every((n) => n === 0)).toBe(true);
    }
  }

  const expectOutcome = (res: Response, allowed: number[], what: string) => {
    if (!allowed.includes(res.status)) {
      throw new Error(`${what}: unexpected ${res.status} ${JSON.stringify(res.body)}`);
    }
    if (res.status >= 400) {
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toEqual(expect.any(String));
    }
  };

  /** Runs one operation against the group; the ids it created are remembered in `known`. */
  async function apply(op: Op, groupId: string, known: { expenses: string[]; settlements: string[] }) {
    const auth = owner().auth;
    const money = (req: ReturnType<typeof t.request.post>) => req.set(auth).set('Idempotency-Key', newKey());
    const pick = (list: string[], i: number) => (list.length === 0 ? undefined : list[i % list.length]);

    switch (op.kind) {
      case 'create': {
        const res = await money(t.request.post('/v1/expenses')).send(expenseBody(op.spec, groupId, ids()));
        expectOutcome(res, [201, 422], 'create');
        if (op.spec.corrupt && op.spec.splitType !== 'equal' && op.spec.splitType !== 'shares') {
          expect(res.status).toBe(422);
        }
        if (res.status === 201) known.expenses.push(res.body.id);
        return;
      }
      case 'put': {
        const existing = pick(known.expenses, op.target);
        const id = op.fresh || !existing ? `put-${newKey().replace(/[^A-Za-z0-9_-]/g, '')}` : existing;
        const res = await money(t.request.put(`/v1/expenses/${id}`)).send(
          expenseBody(op.spec, groupId, ids()),
        );
        expectOutcome(res, [200, 201, 404, 422], 'put');
        if (res.status === 201) known.expenses.push(res.body.id);
        return;
      }
      case 'patch': {
        const id = pick(known.expenses, op.target);
        if (!id) return;
        const patch: Record<string, unknown> = {};
        if (op.amount !== undefined) patch['amount'] = op.amount;
        if (op.currency !== undefined) patch['currency'] = op.currency;
        if (op.split) {
          // A new split comes with the amount it was built for, so that exact splits can add up.
          patch['amount'] = op.amount ?? op.split.amount;
          patch['split'] = splitOf(op.split, op.amount ?? op.split.amount, ids());
        }
        if (Object.keys(patch).length === 0) patch['description'] = 'Renamed';
        const res = await money(t.request.patch(`/v1/expenses/${id}`)).send(patch);
        expectOutcome(res, [200, 404, 422], 'patch');
        return;
      }
      case 'delete': {
        const id = pick(known.expenses, op.target);
        if (!id) return;
        expectOutcome(await money(t.request.delete(`/v1/expenses/${id}`)), [204, 422], 'delete');
        return;
      }
      case 'restore': {
        const id = pick(known.expenses, op.target);
        if (!id) return;
        expectOutcome(await money(t.request.post(`/v1/expenses/${id}/restore`)), [200, 422], 'restore');
        return;
      }
      case 'settle': {
        const res = await money(t.request.post('/v1/settlements')).send({
          groupId,
          fromUserId: ids()[op.from],
          toUserId: ids()[op.to],
          amount: op.amount,
          ...(op.currency ? { currency: op.currency } : {}),
        });
        expectOutcome(res, [201, 422], 'settle');
        if (op.from === op.to) expect(res.status).toBe(422);
        if (res.status === 201) known.settlements.push(res.body.id);
        return;
      }
      case 'unsettle': {
        const id = pick(known.settlements, op.target);
        if (!id) return;
        expectOutcome(await money(t.request.delete(`/v1/settlements/${id}`)), [204, 422], 'unsettle');
        return;
      }
      case 'remove': {
        const userId = ids()[op.member]!;
        const { nets, members } = await recompute(groupId);
        const owes = [...nets.values()].some((users) => (users.get(userId) ?? 0) !== 0);
        const res = await t.request.delete(`/v1/groups/${groupId}/members/${userId}`).set(auth);
        if (!members.has(userId)) expectOutcome(res, [404], 'remove a former member');
        else if (owes) {
          expectOutcome(res, [409], 'remove a member with a balance');
          expect(res.body.code).toBe('member_has_balance');
        } else expectOutcome(res, [204], 'remove a settled member');
        return;
      }
      case 'readd': {
        const res = await t.request
          .post(`/v1/groups/${groupId}/members`)
          .set(auth)
          .send({ userId: ids()[op.member] });
        expectOutcome(res, [200, 201], 'add a member back');
        return;
      }
    }
  }

  it('after random sequences of expenses, edits, deletes, restores, settlements and member changes', async () => {
    await withSeed(testSeed(), (seed) =>
      fc.assert(
        fc.asyncProperty(fc.array(opArb, { maxLength: 25 }), async (ops) => {
          const groupId = await t.createGroup(owner(), users.slice(1));
          const known = { expenses: [] as string[], settlements: [] as string[] };
          for (const op of ops) {
            await apply(op, groupId, known);
            await checkBalances(groupId);
          }
          await checkBalances(groupId);
        }),
        { numRuns: 25, seed },
      ),
    );
  }, 120_000);

  it('a scripted sequence covering every kind of change ends consistent, with settled members removable', async () => {
    const groupId = await t.createGroup(owner(), users.slice(1));
    const [a, b, c, d] = users.map((u) => u.id);
    const auth = owner().auth;
    const key = () => newKey();
    const created = await t.request
      .post('/v1/expenses')
      .set(auth)
      .set('Idempotency-Key', key())
      .send({
        groupId,
        description: 'Hotel',
        amount: 90000,
        paidBy: a,
        split: { type: 'equal', between: [a, b, c] },
      });
    expect(created.status).toBe(201);
    await checkBalances(groupId);
    // d has no balance: removable, then added back.
    expect((await t.request.delete(`/v1/groups/${groupId}/members/${d}`).set(auth)).status).toBe(204);
    expect((await t.request.post(`/v1/groups/${groupId}/members`).set(auth).send({ userId: d })).status).toBe(
      201,
    );
    // b owes: 409 until settled.
    const blocked = await t.request.delete(`/v1/groups/${groupId}/members/${b}`).set(auth);
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('member_has_balance');
    const patched = await t.request
      .patch(`/v1/expenses/${created.body.id}`)
      .set(auth)
      .set('Idempotency-Key', key())
      .send({ currency: 'USD' });
    expect(patched.status).toBe(200);
    await checkBalances(groupId);
    const settled = await t.request
      .post('/v1/settlements')
      .set(auth)
      .set('Idempotency-Key', key())
      .send({ groupId, fromUserId: b, toUserId: a, amount: 30000, currency: 'USD' });
    expect(settled.status).toBe(201);
    await checkBalances(groupId);
    expect((await t.request.delete(`/v1/groups/${groupId}/members/${b}`).set(auth)).status).toBe(204);
    await checkBalances(groupId);
    const balances = await t.request.get(`/v1/groups/${groupId}/balances`).set(auth);
    expect(balances.body.currencies).toEqual([
      {
        currency: 'USD',
        members: expect.arrayContaining([
          { userId: a, net: 30000 },
          { userId: c, net: -30000 },
          { userId: d, net: 0 },
        ]),
        simplified: [{ from: c, to: a, amount: 30000 }],
        original: [{ from: c, to: a, amount: 30000 }],
      },
    ]);
    expect(balances.body.currencies[0].members).toHaveLength(3);
  });
});
