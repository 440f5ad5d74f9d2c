import { clientId, createExpenseBody, duplicateExpenseBody, patchExpenseBody } from '../../schemas';
import { CURRENCY_BOUND_NOTE, NOT_MEMBER_NOTE } from './notes';
import { noContent } from './shapes';
import type { Operation } from './types';

/** Expenses (API.md §5). */
export const expensesOperations: Operation[] = [
  {
    method: 'post',
    path: '/v1/expenses',
    operationId: 'createExpense',
    tag: 'Expenses',
    summary: 'Record an expense',
    description:
      '`paidBy` is one member’s id (they paid the whole amount) or a list of payers whose amounts add up to ' +
      '`amount`. `currency` defaults to the group’s, `occurredAt` to now. Shares are computed by largest ' +
      `remainder, ties to the participant listed earlier. ${NOT_MEMBER_NOTE} ${CURRENCY_BOUND_NOTE}`,
    body: createExpenseBody,
    idempotency: 'required',
    success: [{ status: 201, description: 'The expense', schema: 'Expense', headers: ['ETag', 'Location'] }],
    errors: ['not_found', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/expenses/{expenseId}',
    operationId: 'getExpense',
    replicaRead: true,
    tag: 'Expenses',
    summary: 'An expense',
    description: 'A deleted expense is `404` (it can still be restored).',
    success: [{ status: 200, description: 'The expense', schema: 'Expense', headers: ['ETag'] }],
  },
  {
    method: 'put',
    path: '/v1/expenses/{expenseId}',
    operationId: 'putExpense',
    tag: 'Expenses',
    summary: 'Replace an expense, or create it at a client-chosen id',
    description:
      'Full body, as for POST. An id that does not exist yet is **created** (`201`) so offline-first clients ' +
      'can choose ids (`^[A-Za-z0-9_-]{8,64}$`); repeating the same PUT leaves the same state. PUT on a ' +
      '**deleted** expense is `404`: restore it first. `groupId` cannot change (`422 validation_failed`). ' +
      'Honours `If-Match` (`412`; also when `If-Match` names an expense that does not exist). ' +
      `${NOT_MEMBER_NOTE} ${CURRENCY_BOUND_NOTE}`,
    body: createExpenseBody,
    pathSchemas: { expenseId: clientId },
    idempotency: 'required',
    ifMatch: true,
    success: [
      { status: 200, description: 'Replaced', schema: 'Expense', headers: ['ETag'] },
      { status: 201, description: 'Created at this id', schema: 'Expense', headers: ['ETag', 'Location'] },
    ],
    errors: ['precondition_failed', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
  },
  {
    method: 'patch',
    path: '/v1/expenses/{expenseId}',
    operationId: 'patchExpense',
    tag: 'Expenses',
    summary: 'Change some fields of an expense',
    description:
      'Any non-empty subset of the POST fields except `groupId`; the result is validated as a whole (e.g. a ' +
      'new `amount` with an `exact` split that no longer adds up is `422 split_mismatch`). A patch that ' +
      'changes `amount` (and not `paidBy`) of an expense with a single payer moves that payer’s amount ' +
      'along. Honours `If-Match`. ' +
      `${NOT_MEMBER_NOTE} ${CURRENCY_BOUND_NOTE}`,
    body: patchExpenseBody,
    idempotency: 'required',
    ifMatch: true,
    success: [
      { status: 200, description: 'The expense after the change', schema: 'Expense', headers: ['ETag'] },
    ],
    errors: ['precondition_failed', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
  },
  {
    method: 'delete',
    path: '/v1/expenses/{expenseId}',
    operationId: 'deleteExpense',
    tag: 'Expenses',
    summary: 'Delete an expense',
    description:
      'It stops counting in balances and `GET` on it is `404`; deleting an already deleted expense is `204` ' +
      `again. Undo with restore. Honours \`If-Match\`. ${NOT_MEMBER_NOTE}`,
    idempotency: 'required',
    ifMatch: true,
    success: noContent('Deleted'),
    errors: ['precondition_failed', 'not_a_member'],
  },
  {
    method: 'post',
    path: '/v1/expenses/{expenseId}/restore',
    operationId: 'restoreExpense',
    tag: 'Expenses',
    summary: 'Undo the delete of an expense',
    description:
      'A no-op `200` when the expense is not deleted. Restoring appends an `expense.created` event with ' +
      `\`data.restored: true\`. No request body is needed. ${NOT_MEMBER_NOTE} ${CURRENCY_BOUND_NOTE}`,
    jsonBody: true,
    idempotency: 'required',
    success: [{ status: 200, description: 'The live expense', schema: 'Expense', headers: ['ETag'] }],
    errors: ['not_a_member', 'limit_exceeded'],
  },
  {
    method: 'post',
    path: '/v1/expenses/{expenseId}/duplicate',
    operationId: 'duplicateExpense',
    tag: 'Expenses',
    summary: 'Copy an expense as a new one',
    description:
      'A new expense (`exp_…`) in the same group with the same description, category, amount, currency, payers ' +
      'and split, dated `occurredAt` (default now); `description` may be changed too. The copy is checked as ' +
      `any new expense is. A deleted or unknown expense is \`404\`. ${NOT_MEMBER_NOTE} ${CURRENCY_BOUND_NOTE}`,
    body: duplicateExpenseBody,
    idempotency: 'required',
    success: [{ status: 201, description: 'The copy', schema: 'Expense', headers: ['ETag', 'Location'] }],
    errors: ['not_a_member', 'limit_exceeded'],
  },
];
