import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, object, pageOf, timestamp } from './common';

const unreadFields: Record<string, JsonSchema> = {
  unread: {
    type: 'integer',
    minimum: 0,
    maximum: 100,
    description: 'Items newer than the read marker, at most 100',
  },
  unreadCapped: { type: 'boolean', description: 'True when there are more than 100 (show “100+”)' },
  readUpTo: {
    type: ['string', 'null'],
    description: 'The id of the item the read marker is at; null when the caller never marked any',
  },
};
const ActivityItem: JsonSchema = closed(
  {
    id: id('evt', 'Event'),
    groupId: id('grp', 'Group'),
    groupName: { type: 'string' },
    seq: { type: 'integer', minimum: 1 },
    type: { type: 'string', description: 'The event’s type (API.md §8)' },
    actorId: id('usr', 'User'),
    occurredAt: timestamp,
    data: { type: 'object', description: 'The event’s `data`, as in the group’s log' },
  },
  'An event of one of the caller’s groups, with the group’s name',
);
const ActivityPage: JsonSchema = {
  ...pageOf('ActivityItem'),
  properties: { ...(pageOf('ActivityItem').properties as Record<string, JsonSchema>), ...unreadFields },
  required: ['data', 'nextCursor', 'unread', 'unreadCapped', 'readUpTo'],
};
const ActivityUnread: JsonSchema = object(unreadFields, ['unread', 'unreadCapped', 'readUpTo']);

/** The activity feed (API.md §8a). */
export const activitySchemas: Record<string, JsonSchema> = { ActivityItem, ActivityPage, ActivityUnread };
