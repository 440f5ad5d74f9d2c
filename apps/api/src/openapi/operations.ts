import type Joi from 'joi';
import { BOUNDS, EXPORTS_PER_USER } from '../bounds';
import {
  acceptInviteBody,
  activityReadBody,
  addMemberBody,
  balancesQuery,
  changeEmailBody,
  changePasswordBody,
  clientId,
  commentBody,
  createExpenseBody,
  createGroupBody,
  createImportBody,
  createInviteBody,
  createRecurringBody,
  createSettlementBody,
  eventsQuery,
  expensesQuery,
  listQuery,
  loginBody,
  noBody,
  passwordResetBody,
  passwordResetConfirmBody,
  patchExpenseBody,
  patchGroupBody,
  patchRecurringBody,
  putRatesBody,
  refreshBody,
  registerBody,
  verifyEmailBody,
} from '../schemas';
import type { JsonSchema } from './joi-to-json-schema';
import type { DocumentedErrorCode } from './responses';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Response headers an operation documents (see `components.headers`). */
export type HeaderName = 'ETag' | 'Location' | 'Cache-Control';

export type Success = {
  status: number;
  description: string;
  /** A component schema name, or an inline schema. */
  schema?: string | JsonSchema;
  /** Defaults to `application/json`. */
  contentType?: string;
  headers?: HeaderName[];
};

/**
 * One documented operation, next to the joi schemas its route validates with. The generic error
 * responses (401, 413/415/400 for JSON bodies, idempotency errors, 422 for schemas, 429, 503) are
 * derived from these flags; `errors` lists only what the operation itself can add.
 */
export type Operation = {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/groups/{groupId}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** No bearer token needed. */
  public?: boolean;
  /** Counted by the rate limiter (every /v1 operation but the document itself). */
  rateLimited?: boolean;
  /** Never answers 503 (liveness). */
  alwaysAvailable?: boolean;
  /** The route parses a JSON body (so 400 malformed_json, 413 and 415 can happen). */
  jsonBody?: boolean;
  body?: Joi.Schema;
  query?: Joi.Schema;
  /** Joi schemas of path parameters that the route validates; others are plain strings. */
  pathSchemas?: Record<string, Joi.Schema>;
  idempotency?: 'required' | 'optional';
  ifMatch?: boolean;
  success: Success[];
  errors?: DocumentedErrorCode[];
  /**
   * The WebSocket upgrade, handled by the gateway below express; a plain `GET` (no upgrade) is
   * answered `426` by an express route. Its `errors` are the upgrade's own refusals, nothing derived.
   */
  websocket?: boolean;
};

export const PATH_PARAMETER_DESCRIPTIONS: Record<string, string> = {
  groupId: 'Group id (`grp_…`)',
  userId: 'User id (`usr_…`) of the member',
  expenseId: 'Expense id (`exp_…`, or the id a client chose with PUT)',
  settlementId: 'Settlement id (`stl_…`)',
  commentId: 'Comment id (`cmt_…`)',
  memberId: 'User id (`usr_…`) of a pending member',
  inviteId: 'Invite id (`inv_…`)',
  code: 'An invite code (43 characters, base64url)',
  recurringId: 'Recurring expense id (`rec_…`)',
  importId: 'Import id (`imp_…`)',
};

const RECURRING_NOTE =
  'Each occurrence becomes an ordinary expense (with `recurringId`, `occurredAt` the start of the ' +
  'occurrence’s local date in `schedule.timeZone`, or the first instant after it that exists there, and ' +
  'an `expense.created` event), created exactly once by the servers, in order, also for the dates missed ' +
  'while they were down. See API.md §6a.';

const RECURRING_BACKLOG_NOTE =
  'At most 100 occurrences may be due at once (`422 limit_exceeded`, `limit.name` `recurringBacklog`): ' +
  'a `startsOn` further back, up to `until`, is refused.';

const LIST_NOTE =
  'Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. ' +
  'Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.';

const NOT_MEMBER_NOTE =
  'Payers, participants and settlement parties must be current members (`422 not_a_member`). A change ' +
  'that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an ' +
  'expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each ' +
  'non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, ' +
  '`fromUserId`…). One person, one share: naming both an account and a pending member it took over in the ' +
  'payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3).';

const CURRENCY_BOUND_NOTE =
  `A record in a currency the group has no live record in, when it has live records in ` +
  `${BOUNDS.currenciesPerGroup} currencies already, is \`422 limit_exceeded\` (\`currenciesPerGroup\`, API.md §9.1).`;

const GROUPS_BOUND_NOTE = `An account is in at most ${BOUNDS.groupsPerUser} groups (\`groupsPerUser\`, API.md §9.1)`;
const MEMBERS_BOUND_NOTE = `a group has at most ${BOUNDS.membersPerGroup} members (\`membersPerGroup\`)`;

const EXPORTS_NOTE =
  `At most ${EXPORTS_PER_USER} downloads (this one and the other export) per user at once on one API ` +
  'process; one more is `429 rate_limited` with `Retry-After` and `limit.name` `exportsPerUser`.';

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

