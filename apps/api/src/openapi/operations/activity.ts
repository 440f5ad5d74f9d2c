import { activityReadBody, listQuery } from '../../schemas';
import { LIST_NOTE } from './notes';
import { page } from './shapes';
import type { Operation } from './types';

/** The activity feed across the caller’s groups (API.md §8a). */
export const activityOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/me/activity',
    operationId: 'listActivity',
    replicaRead: true,
    tag: 'Events',
    summary: 'Activity across the caller’s groups',
    description:
      'The events of every group the caller belongs to, from the time they joined it, newest first by ' +
      '(`occurredAt`, `id`), each with its group’s id and name. The cursor names a position in that ' +
      'order: a page after it never repeats or skips an item that was there when the first page was read, ' +
      'whatever is written meanwhile. A group the caller left is not listed; events older than ' +
      '`EVENT_RETENTION_DAYS` are gone. `unread` counts the items newer than the read marker, at most 100 ' +
      `(\`unreadCapped\`: more than 100). ${LIST_NOTE}`,
    query: listQuery,
    success: [page('ActivityPage', 'activity')],
  },
  {
    method: 'post',
    path: '/v1/me/activity/read',
    operationId: 'markActivityRead',
    tag: 'Events',
    summary: 'Move the caller’s read marker',
    description:
      '`upTo` is the id of the newest item read. The marker only moves forward: an item older than the ' +
      'marker leaves it where it is (and is answered `200` all the same). An id that is not an item of the ' +
      'caller’s feed (unknown, of a group they are not in, from before they joined, or no longer kept) is `404`.',
    body: activityReadBody,
    idempotency: 'optional',
    success: [
      { status: 200, description: 'The marker and the unread count after it', schema: 'ActivityUnread' },
    ],
    errors: ['not_found'],
  },
];
