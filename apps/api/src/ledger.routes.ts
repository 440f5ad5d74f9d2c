import { toEvent } from '@tally/events';
import { notFound } from '@tally/http-kit';
import type { IdempotencyLayer } from '@tally/idempotency';
import { type Request, Router } from 'express';
import type { Knex } from 'knex';
import { userIdOf } from './auth/authenticate';
import {
  checkExpenseInput,
  type Expense,
  type ExpenseInput,
  type ExpensePatch,
  type ExpensesService,
  type ExpenseWritten,
  lostCreateRace,
} from './expenses/expenses.service';
import type { Group, GroupsService, Member } from './groups/groups.service';
import { checkAddMemberInput } from './groups/pending-members';
import { decodeSeqCursor, encodeCursor } from './http/cursor';
import { created, etagOf, noContent, ok, type Reply, sendReply } from './http/reply';
import { validate } from './http/validate';
import { createWriteRoutes, type HotWrite, type WriteRouteInfo } from './http/write-route';
import type { Announcer } from './ledger/announcer';
import type { WriteRunner } from './ledger/write-runner';
import { createRunRead, readEventPage } from './read-queries';
import {
  addMemberBody,
  clientId,
  createExpenseBody,
  createGroupBody,
  createSettlementBody,
  eventsQuery,
  listQuery,
  patchExpenseBody,
  patchGroupBody,
} from './schemas';
import {
  checkSettlementInput,
  type Settlement,
  type SettlementInput,
  type SettlementsService,
} from './settlements/settlements.service';

export type LedgerDeps = {
  knex: Knex;
  writes: WriteRunner;
  announcer: Announcer;
  groups: GroupsService;
  expenses: ExpensesService;
  settlements: SettlementsService;
  /** Exactly-once execution of keyed writes; without it keys are validated but not recorded. */
  idempotency?: IdempotencyLayer | undefined;
};

type ListQuery = { limit: number; cursor?: string };
type GroupInput = { name: string; currency?: string; description?: string };

/** An expense's body, checked on its own: the schema, then payers and shares that add up to the amount. */
function parseExpense(body: unknown): ExpenseInput {
  const input = validate<ExpenseInput>(createExpenseBody, body);
  checkExpenseInput(input);
  return input;
}

/**
 * The replies of API.md: what the services decided, as status, body and headers. Versioned
 * resources carry their `ETag`; a create, its `Location`.
 */
const REPLIES = {
  expense: (e: Expense): Reply => ok(e, { ETag: etagOf(e.version) }),
  expenseCreated: (e: Expense): Reply =>
    created(e, { ETag: etagOf(e.version), Location: `/v1/expenses/${e.id}` }),
  /** A PUT: `201` when it created the expense, `200` when it replaced it (or changed nothing). */
  expenseWritten: (w: ExpenseWritten): Reply =>
    w.created ? REPLIES.expenseCreated(w.expense) : REPLIES.expense(w.expense),
  group: (g: Group): Reply => ok(g, { ETag: etagOf(g.version) }),
  groupCreated: (g: Group): Reply => created(g, { ETag: etagOf(g.version), Location: `/v1/groups/${g.id}` }),
  /** `201` for a new member, `200` for one who already was. */
  member: (m: { member: Member; added: boolean }): Reply => (m.added ? created(m.member) : ok(m.member)),
  settlement: (s: Settlement): Reply => ok(s),
  settlementCreated: (s: Settlement): Reply => created(s, { Location: `/v1/settlements/${s.id}` }),
  gone: (): Reply => noContent(),
};

const param = (req: Request, name: string): string => {
  const value = req.params[name];
  // A NUL can never be part of an id (and PostgreSQL text cannot hold it): nothing is found.
  if (typeof value !== 'string' || value.includes('\u0000')) throw notFound();
  return value;
};

