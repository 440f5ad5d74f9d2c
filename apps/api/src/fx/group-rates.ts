import { sql } from '@tally/db';
import { isRealDate, parseRate } from '@tally/domain';
import { AppError, type FieldError, notFound, validationFailed } from '@tally/http-kit';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { jsonColumn } from '../json-column';
import {
  type BalancesSnapshotRow,
  balancesFrom,
  balancesSnapshot,
  type GroupBalances,
} from '../ledger/group-snapshot';
import type { WriteContext, WriteResult } from '../ledger/write-runner';
import { createRunRead, named, readNamed } from '../read-queries';

/** A group's own exchange rates (API.md §6): units of each currency per one `base`, as decimal strings. */
export type GroupRates = {
  groupId: string;
  base: string | null;
  rates: Record<string, string>;
  asOf: string | null;
  updatedBy: string | null;
  updatedAt: string | null;
};

export type RatesInput = { base: string; rates: Record<string, string>; asOf: string };

type RatesRow = {
  id: string;
  base: string | null;
  rates: Record<string, string> | string | null;
  as_of: string | null;
  updated_by: string | null;
  updated_at: Date | string | null;
};

/** The group's rates with the caller's membership: no row for a non-member or an unknown group. */
const readRates = (groupId: string, userId: string) =>
  named(
    'read_group_rates',
    sql`select g.id, r.base, r.rates, r.as_of::text as as_of, r.updated_by, r.updated_at
          from groups g
          join group_members m on m.group_id = g.id and m.user_id = ${userId}
          left join group_rates r on r.group_id = g.id
         where g.id = ${groupId}`,
  );

/**
 * The group's balances (its snapshot, as `GET …/balances` reads it) and its rates, in ONE statement:
 * a conversion is one round trip, like every read. Membership is checked on the snapshot's members.
 */
const readBalancesAndRates = (groupId: string) =>
  named(
    'read_group_balances_and_rates',
    sql`select s.*, r.base as rates_base, r.rates as rates_rates, r.as_of::text as rates_as_of,
               r.updated_by as rates_updated_by, r.updated_at as rates_updated_at
          from (${balancesSnapshot(groupId)}) s
          left join group_rates r on r.group_id = s.id`,
  );

type BalancesAndRatesRow = BalancesSnapshotRow & {
  rates_base: string | null;
  rates_rates: Record<string, string> | string | null;
  rates_as_of: string | null;
  rates_updated_by: string | null;
  rates_updated_at: Date | string | null;
};

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Keys in code-unit order: a stable answer whatever order the body or jsonb kept them in. */
const sortedRates = (rates: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(rates).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const toGroupRates = (row: RatesRow): GroupRates => ({
  groupId: row.id,
  base: row.base,
  rates: row.rates === null ? {} : sortedRates(jsonColumn(row.rates)),
  asOf: row.as_of,
  updatedBy: row.updated_by,
  updatedAt: row.updated_at === null ? null : toIso(row.updated_at),
});

/**
 * The rules of a rates body the schema cannot state: every key an ISO 4217 code the API accepts
 * and not `base`, every value a positive decimal string of at most 12 significant digits, `asOf` a
 * real calendar date. One `422 validation_failed` listing every broken rule.
 */
export function checkRatesInput(input: RatesInput): void {
  const errors: FieldError[] = [];
  for (const [code, value] of Object.entries(input.rates)) {
    const path = `rates.${code}`;
    if (!/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code)) {
      errors.push({ path, message: `${code} is not an ISO 4217 currency code` });
    } else if (code === input.base) {
      errors.push({ path, message: 'must not be the base currency (its rate is 1)' });
    } else if (typeof value !== 'string') {
      errors.push({ path, message: 'must be a decimal string such as "1.0823"' });
    } else {
      try {
        parseRate(value);
      } catch (error) {
        errors.push({ path, message: (error as Error).message });
      }
    }
  }
  if (!isRealDate(input.asOf)) errors.push({ path: 'asOf', message: 'must be a real date, YYYY-MM-DD' });
  if (errors.length > 0) throw validationFailed(errors);
}

const sameRates = (a: Record<string, string>, b: Record<string, string>): boolean => {
  const left = Object.entries(sortedRates(a));
  const right = Object.entries(sortedRates(b));
  return (
    left.length === right.length && left.every(([k, v], i) => right[i]?.[0] === k && right[i]?.[1] === v)
  );
};

export function createGroupRates(deps: { knex: Knex }) {
  const runRead = createRunRead(deps.knex);

  return {
    /** `GET /v1/groups/{groupId}/rates`: 404 for a non-member; a group without rates has `base: null`. */
    async get(userId: string, groupId: string): Promise<GroupRates> {
      const [row] = await readNamed<RatesRow>(runRead, readRates(groupId, userId));
      if (!row) throw notFound('Group');
      return toGroupRates(row);
    },

    /** The balances of API.md §6 and the group's rates, as of one `asOfSeq`: 404 for a non-member. */
    /** The balances with the group's rates, in one statement on `db` (read-routing.ts; the primary by default). */
    async balancesWithRates(
      userId: string,
      groupId: string,
      db: Knex = deps.knex,
    ): Promise<{
      balances: GroupBalances;
      rates: GroupRates;
    }> {
      const [row] = await readNamed<BalancesAndRatesRow>(createRunRead(db), readBalancesAndRates(groupId));
      const balances = balancesFrom(row, userId);
      if (!row || !balances) throw notFound('Group');
      return {
        balances,
        rates: toGroupRates({
          id: groupId,
          base: row.rates_base,
          rates: row.rates_rates,
          as_of: row.rates_as_of,
          updated_by: row.rates_updated_by,
          updated_at: row.rates_updated_at,
        }),
      };
    },

    /**
     * Replaces the group's rates, in the statement of its `rates.updated` event. The same rates,
     * base and date again change nothing (no event): a PUT is idempotent.
     */
    async put(
      ctx: WriteContext,
      userId: string,
      groupId: string,
      input: RatesInput,
    ): Promise<WriteResult<GroupRates>> {
      const change = await ctx.open(groupId, userId);
      const [row] = await readNamed<RatesRow>(ctx.read, readRates(groupId, userId));
      if (!row) throw new AppError('not_found', 404, 'Group not found.');
      const current = toGroupRates(row);
      if (
        current.base === input.base &&
        current.asOf === input.asOf &&
        sameRates(current.rates, input.rates)
      ) {
        return { value: current, events: [] };
      }
      const at = new Date();
      const rates = sortedRates(input.rates);
      change.write(
        sql`insert into group_rates (group_id, base, rates, as_of, updated_by, updated_at)
            select guard.id, ${input.base}::text, ${JSON.stringify(rates)}::jsonb, ${input.asOf}::date,
                   ${userId}::text, ${at}::timestamptz from guard
            on conflict (group_id) do update
              set base = excluded.base, rates = excluded.rates, as_of = excluded.as_of,
                  updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      );
      const value: GroupRates = {
        groupId,
        base: input.base,
        rates,
        asOf: input.asOf,
        updatedBy: userId,
        updatedAt: at.toISOString(),
      };
      const event = change.commit('rates.updated', userId, { rates: value }, { at });
      return { value, events: [event] };
    },
  };
}

export type GroupRatesService = ReturnType<typeof createGroupRates>;
