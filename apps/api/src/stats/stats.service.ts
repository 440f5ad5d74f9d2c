import { empty, type Sql, sql } from '@tally/db';
import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { convertedBalances, type UsedRate } from '../fx/converted-balances';
import type { GroupRates } from '../fx/group-rates';
import type { RatesProvider } from '../fx/rates-provider';
import { createRunRead, named, readNamed } from '../read-queries';

/** The query of the statistics (API.md §14), as the schemas validated it. */
export type StatsQuery = { from?: string; to?: string; currency?: string };
export type GroupStatsBy = 'category' | 'member' | 'month';
export type MyStatsBy = 'category' | 'group' | 'month';

type MemberFigure = { userId: string; share: number; paid: number };
/** One bucket of a breakdown: a category id (null: none), a member, a month `YYYY-MM` or a group. */
type Bucket = { key: string | null; total: number; expenses: number; members: MemberFigure[] };
type CurrencyStats = {
  currency: string;
  total: number;
  expenses: number;
  members: MemberFigure[];
  buckets: Bucket[];
};
type ConvertedStats = {
  currency: string;
  total: number;
  members: MemberFigure[];
  buckets: { key: string | null; total: number }[];
  rates: UsedRate[];
};

export type GroupStats = {
  groupId: string;
  by: GroupStatsBy;
  from: string | null;
  to: string | null;
  currencies: CurrencyStats[];
  /** The totals in `?currency=`, when asked and every currency has a rate; else null. */
  converted: ConvertedStats | null;
  /** The currencies that had no rate into `?currency=` (then `converted` is null). */
  unconverted: string[];
};

type MyBucket = { key: string | null; share: number; paid: number; expenses: number };
export type MyStats = {
  userId: string;
  by: MyStatsBy;
  from: string | null;
  to: string | null;
  currencies: { currency: string; share: number; paid: number; expenses: number; buckets: MyBucket[] }[];
  converted: {
    currency: string;
    share: number;
    paid: number;
    buckets: { key: string | null; share: number; paid: number }[];
    rates: UsedRate[];
  } | null;
  unconverted: string[];
};

/**
 * The bucket's key of an expense `e` (`group`), and how the answer names it (`select`, computed once
 * per bucket). Months are UTC: grouped by the expression `expenses_month_idx` (migration 023)
 * indexes, whose statistics let the planner hash ~36 months instead of sorting every share (by
 * `to_char` per row, or an expression without statistics, the statement was 5× slower).
 */
const MONTH = sql`date_trunc('month', e.occurred_at at time zone 'UTC')`;
const KEYS: Record<GroupStatsBy | MyStatsBy, { group: Sql; select: Sql }> = {
  category: { group: sql`e.category_id`, select: sql`e.category_id` },
  month: { group: MONTH, select: sql`to_char(${MONTH}, 'YYYY-MM')` },
  member: { group: sql`null::text`, select: sql`null::text` },
  group: { group: sql`e.group_id`, select: sql`e.group_id` },
};

const rangeOf = (q: StatsQuery): Sql[] => [
  q.from === undefined ? empty : sql` and e.occurred_at >= ${q.from}::timestamptz`,
  q.to === undefined ? empty : sql` and e.occurred_at < ${q.to}::timestamptz`,
];

/** The statement's name: one text per breakdown and range shape (a named statement has one text). */
const nameOf = (prefix: string, by: string, q: StatsQuery) =>
  `${prefix}_${by}_${q.from === undefined ? 0 : 1}${q.to === undefined ? 0 : 1}`;

type GroupRow = {
  member: boolean;
  currency: string | null;
  key: string | null;
  user_id: string | null;
  share: string | null;
  paid: string | null;
  expenses: string | null;
};

/**
 * What each live expense contributes, one row per share (`share`), per payer (`paid`) and one for
 * the expense itself (`n` = 1, no member): unnested from the row in ONE pass (a lateral), so the
 * expenses are read once and nothing is materialized.
 */
const CONTRIBUTIONS = sql`cross join lateral (
      select s."userId" as user_id, s.owed as share, 0::bigint as paid, 0 as n
        from jsonb_to_recordset(e.shares) as s("userId" text, owed bigint)
      union all
      select p."userId", 0::bigint, p.amount, 0 from jsonb_to_recordset(e.paid_by) as p("userId" text, amount bigint)
      union all
      select null, 0::bigint, 0::bigint, 1) v`;

