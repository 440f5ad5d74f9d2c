import { toEvent } from '@tally/events';
import { notFound } from '@tally/http-kit';
import type { IdempotencyLayer } from '@tally/idempotency';
import { type Request, Router } from 'express';
import type { Knex } from 'knex';
import { userIdOf } from './auth/authenticate';
import {
  type Expense,
  type ExpenseInput,
  type ExpensePatch,
  type ExpensesService,
  type ExpenseWritten,
  lostCreateRace,
} from './expenses/expenses.service';
import type { Group, GroupsService, Member } from './groups/groups.service';
import { decodeSeqCursor, encodeCursor } from './http/cursor';
import { idempotencyKey } from './http/idempotency-key';
import { jsonBody } from './http/json-body';
import { keyedWrites } from './http/keyed-writes';
import { created, etagOf, noContent, ok, type Reply, sendReply } from './http/reply';
import { validate } from './http/validate';
import type { RunWrite } from './ledger/write-runner';
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
import type { Settlement, SettlementInput, SettlementsService } from './settlements/settlements.service';

export type LedgerDeps = {
  knex: Knex;
  runWrite: RunWrite;
  groups: GroupsService;
  expenses: ExpensesService;
  settlements: SettlementsService;
  /** Exactly-once execution of keyed writes; without it keys are validated but not recorded. */
  idempotency?: IdempotencyLayer | undefined;
};

type ListQuery = { limit: number; cursor?: string };

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
export function ledgerRoutes(deps: LedgerDeps): Router {
  const { groups, expenses, settlements } = deps;
  const router = Router();
  const runRead = createRunRead(deps.knex);
  const optionalKey = idempotencyKey({ required: false });
  const moneyKey = idempotencyKey({ required: true });

  // Every write route is `keyed(...)`: its handler gets `write`, one transaction that the durable
  // idempotency record joins when the request carries a key. It never sees that record's hook.
  const keyed = keyedWrites({ layer: deps.idempotency, runWrite: deps.runWrite });

  // ---- groups and members ----------------------------------------------------------------------
  router.post(
    '/groups',
    jsonBody,
    optionalKey,
    keyed(async (req, write) => {
      const input = validate<{ name: string; currency?: string; description?: string }>(
        createGroupBody,
        req.body,
      );
      return write((ctx, userId) => groups.create(ctx, userId, input), REPLIES.groupCreated);
    }),
  );
  router.get('/groups', async (req, res) => {
    sendReply(res, ok(await groups.list(userIdOf(res), validate<ListQuery>(listQuery, req.query, 'query'))));
  });
  router.get('/groups/:groupId', async (req, res) => {
    sendReply(res, REPLIES.group(await groups.get(userIdOf(res), param(req, 'groupId'))));
  });
  router.patch(
    '/groups/:groupId',
    jsonBody,
    optionalKey,
    keyed(async (req, write) => {
      const input = validate<{ name?: string; description?: string }>(patchGroupBody, req.body);
      const groupId = param(req, 'groupId');
      return write(
        (ctx, userId) => groups.update(ctx, userId, groupId, input, req.get('if-match')),
        REPLIES.group,
      );
    }),
  );
  router.post(
    '/groups/:groupId/members',
    jsonBody,
    optionalKey,
    keyed(async (req, write) => {
      const input = validate<{ userId?: string; email?: string }>(addMemberBody, req.body);
      const groupId = param(req, 'groupId');
      return write((ctx, userId) => groups.addMember(ctx, userId, groupId, input), REPLIES.member);
    }),
  );
  router.delete(
    '/groups/:groupId/members/:userId',
    optionalKey,
    keyed(async (req, write) => {
      const groupId = param(req, 'groupId');
      return write(
        (ctx, userId) => groups.removeMember(ctx, userId, groupId, param(req, 'userId')),
        REPLIES.gone,
      );
    }),
  );
  router.get('/groups/:groupId/balances', async (req, res) => {
    sendReply(res, ok(await groups.balances(userIdOf(res), param(req, 'groupId'))));
  });
  router.get('/groups/:groupId/expenses', async (req, res) => {
    const query = validate<ListQuery>(listQuery, req.query, 'query');
    sendReply(res, ok(await expenses.list(userIdOf(res), param(req, 'groupId'), query)));
  });
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
  router.post(
    '/expenses',
    jsonBody,
    moneyKey,
    keyed(async (req, write) => {
      const input = validate<ExpenseInput>(createExpenseBody, req.body);
      return write((ctx, userId) => expenses.create(ctx, userId, input), REPLIES.expenseCreated);
    }),
  );
  router.get('/expenses/:expenseId', async (req, res) => {
    sendReply(res, REPLIES.expense(await expenses.get(userIdOf(res), param(req, 'expenseId'))));
  });
  router.put(
    '/expenses/:expenseId',
    jsonBody,
    moneyKey,
    keyed(async (req, write) => {
      const expenseId = validate<string>(clientId.label('expenseId'), param(req, 'expenseId'), 'path');
      const input = validate<ExpenseInput>(createExpenseBody, req.body);
      // Two PUTs creating one id in two groups at once: the loser runs again, and then finds the
      // expense in the other group (a PUT naming another group is refused).
      return write(
        (ctx, userId) => expenses.put(ctx, userId, expenseId, input, req.get('if-match')),
        REPLIES.expenseWritten,
        {
          retryIf: lostCreateRace,
        },
      );
    }),
  );
  router.patch(
    '/expenses/:expenseId',
    jsonBody,
    moneyKey,
    keyed(async (req, write) => {
      const patch = validate<ExpensePatch>(patchExpenseBody, req.body);
      const expenseId = param(req, 'expenseId');
      return write(
        (ctx, userId) => expenses.patch(ctx, userId, expenseId, patch, req.get('if-match')),
        REPLIES.expense,
      );
    }),
  );
  router.delete(
    '/expenses/:expenseId',
    moneyKey,
    keyed(async (req, write) => {
      const expenseId = param(req, 'expenseId');
      return write(
        (ctx, userId) => expenses.remove(ctx, userId, expenseId, req.get('if-match')),
        REPLIES.gone,
      );
    }),
  );
  router.post(
    '/expenses/:expenseId/restore',
    jsonBody,
    moneyKey,
    keyed(async (req, write) => {
      const expenseId = param(req, 'expenseId');
      return write((ctx, userId) => expenses.restore(ctx, userId, expenseId), REPLIES.expense);
    }),
  );

  // ---- settlements -----------------------------------------------------------------------------
  router.post(
    '/settlements',
    jsonBody,
    moneyKey,
    keyed(async (req, write) => {
      const input = validate<SettlementInput>(createSettlementBody, req.body);
      return write((ctx, userId) => settlements.create(ctx, userId, input), REPLIES.settlementCreated);
    }),
  );
  router.get('/settlements/:settlementId', async (req, res) => {
    sendReply(res, REPLIES.settlement(await settlements.get(userIdOf(res), param(req, 'settlementId'))));
  });
  router.delete(
    '/settlements/:settlementId',
    moneyKey,
    keyed(async (req, write) => {
      const settlementId = param(req, 'settlementId');
      return write((ctx, userId) => settlements.remove(ctx, userId, settlementId), REPLIES.gone);
    }),
  );

  return router;
}
