import { eventsQuery, expensesQuery, listQuery } from '../../schemas';
import { LIST_NOTE } from './notes';
import { page } from './shapes';
import type { Operation } from './types';

/** A group’s lists: expenses, settlements and its event log. */
export const groupListsOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/groups/{groupId}/expenses',
    operationId: 'listExpenses',
    replicaRead: true,
    tag: 'Expenses',
    summary: "A group's expenses, searched and filtered",
    description:
      'Newest first by `occurredAt`, then by id (descending). Deleted expenses are not listed unless ' +
      '`includeDeleted=true`. Filters combine with AND (API.md §5.1): `q` (every word a substring of the ' +
      'description or category, ignoring case and accents), `category` (exact), `paidBy`, `involves` (payer or ' +
      'in the split), `from` (inclusive) and `to` (exclusive) on `occurredAt`. With `updatedAfter` (sync) the ' +
      'order is `updatedAt`, then id, ascending. A cursor keeps the filters it was issued with: used with other ' +
      'filters it is `422 validation_failed`. Timestamps must be real RFC 3339 date-times (`2026-02-30…` is ' +
      `\`422\`). ${LIST_NOTE}`,
    query: expensesQuery,
    success: [page('ExpensePage', 'expenses')],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/settlements',
    operationId: 'listSettlements',
    tag: 'Settlements',
    summary: "A group's live settlements",
    description: `Newest first by \`createdAt\`, then by id (descending). Deleted settlements are not listed. ${LIST_NOTE}`,
    query: listQuery,
    success: [page('SettlementPage', 'settlements')],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/events',
    operationId: 'listEvents',
    tag: 'Events',
    summary: "A group's event log",
    description:
      'Oldest first (by `seq`). Start after a sequence number with `afterSeq` (default 0: from the beginning), ' +
      'or continue with the `cursor` of the previous page; when both are given the cursor wins. ' +
      'The log is kept `EVENT_RETENTION_DAYS` (unset: for ever): when the events right after `afterSeq` (or ' +
      'the cursor) are no longer kept, the answer is `410 resync_required`, never a page with a gap. Read the ' +
      'group’s state again (`GET …/balances` carries `asOfSeq`, and the lists) and continue the log from ' +
      'there. ' +
      LIST_NOTE,
    query: eventsQuery,
    success: [page('EventPage', 'events')],
    errors: ['resync_required'],
  },
];