/**
 * ONE aggregate statement over the group's live expenses in the range (`expenses_group_live_idx`):
 * each expense's shares and payers unnested from its row, summed per currency, bucket and member
 * (a claimed pending member counted as its account), plus a row per bucket with its expense count
 * (`user_id` null). Membership is in the same statement: one row `member: false` for a non-member.
 */
const groupStatement = (groupId: string, userId: string, by: GroupStatsBy, q: StatsQuery) => {
  const [from, to] = rangeOf(q);
  return named(
    nameOf('stats_group', by, q),
    sql`with a as (select exists (select 1 from group_members m where m.group_id = ${groupId}::text
                                                        and m.user_id = ${userId}::text) as member)
    select a.member, r.* from a left join lateral (
      select e.currency, ${KEYS[by].select} as key, coalesce(gm.claimed_by, v.user_id) as user_id,
             sum(v.share)::text as share, sum(v.paid)::text as paid, sum(v.n)::text as expenses
        from expenses e ${CONTRIBUTIONS}
        left join group_members gm on gm.group_id = e.group_id and gm.user_id = v.user_id
       where e.group_id = ${groupId}::text and e.deleted_at is null${from}${to}
       group by e.currency, ${KEYS[by].group}, coalesce(gm.claimed_by, v.user_id)) r on a.member`,
  );
};

type MyRow = { currency: string; key: string | null; share: string; paid: string; expenses: string };

/**
 * ONE aggregate statement over the live expenses in the range of every group I am in that name me
 * (or a pending member I claimed: `involved_ids`), summing what I owe and paid, per currency and
 * bucket.
 */
const myStatement = (userId: string, by: MyStatsBy, q: StatsQuery) => {
  const [from, to] = rangeOf(q);
  return named(
    nameOf('stats_me', by, q),
    sql`with mine as (select m.group_id, m.user_id from group_members m where m.user_id = ${userId}::text
                      union all
                      select c.group_id, c.user_id from group_members c where c.claimed_by = ${userId}::text)
    select e.currency, ${KEYS[by].select} as key,
           sum(case when mine.user_id is not null then v.share else 0 end)::text as share,
           sum(case when mine.user_id is not null then v.paid else 0 end)::text as paid,
           sum(v.n)::text as expenses
      from expenses e ${CONTRIBUTIONS}
      left join mine on mine.group_id = e.group_id and mine.user_id = v.user_id
     where e.group_id in (select group_id from group_members where user_id = ${userId}::text)
       and e.deleted_at is null${from}${to}
       and e.involved_ids && array(select user_id from mine)
     group by e.currency, ${KEYS[by].group}`,
  );
};

/** The range as the answer states it: the instants of `from` and `to`, null when not given. */
const rangeAnswer = (q: StatsQuery) => ({
  from: q.from === undefined ? null : new Date(q.from).toISOString(),
  to: q.to === undefined ? null : new Date(q.to).toISOString(),
});

/** A sum the API answers as a JSON number: beyond a safe integer it is refused, never rounded. */
function safe(text: string | null): number {
  const value = Number(text ?? 0);
  if (!Number.isSafeInteger(value)) {
    throw new AppError(
      'validation_failed',
      422,
      'A total is beyond what a JSON number holds exactly: narrow from/to.',
      {
        errors: [{ path: 'from', message: 'the range sums beyond 2^53 − 1 minor units' }],
      },
    );
  }
  return value;
}

const byKey = (a: { key: string | null }, b: { key: string | null }) =>
  a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1;
const byCode = (a: { currency: string }, b: { currency: string }) => (a.currency < b.currency ? -1 : 1);

/**
 * Converts named figures, per currency, into `target` with the conversion of the balances (API.md
 * §6): every figure is one "member" of its currency, and one more entry makes each currency's
 * figures add up to zero, as balances do. Each converted figure is within one minor unit of exact.
 * Null (and the currencies without a rate) when a rate is missing.
 */
