import { createRecurringBody, listQuery, patchRecurringBody } from '../../schemas';
import { LIST_NOTE, NOT_MEMBER_NOTE, RECURRING_BACKLOG_NOTE, RECURRING_NOTE } from './notes';
import { noContent, page } from './shapes';
import type { Operation } from './types';

/** Recurring expenses (API.md §6a). */
export const recurringOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/groups/{groupId}/recurring',
    operationId: 'createRecurringExpense',
    tag: 'Recurring expenses',
    summary: 'Schedule a recurring expense',
    description:
      '`expense` is the body of `POST /v1/expenses` without `groupId` and `occurredAt`; `schedule.every` is ' +
      '`week`, `2 weeks`, `month` (the same day of the month, or the month’s last day when it is shorter) or ' +
      '`year`; `until` (inclusive) must not be before `startsOn` (`422 validation_failed`); `timeZone` is an ' +
      'IANA name in any case (not a UTC offset), kept under the zone’s one name (`europe/berlin` → ' +
      '`Europe/Berlin`). A `startsOn` in the past is allowed: the occurrences since are created by the ' +
      `scheduler. ${RECURRING_BACKLOG_NOTE} A group holds at most 50 recurring expenses (\`422 limit_exceeded\`, ` +
      `\`schedulesPerGroup\`). Appends \`recurring.created\`. ${RECURRING_NOTE} ${NOT_MEMBER_NOTE}`,
    body: createRecurringBody,
    idempotency: 'required',
    success: [
      {
        status: 201,
        description: 'The recurring expense',
        schema: 'RecurringExpense',
        headers: ['ETag', 'Location'],
      },
    ],
    errors: ['not_a_member', 'split_mismatch', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/recurring',
    operationId: 'listRecurringExpenses',
    tag: 'Recurring expenses',
    summary: "A group's recurring expenses",
    description: `Newest first; deleted ones are not listed. ${LIST_NOTE}`,
    query: listQuery,
    success: [page('RecurringExpensePage', 'recurring expenses')],
  },
  {
    method: 'get',
    path: '/v1/recurring/{recurringId}',
    operationId: 'getRecurringExpense',
    tag: 'Recurring expenses',
    summary: 'A recurring expense',
    description: 'Deleted, or in a group the caller is not a member of: `404`.',
    success: [
      {
        status: 200,
        description: 'The recurring expense',
        schema: 'RecurringExpense',
        headers: ['ETag'],
      },
    ],
  },
  {
    method: 'patch',
    path: '/v1/recurring/{recurringId}',
    operationId: 'patchRecurringExpense',
    tag: 'Recurring expenses',
    summary: 'Change the template or the schedule, from the next occurrence on',
    description:
      'Any non-empty subset of `expense` fields and of `schedule` fields; the result is validated as a whole. ' +
      'Occurrences already created stay as they are. A changed schedule continues with its first occurrence ' +
      'after the last one created (from `startsOn` when none was); it may not leave more than 100 ' +
      'occurrences due at once, unless fewer than before (`422 limit_exceeded`, `recurringBacklog`). ' +
      `Honours \`If-Match\`. Appends \`recurring.updated\`. ${NOT_MEMBER_NOTE}`,
    body: patchRecurringBody,
    idempotency: 'required',
    ifMatch: true,
    success: [
      {
        status: 200,
        description: 'The recurring expense after the change',
        schema: 'RecurringExpense',
        headers: ['ETag'],
      },
    ],
    errors: ['precondition_failed', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
  },
  {
    method: 'delete',
    path: '/v1/recurring/{recurringId}',
    operationId: 'deleteRecurringExpense',
    tag: 'Recurring expenses',
    summary: 'Stop a recurring expense',
    description:
      'No occurrence is created after it; those created stay. Deleting it again is `204`. Honours `If-Match`. ' +
      'Appends `recurring.deleted`.',
    idempotency: 'required',
    ifMatch: true,
    success: noContent('Stopped'),
    errors: ['precondition_failed'],
  },
];
