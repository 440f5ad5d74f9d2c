import { type BalanceDelta, simplifyDebts, type Transfer } from '@tally/domain';
import type { Knex } from 'knex';
import { memberIdsOf } from './group-access';

type Db = Knex | Knex.Transaction;

export type CurrencyBalances = {
  currency: string;
  members: { userId: string; net: number }[];
  simplified: Transfer[];
};

/** Adds deltas to the stored nets (upsert), in the caller's transaction. */
export async function applyBalanceDeltas(
  trx: Knex.Transaction,
  groupId: string,
  deltas: readonly BalanceDelta[],
) {
  if (deltas.length === 0) return;
  const rows = deltas.map((d) => ({
    group_id: groupId,
    currency: d.currency,
    user_id: d.userId,
    net: d.delta,
  }));
  await trx('balances')
    .insert(rows)
    .onConflict(['group_id', 'currency', 'user_id'])
    .merge({ net: trx.raw('balances.net + excluded.net') });
}

/** Counts live records per currency, so that a currency is listed exactly while it has some. */
export async function adjustCurrencyRecords(
  trx: Knex.Transaction,
  groupId: string,
  currency: string,
  by: 1 | -1,
) {
  await trx('group_currencies')
    .insert({ group_id: groupId, currency, live_records: by })
    .onConflict(['group_id', 'currency'])
    .merge({ live_records: trx.raw('group_currencies.live_records + excluded.live_records') });
}

/**
 * The balances of a group from the incrementally kept rows: cost depends on members × currencies,
 * never on how many expenses the group has. Every member appears in every listed currency; a
 * former member still appears where their net is not zero, so the nets always add up to 0.
 */
export async function readBalances(db: Db, groupId: string): Promise<CurrencyBalances[]> {
  // Sequential on purpose: inside a transaction the queries share one connection anyway.
  const currencies: string[] = await db('group_currencies')
    .where({ group_id: groupId })
    .andWhere('live_records', '>', 0)
    .orderBy('currency')
    .pluck('currency');
  const memberIds = await memberIdsOf(db, groupId);
  const rows = await db('balances').where({ group_id: groupId }).select('currency', 'user_id', 'net');
  return currencies.map((currency) => {
    const nets = new Map<string, number>(memberIds.map((id) => [id, 0]));
    for (const row of rows as { currency: string; user_id: string; net: number | string }[]) {
      const net = Number(row.net);
      if (row.currency === currency && (net !== 0 || nets.has(row.user_id))) nets.set(row.user_id, net);
    }
    const members = [...nets].map(([userId, net]) => ({ userId, net }));
    return { currency, members, simplified: simplifyDebts(members) };
  });
}