export const OPERATIONS: Operation[] = [
  // ---- auth ------------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/v1/auth/register',
    operationId: 'register',
    tag: 'Auth',
    summary: 'Register a user',
    description:
      'Creates a user (password 8–128 characters, not a common password from leaks; stored only as a slow salted ' +
      'hash) and signs them in. A link to confirm the email is mailed after the answer (API.md §2.5; ' +
      '`user.emailVerified` is `false` until it is opened). Rate limited per IP (`AUTH_RATE_LIMIT_PER_MINUTE`). ' +
      '`Idempotency-Key` is ignored on auth endpoints.',
    public: true,
    rateLimited: true,
    jsonBody: true,
    body: registerBody,
    success: [{ status: 201, description: 'Registered and signed in', schema: 'Session' }],
    errors: ['email_taken'],
  },
  {
    method: 'post',
    path: '/v1/auth/login',
    operationId: 'login',
    tag: 'Auth',
    summary: 'Sign in',
    description:
      'Rate limited per IP (`AUTH_RATE_LIMIT_PER_MINUTE`) and throttled per account and per IP (API.md §2): past ' +
      'the free attempts each further one locks the email (registered or not) or the IP for a doubling delay, ' +
      'during which a login answers `429 rate_limited` with `Retry-After` without checking the password. ' +
      'An unknown email, an account that cannot sign in and a wrong password all answer `401 invalid_credentials`.',
    public: true,
    rateLimited: true,
    jsonBody: true,
    body: loginBody,
    success: [{ status: 200, description: 'Signed in', schema: 'Session' }],
    errors: ['invalid_credentials'],
  },
  {
    method: 'post',
    path: '/v1/auth/refresh',
    operationId: 'refresh',
    tag: 'Auth',
    summary: 'Exchange a refresh token for a new token pair',
    description:
      'Refresh tokens live 30 days and rotate: the one presented is dead afterwards, and presenting a dead ' +
      'one revokes its whole family (`401 unauthenticated`). Presented again within ' +
      '`REFRESH_REUSE_GRACE_SECONDS` of its rotation (a retry, or two requests at once), it answers the same ' +
      'refresh token as the first time, with an access token for the same session: a session is one chain. ' +
      'Rate limited per client IP (`TRUST_PROXY`).',
    public: true,
    rateLimited: true,
    jsonBody: true,
    body: refreshBody,
    success: [{ status: 200, description: 'A new access and refresh token', schema: 'Session' }],
    errors: ['unauthenticated'],
  },
  {
    method: 'get',
    path: '/v1/me',
    operationId: 'getMe',
    tag: 'Auth',
    summary: 'The signed-in user',
    description:
      '`emailVerified`: whether the login email was confirmed by the link mailed to it (API.md §2.5). A change ' +
      'of address asked for (`POST /v1/me/email`) shows here only once confirmed.',
    rateLimited: true,
    success: [{ status: 200, description: 'The caller', schema: 'User', headers: ['Cache-Control'] }],
  },
  {
    method: 'post',
    path: '/v1/auth/password-reset',
    operationId: 'requestPasswordReset',
    tag: 'Auth',
    summary: 'Mail a link to set a new password',
    description:
      'Always the same `202` and body, whether or not an account has this email (and answered before it is ' +
      'looked up). For an active account a single-use link `APP_URL/#reset=<token>` is mailed, valid ' +
      '`PASSWORD_RESET_TTL_SECONDS`; at most `PASSWORD_RESET_MAX_PER_HOUR` mails per account per hour. ' +
      'Rate limited per IP.',
    public: true,
    rateLimited: true,
    jsonBody: true,
    body: passwordResetBody,
    success: [
      {
        status: 202,
        description: 'Accepted; a mail is on its way if the account exists',
        schema: {
          type: 'object',
          properties: { message: { type: 'string' } },
          required: ['message'],
          additionalProperties: false,
        },
      },
    ],
  },
  {
    method: 'post',
    path: '/v1/auth/password-reset/confirm',
    operationId: 'confirmPasswordReset',
    tag: 'Auth',
    summary: 'Set a new password with the token of a reset link',
    description:
      'The token works once and until it expires. Sets the password, makes every other outstanding reset ' +
      'link of the account stop working and ends every session (refresh tokens are revoked); sign in ' +
      'with the new password afterwards. Rate limited per IP.',
    public: true,
    rateLimited: true,
    jsonBody: true,
    body: passwordResetConfirmBody,
    success: [{ status: 204, description: 'The password is set; every session has ended' }],
    errors: ['invalid_reset_token'],
  },
  {
    method: 'post',
    path: '/v1/me/password',
    operationId: 'changePassword',
    tag: 'Auth',
    summary: 'Change the password',
    description:
      'Needs the current password (`403 wrong_password` otherwise; not 401, which means the token). ' +
      "Ends every other session of the user (their refresh tokens are revoked); the caller's stays.",
    rateLimited: true,
    jsonBody: true,
    body: changePasswordBody,
    success: [{ status: 204, description: 'Changed; every other session has ended' }],
    errors: ['wrong_password'],
  },

  {
    method: 'post',
    path: '/v1/auth/verify-email',
    operationId: 'verifyEmail',
    tag: 'Auth',
    summary: 'Confirm an email address with the token of a verification link',
    description:
      'The token of a link mailed at registration, on request (`POST /v1/me/email/verification`) or for a ' +
      'change of address (`POST /v1/me/email`): that address is verified, and becomes the login email if it ' +
      'is a new one (`409 email_taken` when another account registered it meanwhile). The token works once, ' +
      'for 24 hours, and only while it is the newest link of the account; a used, superseded, expired or ' +
      'unknown one is `404 not_found`. Needs no sign-in. Rate limited per IP.',
    public: true,
    rateLimited: true,
    jsonBody: true,
    body: verifyEmailBody,
    success: [{ status: 204, description: 'The address is verified' }],
    errors: ['not_found', 'email_taken'],
  },
  {
    method: 'post',
    path: '/v1/me/email',
    operationId: 'changeEmail',
    tag: 'Auth',
    summary: 'Change the login email (confirmed by a mailed link)',
    description:
      'Needs the current password (`403 wrong_password`). A link goes to the new address; until it is opened ' +
      '(`POST /v1/auth/verify-email`) the current address stays the login email, verified or not as it was. ' +
      'An address another account has is `409 email_taken`. The link supersedes the account’s earlier ones; ' +
      'the account’s own address cancels a change waiting to be confirmed (`204`, or `202` with a link when ' +
      'that address is not verified yet). At most 3 verification mails per account per hour ' +
      '(`429 rate_limited` with `Retry-After`).',
    rateLimited: true,
    jsonBody: true,
    body: changeEmailBody,
    success: [
      {
        status: 202,
        description: 'A link to confirm the address is on its way (after the answer)',
        schema: 'EmailLinkSent',
      },
      { status: 204, description: 'Nothing to confirm: the address is the account’s own, and verified' },
    ],
    errors: ['wrong_password', 'email_taken'],
  },
  {
    method: 'post',
    path: '/v1/me/email/verification',
    operationId: 'requestEmailVerification',
    tag: 'Auth',
    summary: 'Mail the verification link again',
    description:
      'A new link for the address waiting to be confirmed: a change asked for, else the login email while it ' +
      'is not verified (the earlier links stop working). `204` when nothing waits. No body. At most 3 ' +
      'verification mails per account per hour, the one sent at registration included (`429 rate_limited` ' +
      'with `Retry-After`).',
    rateLimited: true,
    jsonBody: true,
    body: noBody,
    success: [
      {
        status: 202,
        description: 'A link to confirm the address is on its way (after the answer)',
        schema: 'EmailLinkSent',
      },
      { status: 204, description: 'Nothing waits to be confirmed' },
    ],
  },
  {
    method: 'get',
    path: '/v1/me/export',
    operationId: 'exportMyData',
    tag: 'Auth',
    summary: "The caller's data, as one JSON document",
    description:
      'Streamed (API.md §11.2): `exportedAt`, `user` (id, email, name, createdAt; never the password hash), ' +
      'and `groups`: each group the caller belongs to as `GET /v1/groups/{groupId}` shows it, with ' +
      '`expenses` and `settlements` (every live one, oldest first), read 1,000 records a query. An error ' +
      'after the first byte ends the response abruptly (a broken download, never a complete-looking ' +
      `document). ${EXPORTS_NOTE}`,
    rateLimited: true,
    success: [
      {
        status: 200,
        description: 'The document (`Content-Disposition: attachment`)',
        schema: {
          type: 'object',
          properties: {
            exportedAt: { type: 'string', format: 'date-time' },
            user: { $ref: '#/components/schemas/User' },
            groups: { type: 'array', items: { type: 'object' } },
          },
          required: ['exportedAt', 'user', 'groups'],
        },
        headers: ['Cache-Control'],
      },
    ],
  },
  {
    method: 'delete',
    path: '/v1/me',
    operationId: 'deleteMe',
    tag: 'Auth',
    summary: "Deletes the caller's account",
    description:
      'API.md §11.3. Email, name and password hash are erased (the member shows as "Deleted user", status ' +
      '`deleted`), every refresh token is revoked, open WebSockets close with 4401 and the account can no ' +
      'longer sign in; its access tokens are refused (on other API processes within 10 s). Refused with ' +
      '`409 member_has_balance` while the caller owes or is owed money in any group (the groups in ' +
      '`errors`). An `Idempotency-Key` is ignored: once done, the caller no longer exists. Its cost is the ' +
      'caller’s groups × their currencies (each net read by key), whatever the size of the server’s data.',
    rateLimited: true,
    success: [{ status: 204, description: 'The account is deleted' }],
    errors: ['member_has_balance'],
  },

  // ---- sessions and signing out (API.md §2, added 2026-11-27) -------------------------------------
  {
    method: 'get',
    path: '/v1/me/sessions',
    operationId: 'listSessions',
    tag: 'Auth',
    summary: "The caller's signed-in devices",
    description:
      'Each sign-in (register or login) starts a session: its refresh tokens rotate within it. Live sessions ' +
      'only (neither ended nor unused for 30 days), the most recently used (refreshed) first; `current` marks ' +
      'the session of the access token that asked (its `sid`). `userAgent` and `ip` are those of the sign-in ' +
      '(null when unknown, e.g. sessions from before sessions were recorded).',
    rateLimited: true,
    success: [
      {
        status: 200,
        description: 'The live sessions',
        schema: 'DeviceSessionList',
        headers: ['Cache-Control'],
      },
    ],
  },
  {
    method: 'delete',
    path: '/v1/me/sessions/{sessionId}',
    operationId: 'revokeSession',
    tag: 'Auth',
    summary: 'Sign a device out',
    description:
      'Ends the session: its refresh token is refused (`401`), its access tokens are refused at once by the ' +
      'API process that answered and within `ACCOUNT_STATUS_TTL_MS` by the others, and its open WebSockets ' +
      "close with 4401. A session already ended: `204` again. Another user's session, or none: " +
      '`404 not_found`. Not keyed: an `Idempotency-Key` is ignored (it is idempotent by itself).',
    rateLimited: true,
    success: [{ status: 204, description: 'The session is ended' }],
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/auth/logout',
    operationId: 'logout',
    tag: 'Auth',
    summary: 'Sign out this session',
    description:
      'Ends the session of the bearer access token (its `sid`), as `DELETE /v1/me/sessions/{sessionId}` does. ' +
      'Unlike the other `/v1/auth` operations it needs `Authorization: Bearer`; the per-IP auth budget ' +
      'applies too. A token without `sid` (issued before sessions existed, at most one access-token lifetime ' +
      'old) ends every session of the user, as `logout-all`. No body; an `Idempotency-Key` is ignored.',
    rateLimited: true,
    success: [{ status: 204, description: 'Signed out' }],
  },
  {
    method: 'post',
    path: '/v1/auth/logout-all',
    operationId: 'logoutAll',
    tag: 'Auth',
    summary: 'Sign out everywhere',
    description:
      'Ends every session of the user, this one included (refresh tokens refused, access tokens refused, ' +
      'WebSockets closed with 4401). Needs `Authorization: Bearer`. No body; an `Idempotency-Key` is ignored.',
    rateLimited: true,
    success: [{ status: 204, description: 'Every session is ended' }],
  },

  // ---- groups and members ----------------------------------------------------------------------
  {
    method: 'get',
    path: '/v1/groups',
    operationId: 'listGroups',
    tag: 'Groups',
    summary: "The caller's groups",
    description: `Ordered by the caller's join time, newest first (then by id, descending). ${LIST_NOTE}`,
    rateLimited: true,
    query: listQuery,
    success: [
      { status: 200, description: 'One page of groups', schema: 'GroupPage', headers: ['Cache-Control'] },
    ],
  },
  {
    method: 'post',
    path: '/v1/groups',
    operationId: 'createGroup',
    tag: 'Groups',
    summary: 'Create a group',
    description: `The creator becomes its first member. \`currency\` defaults to \`INR\`. ${GROUPS_BOUND_NOTE}: one more is \`422 limit_exceeded\`.`,
    rateLimited: true,
    jsonBody: true,
    body: createGroupBody,
    idempotency: 'optional',
    success: [{ status: 201, description: 'The new group', schema: 'Group', headers: ['ETag', 'Location'] }],
    errors: ['limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}',
    operationId: 'getGroup',
    tag: 'Groups',
    summary: 'A group with its members',
    description: 'Non-members get `404`, never `403`.',
    rateLimited: true,
    success: [{ status: 200, description: 'The group', schema: 'Group', headers: ['ETag', 'Cache-Control'] }],
    errors: ['not_found'],
  },
  {
    method: 'patch',
    path: '/v1/groups/{groupId}',
    operationId: 'updateGroup',
    tag: 'Groups',
    summary: 'Rename a group or change its description',
    description:
      'Honours `If-Match` (`412 precondition_failed` when the group changed). An empty patch changes nothing.',
    rateLimited: true,
    jsonBody: true,
    body: patchGroupBody,
    idempotency: 'optional',
    ifMatch: true,
    success: [{ status: 200, description: 'The group after the change', schema: 'Group', headers: ['ETag'] }],
    errors: ['not_found', 'precondition_failed'],
  },
  {
    method: 'post',
    path: '/v1/groups/{groupId}/members',
    operationId: 'addMember',
    tag: 'Members',
    summary: 'Add a member: a registered user, or someone without an account',
    description:
      'A registered user by `userId` or by `email` (an unknown user, or a pending member of any group, is ' +
      '`404 not_found`; `200` when they are a member already). Or someone who is not on Tally yet by ' +
      '`{name, email?}`: a new **pending** member (`status: "pending"`, a `usr_…` id) who can pay, owe and ' +
      'settle like anyone else, never signs in, and belongs to this group only. An account can later take ' +
      'over their place, balances and history (an invite with `asMember`, or the claim by email). ' +
      `${GROUPS_BOUND_NOTE} and ${MEMBERS_BOUND_NOTE}: going over either is \`422 limit_exceeded\`, naming it.`,
    rateLimited: true,
    jsonBody: true,
    body: addMemberBody,
    idempotency: 'optional',
    success: [
      { status: 201, description: 'Added', schema: 'Member' },
      { status: 200, description: 'Already a member: nothing changed', schema: 'Member' },
    ],
    errors: ['not_found', 'limit_exceeded'],
  },
  {
    method: 'delete',
    path: '/v1/groups/{groupId}/members/{userId}',
    operationId: 'removeMember',
    tag: 'Members',
    summary: 'Remove a member (or leave)',
    description:
      'Any member may remove themselves or another member. `409 member_has_balance` while that member’s net ' +
      'in any currency of the group is not zero: settle up first. The live invites the member made are revoked ' +
      'with the removal (listed in `member.removed`’s `revokedInvites`).',
    rateLimited: true,
    idempotency: 'optional',
    success: [{ status: 204, description: 'Removed' }],
    errors: ['not_found', 'member_has_balance'],
  },
  {
    method: 'post',
    path: '/v1/groups/{groupId}/members/{memberId}/claim',
    operationId: 'claimMember',
    tag: 'Members',
    summary: 'Take over a pending member whose email is yours',
    description:
      'No invite needed: the pending member must be unclaimed and must have been added with the caller’s login ' +
      'email (compared as registration normalises it: trimmed, lower-cased), **verified** (API.md §2.5; ' +
      '`403 forbidden` until it is). The caller takes over the member’s place and balances (joining the group ' +
      'if need be, `201`; `200` if already a member: the two merge, the place being the address’s); old ' +
      'records keep naming the pending id, listed in the account’s `claimed`. Anything the caller may not ' +
      'claim (no such pending member in this group, another email, no email) is `404`; a member someone else ' +
      'claimed is `409 member_claimed`. No body (or `{}`). ' +
      `${GROUPS_BOUND_NOTE}: a claim that would make the caller join one more is \`422 limit_exceeded\`.`,
    rateLimited: true,
    jsonBody: true,
    body: noBody,
    idempotency: 'optional',
    success: [
      {
        status: 201,
        description: 'Claimed; the caller joined the group',
        schema: 'Group',
        headers: ['ETag', 'Location'],
      },
      {
        status: 200,
        description: 'Claimed by a member (or already claimed by the caller)',
        schema: 'Group',
        headers: ['ETag'],
      },
    ],
    errors: ['not_found', 'forbidden', 'member_claimed', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/export.csv',
    operationId: 'exportGroupCsv',
    tag: 'Groups',
    summary: "The group's expenses and settlements as CSV",
    description:
      'Streamed (API.md §11.1): RFC 4180, UTF-8 with a byte order mark, CRLF line ends, a header row. One ' +
      'row per live expense and settlement, oldest first; columns `Type`, `Date (UTC)`, `Description`, ' +
      '`Category`, `Currency`, `Amount` (decimal, in major units), `Paid by`, `Id`, then one per member who ' +
      "ever appears (current members in join order, then former ones) with that row's effect on their " +
      "net. Text cells a spreadsheet would run as a formula get a leading `'`. Read 1,000 records a query " +
      `(no statement reads the group's whole history). An error after the first byte ends the response abruptly. ${EXPORTS_NOTE}`,
    rateLimited: true,
    success: [
      {
        status: 200,
        description: 'The CSV file (`Content-Disposition: attachment`)',
        contentType: 'text/csv',
        schema: { type: 'string' },
        headers: ['Cache-Control'],
      },
    ],
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/me/claimable-members',
    operationId: 'listClaimableMembers',
    tag: 'Members',
    summary: 'Pending members the caller may claim by email',
    description:
      'Unclaimed pending members, still in their group, that were added with the caller’s login email, once it ' +
      'is verified (API.md §2.5; empty until then): what an account can take over with ' +
      '`POST /v1/groups/{groupId}/members/{memberId}/claim`. At most 100, oldest first.',
    rateLimited: true,
    success: [
      { status: 200, description: 'The members', schema: 'ClaimableMemberList', headers: ['Cache-Control'] },
    ],
  },
  {
    method: 'get',
    path: '/v1/me/activity',
    operationId: 'listActivity',
    tag: 'Events',
    summary: 'Activity across the caller’s groups',
    description:
      'The events of every group the caller belongs to, from the time they joined it, newest first by ' +
      '(`occurredAt`, `id`), each with its group’s id and name. The cursor names a position in that ' +
      'order: a page after it never repeats or skips an item that was there when the first page was read, ' +
      'whatever is written meanwhile. A group the caller left is not listed; events older than ' +
      '`EVENT_RETENTION_DAYS` are gone. `unread` counts the items newer than the read marker, at most 100 ' +
      `(\`unreadCapped\`: more than 100). ${LIST_NOTE}`,
    rateLimited: true,
    query: listQuery,
    success: [
      {
        status: 200,
        description: 'One page of activity',
        schema: 'ActivityPage',
        headers: ['Cache-Control'],
      },
    ],
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
    rateLimited: true,
    jsonBody: true,
    body: activityReadBody,
    idempotency: 'optional',
    success: [
      { status: 200, description: 'The marker and the unread count after it', schema: 'ActivityUnread' },
    ],
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/groups/{groupId}/invites',
    operationId: 'createInvite',
    tag: 'Invites',
    summary: 'Make an invite link',
    description:
      'Any member may. The answer is the only place the `code` ever appears (Tally keeps its SHA-256): 32 ' +
      'random bytes, base64url (43 characters). Anyone signed in who has it can join until it expires ' +
      '(`expiresInDays`, 1–30, default 7) or is revoked. Appends `invite.created` (without the code). ' +
      `A group has at most ${BOUNDS.invitesPerGroup} live invites (\`invitesPerGroup\`, API.md §9.1): one more is ` +
      '`422 limit_exceeded`.',
    rateLimited: true,
    jsonBody: true,
    body: createInviteBody,
    idempotency: 'optional',
    success: [{ status: 201, description: 'The invite, with its code', schema: 'CreatedInvite' }],
    errors: ['not_found', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/invites',
    operationId: 'listInvites',
    tag: 'Invites',
    summary: "The group's live invites",
    description: `Not revoked and not expired, newest first, without their codes: all of them (at most ${BOUNDS.invitesPerGroup}).`,
    rateLimited: true,
    success: [{ status: 200, description: 'The invites', schema: 'InviteList', headers: ['Cache-Control'] }],
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/groups/{groupId}/invites/{inviteId}',
    operationId: 'revokeInvite',
    tag: 'Invites',
    summary: 'Revoke an invite',
    description:
      'Any member may. Its code stops working at once. Revoking it again is `204` (nothing changes); an ' +
      'invite of another group is `404`. Appends `invite.revoked`.',
    rateLimited: true,
    idempotency: 'optional',
    success: [{ status: 204, description: 'Revoked' }],
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/invites/{code}',
    operationId: 'previewInvite',
    tag: 'Invites',
    summary: 'What an invite leads to',
    description:
      'For anyone signed in who has the code: the group, its member count and the pending members the caller ' +
      'may become by accepting with `asMember` (those added with the caller’s verified email, and, for a caller ' +
      'who is not a member, those added by name only). An expired, revoked or unknown code is `404`.',
    rateLimited: true,
    success: [
      { status: 200, description: 'The preview', schema: 'InvitePreview', headers: ['Cache-Control'] },
    ],
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/v1/invites/{code}/accept',
    operationId: 'acceptInvite',
    tag: 'Invites',
    summary: 'Join a group by an invite',
    description:
      '`201` with the group when the caller joined (`member.added`), `200` when already a member (nothing ' +
      'changes). With `asMember`, the caller takes over that pending member: place, balances and history ' +
      '(`member.claimed`). A member added with an email is taken over only by the account whose login email ' +
      'it is, verified (`200` and a merge when that account is a member already); one added by name only, ' +
      'only by someone who is not a member yet. Anything else is `403 forbidden` (API.md §3.3: no claim moves ' +
      'money between two people). `asMember` that is not a pending member of the group is `404`; one someone ' +
      'else claimed is `409 member_claimed`. An expired, revoked or unknown code is `404`. ' +
      `${GROUPS_BOUND_NOTE} and ${MEMBERS_BOUND_NOTE} (taking over a pending member adds nobody): going ` +
      'over either is `422 limit_exceeded`, naming it.',
    rateLimited: true,
    jsonBody: true,
    body: acceptInviteBody,
    idempotency: 'optional',
    success: [
      { status: 201, description: 'Joined', schema: 'Group', headers: ['ETag', 'Location'] },
      {
        status: 200,
        description:
          'Already a member (or a pending member added with the caller’s verified email merged in)',
        schema: 'Group',
        headers: ['ETag'],
      },
    ],
    errors: ['not_found', 'forbidden', 'member_claimed', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/balances',
    operationId: 'getBalances',
    tag: 'Balances',
    summary: 'Who owes whom, per currency',
    description:
      '`net` = paid − owed + settlements paid − settlements received, over live (not deleted) records. A ' +
      'currency is listed while the group has at least one live expense or settlement in it; every member ' +
      'appears in every listed currency. Read from incrementally kept totals: the cost does not grow with ' +
      'the history, and always equals a full recomputation. With `in` (an ISO 4217 code) the answer also ' +
      'carries `converted`: every member’s balance in that one currency, transfers in it, and the rates used ' +
      '(the group’s own, then the provider’s; API.md §6). A currency no source has a rate for: ' +
      '`422 rate_unavailable` naming it; the provider needed but without rates yet: `503 unavailable`.',
    rateLimited: true,
    query: balancesQuery,
    success: [{ status: 200, description: 'The balances', schema: 'Balances', headers: ['Cache-Control'] }],
    errors: ['not_found', 'rate_unavailable'],
  },
  {
    method: 'put',
    path: '/v1/groups/{groupId}/rates',
    operationId: 'setGroupRates',
    tag: 'Balances',
    summary: 'Set the group’s own exchange rates',
    description:
      'Replaces the group’s rates as a whole: `rates[c]` units of currency `c` per one `base`, decimal ' +
      'strings of at most 12 significant digits, of the day `asOf`. Converted balances (`?in=`) use them ' +
      'wherever they give a currency, ahead of the provider (`FX_PROVIDER`). Appends a `rates.updated` ' +
      'event; the same rates again change nothing (no event). Not a money write: `Idempotency-Key` is optional.',
    rateLimited: true,
    jsonBody: true,
    body: putRatesBody,
    idempotency: 'optional',
    success: [{ status: 200, description: 'The group’s rates after the change', schema: 'GroupRates' }],
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/rates',
    operationId: 'getGroupRates',
    tag: 'Balances',
    summary: 'The group’s own exchange rates',
    description:
      'Non-members get `404`. A group that never set rates answers with `base: null` and no rates.',
    rateLimited: true,
    success: [
      { status: 200, description: 'The group’s rates', schema: 'GroupRates', headers: ['Cache-Control'] },
    ],
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/expenses',
    operationId: 'listExpenses',
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
    rateLimited: true,
    query: expensesQuery,
    success: [
      { status: 200, description: 'One page of expenses', schema: 'ExpensePage', headers: ['Cache-Control'] },
    ],
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/settlements',
    operationId: 'listSettlements',
    tag: 'Settlements',
    summary: "A group's live settlements",
    description: `Newest first by \`createdAt\`, then by id (descending). Deleted settlements are not listed. ${LIST_NOTE}`,
    rateLimited: true,
    query: listQuery,
    success: [
      {
        status: 200,
        description: 'One page of settlements',
        schema: 'SettlementPage',
        headers: ['Cache-Control'],
      },
    ],
    errors: ['not_found'],
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
    rateLimited: true,
    query: eventsQuery,
    success: [
      { status: 200, description: 'One page of events', schema: 'EventPage', headers: ['Cache-Control'] },
    ],
    errors: ['not_found', 'resync_required'],
  },

  // ---- expenses --------------------------------------------------------------------------------
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
    rateLimited: true,
    jsonBody: true,
    body: createExpenseBody,
    idempotency: 'required',
    success: [{ status: 201, description: 'The expense', schema: 'Expense', headers: ['ETag', 'Location'] }],
    errors: ['not_found', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/expenses/{expenseId}',
    operationId: 'getExpense',
    tag: 'Expenses',
    summary: 'An expense',
    description: 'A deleted expense is `404` (it can still be restored).',
    rateLimited: true,
    success: [
      { status: 200, description: 'The expense', schema: 'Expense', headers: ['ETag', 'Cache-Control'] },
    ],
    errors: ['not_found'],
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
    rateLimited: true,
    jsonBody: true,
    body: createExpenseBody,
    pathSchemas: { expenseId: clientId },
    idempotency: 'required',
    ifMatch: true,
    success: [
      { status: 200, description: 'Replaced', schema: 'Expense', headers: ['ETag'] },
      { status: 201, description: 'Created at this id', schema: 'Expense', headers: ['ETag', 'Location'] },
    ],
    errors: ['not_found', 'precondition_failed', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
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
    rateLimited: true,
    jsonBody: true,
    body: patchExpenseBody,
    idempotency: 'required',
    ifMatch: true,
    success: [
      { status: 200, description: 'The expense after the change', schema: 'Expense', headers: ['ETag'] },
    ],
    errors: ['not_found', 'precondition_failed', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
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
    rateLimited: true,
    idempotency: 'required',
    ifMatch: true,
    success: [{ status: 204, description: 'Deleted' }],
    errors: ['not_found', 'precondition_failed', 'not_a_member'],
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
    rateLimited: true,
    jsonBody: true,
    idempotency: 'required',
    success: [{ status: 200, description: 'The live expense', schema: 'Expense', headers: ['ETag'] }],
    errors: ['not_found', 'not_a_member', 'limit_exceeded'],
  },

  // ---- comments (API.md §5.2) -----------------------------------------------------------------
  ...(['expense', 'settlement'] as const).flatMap((target): Operation[] => {
    const Target = target === 'expense' ? 'Expense' : 'Settlement';
    const path = `/v1/${target}s/{${target}Id}/comments`;
    return [
      {
        method: 'post',
        path,
        operationId: `create${Target}Comment`,
        tag: 'Comments',
        summary: `Comment on a${target === 'expense' ? 'n' : ''} ${target}`,
        description:
          '`text` is stored and returned exactly as sent (no trimming, no HTML): 1–2000 Unicode code points, ' +
          'not only whitespace, line feeds and tabs but no other control characters. Appends `comment.created` to the group’s log. A retried request (same ' +
          `\`Idempotency-Key\`) creates one comment. A deleted ${target}, or one in a group the caller is not in, is \`404\`. ` +
          `At most ${BOUNDS.commentsPerTarget} live comments on one ${target} (\`commentsPerTarget\`, API.md §9.1): one more is \`422 limit_exceeded\`.`,
        rateLimited: true,
        jsonBody: true,
        body: commentBody,
        idempotency: 'required',
        success: [{ status: 201, description: 'The comment', schema: 'Comment', headers: ['Location'] }],
        errors: ['not_found', 'limit_exceeded'],
      },
      {
        method: 'get',
        path,
        operationId: `list${Target}Comments`,
        tag: 'Comments',
        summary: `The comments on a${target === 'expense' ? 'n' : ''} ${target}`,
        description:
          `Oldest first (by \`createdAt\`, then id). Deleted comments are not listed. A deleted ${target} is \`404\` ` +
          `(its comments come back when it is restored), as is one in a group the caller is not in. ${LIST_NOTE}`,
        rateLimited: true,
        query: listQuery,
        success: [
          {
            status: 200,
            description: 'One page of comments',
            schema: 'CommentPage',
            headers: ['Cache-Control'],
          },
        ],
        errors: ['not_found'],
      },
    ];
  }),
  {
    method: 'delete',
    path: '/v1/comments/{commentId}',
    operationId: 'deleteComment',
    tag: 'Comments',
    summary: 'Delete a comment',
    description:
      'By its author only: another member of the group gets `403 forbidden`, anyone else `404`. Appends ' +
      '`comment.deleted`; deleting a deleted comment is `204` again (no second event).',
    rateLimited: true,
    idempotency: 'required',
    success: [{ status: 204, description: 'Deleted' }],
    errors: ['not_found', 'forbidden'],
  },

  // ---- settlements -----------------------------------------------------------------------------
  {
    method: 'post',
    path: '/v1/settlements',
    operationId: 'createSettlement',
    tag: 'Settlements',
    summary: 'Record that one member paid another back',
    description:
      '`fromUserId` ≠ `toUserId` (`422 validation_failed`); both must be members (`422 not_a_member`). ' +
      `\`currency\` defaults to the group’s. ${CURRENCY_BOUND_NOTE}`,
    rateLimited: true,
    jsonBody: true,
    body: createSettlementBody,
    idempotency: 'required',
    success: [{ status: 201, description: 'The settlement', schema: 'Settlement', headers: ['Location'] }],
    errors: ['not_found', 'not_a_member', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/settlements/{settlementId}',
    operationId: 'getSettlement',
    tag: 'Settlements',
    summary: 'A settlement',
    description: 'An addition to the contract (API.md §5 lists no single-settlement read). Deleted: `404`.',
    rateLimited: true,
    success: [
      { status: 200, description: 'The settlement', schema: 'Settlement', headers: ['Cache-Control'] },
    ],
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/v1/settlements/{settlementId}',
    operationId: 'deleteSettlement',
    tag: 'Settlements',
    summary: 'Undo a settlement',
    description: `Deleting an already deleted settlement is \`204\` again. ${NOT_MEMBER_NOTE}`,
    rateLimited: true,
    idempotency: 'required',
    success: [{ status: 204, description: 'Deleted' }],
    errors: ['not_found', 'not_a_member'],
  },

  // ---- recurring expenses (API.md §6a) ---------------------------------------------------------
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
    rateLimited: true,
    jsonBody: true,
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
    errors: ['not_found', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/recurring',
    operationId: 'listRecurringExpenses',
    tag: 'Recurring expenses',
    summary: "A group's recurring expenses",
    description: `Newest first; deleted ones are not listed. ${LIST_NOTE}`,
    rateLimited: true,
    query: listQuery,
    success: [
      {
        status: 200,
        description: 'One page of recurring expenses',
        schema: 'RecurringExpensePage',
        headers: ['Cache-Control'],
      },
    ],
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/recurring/{recurringId}',
    operationId: 'getRecurringExpense',
    tag: 'Recurring expenses',
    summary: 'A recurring expense',
    description: 'Deleted, or in a group the caller is not a member of: `404`.',
    rateLimited: true,
    success: [
      {
        status: 200,
        description: 'The recurring expense',
        schema: 'RecurringExpense',
        headers: ['ETag', 'Cache-Control'],
      },
    ],
    errors: ['not_found'],
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
    rateLimited: true,
    jsonBody: true,
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
    errors: ['not_found', 'precondition_failed', 'not_a_member', 'split_mismatch', 'limit_exceeded'],
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
    rateLimited: true,
    idempotency: 'required',
    ifMatch: true,
    success: [{ status: 204, description: 'Stopped' }],
    errors: ['not_found', 'precondition_failed'],
  },

  // ---- imports (API.md §6b) -------------------------------------------------------------------
  {
    method: 'post',
    path: '/v1/groups/{groupId}/imports',
    operationId: 'createImport',
    tag: 'Imports',
    summary: 'Import a Splitwise export',
    description:
      '`csv` is the text of a Splitwise CSV export (header `Date,Description,Category,Cost,Currency`, then one ' +
      'net column per person; a blank line and the `Total balance` row at the end); `members` maps each person ' +
      'column to a member of the group (active or pending). Each row becomes an expense (payers, shares) or, for ' +
      'a `Payment` row, a settlement, giving every member exactly the net the file says, with the usual ' +
      '`expense.created`/`settlement.created` events between `import.started` and `import.completed`. ' +
      'Synchronous: answers when the whole file is done. The same file again (any key) is the same import: ' +
      'nothing is created twice, rows already there count as `existing`; a retry after a crash or a failure ' +
      'resumes where the import stopped. A file that is no Splitwise export is `422 validation_failed` naming ' +
      'its line (`errors[0].path` `csv`), and nothing is written; a row that cannot be imported (or stored) is ' +
      'refused with its line and reason and the rest goes on: the report counts them (`refusedCount`) and ' +
      'lists the first 20 (`refused`), the rest are paged from `…/refusals`. Bounds: at most `IMPORT_MAX_ROWS` ' +
      'rows (10,000 by default) and 200 person columns, else `422 limit_exceeded` (`importRows`, ' +
      '`importPeople`) and nothing is written; the body may be up to `IMPORT_MAX_BYTES` (5 MiB by default), ' +
      'not 64 KiB, else `413`. See API.md §6b.',
    rateLimited: true,
    jsonBody: true,
    body: createImportBody,
    idempotency: 'required',
    success: [
      { status: 201, description: 'The import’s report', schema: 'ImportReport', headers: ['Location'] },
    ],
    errors: ['not_found', 'not_a_member', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/imports/{importId}',
    operationId: 'getImport',
    tag: 'Imports',
    summary: 'An import’s report',
    description:
      'Created, existing and refused rows (their number, and the first 20 with line and reason; ' +
      '`…/refusals` pages them all); `404` for a non-member.',
    rateLimited: true,
    success: [
      { status: 200, description: 'The import’s report', schema: 'ImportReport', headers: ['Cache-Control'] },
    ],
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/imports/{importId}/refusals',
    operationId: 'listImportRefusals',
    tag: 'Imports',
    summary: 'An import’s refused rows',
    description: `Every refused row of the import once, by line (the last run's, for a file uploaded again). ${LIST_NOTE}`,
    rateLimited: true,
    query: listQuery,
    success: [
      {
        status: 200,
        description: 'One page of refused rows',
        schema: 'ImportRefusalPage',
        headers: ['Cache-Control'],
      },
    ],
    errors: ['not_found'],
  },

  // ---- realtime --------------------------------------------------------------------------------
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

  // ---- operations ------------------------------------------------------------------------------
  {
    method: 'get',
    path: '/healthz',
    operationId: 'liveness',
    tag: 'Operations',
    summary: 'Liveness',
    description: '`200` while the process runs.',
    public: true,
    alwaysAvailable: true,
    success: [{ status: 200, description: 'Alive', schema: 'Health' }],
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    tag: 'Operations',
    summary: 'Readiness',
    description:
      '`200` when the database answers and the process is not draining; `503` `{"status":"unavailable","starting":true}` while the process is still starting (it listens before it has reached PostgreSQL and migrated; meanwhile every other request gets `503 unavailable` with `Retry-After` and `/healthz` answers 200). Redis is reported in `checks` but does not decide readiness: keyed writes stay exactly-once through PostgreSQL without it, and a Redis outage must not take every pod out of the load balancer at once.',
    public: true,
    alwaysAvailable: true,
    success: [
      { status: 200, description: 'Ready', schema: 'Health' },
      {
        status: 503,
        description: 'Not ready (the database is down, still starting, or draining)',
        schema: 'Health',
      },
    ],
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    public: true,
    success: [
      {
        status: 200,
        description: 'Prometheus text exposition format',
        contentType: 'text/plain',
        schema: { type: 'string' },
      },
    ],
  },
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'openApiDocument',
    tag: 'Operations',
    summary: 'This OpenAPI 3.1 document',
    public: true,
    success: [{ status: 200, description: 'The document', schema: { type: 'object' } }],
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'docs',
    tag: 'Operations',
    summary: 'Human-readable API reference',
    description:
      'Swagger UI rendering this document. Its files come from the `swagger-ui-dist` npm package and are ' +
      'served by this server: the page loads nothing from anywhere else and works offline.',
    public: true,
    success: [{ status: 200, description: 'HTML', contentType: 'text/html', schema: { type: 'string' } }],
  },
];
