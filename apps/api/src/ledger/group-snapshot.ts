import { empty, type Sql, sql } from '@tally/db';
import { simplifyDebts, type Transfer } from '@tally/domain';
import { jsonColumn } from '../json-column';
import type { GroupRow } from './group-access';

/** One currency of API.md §6's balances. */
export type CurrencyBalances = {
  currency: string;
  members: { userId: string; net: number }[];
  simplified: Transfer[];
};

/** Members, nets and live-record counts of one group, as one statement saw them. */
export type GroupSnapshot = {
  lastSeq: number;
  /** The current memberships, but not pending members an account has claimed (see `aliases`). */
  memberIds: string[];
  /**
   * Pending members an account took over (API.md §3.1): claimed id → the account's id. Old records
   * keep naming the claimed id; the group applies their balance effects to the account.
   */
  aliases: Map<string, string>;
  nets: Map<string, Map<string, number>>;
  liveRecords: Map<string, number>;
};

/** A group's row and its snapshot, at one `last_seq`: what a change builds on. */
export type GroupState = { group: GroupRow; snapshot: GroupSnapshot };

export type GroupSnapshotRow = GroupRow & {
  member_ids: string[] | string;
  aliases: [string, string][] | string;
  balances: [string, string, number | string][] | string;
  currencies: [string, number | string][] | string;
};

/**
 * A group's row, members, balances and currencies in ONE statement, so they are one consistent
 * snapshot without an explicit transaction, and in one round trip. Costs members × currencies,
 * never the length of the group's history. `group` is the group id (a value, or a column of an
 * enclosing statement such as `r.group_id`): the write path and the balances read share it.
 * `onlyIf`, a condition on the enclosing statement, reads the snapshot only when it holds: `offset 0`
 * keeps the subquery from being merged into its join, so PostgreSQL tests it once, up front (a
 * "One-Time Filter"), instead of reading the snapshot and then dropping it.
 */
export const groupSnapshot = (group: Sql, onlyIf?: Sql): Sql =>
  sql`select g.id, g.name, g.description, g.currency, g.last_seq, g.version, g.created_at, g.updated_at,
       g.archived_at, g.simplify_debts,
       coalesce((select json_agg(m.user_id order by m.joined_at, m.user_id)
                   from group_members m where m.group_id = g.id and m.claimed_by is null), '[]') as member_ids,
       coalesce((select json_agg(json_build_array(m.user_id, m.claimed_by))
                   from group_members m where m.group_id = g.id and m.claimed_by is not null), '[]') as aliases,
       coalesce((select json_agg(json_build_array(b.currency, b.user_id, b.net))
                   from balances b where b.group_id = g.id and b.net <> 0), '[]') as balances,
       coalesce((select json_agg(json_build_array(c.currency, c.live_records) order by c.currency)
                   from group_currencies c where c.group_id = g.id and c.live_records > 0), '[]') as currencies
     from groups g where g.id = ${group}${onlyIf ? sql` and ${onlyIf} offset 0` : empty}`;

/** A row of `pair_balances` (migration 025): `[currency, lowId, highId, net]`, what `lowId` owes `highId`. */
export type PairRow = [string, string, string, number | string];

/**
 * The group's snapshot with its original debts (`pairs`), in one statement: API.md §6's balances.
 * Costs the snapshot plus the group's non-zero pairs.
 */
export const balancesSnapshot = (groupId: string): Sql =>
  sql`select s.*, coalesce((select json_agg(json_build_array(p.currency, p.low_id, p.high_id, p.net))
                              from pair_balances p where p.group_id = s.id and p.net <> 0), '[]') as pairs
        from (${groupSnapshot(sql`${groupId}`)}) s`;

/**
 * The original (unsimplified) debts per currency (API.md §6): the stored pairs with claimed pending
 * members read as their accounts (`aliases`), merged, each as a transfer from who owes to whom,
 * sorted by `from`, then `to`.
 */