/** Groups, members, expenses, settlements, balances and the event log: everything group-scoped. */
export function ledgerRoutes(deps: LedgerDeps): {
  router: Router;
  writeRoutes: readonly WriteRouteInfo[];
  hot: LedgerHotRoutes;
} {
  const { groups, expenses, settlements } = deps;
  const router = Router();
  const runRead = createRunRead(deps.knex);

  // Every write route is made by `writes` (http/write-route.ts): parse, claim the key, write with
  // the durable record, reply, announce. Its `parse` is what a request must satisfy on its own.
  const writes = createWriteRoutes({
    router,
    mountPath: '/v1',
    writes: deps.writes,
    announcer: deps.announcer,
    idempotency: deps.idempotency,
  });

  // ---- groups and members ----------------------------------------------------------------------
  writes.post('/groups', {
    key: 'optional',
    parse: (req) => validate<GroupInput>(createGroupBody, req.body),
    work: (ctx, userId, input) => groups.create(ctx, userId, input),
    reply: REPLIES.groupCreated,
  });
  writes.patch('/groups/:groupId', {
    key: 'optional',
    parse: (req) => ({
      patch: validate<{ name?: string; description?: string }>(patchGroupBody, req.body),
      groupId: param(req, 'groupId'),
    }),
    work: (ctx, userId, { groupId, patch }, req) =>
      groups.update(ctx, userId, groupId, patch, req.get('if-match')),
    reply: REPLIES.group,
  });
  writes.post('/groups/:groupId/members', {
    key: 'optional',
    parse: (req) => ({
      member: checkAddMemberInput(
        validate<{ userId?: string; email?: string; name?: string }>(addMemberBody, req.body),
      ),
      groupId: param(req, 'groupId'),
    }),
    work: (ctx, userId, { groupId, member }) => groups.addMember(ctx, userId, groupId, member),
    reply: REPLIES.member,
  });
  writes.delete('/groups/:groupId/members/:userId', {
    key: 'optional',
    parse: (req) => ({ groupId: param(req, 'groupId'), memberId: param(req, 'userId') }),
    work: (ctx, userId, { groupId, memberId }) => groups.removeMember(ctx, userId, groupId, memberId),
    reply: REPLIES.gone,
  });
  router.get('/groups', async (req, res) => {
    sendReply(res, ok(await groups.list(userIdOf(res), validate<ListQuery>(listQuery, req.query, 'query'))));
  });
  router.get('/groups/:groupId', async (req, res) => {
    sendReply(res, REPLIES.group(await groups.get(userIdOf(res), param(req, 'groupId'))));
  });
  router.get('/groups/:groupId/balances', async (req, res) => {
    sendReply(res, ok(await groups.balances(userIdOf(res), param(req, 'groupId'))));
  });
  // GET /groups/:groupId/expenses: comments/comments.routes.ts (the list with its search and filters).
  router.get('/groups/:groupId/settlements', async (req, res) => {
    const query = validate<ListQuery>(listQuery, req.query, 'query');
    sendReply(res, ok(await settlements.list(userIdOf(res), param(req, 'groupId'), query)));
  });
  router.get('/groups/:groupId/events', async (req, res) => {
    const query = validate<ListQuery & { afterSeq?: number }>(eventsQuery, req.query, 'query');
    const groupId = param(req, 'groupId');
    // One statement with the membership check. `cursor` (from a previous page) wins over
    // `afterSeq`; both mean "events after this seq".
    // Events no longer kept (EVENT_RETENTION_DAYS) after that seq: 410 resync_required.
    const rows = await readEventPage<Parameters<typeof toEvent>[0]>(
      runRead,
      { groupId, userId: userIdOf(res), limit: query.limit + 1 },
      () => decodeSeqCursor(query.cursor) ?? query.afterSeq ?? 0,
    );
    const data = rows.slice(0, query.limit).map(toEvent);
    const last = data[data.length - 1];
    const nextCursor = rows.length > query.limit && last ? encodeCursor([last.seq]) : null;
    sendReply(res, ok({ data, nextCursor }));
  });

  // ---- expenses --------------------------------------------------------------------------------
  const postExpense = writes.post('/expenses', {
    key: 'required',
    parse: (req) => parseExpense(req.body),
    work: (ctx, userId, input) => expenses.create(ctx, userId, input),
    reply: REPLIES.expenseCreated,
  });
  router.get('/expenses/:expenseId', async (req, res) => {
    sendReply(res, REPLIES.expense(await expenses.get(userIdOf(res), param(req, 'expenseId'))));
  });
  writes.put('/expenses/:expenseId', {
    key: 'required',
    parse: (req) => ({
      expenseId: validate<string>(clientId.label('expenseId'), param(req, 'expenseId'), 'path'),
      expense: parseExpense(req.body),
    }),
    work: (ctx, userId, { expenseId, expense }, req) =>
      expenses.put(ctx, userId, expenseId, expense, req.get('if-match')),
    reply: REPLIES.expenseWritten,
    // Two PUTs creating one id in two groups at once: the loser runs again, and then finds the
    // expense in the other group (a PUT naming another group is refused).
    retryIf: lostCreateRace,
  });
  writes.patch('/expenses/:expenseId', {
    key: 'required',
    // A patch is checked against the expense it changes (its shares must still add up): that is
    // an outcome of the group's state, recorded like any other.
    parse: (req) => ({
      patch: validate<ExpensePatch>(patchExpenseBody, req.body),
      expenseId: param(req, 'expenseId'),
    }),
    work: (ctx, userId, { expenseId, patch }, req) =>
      expenses.patch(ctx, userId, expenseId, patch, req.get('if-match')),
    reply: REPLIES.expense,
  });
  writes.delete('/expenses/:expenseId', {
    key: 'required',
    parse: (req) => param(req, 'expenseId'),
    work: (ctx, userId, expenseId, req) => expenses.remove(ctx, userId, expenseId, req.get('if-match')),
    reply: REPLIES.gone,
  });
  writes.post('/expenses/:expenseId/restore', {
    key: 'required',
    parse: (req) => param(req, 'expenseId'),
    work: (ctx, userId, expenseId) => expenses.restore(ctx, userId, expenseId),
    reply: REPLIES.expense,
  });

  // ---- settlements -----------------------------------------------------------------------------
  writes.post('/settlements', {
    key: 'required',
    parse: (req) => {
      const input = validate<SettlementInput>(createSettlementBody, req.body);
      checkSettlementInput(input);
      return input;
    },
    work: (ctx, userId, input) => settlements.create(ctx, userId, input),
    reply: REPLIES.settlementCreated,
  });
  router.get('/settlements/:settlementId', async (req, res) => {
    sendReply(res, REPLIES.settlement(await settlements.get(userIdOf(res), param(req, 'settlementId'))));
  });
  writes.delete('/settlements/:settlementId', {
    key: 'required',
    parse: (req) => param(req, 'settlementId'),
    work: (ctx, userId, settlementId) => settlements.remove(ctx, userId, settlementId),
    reply: REPLIES.gone,
  });

  return {
    router,
    writeRoutes: writes.routes(),
    // The same answers as the routes above, for the hot lane (http/hot-lane.ts).
    hot: {
      expense: async (userId, expenseId) => REPLIES.expense(await expenses.get(userId, expenseId)),
      balances: async (userId, groupId) => ok(await groups.balances(userId, groupId)),
      postExpense,
    },
  };
}

/** The hottest routes' answers without express: GET an expense, GET balances, POST /v1/expenses. */
export type LedgerHotRoutes = {
  expense(userId: string, expenseId: string): Promise<Reply>;
  balances(userId: string, groupId: string): Promise<Reply>;
  postExpense: HotWrite;
};
