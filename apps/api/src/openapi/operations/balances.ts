import { balancesQuery, putRatesBody } from '../../schemas';
import type { Operation } from './types';

/** Balances and the group’s own exchange rates (API.md §6). */
export const balancesOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/groups/{groupId}/balances',
    operationId: 'getBalances',
    replicaRead: true,
    tag: 'Balances',
    summary: 'Who owes whom, per currency',
    description:
      '`net` = paid − owed + settlements paid − settlements received, over live (not deleted) records. A ' +
      'currency is listed while the group has at least one live expense or settlement in it; every member ' +
      'appears in every listed currency. Read from incrementally kept totals: the cost does not grow with ' +
      'the history, and always equals a full recomputation. With `in` (an ISO 4217 code) the answer also ' +
      'carries `converted`: every member’s balance in that one currency, transfers in it, and the rates used ' +
      '(the group’s own, then the provider’s; API.md §6). A currency no source has a rate for: ' +
      '`422 rate_unavailable` naming it; the provider needed but without rates yet: `503 unavailable`.',
    query: balancesQuery,
    success: [{ status: 200, description: 'The balances', schema: 'Balances' }],
    errors: ['rate_unavailable'],
  },
  {
    method: 'put',
    path: '/v1/groups/{groupId}/rates',
    operationId: 'setGroupRates',
    tag: 'Balances',
    summary: 'Set the group’s own exchange rates',
    description:
      'Replaces the group’s rates as a whole: `rates[c]` units of currency `c` per one `base`, decimal ' +
      'strings of at most 12 significant digits, of the day `asOf`. Converted balances (`?in=`) use them ' +
      'wherever they give a currency, ahead of the provider (`FX_PROVIDER`). Appends a `rates.updated` ' +
      'event; the same rates again change nothing (no event). Not a money write: `Idempotency-Key` is optional.',
    body: putRatesBody,
    idempotency: 'optional',
    success: [{ status: 200, description: 'The group’s rates after the change', schema: 'GroupRates' }],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/rates',
    operationId: 'getGroupRates',
    tag: 'Balances',
    summary: 'The group’s own exchange rates',
    description:
      'Non-members get `404`. A group that never set rates answers with `base: null` and no rates.',
    success: [{ status: 200, description: 'The group’s rates', schema: 'GroupRates' }],
  },
];