async function convertFigures(
  figures: { currency: string; values: Map<string, number> }[],
  target: string,
  groupRates: GroupRates,
  provider: RatesProvider | undefined,
): Promise<{ values: Map<string, number>; rates: UsedRate[] } | { unconverted: string[] }> {
  const SINK = '\u0000sink';
  const currencies = figures.map(({ currency, values }) => {
    const members = [...values].map(([userId, net]) => ({ userId, net }));
    const sum = members.reduce((s, m) => s + m.net, 0);
    return { currency, members: [...members, { userId: SINK, net: -sum }] };
  });
  try {
    const result = await convertedBalances(currencies, target, groupRates, provider);
    return { values: new Map(result.members.map((m) => [m.userId, m.net])), rates: result.rates };
  } catch (error) {
    if (error instanceof AppError && error.code === 'rate_unavailable') {
      const missing = (error.errors ?? [])
        .map((e) => e.path.replace(/^currencies\.|^in$/, ''))
        .filter(Boolean);
      return { unconverted: missing.length > 0 ? missing : [target] };
    }
    throw error;
  }
}

const NO_RATES: GroupRates = {
  groupId: '',
  base: null,
  rates: {},
  asOf: null,
  updatedBy: null,
  updatedAt: null,
};

/**
 * Statistics (API.md §14): what a group spent, and each member's share, per currency and bucket,
 * from the ledger's rows in one aggregate statement. Settlements are not spending: they move
 * money between members and are not counted. Negative amounts (income, reimbursements) sum as they are.
 */
