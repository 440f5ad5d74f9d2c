import { canonicalTimeZone } from '@tally/domain';
import { AppError } from '@tally/http-kit';
import { checkExpenseInput } from '../expenses/expenses.service';
import { created, etagOf, noContent, ok, type Reply } from '../http/reply';
import { bodyOf, param, queryOf, type Route, route } from '../http/route';
import type { WriteRoutes } from '../http/write-route';
import {
  checkSchedule,
  type Recurring,
  type RecurringInput,
  type RecurringPatch,
  type RecurringService,
  type RecurringTemplate,
} from './recurring.service';

export type RecurringRoutesDeps = {
  /** The write routes' maker (http/write-route.ts). */
  routes: WriteRoutes;
  recurring: RecurringService;
};

const REPLIES = {
  recurring: (r: Recurring): Reply => ok(r, { ETag: etagOf(r.version) }),
  recurringCreated: (r: Recurring): Reply =>
    created(r, { ETag: etagOf(r.version), Location: `/v1/recurring/${r.id}` }),
  gone: (): Reply => noContent(),
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
export function recurringRoutes(deps: RecurringRoutesDeps): Route[] {
  const { recurring } = deps;
  const { write } = deps.routes;
  return [
    write({
      operation: 'createRecurringExpense',
      parse: (req) => {
        const body = bodyOf<RecurringInput>(req);
        const input = { ...body, schedule: withCanonicalZone(body.schedule) };
        checkTemplate(input.expense);
        checkSchedule(input.schedule);
        return { groupId: param(req, 'groupId'), input };
      },
      work: (ctx, userId, { groupId, input }) => recurring.create(ctx, userId, groupId, input),
      reply: REPLIES.recurringCreated,
    }),
    route('listRecurringExpenses', async (req) => {
      const query = queryOf<{ limit: number; cursor?: string }>(req);
      return ok(await recurring.list(req.userId, param(req, 'groupId'), query));
    }),
    route('getRecurringExpense', async (req) =>
      REPLIES.recurring(await recurring.get(req.userId, param(req, 'recurringId'))),
    ),
    write({
      operation: 'patchRecurringExpense',
      // The merged template and schedule are checked against the stored ones (an outcome, recorded).
      parse: (req) => {
        const patch = bodyOf<RecurringPatch>(req);
        return {
          patch: patch.schedule ? { ...patch, schedule: withCanonicalZone(patch.schedule) } : patch,
          recurringId: param(req, 'recurringId'),
        };
      },
      work: (ctx, userId, { recurringId, patch }, req) =>
        recurring.patch(ctx, userId, recurringId, patch, req.headers['if-match'], checkTemplate),
      reply: REPLIES.recurring,
    }),
    write({
      operation: 'deleteRecurringExpense',
      parse: (req) => param(req, 'recurringId'),
      work: (ctx, userId, recurringId, req) =>
        recurring.remove(ctx, userId, recurringId, req.headers['if-match']),
      reply: REPLIES.gone,
    }),
  ];
}
