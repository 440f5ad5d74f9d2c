import type { ExpenseSearch, ExpensesQuery } from '../expenses/expense-search';
import { created, noContent, ok, type Reply } from '../http/reply';
import { bodyOf, param, queryOf, type Route, type RouteInput, route } from '../http/route';
import type { WriteRoutes } from '../http/write-route';
import type { ReadRouting } from '../read-routing';
import type { Comment, CommentsService, CommentTarget } from './comments.service';

export type CommentRoutesDeps = {
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  comments: CommentsService;
  search: ExpenseSearch;
  /** Where the expense list is read (read-routing.ts). */
  reads: ReadRouting;
};

const REPLIES = {
  commentCreated: (c: Comment): Reply => created(c, { Location: `/v1/comments/${c.id}` }),
  gone: (): Reply => noContent(),
};

/** The expense list with its search and filters (API.md §5.1), and comments (§5.2). */
export function commentRoutes(deps: CommentRoutesDeps): Route[] {
  const { comments, search } = deps;
  const { write } = deps.routes;
  const routes = [
    route('listExpenses', async (req) => {
      const query = queryOf<ExpensesQuery>(req);
      const groupId = param(req, 'groupId');
      return ok(await deps.reads.run(req.headers, (db) => search.list(req.userId, groupId, query, db)));
    }),
  ];
  for (const [type, Target] of [
    ['expense', 'Expense'],
    ['settlement', 'Settlement'],
  ] as const) {
    const targetOf = (req: RouteInput): CommentTarget => ({ type, id: param(req, `${type}Id`) });
    // A comment is text, not money, but a retried one must appear once: the key is required.
    routes.push(
      write({
        operation: `create${Target}Comment`,
        parse: (req) => ({ target: targetOf(req), text: bodyOf<{ text: string }>(req).text }),
        work: (ctx, userId, { target, text }) => comments.create(ctx, userId, target, text),
        reply: REPLIES.commentCreated,
      }),
      route(`list${Target}Comments`, async (req) =>
        ok(await comments.list(req.userId, targetOf(req), queryOf<{ limit: number; cursor?: string }>(req))),
      ),
    );
  }
  routes.push(
    write({
      operation: 'deleteComment',
      parse: (req) => param(req, 'commentId'),
      work: (ctx, userId, commentId) => comments.remove(ctx, userId, commentId),
      reply: REPLIES.gone,
    }),
  );
  return routes;
}