export function createStatsService(deps: {
  knex: Knex;
  provider?: RatesProvider | undefined;
  /** The group's own rates (fx/group-rates.ts), read only when a conversion is asked for. */
  groupRates: (userId: string, groupId: string) => Promise<GroupRates>;
}) {
  return {
    async group(
      userId: string,
      groupId: string,
      by: GroupStatsBy,
      query: StatsQuery,
      db: Knex = deps.knex,
    ): Promise<GroupStats> {
      const rows = await readNamed<GroupRow>(createRunRead(db), groupStatement(groupId, userId, by, query));
      if (!rows[0]?.member) throw notFound('Group');
      const perCurrency = new Map<string, Map<string | null, Bucket>>();
      for (const row of rows) {
        if (row.currency === null) continue;
        const buckets = perCurrency.get(row.currency) ?? new Map<string | null, Bucket>();
        perCurrency.set(row.currency, buckets);
        // By member, a member's row is their bucket; the count rows (no member) are the currency's.
        const key = by === 'member' ? row.user_id : row.key;
        const bucket = buckets.get(key) ?? { key, total: 0, expenses: 0, members: [] };
        buckets.set(key, bucket);
        if (row.user_id === null) {
          bucket.expenses += safe(row.expenses);
          continue;
        }
        const share = safe(row.share);
        const paid = safe(row.paid);
        bucket.total += share;
        const member = bucket.members.find((m) => m.userId === row.user_id);
        if (member) {
          member.share += share;
          member.paid += paid;
        } else bucket.members.push({ userId: row.user_id, share, paid });
      }
      const currencies: CurrencyStats[] = [...perCurrency].map(([currency, map]) => {
        const all = [...map.values()];
        const counts = by === 'member' ? map.get(null) : undefined;
        const buckets = all.filter((b) => !(by === 'member' && b.key === null));
        const members = new Map<string, MemberFigure>();
        for (const b of buckets) {
          for (const m of b.members) {
            const seen = members.get(m.userId) ?? { userId: m.userId, share: 0, paid: 0 };
            seen.share += m.share;
            seen.paid += m.paid;
            members.set(m.userId, seen);
          }
          b.members.sort((x, y) => (x.userId < y.userId ? -1 : 1));
        }
        if (by === 'member') for (const b of buckets) b.expenses = 0;
        return {
          currency,
          total: buckets.reduce((s, b) => s + b.total, 0),
          expenses: counts ? counts.expenses : buckets.reduce((s, b) => s + b.expenses, 0),
          members: [...members.values()].sort((x, y) => (x.userId < y.userId ? -1 : 1)),
          buckets: buckets.sort(byKey),
        };
      });
      currencies.sort(byCode);
      const stats: GroupStats = {
        groupId,
        by,
        ...rangeAnswer(query),
        currencies,
        converted: null,
        unconverted: [],
      };
      if (query.currency === undefined) return stats;
      const figures = currencies.map((c) => {
        const values = new Map<string, number>([['total', c.total]]);
        for (const b of c.buckets) values.set(`b\u0000${b.key ?? ''}`, b.total);
        for (const m of c.members) {
          values.set(`s\u0000${m.userId}`, m.share);
          values.set(`p\u0000${m.userId}`, m.paid);
        }
        return { currency: c.currency, values };
      });
      const rates = await deps.groupRates(userId, groupId);
      const out = await convertFigures(figures, query.currency, rates, deps.provider);
      if ('unconverted' in out) return { ...stats, unconverted: out.unconverted };
      const v = (name: string) => out.values.get(name) ?? 0;
      const keys = [...new Set(currencies.flatMap((c) => c.buckets.map((b) => b.key)))];
      const users = [...new Set(currencies.flatMap((c) => c.members.map((m) => m.userId)))].sort();
      stats.converted = {
        currency: query.currency,
        total: v('total'),
        members: users.map((u) => ({ userId: u, share: v(`s\u0000${u}`), paid: v(`p\u0000${u}`) })),
        buckets: keys.map((key) => ({ key, total: v(`b\u0000${key ?? ''}`) })).sort(byKey),
        rates: out.rates,
      };
      return stats;
    },

    /** My share across my groups; a conversion uses the provider's rates only (groups' rates differ). */
    async mine(userId: string, by: MyStatsBy, query: StatsQuery, db: Knex = deps.knex): Promise<MyStats> {
      const rows = await readNamed<MyRow>(createRunRead(db), myStatement(userId, by, query));
      const perCurrency = new Map<string, MyBucket[]>();
      for (const row of rows) {
        const buckets = perCurrency.get(row.currency) ?? [];
        perCurrency.set(row.currency, buckets);
        buckets.push({
          key: row.key,
          share: safe(row.share),
          paid: safe(row.paid),
          expenses: safe(row.expenses),
        });
      }
      const currencies = [...perCurrency]
        .map(([currency, buckets]) => ({
          currency,
          share: buckets.reduce((s, b) => s + b.share, 0),
          paid: buckets.reduce((s, b) => s + b.paid, 0),
          expenses: buckets.reduce((s, b) => s + b.expenses, 0),
          buckets: buckets.sort(byKey),
        }))
        .sort(byCode);
      const stats: MyStats = {
        userId,
        by,
        ...rangeAnswer(query),
        currencies,
        converted: null,
        unconverted: [],
      };
      if (query.currency === undefined) return stats;
      const figures = currencies.map((c) => {
        const values = new Map<string, number>([
          ['share', c.share],
          ['paid', c.paid],
        ]);
        for (const b of c.buckets) {
          values.set(`s\u0000${b.key ?? ''}`, b.share);
          values.set(`p\u0000${b.key ?? ''}`, b.paid);
        }
        return { currency: c.currency, values };
      });
      const out = await convertFigures(figures, query.currency, NO_RATES, deps.provider);
      if ('unconverted' in out) return { ...stats, unconverted: out.unconverted };
      const v = (name: string) => out.values.get(name) ?? 0;
      const keys = [...new Set(currencies.flatMap((c) => c.buckets.map((b) => b.key)))];
      stats.converted = {
        currency: query.currency,
        share: v('share'),
        paid: v('paid'),
        buckets: keys
          .map((key) => ({ key, share: v(`s\u0000${key ?? ''}`), paid: v(`p\u0000${key ?? ''}`) }))
          .sort(byKey),
        rates: out.rates,
      };
      return stats;
    },
  };
}

/** The statement of a group's statistics, for the bench's EXPLAIN (infra/bench/stats.ts). */
export const groupStatsStatement = (groupId: string, userId: string, by: GroupStatsBy, q: StatsQuery) =>
  groupStatement(groupId, userId, by, q).statement;
export const myStatsStatement = (userId: string, by: MyStatsBy, q: StatsQuery) =>
  myStatement(userId, by, q).statement;

export type StatsService = ReturnType<typeof createStatsService>;
