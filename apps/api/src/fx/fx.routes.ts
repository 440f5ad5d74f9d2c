import { notFound } from '@tally/http-kit';
import type { IdempotencyLayer } from '@tally/idempotency';
import { type Request, Router } from 'express';
import type { Knex } from 'knex';
import { userIdOf } from '../auth/authenticate';
import { ok, sendReply } from '../http/reply';
import { validate } from '../http/validate';
import { createWriteRoutes, type WriteRouteInfo } from '../http/write-route';
import type { Announcer } from '../ledger/announcer';
import type { WriteRunner } from '../ledger/write-runner';
import { balancesQuery, putRatesBody } from '../schemas';
import { convertedBalances } from './converted-balances';
import { checkRatesInput, createGroupRates, type RatesInput } from './group-rates';
import type { RatesProvider } from './rates-provider';

export type FxDeps = {
  knex: Knex;
  writes: WriteRunner;
  announcer: Announcer;
  idempotency?: IdempotencyLayer | undefined;
  /** The outside source of rates (`FX_PROVIDER`); absent: only the groups' own rates. */
  provider?: RatesProvider | undefined;
};

const groupIdOf = (req: Request): string => {
  const value = req.params['groupId'];
  // As ledger.routes.ts: a NUL can never be part of an id (and PostgreSQL text cannot hold it).
  if (typeof value !== 'string' || value.includes('\u0000')) throw notFound();
  return value;
};

/**
 * Currency conversion (API.md §6, "Settling in one currency"): a group's own exchange rates, and
 * its balances converted into one currency. Mounted ahead of the ledger's routes: it checks the
 * query of `GET …/balances`, answers it when it asks for a conversion (`in`), and passes any other
 * balances read on, unchanged, to the ledger.
 */
function isEmpty(query: object): boolean {
  for (const _ in query) return false;
  return true;
}

export function fxRoutes(deps: FxDeps): { router: Router; writeRoutes: readonly WriteRouteInfo[] } {
  const router = Router();
  // Reads the same snapshot as the ledger's balances (ledger/group-snapshot.ts), with the rates.
  const rates = createGroupRates({ knex: deps.knex });
  const writes = createWriteRoutes({
    router,
    mountPath: '/v1',
    writes: deps.writes,
    announcer: deps.announcer,
    idempotency: deps.idempotency,
  });

  // Not a money write (it moves no balance) and a PUT is idempotent by itself: the key is optional,
  // and replays like any keyed write when given.
  writes.put('/groups/:groupId/rates', {
    key: 'optional',
    parse: (req) => {
      const input = validate<RatesInput>(putRatesBody, req.body);
      checkRatesInput(input);
      return { groupId: groupIdOf(req), input };
    },
    work: (ctx, userId, { groupId, input }) => rates.put(ctx, userId, groupId, input),
    reply: (value) => ok(value),
  });
  router.get('/groups/:groupId/rates', async (req, res) => {
    sendReply(res, ok(await rates.get(userIdOf(res), groupIdOf(req))));
  });
  router.get('/groups/:groupId/balances', async (req, res, next) => {
    // Any query is checked (an unknown parameter is 422, as on the lists); without `in` the read
    // is the ledger's, unchanged. No query at all (the usual read): nothing to check.
    if (isEmpty(req.query)) {
      next();
      return;
    }
    const query = validate<{ in?: string }>(balancesQuery, req.query, 'query');
    if (query.in === undefined) {
      next();
      return;
    }
    const userId = userIdOf(res);
    const groupId = groupIdOf(req);
    const { balances, rates: groupRates } = await rates.balancesWithRates(userId, groupId);
    const converted = await convertedBalances(balances.currencies, query.in, groupRates, deps.provider);
    sendReply(res, ok({ ...balances, converted }));
  });

  return { router, writeRoutes: writes.routes() };
}
