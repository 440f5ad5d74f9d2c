import { empty, join, type Sql, sql } from '@tally/db';
import { type NamedSql, named } from '../read-queries';

/** The query of the statistics (API.md §14), as the schemas validated it. */
export type StatsQuery = { from?: string; to?: string; currency?: string };
export type GroupStatsBy = 'category' | 'member' | 'month';
export type MyStatsBy = 'category' | 'group' | 'month';

/**
 * Where the statements read: `totals`, the whole months inside the range from the stored totals
 * (`expense_totals`, migration 027) and the partial months at its edges from the live rows; `rows`,
 * everything from the live rows (the property test's oracle: the answers must be the same).
 */
export type StatsSource = 'totals' | 'rows';

/**
 * An expense's bucket key as the answer names it, from a live row `e` or a stored total `t`. Months
 * are UTC `YYYY-MM`; a stored total's month is its first instant.
 */
const KEYS: Record<GroupStatsBy | MyStatsBy, { row: Sql; total: Sql }> = {
  category: { row: sql`e.category_id`, total: sql`nullif(t.category_id, '')` },
  month: {
    row: sql`to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM')`,
    total: sql`to_char(t.month at time zone 'UTC', 'YYYY-MM')`,
  },
  member: { row: sql`null::text`, total: sql`null::text` },
  group: { row: sql`e.group_id`, total: sql`t.group_id` },
};

/**
 * The range (`b`): `f` and `t` as asked (null: open), and the whole UTC months inside them,
 * [`lo`, `hi`) (null: open; `lo` ≥ `hi`: none). Computed by PostgreSQL from the timestamps as given,
 * so a fraction finer than a millisecond counts as it does in the comparison with `occurred_at`.
 */
const bounds = (q: StatsQuery) => sql`b as (
      select f, t,
             case when date_trunc('month', f at time zone 'UTC') at time zone 'UTC' = f then f
                  else (date_trunc('month', f at time zone 'UTC') + interval '1 month') at time zone 'UTC' end as lo,
             date_trunc('month', t at time zone 'UTC') at time zone 'UTC' as hi
        from (select ${q.from ?? null}::timestamptz as f, ${q.to ?? null}::timestamptz as t) p)`;

/** The stored totals `t` of the whole months of the range (`expense_totals`' key leads with group, month). */
const WHOLE_MONTHS = sql`t.month >= (select coalesce(b.lo, '-infinity') from b)
         and t.month < (select coalesce(b.hi, 'infinity') from b)`;

/**
 * The live rows `e` the totals do not hold: reading `totals`, the edges of the range outside its
 * whole months, [f, min(lo, t)) and [max(hi, lo, f), t) (both the whole range when it holds no
 * whole month): two ranges of `expenses_group_live_idx`. Reading `rows`, the whole range.
 */
const liveRanges = (source: StatsSource): Sql[] =>
  source === 'rows'
    ? [
        sql`e.occurred_at >= (select coalesce(b.f, '-infinity') from b)
         and e.occurred_at < (select coalesce(b.t, 'infinity') from b)`,
      ]
    : [
        sql`e.occurred_at >= (select b.f from b) and e.occurred_at < (select least(b.lo, b.t) from b)`,
        sql`e.occurred_at >= (select greatest(b.hi, b.lo, b.f) from b) and e.occurred_at < (select b.t from b)`,
      ];
const liveRange = (source: StatsSource) => sql`(${join(liveRanges(source), ' or ')})`;

/**
 * What each live expense contributes, one row per share (`share`), per payer (`paid`) and one for
 * the expense itself (`n` = 1, no member): unnested from the row in ONE pass (a lateral).
 */
const CONTRIBUTIONS = sql`cross join lateral (
      select s."userId" as user_id, s.owed as share, 0::bigint as paid, 0 as n
        from jsonb_to_recordset(e.shares) as s("userId" text, owed bigint)
      union all
      select p."userId", 0::bigint, p.amount, 0 from jsonb_to_recordset(e.paid_by) as p("userId" text, amount bigint)
      union all
      select null, 0::bigint, 0::bigint, 1) v`;

/** The stored totals' part of a statement (`part`, then `union all` with the live rows'); none reading `rows`. */
const totalsPart = (source: StatsSource, part: Sql) =>
  source === 'rows'
    ? empty
    : sql`${part}
      union all
      `;

/** The statement's name: one text per breakdown and source (a named statement has one text). */
const nameOf = (prefix: string, by: string, source: StatsSource) => `${prefix}_${by}_${source}`;

export type GroupRow = {
  member: boolean;
  currency: string | null;
  key: string | null;
  user_id: string | null;
  share: string | null;
  paid: string | null;
  expenses: string | null;
};

