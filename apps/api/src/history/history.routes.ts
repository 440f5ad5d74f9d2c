import { ok } from '../http/reply';
import { param, queryOf, type Route, route } from '../http/route';
import type { HistoryService } from './history.service';

/** The history of an expense or a settlement (API.md §15). */
export function historyRoutes(deps: { history: HistoryService }): Route[] {
  const { history } = deps;
  return (['expense', 'settlement'] as const).map((kind) =>
    route(`get${kind === 'expense' ? 'Expense' : 'Settlement'}History`, async (req) =>
      ok(
        await history.list(
          req.userId,
          kind,
          param(req, `${kind}Id`),
          queryOf<{ limit: number; cursor?: string }>(req),
        ),
      ),
    ),
  );
}
