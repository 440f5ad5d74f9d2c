import { toEvent } from '@tally/events';
import type { Knex } from 'knex';
import {
  checkExpenseInput,
  type Expense,
  type ExpenseInput,
  type ExpensePatch,
  type ExpensesService,
  type ExpenseWritten,
  lostCreateRace,
} from './expenses/expenses.service';
import type { Group, GroupPatch, GroupsService, Member } from './groups/groups.service';
import { checkAddMemberInput } from './groups/pending-members';
import { decodeSeqCursor, encodeCursor } from './http/cursor';
import { created, etagOf, noContent, ok, type Reply } from './http/reply';
import { bodyOf, param, pathParamOf, queryOf, type Route, type RouteInput, route } from './http/route';
import type { WriteRoutes } from './http/write-route';
import { createRunRead, readEventPage } from './read-queries';
import type { ReadRouting } from './read-routing';
import {
  checkSettlementInput,
  type Settlement,
  type SettlementInput,
  type SettlementsService,
} from './settlements/settlements.service';
export type LedgerDeps = {
  knex: Knex;
  groups: GroupsService;
  expenses: ExpensesService;
  settlements: SettlementsService;
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  /** Where the expense and balances reads go (read-routing.ts). */
  reads: ReadRouting;
  /** A balances read that asks for a conversion (`?in=`), answered by fx; undefined: the plain read. */
  convertedBalances: (req: RouteInput) => Promise<Reply> | undefined;
  /** After an expense's deletion was answered `204`: its files go (receipts, API.md §16). */
  onExpenseDeleted?: (expenseId: string) => void;
};

type ListQuery = { limit: number; cursor?: string };
type GroupInput = { name: string; currency?: string; description?: string; simplifyDebts?: boolean };

