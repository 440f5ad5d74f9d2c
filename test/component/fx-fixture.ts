/**
 * What the currency-conversion tests share: the shape of converted balances, an expense split
 * equally in one currency, and the nets of a conversion by member.
 */
import { newKey, type TestServer, type TestUser } from '../support/test-server';

export type Converted = {
  currency: string;
  members: { userId: string; net: number }[];
  simplified: { from: string; to: string; amount: number }[];
  original: { from: string; to: string; amount: number }[];
  rates: { currency: string; base: string; rate: string; source: string; asOf: string }[];
};

/** `amount` in `currency` paid by `payer`, split equally between `between`. */
export const spend = (
  t: TestServer,
  payer: TestUser,
  groupId: string,
  amount: number,
  currency: string,
  between: TestUser[],
) =>
  t.request
    .post('/v1/expenses')
    .set(payer.auth)
    .set('Idempotency-Key', newKey())
    .send({
      groupId,
      description: `${currency} ${amount}`,
      amount,
      currency,
      paidBy: payer.id,
      split: { type: 'equal', between: between.map((u) => u.id) },
    })
    .expect(201);

export const netsOf = (converted: Converted) =>
  Object.fromEntries(converted.members.map((m) => [m.userId, m.net]));
