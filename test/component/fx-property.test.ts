/**
 * API.md §6, settling in one currency, through the running API: for random expenses and
 * settlements in currencies of 0, 2 and 3 decimals and random group rates, `GET …/balances?in=`
 * answers converted nets that add up to exactly 0, each within one minor unit of the exact value
 * computed here (BigInt fractions, from the per-currency nets the same answer carries), and
 * transfers that settle them exactly, at most (non-zero nets − 1) of them.
 */
import fc from 'fast-check';
import { testSeed, withSeed } from '../support/random';
import { newKey, startTestServer, type TestServer, type TestUser } from '../support/test-server';

const CURRENCIES = ['INR', 'JPY', 'KWD', 'EUR'] as const;
const DECIMALS: Record<string, number> = { INR: 2, JPY: 0, KWD: 3, EUR: 2 };

type Write =
  | { kind: 'expense'; currency: string; amount: number; payer: number; between: number[] }
  | { kind: 'settle'; currency: string; amount: number; from: number; to: number };

const amountArb = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1_000_000_000 }));
const writeArb: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    kind: fc.constant('expense' as const),
    currency: fc.constantFrom(...CURRENCIES),
    amount: amountArb,
    payer: fc.integer({ min: 0, max: 2 }),
    between: fc.shuffledSubarray([0, 1, 2], { minLength: 1 }),
  }),
  fc
    .record({
      kind: fc.constant('settle' as const),
      currency: fc.constantFrom(...CURRENCIES),
      amount: amountArb,
      parties: fc.shuffledSubarray([0, 1, 2], { minLength: 2, maxLength: 2 }),
    })
    .map(({ parties, ...rest }) => ({ ...rest, from: parties[0] as number, to: parties[1] as number })),
);
/** A decimal rate of 1–8 significant digits, 0–6 decimals. */
const rateArb = fc
  .tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 0, max: 6 }))
  .map(([digits, decimals]) => {
    const text = String(digits).padStart(decimals + 1, '0');
    return decimals === 0 ? text : `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
  });

const fraction = (text: string) => {
  const [whole, decimals = ''] = text.split('.');
  return { n: BigInt(`${whole}${decimals}`), d: 10n ** BigInt(decimals.length) };
};

describe('converted balances through the API, for random writes and rates', () => {
  let t: TestServer;
  let users: TestUser[];

  beforeAll(async () => {
    t = await startTestServer();
    users = [await t.register('Ada'), await t.register('Bob'), await t.register('Cy')];
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('adds up to exactly 0, within one minor unit of the exact value, settled by few transfers', async () => {
    const [ada, bob, cy] = users as [TestUser, TestUser, TestUser];
    let conversions = 0;
    let refused = 0;
    await withSeed(testSeed(), (seed) =>
      fc.assert(
        fc.asyncProperty(
          fc.array(writeArb, { minLength: 1, maxLength: 6 }),
          fc.tuple(rateArb, rateArb, rateArb),
          fc.constantFrom(...CURRENCIES),
          async (writes, [inr, jpy, kwd], target) => {
            const groupId = await t.createGroup(ada, [bob, cy]);
            for (const w of writes) {
              const res =
                w.kind === 'expense'
                  ? await t.request
                      .post('/v1/expenses')
                      .set(ada.auth)
                      .set('Idempotency-Key', newKey())
                      .send({
                        groupId,
                        description: 'Random',
                        amount: w.amount,
                        currency: w.currency,
                        paidBy: users[w.payer]?.id,
                        split: { type: 'equal', between: w.between.map((i) => users[i]?.id) },
                      })
                  : await t.request
                      .post('/v1/settlements')
                      .set(ada.auth)
                      .set('Idempotency-Key', newKey())
                      .send({
                        groupId,
                        fromUserId: users[w.from]?.id,
                        toUserId: users[w.to]?.id,
                        amount: w.amount,
                        currency: w.currency,
                      });
              expect(res.status).toBe(201);
            }
            const rates = { INR: inr, JPY: jpy, KWD: kwd };
            await t.request
              .put(`/v1/groups/${groupId}/rates`)
              .set(bob.auth)
              .send({ base: 'EUR', rates, asOf: '2026-11-25' })
              .expect(200);
            const res = await t.request.get(`/v1/groups/${groupId}/balances?in=${target}`).set(cy.auth);
            if (res.status === 422) {
              // The one refusal possible here: extreme rates make a converted net too large for JSON.
              expect([res.body.code, res.body.errors?.[0]?.path]).toEqual(['validation_failed', 'in']);
              expect(res.body.errors[0].message).toMatch(/beyond a safe integer/);
              refused += 1;
              return;
            }
            expect(res.status).toBe(200);
            conversions += 1;
            const { currencies, converted } = res.body as {
              currencies: { currency: string; members: { userId: string; net: number }[] }[];
              converted: {
                members: { userId: string; net: number }[];
                simplified: { from: string; to: string; amount: number }[];
              };
            };
            const rateOf = (code: string) =>
              code === 'EUR' ? { n: 1n, d: 1n } : fraction(rates[code as 'INR']);
            expect(converted.members.reduce((sum, m) => sum + BigInt(m.net), 0n)).toBe(0n);
            for (const { userId, net } of converted.members) {
              // exact = Σ net_c × (rate_target / rate_c) × 10^(dec_target − dec_c), as n / d
              let n = 0n;
              let d = 1n;
              for (const c of currencies) {
                const own = BigInt(c.members.find((m) => m.userId === userId)?.net ?? 0);
                const from = rateOf(c.currency);
                const to = rateOf(target);
                const shift = (DECIMALS[target] as number) - (DECIMALS[c.currency] as number);
                const a = own * to.n * from.d * 10n ** BigInt(Math.max(shift, 0));
                const b = to.d * from.n * 10n ** BigInt(Math.max(-shift, 0));
                [n, d] = [n * b + a * d, d * b];
              }
              const distance = BigInt(net) * d - n;
              expect(distance < d && distance > -d).toBe(true);
            }
            const left = new Map(converted.members.map((m) => [m.userId, m.net]));
            for (const { from, to, amount } of converted.simplified) {
              left.set(from, (left.get(from) ?? 0) + amount);
              left.set(to, (left.get(to) ?? 0) - amount);
            }
            expect([...left.values()].every((v) => v === 0)).toBe(true);
            const nonZero = converted.members.filter((m) => m.net !== 0).length;
            expect(converted.simplified.length).toBeLessThanOrEqual(Math.max(nonZero - 1, 0));
          },
        ),
        { numRuns: 20, seed },
      ),
    );
    // The properties held for real conversions, not only for refusals.
    expect(conversions).toBeGreaterThan(refused);
  }, 120_000);
});