/** An expense's body, checked on its own: the schema, then payers and shares that add up to the amount. */
function parseExpense(req: RouteInput): ExpenseInput {
  const input = bodyOf<ExpenseInput>(req);
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

/** The route, telling `onDeleted` of the expense once its deletion was answered `204` (a replay too: idempotent). */
function afterDeletion(deleteRoute: Route, onDeleted: ((expenseId: string) => void) | undefined): Route {
  if (onDeleted === undefined) return deleteRoute;
  return {
    ...deleteRoute,
    handler: async (req) => {
      const reply = await deleteRoute.handler(req);
      if (reply?.status === 204) onDeleted(param(req, 'expenseId'));
      return reply;
    },
  };
}

/** Groups, members, expenses, settlements, balances and the event log: everything group-scoped. */
export function ledgerRoutes(deps: LedgerDeps): Route[] {
  const { groups, expenses, settlements, routes } = deps;
  const runRead = createRunRead(deps.knex);
  const { write } = routes;
  const ifMatch = (req: RouteInput) => req.headers['if-match'];

  // Every write route is made by `routes.write` (http/write-route.ts): parse, claim the key, write
  // with the durable record, reply, announce. Its `parse` is what a request must satisfy on its own.
  return [
    // ---- groups and members --------------------------------------------------------------------
    write({
      operation: 'createGroup',
      parse: (req) => bodyOf<GroupInput>(req),
      work: (ctx, userId, input) => groups.create(ctx, userId, input),
      reply: REPLIES.groupCreated,
    }),
    write({
      operation: 'updateGroup',
      parse: (req) => ({
        patch: bodyOf<GroupPatch>(req),
        groupId: param(req, 'groupId'),
      }),
      work: (ctx, userId, { groupId, patch }, req) =>
        groups.update(ctx, userId, groupId, patch, ifMatch(req)),
      reply: REPLIES.group,
    }),
    write({
      operation: 'addMember',
      parse: (req) => ({
        member: checkAddMemberInput(bodyOf<{ userId?: string; email?: string; name?: string }>(req)),
        groupId: param(req, 'groupId'),
      }),
      work: (ctx, userId, { groupId, member }) => groups.addMember(ctx, userId, groupId, member),
      reply: REPLIES.member,
    }),
    write({
      operation: 'removeMember',
      parse: (req) => ({ groupId: param(req, 'groupId'), memberId: param(req, 'userId') }),
      work: (ctx, userId, { groupId, memberId }) => groups.removeMember(ctx, userId, groupId, memberId),
      reply: REPLIES.gone,
    }),
    // Archive and unarchive (API.md §3): the gate that refuses writes to an archived group is the
    // change's own (GroupChange.commit), so every write route above and below passes it.
    ...([true, false] as const).map((archived) =>
      write({
        operation: archived ? 'archiveGroup' : 'unarchiveGroup',
        parse: (req) => param(req, 'groupId'),
        work: (ctx, userId, groupId, req) => groups.setArchived(ctx, userId, groupId, archived, ifMatch(req)),
        reply: REPLIES.group,
      }),
    ),
    route('listGroups', async (req) =>
      ok(await groups.list(req.userId, queryOf<ListQuery & { archived?: boolean }>(req))),
    ),
    route('getGroup', async (req) => REPLIES.group(await groups.get(req.userId, param(req, 'groupId')))),
    // A conversion (`?in=`) is fx's (fx/fx.routes.ts); any other query is checked there too.
    route('getBalances', async (req) => {
      const converted = deps.convertedBalances(req);
      if (converted !== undefined) return converted;
      const groupId = param(req, 'groupId');
      return ok(await deps.reads.run(req.headers, (db) => groups.balances(req.userId, groupId, db)));
    }),
    // GET /groups/:groupId/expenses: comments/comments.routes.ts (the list with its search and filters).
    route('listSettlements', async (req) => {
      const query = queryOf<ListQuery>(req);
      return ok(await settlements.list(req.userId, param(req, 'groupId'), query));
    }),
    route('listEvents', async (req) => {
      const query = queryOf<ListQuery & { afterSeq?: number }>(req);
      const groupId = param(req, 'groupId');
      // One statement with the membership check. `cursor` (from a previous page) wins over
      // `afterSeq`; both mean "events after this seq".
      // Events no longer kept (EVENT_RETENTION_DAYS) after that seq: 410 resync_required.
      const rows = await readEventPage<Parameters<typeof toEvent>[0]>(
        runRead,
        { groupId, userId: req.userId, limit: query.limit + 1 },
        () => decodeSeqCursor(query.cursor) ?? query.afterSeq ?? 0,
      );
      const data = rows.slice(0, query.limit).map(toEvent);
      const last = data[data.length - 1];
      const nextCursor = rows.length > query.limit && last ? encodeCursor([last.seq]) : null;
      return ok({ data, nextCursor });
    }),

    // ---- expenses ------------------------------------------------------------------------------
    write({
      operation: 'createExpense',
      parse: parseExpense,
      work: (ctx, userId, input) => expenses.create(ctx, userId, input),
      reply: REPLIES.expenseCreated,
    }),
    route('getExpense', async (req) => {
      const expenseId = param(req, 'expenseId');
      return REPLIES.expense(
        await deps.reads.run(req.headers, (db) => expenses.get(req.userId, expenseId, db)),
      );
    }),
    write({
      operation: 'putExpense',
      parse: (req) => ({
        expenseId: pathParamOf(req, 'expenseId'),
        expense: parseExpense(req),
      }),
      work: (ctx, userId, { expenseId, expense }, req) =>
        expenses.put(ctx, userId, expenseId, expense, ifMatch(req)),
      reply: REPLIES.expenseWritten,
      // Two PUTs creating one id in two groups at once: the loser runs again, and then finds the
      // expense in the other group (a PUT naming another group is refused).
      retryIf: lostCreateRace,
    }),
    write({
      operation: 'patchExpense',
      // A patch is checked against the expense it changes (its shares must still add up): that is
      // an outcome of the group's state, recorded like any other.
      parse: (req) => ({ patch: bodyOf<ExpensePatch>(req), expenseId: param(req, 'expenseId') }),
      work: (ctx, userId, { expenseId, patch }, req) =>
        expenses.patch(ctx, userId, expenseId, patch, ifMatch(req)),
      reply: REPLIES.expense,
    }),
    write({
      operation: 'duplicateExpense',
      parse: (req) => ({
        overrides: bodyOf<{ occurredAt?: string; description?: string }>(req),
        expenseId: param(req, 'expenseId'),
      }),
      work: (ctx, userId, { expenseId, overrides }) => expenses.duplicate(ctx, userId, expenseId, overrides),
      reply: REPLIES.expenseCreated,
    }),
    afterDeletion(
      write({
        operation: 'deleteExpense',
        parse: (req) => param(req, 'expenseId'),
        work: (ctx, userId, expenseId, req) => expenses.remove(ctx, userId, expenseId, ifMatch(req)),
        reply: REPLIES.gone,
      }),
      deps.onExpenseDeleted,
    ),
    write({
      operation: 'restoreExpense',
      parse: (req) => param(req, 'expenseId'),
      work: (ctx, userId, expenseId) => expenses.restore(ctx, userId, expenseId),
      reply: REPLIES.expense,
    }),

    // ---- settlements ---------------------------------------------------------------------------
    write({
      operation: 'createSettlement',
      parse: (req) => {
        const input = bodyOf<SettlementInput>(req);
        checkSettlementInput(input);
        return input;
      },
      work: (ctx, userId, input) => settlements.create(ctx, userId, input),
      reply: REPLIES.settlementCreated,
    }),
    route('getSettlement', async (req) =>
      REPLIES.settlement(await settlements.get(req.userId, param(req, 'settlementId'))),
    ),
    write({
      operation: 'deleteSettlement',
      parse: (req) => param(req, 'settlementId'),
      work: (ctx, userId, settlementId) => settlements.remove(ctx, userId, settlementId),
      reply: REPLIES.gone,
    }),
  ];
}
