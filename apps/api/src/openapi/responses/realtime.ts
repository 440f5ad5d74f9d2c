import type { JsonSchema } from '../joi-to-json-schema';
import { id, object, ref, timestamp } from './common';

/** Messages of the WebSocket protocol (`GET /v1/ws`), one JSON text frame each. */
export function realtimeSchemas(): Record<string, JsonSchema> {
  const requestId = { type: 'string', maxLength: 128, description: 'Echoed in the answer' };
  const groupId = { ...id('grp', 'Group'), minLength: 1, maxLength: 100 };
  const message = (
    type: string,
    properties: Record<string, JsonSchema>,
    required: string[],
    description: string,
  ) => object({ type: { const: type }, ...properties }, ['type', ...required], description);
  const seq = { type: 'integer', minimum: 0 };
  return {
    ServerMessage: {
      description: 'Every message the server sends on the WebSocket',
      oneOf: [
        message(
          'welcome',
          {
            connectionId: { type: 'string' },
            userId: id('usr', 'User'),
            heartbeatMs: { type: 'integer', minimum: 1, description: 'The server pings this often' },
          },
          ['connectionId', 'userId', 'heartbeatMs'],
          'Sent once, when the connection opens',
        ),
        message(
          'event',
          { groupId, seq: { ...seq, minimum: 1 }, event: ref('Event') },
          ['groupId', 'seq', 'event'],
          'An event of a subscribed group, in `seq` order without gaps',
        ),
        message(
          'subscribed',
          { id: requestId, groupId, seq: { ...seq, description: 'The group’s seq when the catch-up ended' } },
          ['groupId', 'seq'],
          'The subscription is live (after the missed events)',
        ),
        message(
          'resync_required',
          {
            id: requestId,
            groupId,
            seq: {
              ...seq,
              description: 'The group’s current seq: subscribe again from it, after refetching',
            },
          },
          ['groupId', 'seq'],
          'The answer to a `subscribe` whose `afterSeq` is older than the kept log (`EVENT_RETENTION_DAYS`): ' +
            'nothing is subscribed; refetch the group’s state, then subscribe again',
        ),
        message(
          'unsubscribed',
          {
            id: requestId,
            groupId,
            reason: { const: 'removed', description: 'Set when the user was removed from the group' },
          },
          ['groupId'],
          'The subscription ended',
        ),
        message(
          'presence',
          { groupId, online: { type: 'array', items: id('usr', 'User') } },
          ['groupId', 'online'],
          'The members of the group connected right now, on any gateway',
        ),
        message('pong', { id: requestId }, [], 'The answer to `ping`'),
        message(
          'authenticated',
          { id: requestId, expiresAt: { ...timestamp, description: 'When the new token expires' } },
          ['expiresAt'],
          'The answer to `auth`: the connection now holds until the new token expires',
        ),
        message(
          'error',
          {
            id: requestId,
            code: {
              type: 'string',
              enum: ['bad_message', 'not_found', 'limit_exceeded', 'unauthenticated', 'unavailable'],
            },
          },
          ['code'],
          'A request that failed; the connection stays open',
        ),
        message(
          'activity',
          {
            groupId,
            eventId: id('evt', 'Event'),
            seq: { ...seq, minimum: 1 },
            eventType: { type: 'string', description: 'The event’s `type` (API.md §8)' },
          },
          ['groupId', 'eventId', 'seq', 'eventType'],
          'After `activity.subscribe`: a new event in one of the user’s groups (a hint; `GET /v1/me/activity` is the feed)',
        ),
        message(
          'activity.subscribed',
          { id: requestId, groupCount: { type: 'integer', minimum: 0, description: 'The groups followed' } },
          ['groupCount'],
          'The answer to `activity.subscribe`: the user’s groups as of now are followed',
        ),
        message('activity.unsubscribed', { id: requestId }, [], 'The answer to `activity.unsubscribe`'),
      ],
    },
    ClientMessage: {
      description: 'Every message a client may send on the WebSocket (unknown fields are ignored)',
      oneOf: [
        message(
          'subscribe',
          {
            id: requestId,
            groupId,
            afterSeq: {
              ...seq,
              maximum: Number.MAX_SAFE_INTEGER,
              description: 'Replay the events after this seq first',
            },
          },
          ['groupId'],
          'Receive the group’s events (and presence)',
        ),
        message('unsubscribe', { id: requestId, groupId }, ['groupId'], 'Stop receiving the group'),
        message('ping', { id: requestId }, [], 'Answered with `pong`'),
        message(
          'auth',
          { id: requestId, accessToken: { type: 'string', minLength: 1, maxLength: 8192 } },
          ['accessToken'],
          'A fresh access token of the same user, before the current one expires',
        ),
        message(
          'activity.subscribe',
          { id: requestId },
          [],
          'Hear `activity` for new events of every group of the user; sent again, it re-reads the user’s groups',
        ),
        message('activity.unsubscribe', { id: requestId }, [], 'Stop hearing `activity`'),
      ].map(({ additionalProperties: _ignored, ...rest }) => rest),
    },
  };
}