/**
 * ONE aggregate statement: the group's stored totals of the range's whole months (rows of `expenses`
 * > 0: the member named by an expense; member `''`: the expense count) and the contributions of its
 * live expenses at the edges, summed per currency, bucket and member (a claimed pending member
 * counted as its account), plus a row per bucket with its expense count (`user_id` null).
 * Membership is in the same statement: one row `member: false` for a non-member.
 */
export const groupStatement = (
  groupId: string,
  userId: string,
  by: GroupStatsBy,
  q: StatsQuery,
  source: StatsSource = 'totals',
): NamedSql => {
  const totals = totalsPart(
    source,
    sql`select t.currency, ${KEYS[by].total} as key, nullif(t.member, '') as user_id, t.share, t.paid,
             case when t.member = '' then t.expenses else 0 end as n
        from expense_totals t
       where t.group_id = ${groupId}::text and ${WHOLE_MONTHS} and t.expenses > 0`,
  );
  return named(
    nameOf('stats_group', by, source),
    sql`with a as (select exists (select 1 from group_members m where m.group_id = ${groupId}::text
                                                        and m.user_id = ${userId}::text) as member),
    ${bounds(q)},
    r as (
      ${totals}select e.currency, ${KEYS[by].row} as key, v.user_id, v.share, v.paid, v.n
        from expenses e ${CONTRIBUTIONS}
       where e.group_id = ${groupId}::text and e.deleted_at is null and ${liveRange(source)})
    select a.member, x.* from a left join lateral (
      select r.currency, r.key, coalesce(gm.claimed_by, r.user_id) as user_id,
             sum(r.share)::text as share, sum(r.paid)::text as paid, sum(r.n)::text as expenses
        from r left join group_members gm on gm.group_id = ${groupId}::text and gm.user_id = r.user_id
       group by r.currency, r.key, coalesce(gm.claimed_by, r.user_id)) x on a.member`,
  );
};

export type MyRow = { currency: string; key: string | null; share: string; paid: string; expenses: string };

/**
 * ONE aggregate statement over every group I am in: my stored totals of the range's whole months
 * (rows of `involved` > 0: the expenses whose `involved_ids` name me), in the groups where I claimed
 * no pending member; and the live expenses that name me (or a pending member I claimed:
 * `involved_ids`) at the range's edges, and in the whole range in the groups where I claimed one
 * (there an expense may name both of us: counted once, which per-member totals cannot tell).
 */
export const myStatement = (
  userId: string,
  by: MyStatsBy,
  q: StatsQuery,
  source: StatsSource = 'totals',
): NamedSql => {
  const totals = totalsPart(
    source,
    sql`select t.currency, ${KEYS[by].total} as key, t.share, t.paid, t.involved as n
        from expense_totals t
       where t.member = ${userId}::text and t.group_id in (select group_id from plain)
         and ${WHOLE_MONTHS} and t.involved > 0`,
  );
  // The live rows: reading `totals`, the edges in the groups where I claimed no one, and the whole
  // range in those where I did (one index range each, per group); reading `rows`, the range.
  // Materialized: were `involved_ids && …` pushed into it, the planner would rather read every
  // expense naming me by `expenses_involved_ids_idx` (60,000 of the bench's) than the edges.
  const rowsIn = (groups: Sql, range: Sql) => sql`select e.* from expenses e
       where ${groups} and e.deleted_at is null and ${range}`;
  const live =
    source === 'rows'
      ? rowsIn(sql`e.group_id in (select group_id from groups_in)`, liveRange(source))
      : join(
          [
            ...liveRanges(source).map((range) =>
              rowsIn(sql`e.group_id in (select group_id from plain)`, range),
            ),
            rowsIn(sql`e.group_id in (select group_id from claimed_in)`, liveRange('rows')),
          ],
          '\n      union all\n      ',
        );
  return named(
    nameOf('stats_me', by, source),
    sql`with mine as (select m.group_id, m.user_id from group_members m where m.user_id = ${userId}::text
                      union all
                      select c.group_id, c.user_id from group_members c where c.claimed_by = ${userId}::text),
    groups_in as (select group_id from group_members where user_id = ${userId}::text),
    claimed as (select group_id from group_members where claimed_by = ${userId}::text),
    plain as (select group_id from groups_in where group_id not in (select group_id from claimed)),
    claimed_in as (select group_id from groups_in where group_id in (select group_id from claimed)),
    ${bounds(q)},
    live as materialized (${live}),
    r as (
      ${totals}select e.currency, ${KEYS[by].row} as key,
             case when mine.user_id is not null then v.share else 0 end as share,
             case when mine.user_id is not null then v.paid else 0 end as paid, v.n
        from live e ${CONTRIBUTIONS}
        left join mine on mine.group_id = e.group_id and mine.user_id = v.user_id
       where e.involved_ids && array(select user_id from mine))
    select r.currency, r.key, sum(r.share)::text as share, sum(r.paid)::text as paid, sum(r.n)::text as expenses
      from r group by r.currency, r.key`,
  );
};
