import { notFound } from '@tally/http-kit';
import type { IdempotencyLayer } from '@tally/idempotency';
import { type Request, Router } from 'express';
import { userIdOf } from '../auth/authenticate';
import type { ExpenseSearch, ExpensesQuery } from '../expenses/expense-search';
import { created, noContent, ok, type Reply, sendReply } from '../http/reply';
import { validate } from '../http/validate';
import { createWriteRoutes, type WriteRouteInfo } from '../http/write-route';
import type { Announcer } from '../ledger/announcer';
import type { WriteRunner } from '../ledger/write-runner';
import { commentBody, expensesQuery, listQuery } from '../schemas';
import type { Comment, CommentsService, CommentTarget } from './comments.service';

export type CommentRoutesDeps = {
  writes: WriteRunner;
  announcer: Announcer;
  comments: CommentsService;
  search: ExpenseSearch;
  idempotency?: IdempotencyLayer | undefined;
};

const param = (req: Request, name: string): string => {
  const value = req.params[name];
  // A NUL can never be part of an id (and PostgreSQL text cannot hold it): nothing is found.
  if (typeof value !== 'string' || value.includes('\u0000')) throw notFound();
  return value;
};

const REPLIES = {
  commentCreated: (c: Comment): Reply => created(c, { Location: `/v1/comments/${c.id}` }),
  gone: (): Reply => noContent(),
};

/** The expense list with its search and filters (API.md §5.1), and comments (§5.2). */
export function commentRoutes(deps: CommentRoutesDeps): {
  router: Router;
  writeRoutes: readonly WriteRouteInfo[];
} {
  const { comments, search } = deps;
  const router = Router();
  const writes = createWriteRoutes({
    router,
    mountPath: '/v1',
    writes: deps.writes,
    announcer: deps.announcer,
    idempotency: deps.idempotency,
  });

  router.get('/groups/:groupId/expenses', async (req, res) => {
    const query = validate<ExpensesQuery>(expensesQuery, req.query, 'query');
    sendReply(res, ok(await search.list(userIdOf(res), param(req, 'groupId'), query)));
  });

  for (const [type, path] of [
    ['expense', '/expenses/:expenseId/comments'],
    ['settlement', '/settlements/:settlementId/comments'],
  ] as const) {
    const targetOf = (req: Request): CommentTarget => ({
      type,
      id: param(req, type === 'expense' ? 'expenseId' : 'settlementId'),
    });
    // A comment is text, not money, but a retried one must appear once: the key is required.
    writes.post(path, {
      key: 'required',
      parse: (req) => ({
        target: targetOf(req),
        text: validate<{ text: string }>(commentBody, req.body).text,
      }),
      work: (ctx, userId, { target, text }) => comments.create(ctx, userId, target, text),
      reply: REPLIES.commentCreated,
    });
    router.get(path, async (req, res) => {
      const query = validate<{ limit: number; cursor?: string }>(listQuery, req.query, 'query');
      sendReply(res, ok(await comments.list(userIdOf(res), targetOf(req), query)));
    });
  }

  writes.delete('/comments/:commentId', {
    key: 'required',
    parse: (req) => param(req, 'commentId'),
    work: (ctx, userId, commentId) => comments.remove(ctx, userId, commentId),
    reply: REPLIES.gone,
  });

  return { router, writeRoutes: writes.routes() };
}