export function originalDebts(
  pairs: readonly PairRow[],
  aliases: ReadonlyMap<string, string>,
): Map<string, Transfer[]> {
  const owed = new Map<string, Map<string, { from: string; to: string; amount: number }>>();
  for (const [currency, low, high, net] of pairs) {
    const a = aliases.get(low) ?? low;
    const b = aliases.get(high) ?? high;
    if (a === b) continue;
    // One entry per pair of people, kept as what the lower id owes the higher one.
    const [lowId, highId, signed] = a < b ? [a, b, Number(net)] : [b, a, -Number(net)];
    const perPair = owed.get(currency) ?? new Map();
    const key = `${lowId}\u0000${highId}`;
    const entry = perPair.get(key) ?? { from: lowId, to: highId, amount: 0 };
    entry.amount += signed;
    perPair.set(key, entry);
    owed.set(currency, perPair);
  }
  const result = new Map<string, Transfer[]>();
  for (const [currency, perPair] of owed) {
    const transfers = [...perPair.values()]
      .filter((t) => t.amount !== 0)
      .map((t) => (t.amount > 0 ? t : { from: t.to, to: t.from, amount: -t.amount }))
      .sort((x, y) => (x.from < y.from ? -1 : x.from > y.from ? 1 : x.to < y.to ? -1 : x.to > y.to ? 1 : 0));
    result.set(currency, transfers);
  }
  return result;
}

/** A row of `balancesSnapshot`. */
export type BalancesSnapshotRow = GroupSnapshotRow & { pairs: PairRow[] | string };

/** The balances of API.md §6 (`GET …/balances`). */
export type GroupBalances = {
  groupId: string;
  asOfSeq: number;
  simplifyDebts: boolean;
  currencies: (CurrencyBalances & { original: Transfer[] })[];
};

/**
 * API.md §6's balances from a row of `balancesSnapshot` (or a statement that extends it), when
 * `userId` is a member; undefined otherwise (a `404` for the caller).
 */
export function balancesFrom(
  row: BalancesSnapshotRow | undefined,
  userId: string,
): GroupBalances | undefined {
  if (!row) return undefined;
  const snapshot = toGroupSnapshot(row);
  if (!snapshot.memberIds.includes(userId)) return undefined;
  const original = originalDebts(jsonColumn(row.pairs), snapshot.aliases);
  return {
    groupId: row.id,
    asOfSeq: snapshot.lastSeq,
    simplifyDebts: row.simplify_debts,
    currencies: balancesOf(snapshot).map((c) => ({ ...c, original: original.get(c.currency) ?? [] })),
  };
}

/** The snapshot of one row of `groupSnapshot`. */
export function toGroupSnapshot(row: GroupSnapshotRow): GroupSnapshot {
  const nets = new Map<string, Map<string, number>>();
  for (const [currency, userId, net] of jsonColumn(row.balances)) {
    const perUser = nets.get(currency) ?? new Map<string, number>();
    perUser.set(userId, Number(net));
    nets.set(currency, perUser);
  }
  return {
    lastSeq: Number(row.last_seq),
    memberIds: jsonColumn(row.member_ids),
    aliases: new Map(jsonColumn(row.aliases)),
    nets,
    liveRecords: new Map(jsonColumn(row.currencies).map(([currency, n]) => [currency, Number(n)])),
  };
}

/** The row and snapshot of one row of `groupSnapshot`. */
export function toGroupState(row: GroupSnapshotRow): GroupState {
  const group: GroupRow = {
    id: row.id,
    name: row.name,
    description: row.description,
    currency: row.currency,
    last_seq: Number(row.last_seq),
    version: Number(row.version),
    created_at: row.created_at,
    updated_at: row.updated_at,
    archived_at: row.archived_at,
    simplify_debts: row.simplify_debts,
  };
  return { group, snapshot: toGroupSnapshot(row) };
}

/** A copy a change may modify without touching the state it came from (a cached one, say). */
export function copyState(state: GroupState): GroupState {
  const { group, snapshot } = state;
  return {
    group: { ...group },
    snapshot: {
      lastSeq: snapshot.lastSeq,
      memberIds: [...snapshot.memberIds],
      aliases: new Map(snapshot.aliases),
      nets: new Map([...snapshot.nets].map(([currency, perUser]) => [currency, new Map(perUser)])),
      liveRecords: new Map(snapshot.liveRecords),
    },
  };
}

/**
 * The balances of API.md §6 from a snapshot: every member in every currency that has live
 * records, plus any former member whose net is not zero, so the nets always add up to 0.
 */
export function balancesOf(snapshot: GroupSnapshot): CurrencyBalances[] {
  return [...snapshot.liveRecords.entries()]
    .filter(([, count]) => count > 0)
    .map(([currency]) => currency)
    .sort()
    .map((currency) => {
      const nets = new Map<string, number>(snapshot.memberIds.map((id) => [id, 0]));
      for (const [userId, net] of snapshot.nets.get(currency) ?? []) if (net !== 0) nets.set(userId, net);
      const members = [...nets].map(([userId, net]) => ({ userId, net }));
      return { currency, members, simplified: simplifyDebts(members) };
    });
}
