import { AppError, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { convertedBalances, type UsedRate } from '../fx/converted-balances';
import type { GroupRates } from '../fx/group-rates';
import type { RatesProvider } from '../fx/rates-provider';
import { createRunRead, readNamed } from '../read-queries';
import {
  type GroupRow,
  type GroupStatsBy,
  groupStatement,
  type MyRow,
  type MyStatsBy,
  myStatement,
  type StatsQuery,
  type StatsSource,
} from './stats-statements';

export type { GroupStatsBy, MyStatsBy, StatsQuery } from './stats-statements';

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

/** The name of a figure of bucket `key` (or member) in a conversion: a prefix, and the key. */
const figure = (prefix: string, key: string | null) => `${prefix}\u0000${key ?? ''}`;

/**
 * Converts named figures (`figuresOf` each currency's), into `target` with the conversion of the
 * balances (API.md §6): every figure is one "member" of its currency, and one more entry makes each
 * currency's figures add up to zero, as balances do. Each converted figure is within one minor unit
 * of exact; `keys` are the buckets' keys of every currency. The currencies without a rate when one
 * is missing.
 */
async function convertFigures<C extends { currency: string; buckets: { key: string | null }[] }>(
  currencies: C[],
  figuresOf: (c: C) => [string, number][],
  target: string,
  groupRates: GroupRates,
  provider: RatesProvider | undefined,
): Promise<
  { value: (name: string) => number; keys: (string | null)[]; rates: UsedRate[] } | { unconverted: string[] }
> {
  const SINK = '\u0000sink';
  const balances = currencies.map((c) => {
    const members = figuresOf(c).map(([userId, net]) => ({ userId, net }));
    const sum = members.reduce((s, m) => s + m.net, 0);
    return { currency: c.currency, members: [...members, { userId: SINK, net: -sum }] };
  });
  try {
    const result = await convertedBalances(balances, target, groupRates, provider);
    const values = new Map(result.members.map((m) => [m.userId, m.net]));
    return {
      value: (name) => values.get(name) ?? 0,
      keys: [...new Set(currencies.flatMap((c) => c.buckets.map((b) => b.key)))],
      rates: result.rates,
    };
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
 * in one aggregate statement over the stored totals of the whole months and the live rows of the edges. Settlements are not spending: they move
 * money between members and are not counted. Negative amounts (income, reimbursements) sum as they are.
 */
export function createStatsService(deps: {
  knex: Knex;
  provider?: RatesProvider | undefined;
  /** The group's own rates (fx/group-rates.ts), read only when a conversion is asked for. */
  groupRates: (userId: string, groupId: string) => Promise<GroupRates>;
  /** Where the statements read (the stored totals; `rows`: the property test's oracle). @default 'totals' */
  source?: StatsSource;
}) {
  const source = deps.source ?? 'totals';
  return {
    async group(
      userId: string,
      groupId: string,
      by: GroupStatsBy,
      query: StatsQuery,
      db: Knex = deps.knex,
    ): Promise<GroupStats> {
      const rows = await readNamed<GroupRow>(
        createRunRead(db),
        groupStatement(groupId, userId, by, query, source),
      );
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
      const rates = await deps.groupRates(userId, groupId);
      const out = await convertFigures(
        currencies,
        (c) => [
          ['total', c.total],
          ...c.buckets.map((b): [string, number] => [figure('b', b.key), b.total]),
          ...c.members.flatMap((m): [string, number][] => [
            [figure('s', m.userId), m.share],
            [figure('p', m.userId), m.paid],
          ]),
        ],
        query.currency,
        rates,
        deps.provider,
      );
      if ('unconverted' in out) return { ...stats, unconverted: out.unconverted };
      const v = out.value;
      const users = [...new Set(currencies.flatMap((c) => c.members.map((m) => m.userId)))].sort();
      stats.converted = {
        currency: query.currency,
        total: v('total'),
        members: users.map((u) => ({ userId: u, share: v(figure('s', u)), paid: v(figure('p', u)) })),
        buckets: out.keys.map((key) => ({ key, total: v(figure('b', key)) })).sort(byKey),
        rates: out.rates,
      };
      return stats;
    },

    /** My share across my groups; a conversion uses the provider's rates only (groups' rates differ). */
    async mine(userId: string, by: MyStatsBy, query: StatsQuery, db: Knex = deps.knex): Promise<MyStats> {
      const rows = await readNamed<MyRow>(createRunRead(db), myStatement(userId, by, query, source));
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
      const out = await convertFigures(
        currencies,
        (c) => [
          ['share', c.share],
          ['paid', c.paid],
          ...c.buckets.flatMap((b): [string, number][] => [
            [figure('s', b.key), b.share],
            [figure('p', b.key), b.paid],
          ]),
        ],
        query.currency,
        NO_RATES,
        deps.provider,
      );
      if ('unconverted' in out) return { ...stats, unconverted: out.unconverted };
      const v = out.value;
      stats.converted = {
        currency: query.currency,
        share: v('share'),
        paid: v('paid'),
        buckets: out.keys
          .map((key) => ({ key, share: v(figure('s', key)), paid: v(figure('p', key)) }))
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
