import { canonicalTimeZone } from '@tally/domain';
import { AppError, notFound } from '@tally/http-kit';
import type { IdempotencyLayer } from '@tally/idempotency';
import { type Request, Router } from 'express';
import { userIdOf } from '../auth/authenticate';
import { checkExpenseInput } from '../expenses/expenses.service';
import { created, etagOf, noContent, ok, type Reply, sendReply } from '../http/reply';
import { validate } from '../http/validate';
import { createWriteRoutes, type WriteRouteInfo } from '../http/write-route';
import type { Announcer } from '../ledger/announcer';
import type { WriteRunner } from '../ledger/write-runner';
import { createRecurringBody, listQuery, patchRecurringBody } from '../schemas';
import {
  checkSchedule,
  type Recurring,
  type RecurringInput,
  type RecurringPatch,
  type RecurringService,
  type RecurringTemplate,
} from './recurring.service';

export type RecurringRoutesDeps = {
  writes: WriteRunner;
  announcer: Announcer;
  recurring: RecurringService;
  idempotency?: IdempotencyLayer | undefined;
};

const REPLIES = {
  recurring: (r: Recurring): Reply => ok(r, { ETag: etagOf(r.version) }),
  recurringCreated: (r: Recurring): Reply =>
    created(r, { ETag: etagOf(r.version), Location: `/v1/recurring/${r.id}` }),
  gone: (): Reply => noContent(),
};

const param = (req: Request, name: string): string => {
  const value = req.params[name];
  // A NUL can never be part of an id (and PostgreSQL text cannot hold it): nothing is found.
  if (typeof value !== 'string' || value.includes('\u0000')) throw notFound();
  return value;
};

/** A template's amounts, checked as an expense's are (payers and shares add up), with its paths. */
function checkTemplate(template: RecurringTemplate): void {
  try {
    checkExpenseInput(template);
  } catch (error) {
    if (!(error instanceof AppError) || !error.errors) throw error;
    throw new AppError(error.code, error.status, error.message, {
      errors: error.errors.map((e) => ({ ...e, path: `expense.${e.path}` })),
    });
  }
}

/**
 * A schedule's time zone under the zone's one name (API.md §6a: `europe/berlin` → `Europe/Berlin`,
 * `Asia/Calcutta` → `Asia/Kolkata`), the body's schema having checked it is a zone name.
 */
function withCanonicalZone<T extends { timeZone?: string }>(schedule: T): T {
  if (schedule.timeZone === undefined) return schedule;
  return { ...schedule, timeZone: canonicalTimeZone(schedule.timeZone) ?? schedule.timeZone };
}

/** Recurring expenses (API.md §6a): schedules whose occurrences the scheduler creates. */
export function recurringRoutes(deps: RecurringRoutesDeps): {
  router: Router;
  writeRoutes: readonly WriteRouteInfo[];
} {
  const { recurring } = deps;
  const router = Router();
  const writes = createWriteRoutes({
    router,
    mountPath: '/v1',
    writes: deps.writes,
    announcer: deps.announcer,
    idempotency: deps.idempotency,
  });

  writes.post('/groups/:groupId/recurring', {
    key: 'required',
    parse: (req) => {
      const body = validate<RecurringInput>(createRecurringBody, req.body);
      const input = { ...body, schedule: withCanonicalZone(body.schedule) };
      checkTemplate(input.expense);
      checkSchedule(input.schedule);
      return { groupId: param(req, 'groupId'), input };
    },
    work: (ctx, userId, { groupId, input }) => recurring.create(ctx, userId, groupId, input),
    reply: REPLIES.recurringCreated,
  });
  router.get('/groups/:groupId/recurring', async (req, res) => {
    const query = validate<{ limit: number; cursor?: string }>(listQuery, req.query, 'query');
    sendReply(res, ok(await recurring.list(userIdOf(res), param(req, 'groupId'), query)));
  });
  router.get('/recurring/:recurringId', async (req, res) => {
    sendReply(res, REPLIES.recurring(await recurring.get(userIdOf(res), param(req, 'recurringId'))));
  });
  writes.patch('/recurring/:recurringId', {
    key: 'required',
    // The merged template and schedule are checked against the stored ones (an outcome, recorded).
    parse: (req) => {
      const patch = validate<RecurringPatch>(patchRecurringBody, req.body);
      return {
        patch: patch.schedule ? { ...patch, schedule: withCanonicalZone(patch.schedule) } : patch,
        recurringId: param(req, 'recurringId'),
      };
    },
    work: (ctx, userId, { recurringId, patch }, req) =>
      recurring.patch(ctx, userId, recurringId, patch, req.get('if-match'), checkTemplate),
    reply: REPLIES.recurring,
  });
  writes.delete('/recurring/:recurringId', {
    key: 'required',
    parse: (req) => param(req, 'recurringId'),
    work: (ctx, userId, recurringId, req) => recurring.remove(ctx, userId, recurringId, req.get('if-match')),
    reply: REPLIES.gone,
  });

  return { router, writeRoutes: writes.routes() };
}
