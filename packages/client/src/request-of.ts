import type { OutboxOperation } from './outbox-types.js';
import type { HttpMethod } from './types.js';

export const expensePath = (id: string) => `/v1/expenses/${encodeURIComponent(id)}`;
export const settlementPath = (id: string) => `/v1/settlements/${encodeURIComponent(id)}`;
export const recurringPath = (id: string) => `/v1/recurring/${encodeURIComponent(id)}`;
export const commentsPath = (target: 'expense' | 'settlement', id: string) =>
  `/v1/${target}s/${encodeURIComponent(id)}/comments`;

/** The request an operation becomes. */
export function requestOf(operation: OutboxOperation): {
  method: HttpMethod;
  path: string;
  body?: unknown;
  ifMatch?: string;
} {
  switch (operation.type) {
    case 'expense.create':
      return { method: 'PUT', path: expensePath(operation.expenseId), body: operation.body };
    case 'expense.replace':
    case 'expense.patch':
      return {
        method: operation.type === 'expense.replace' ? 'PUT' : 'PATCH',
        path: expensePath(operation.expenseId),
        body: operation.body,
        ...(operation.ifMatch ? { ifMatch: operation.ifMatch } : {}),
      };
    case 'expense.delete':
      return {
        method: 'DELETE',
        path: expensePath(operation.expenseId),
        ...(operation.ifMatch ? { ifMatch: operation.ifMatch } : {}),
      };
    case 'expense.restore':
      return { method: 'POST', path: `${expensePath(operation.expenseId)}/restore` };
    case 'settlement.create':
      return { method: 'POST', path: '/v1/settlements', body: operation.body };
    case 'settlement.delete':
      return { method: 'DELETE', path: settlementPath(operation.settlementId) };
    case 'recurring.create':
      return {
        method: 'POST',
        path: `/v1/groups/${encodeURIComponent(operation.groupId)}/recurring`,
        body: operation.body,
      };
    case 'recurring.patch':
      return {
        method: 'PATCH',
        path: recurringPath(operation.recurringId),
        body: operation.body,
        ...(operation.ifMatch ? { ifMatch: operation.ifMatch } : {}),
      };
    case 'recurring.delete':
      return {
        method: 'DELETE',
        path: recurringPath(operation.recurringId),
        ...(operation.ifMatch ? { ifMatch: operation.ifMatch } : {}),
      };
    case 'comment.create':
      return {
        method: 'POST',
        path: commentsPath(operation.target, operation.targetId),
        body: { text: operation.text },
      };
    case 'comment.delete':
      return { method: 'DELETE', path: `/v1/comments/${encodeURIComponent(operation.commentId)}` };
  }
}
