import type { Knex } from 'knex';
import { ok, type Reply } from '../http/reply';
import { bodyOf, param, queryOf, type Route, type RouteInput, route } from '../http/route';
import type { WriteRoutes } from '../http/write-route';
import type { ReadRouting } from '../read-routing';
import { convertedBalances } from './converted-balances';
import { checkRatesInput, createGroupRates, type RatesInput } from './group-rates';
import type { RatesProvider } from './rates-provider';

export type FxDeps = {
  knex: Knex;
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  /** The outside source of rates (`FX_PROVIDER`); absent: only the groups' own rates. */
  provider?: RatesProvider | undefined;
  /** Where the converted balances are read (read-routing.ts). */
  reads: ReadRouting;
};

function isEmpty(query: object): boolean {
  for (const _ in query) return false;
  return true;
}

/**
 * Currency conversion (API.md §6, "Settling in one currency"): a group's own exchange rates, and
 * its balances converted into one currency. `convertedBalances` answers the balances read of the
 * ledger (ledger.routes.ts) when it asks for a conversion (`in`); any query is checked.
 */
export function fxRoutes(deps: FxDeps): {
  routes: Route[];
  convertedBalances: (req: RouteInput) => Promise<Reply> | undefined;
} {
  // Reads the same snapshot as the ledger's balances (ledger/group-snapshot.ts), with the rates.
  const rates = createGroupRates({ knex: deps.knex });

  async function converted(req: RouteInput, currency: string): Promise<Reply> {
    const groupId = param(req, 'groupId');
    const { balances, rates: groupRates } = await deps.reads.run(req.headers, (db) =>
      rates.balancesWithRates(req.userId, groupId, db),
    );
    const amounts = await convertedBalances(balances.currencies, currency, groupRates, deps.provider);
    return ok({ ...balances, converted: amounts });
  }

  return {
    routes: [
      // Not a money write (it moves no balance) and a PUT is idempotent by itself: the key is
      // optional, and replays like any keyed write when given.
      deps.routes.write({
        operation: 'setGroupRates',
        parse: (req) => {
          const input = bodyOf<RatesInput>(req);
          checkRatesInput(input);
          return { groupId: param(req, 'groupId'), input };
        },
        work: (ctx, userId, { groupId, input }) => rates.put(ctx, userId, groupId, input),
        reply: (value) => ok(value),
      }),
      route('getGroupRates', async (req) => ok(await rates.get(req.userId, param(req, 'groupId')))),
    ],
    convertedBalances: (req) => {
      // Any query is checked (an unknown parameter is 422, as on the lists); without `in` the read
      // is the ledger's, unchanged. No query at all (the usual read): nothing to check.
      if (isEmpty(req.query)) return undefined;
      const query = queryOf<{ in?: string }>(req);
      return query.in === undefined ? undefined : converted(req, query.in);
    },
  };
}
