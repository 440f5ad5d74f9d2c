import type { Operation } from './types';

export const WEBSOCKET_DESCRIPTION = `Upgrades to a WebSocket (RFC 6455) for live events and presence.

**Credentials**: \`Authorization: Bearer <accessToken>\` on the upgrade request, or none on the upgrade
and the token in the connection's first message, \`{"type":"auth","id","accessToken"}\` (browsers cannot
set headers on a WebSocket): the server answers \`{"type":"authenticated","id","expiresAt"}\` then the
\`welcome\`. Such a connection that sends anything else first, an invalid token, or nothing within
\`WS_AUTH_TIMEOUT_MS\` (5 s) is closed with 4401; one over the per-user limit when it authenticates is
closed with 1008. \`?access_token=\` is accepted only where \`WS_ALLOW_QUERY_TOKEN=true\` (by default only the
single embedded node): elsewhere an upgrade carrying it is refused with 401 (URLs end up in proxy and
access logs). A bad token refuses the upgrade with HTTP 401. A user who already has
\`WS_MAX_CONNECTIONS_PER_USER\` sockets on this gateway is refused with HTTP 429 \`rate_limited\`
(\`Retry-After\`); a gateway that is shutting down refuses it with 503 (\`Retry-After: 1\`). Every refusal
is problem+json. A plain \`GET\` without \`Upgrade: websocket\` is answered \`426 upgrade_required\` (with
\`Upgrade: websocket\`), before authentication.

Every message is one JSON text frame: a \`ClientMessage\` from the client, a \`ServerMessage\` from the
server (both in the schemas of this document). On open the server sends
\`{"type":"welcome","connectionId","userId","heartbeatMs"}\`.

| client → server | server → client |
|---|---|
| \`{"type":"subscribe","id":"c1","groupId","afterSeq"?}\` | the missed events with \`seq > afterSeq\` as \`event\` messages, in order, then \`{"type":"subscribed","id":"c1","groupId","seq"}\`; a non-member gets \`{"type":"error","id":"c1","code":"not_found"}\` |
| \`{"type":"unsubscribe","id","groupId"}\` | \`{"type":"unsubscribed","id","groupId"}\` |
| \`{"type":"ping","id"}\` | \`{"type":"pong","id"}\` |
| \`{"type":"auth","id","accessToken"}\` (a fresh token of the same user, before the current one expires) | \`{"type":"authenticated","id","expiresAt"}\`; an invalid token or another user's: \`{"type":"error","id","code":"unauthenticated"}\` (the old deadline stands) |
| anything else, or invalid JSON | \`{"type":"error","code":"bad_message"}\`; the connection stays open |

- A \`subscribe\` with \`afterSeq\` beyond the group's current \`seq\` is \`{"type":"error","id","code":"bad_message"}\`.
  When the events after \`afterSeq\` are no longer kept (\`EVENT_RETENTION_DAYS\`), the answer is
  \`{"type":"resync_required","id","groupId","seq"}\` and no subscription: refetch the group's state and
  subscribe again (from \`seq\`, the group's current one, or from the \`asOfSeq\` of the state read).
  More than \`WS_MAX_SUBSCRIPTIONS_PER_CONNECTION\` subscriptions: \`{"type":"error","id","code":"limit_exceeded"}\`.

- **Live events**: \`{"type":"event","groupId","seq","event":{…}}\` (the \`Event\` schema) for every event
  of a subscribed group, in \`seq\` order with no gaps and no duplicates on one connection; a connection
  that falls behind is caught up from the log, never skipped ahead. Money events carry the group's
  balances after the change in \`event.data.balances\`.
- **Presence**: \`{"type":"presence","groupId","online":["usr_…"]}\` to a group's subscribers whenever the
  set of its members connected (on any gateway) changes.
- A member removed from a group is unsubscribed: \`{"type":"unsubscribed","groupId","reason":"removed"}\`.
- **Heartbeat**: the server pings every \`heartbeatMs\` and drops connections that do not answer.
- **Authorization holds for the life of the socket**: when the token the connection was opened (or last
  \`auth\`-ed) with expires, the server closes with 4401; a removed member gets nothing of the group after
  the removal commits.
- **Close codes**: 1008 over \`WS_MAX_MESSAGES_PER_SECOND\`; 1009 for a frame over 64 KiB; 1013 for a client
  that stopped reading (more than 1 MiB buffered; a client catching up is paced by its socket instead);
  1012 on shutdown (service restart); 4401 when the access token expired. Clients reconnect with jittered backoff and resume each
  subscription with \`afterSeq\` set to the last \`seq\` they saw.`;

/** The WebSocket upgrade. */
export const realtimeOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/ws',
    operationId: 'openWebSocket',
    tag: 'Realtime',
    summary: 'Live events and presence over a WebSocket',
    description: WEBSOCKET_DESCRIPTION,
    websocket: true,
    success: [{ status: 101, description: 'Switching Protocols: the connection is now a WebSocket' }],
    errors: ['unauthenticated', 'upgrade_required', 'rate_limited', 'unavailable'],
  },
];
