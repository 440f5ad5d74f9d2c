import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pipeline } from './pipeline';
import type { Route } from './route';

/** An id as a path segment spells it with no escaping: anything else goes the express way. */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,128}$/;
const EXPENSE_PREFIX = '/v1/expenses/';
const GROUPS_PREFIX = '/v1/groups/';
const BALANCES_SUFFIX = '/balances';
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** The routes the fast dispatch finds without express's router. */
export type FastRoutes = { getExpense: Route; getBalances: Route; createExpense: Route };

/**
 * The fast dispatch: the busiest requests (API.md §12, issue 23), `GET /v1/expenses/{id}`, `GET
 * /v1/groups/{id}/balances` and `POST /v1/expenses`, found by their path alone in its plainest
 * spelling (lowercase, plain ids, no query) and handed to the pipeline with their route and params:
 * the very handler express hands them to, skipping only express's router and its request and
 * response objects. Returns false when the request is not one of them (express routes it).
 */
export function createFastDispatch(
  pipeline: Pipeline,
  routes: FastRoutes,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const { method, url } = req;
    if (url === undefined) return false;
    if (method === 'GET') {
      if (url.startsWith(EXPENSE_PREFIX)) {
        const id = url.slice(EXPENSE_PREFIX.length);
        if (!PLAIN_ID.test(id)) return false;
        pipeline.handle(routes.getExpense, { expenseId: id }, req, res);
        return true;
      }
      if (url.startsWith(GROUPS_PREFIX) && url.endsWith(BALANCES_SUFFIX)) {
        const id = url.slice(GROUPS_PREFIX.length, url.length - BALANCES_SUFFIX.length);
        if (!PLAIN_ID.test(id)) return false;
        pipeline.handle(routes.getBalances, { groupId: id }, req, res);
        return true;
      }
      return false;
    }
    if (method === 'POST' && url === '/v1/expenses') {
      pipeline.handle(routes.createExpense, NO_PARAMS, req, res);
      return true;
    }
    return false;
  };
}
