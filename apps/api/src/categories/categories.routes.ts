import { created, noContent, ok, type Reply } from '../http/reply';
import { bodyOf, param, queryOf, type Route, route } from '../http/route';
import type { WriteRoutes } from '../http/write-route';
import type { ReadRouting } from '../read-routing';
import type { GroupStatsBy, MyStatsBy, StatsQuery, StatsService } from '../stats/stats.service';
import type { CategoriesService, Category, CategoryInput, CategoryPatch } from './categories.service';

export type CategoryRoutesDeps = {
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  categories: CategoriesService;
  stats: StatsService;
  /** Where the category list and the statistics are read (read-routing.ts). */
  reads: ReadRouting;
};

const REPLIES = {
  category: (c: Category): Reply => ok(c),
  categoryCreated: (c: Category): Reply =>
    created(c, { Location: `/v1/groups/${c.groupId}/categories/${c.id}` }),
  merged: (m: { category: Category; moved: number }): Reply => ok(m),
  gone: (): Reply => noContent(),
};

/** Categories and statistics (API.md §14). */
export function categoryRoutes(deps: CategoryRoutesDeps): Route[] {
  const { categories, stats } = deps;
  const { write } = deps.routes;
  return [
    route('listCategories', async (req) =>
      ok(await deps.reads.run(req.headers, (db) => categories.list(req.userId, param(req, 'groupId'), db))),
    ),
    write({
      operation: 'createCategory',
      parse: (req) => ({ groupId: param(req, 'groupId'), input: bodyOf<CategoryInput>(req) }),
      work: (ctx, userId, { groupId, input }) => categories.create(ctx, userId, groupId, input),
      reply: REPLIES.categoryCreated,
    }),
    write({
      operation: 'patchCategory',
      parse: (req) => ({
        groupId: param(req, 'groupId'),
        categoryId: param(req, 'categoryId'),
        patch: bodyOf<CategoryPatch>(req),
      }),
      work: (ctx, userId, { groupId, categoryId, patch }) =>
        categories.patch(ctx, userId, groupId, categoryId, patch),
      reply: REPLIES.category,
    }),
    write({
      operation: 'deleteCategory',
      parse: (req) => ({ groupId: param(req, 'groupId'), categoryId: param(req, 'categoryId') }),
      work: (ctx, userId, { groupId, categoryId }) => categories.remove(ctx, userId, groupId, categoryId),
      reply: REPLIES.gone,
    }),
    write({
      operation: 'mergeCategory',
      parse: (req) => ({
        groupId: param(req, 'groupId'),
        categoryId: param(req, 'categoryId'),
        into: bodyOf<{ into: string }>(req).into,
      }),
      work: (ctx, userId, { groupId, categoryId, into }) =>
        categories.merge(ctx, userId, groupId, categoryId, into),
      reply: REPLIES.merged,
    }),
    route('getGroupStats', async (req) => {
      const { by, ...query } = queryOf<StatsQuery & { by: GroupStatsBy }>(req);
      const groupId = param(req, 'groupId');
      return ok(await deps.reads.run(req.headers, (db) => stats.group(req.userId, groupId, by, query, db)));
    }),
    route('getMyStats', async (req) => {
      const { by, ...query } = queryOf<StatsQuery & { by: MyStatsBy }>(req);
      return ok(await deps.reads.run(req.headers, (db) => stats.mine(req.userId, by, query, db)));
    }),
  ];
}
