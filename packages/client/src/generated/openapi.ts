/**
 * The wire types of the Tally API, generated from its OpenAPI document (apps/api/src/openapi) by
 * openapi-typescript. Do not edit: change the document, then run `npm run gen:types`.
 * packages/client/src/types.ts gives them the SDK's names.
 */

export interface paths {
  '/v1/auth/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Register a user
     * @description Creates a user (password 8–128 characters, not a common password from leaks; stored only as a slow salted hash) and signs them in. A link to confirm the email is mailed after the answer (API.md §2.5; `user.emailVerified` is `false` until it is opened). Rate limited per IP (`AUTH_RATE_LIMIT_PER_MINUTE`). `Idempotency-Key` is ignored on auth endpoints.
     */
    post: operations['register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in
     * @description Rate limited per IP (`AUTH_RATE_LIMIT_PER_MINUTE`) and throttled per account and per IP (API.md §2): past the free attempts each further one locks the email (registered or not) or the IP for a doubling delay, during which a login answers `429 rate_limited` with `Retry-After` without checking the password. An unknown email, an account that cannot sign in and a wrong password all answer `401 invalid_credentials`.
     */
    post: operations['login'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/auth/refresh': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Exchange a refresh token for a new token pair
     * @description Refresh tokens live 30 days and rotate: the one presented is dead afterwards, and presenting a dead one revokes its whole family (`401 unauthenticated`). Presented again within `REFRESH_REUSE_GRACE_SECONDS` of its rotation (a retry, or two requests at once), it answers the same refresh token as the first time, with an access token for the same session: a session is one chain. Rate limited per client IP (`TRUST_PROXY`).
     */
    post: operations['refresh'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The signed-in user
     * @description `emailVerified`: whether the login email was confirmed by the link mailed to it (API.md §2.5). A change of address asked for (`POST /v1/me/email`) shows here only once confirmed.
     */
    get: operations['getMe'];
    put?: never;
    post?: never;
    /**
     * Deletes the caller's account
     * @description API.md §11.3. Email, name and password hash are erased (the member shows as "Deleted user", status `deleted`), every refresh token is revoked, open WebSockets close with 4401 and the account can no longer sign in; its access tokens are refused (on other API processes within 10 s). Refused with `409 member_has_balance` while the caller owes or is owed money in any group (the groups in `errors`). An `Idempotency-Key` is ignored: once done, the caller no longer exists. Its cost is the caller’s groups × their currencies (each net read by key), whatever the size of the server’s data.
     */
    delete: operations['deleteMe'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/auth/password-reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mail a link to set a new password
     * @description Always the same `202` and body, whether or not an account has this email (and answered before it is looked up). For an active account a single-use link `APP_URL/#reset=<token>` is mailed, valid `PASSWORD_RESET_TTL_SECONDS`; at most `PASSWORD_RESET_MAX_PER_HOUR` mails per account per hour. Rate limited per IP.
     */
    post: operations['requestPasswordReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/auth/password-reset/confirm': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a new password with the token of a reset link
     * @description The token works once and until it expires. Sets the password, makes every other outstanding reset link of the account stop working and ends every session (refresh tokens are revoked); sign in with the new password afterwards. Rate limited per IP.
     */
    post: operations['confirmPasswordReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change the password
     * @description Needs the current password (`403 wrong_password` otherwise; not 401, which means the token). Ends every other session of the user (their refresh tokens are revoked); the caller's stays.
     */
    post: operations['changePassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/auth/verify-email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm an email address with the token of a verification link
     * @description The token of a link mailed at registration, on request (`POST /v1/me/email/verification`) or for a change of address (`POST /v1/me/email`): that address is verified, and becomes the login email if it is a new one (`409 email_taken` when another account registered it meanwhile). The token works once, for 24 hours, and only while it is the newest link of the account; a used, superseded, expired or unknown one is `404 not_found`. Needs no sign-in. Rate limited per IP.
     */
    post: operations['verifyEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Change the login email (confirmed by a mailed link)
     * @description Needs the current password (`403 wrong_password`). A link goes to the new address; until it is opened (`POST /v1/auth/verify-email`) the current address stays the login email, verified or not as it was. An address another account has is `409 email_taken`. The link supersedes the account’s earlier ones; the account’s own address cancels a change waiting to be confirmed (`204`, or `202` with a link when that address is not verified yet). At most 3 verification mails per account per hour (`429 rate_limited` with `Retry-After`).
     */
    post: operations['changeEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/email/verification': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mail the verification link again
     * @description A new link for the address waiting to be confirmed: a change asked for, else the login email while it is not verified (the earlier links stop working). `204` when nothing waits. No body. At most 3 verification mails per account per hour, the one sent at registration included (`429 rate_limited` with `Retry-After`).
     */
    post: operations['requestEmailVerification'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's data, as one JSON document
     * @description Streamed (API.md §11.2): `exportedAt`, `user` (id, email, name, createdAt; never the password hash), and `groups`: each group the caller belongs to as `GET /v1/groups/{groupId}` shows it, with `expenses` and `settlements` (every live one, oldest first), read 1,000 records a query. An error after the first byte ends the response abruptly (a broken download, never a complete-looking document). At most 2 downloads (this one and the other export) per user at once on one API process; one more is `429 rate_limited` with `Retry-After` and `limit.name` `exportsPerUser`.
     */
    get: operations['exportMyData'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/sessions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's signed-in devices
     * @description Each sign-in (register or login) starts a session: its refresh tokens rotate within it. Live sessions only (neither ended nor unused for 30 days), the most recently used (refreshed) first; `current` marks the session of the access token that asked (its `sid`). `userAgent` and `ip` are those of the sign-in (null when unknown, e.g. sessions from before sessions were recorded).
     */
    get: operations['listSessions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/sessions/{sessionId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Sign a device out
     * @description Ends the session: its refresh token is refused (`401`), its access tokens are refused at once by the API process that answered and within `ACCOUNT_STATUS_TTL_MS` by the others, and its open WebSockets close with 4401. A session already ended: `204` again. Another user's session, or none: `404 not_found`. Not keyed: an `Idempotency-Key` is ignored (it is idempotent by itself).
     */
    delete: operations['revokeSession'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out this session
     * @description Ends the session of the bearer access token (its `sid`), as `DELETE /v1/me/sessions/{sessionId}` does. Unlike the other `/v1/auth` operations it needs `Authorization: Bearer`; the per-IP auth budget applies too. A token without `sid` (issued before sessions existed, at most one access-token lifetime old) ends every session of the user, as `logout-all`. No body; an `Idempotency-Key` is ignored.
     */
    post: operations['logout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/auth/logout-all': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign out everywhere
     * @description Ends every session of the user, this one included (refresh tokens refused, access tokens refused, WebSockets closed with 4401). Needs `Authorization: Bearer`. No body; an `Idempotency-Key` is ignored.
     */
    post: operations['logoutAll'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's API keys
     * @description Every key, the newest first, expired ones too (until revoked); never a secret or its hash. `lastUsedAt` is updated at most once a minute per key. A signed-in person only: a request authenticated with an API key is `403 insufficient_scope`.
     */
    get: operations['listApiKeys'];
    put?: never;
    /**
     * Create an API key
     * @description The answer carries `secret` (`tally_sk_` + 43 random base62 characters + a 6-character base62 CRC-32 checksum of them), **shown this once**: only its SHA-256 is kept. Send it as `Authorization: Bearer <secret>`; it acts as its user within its `scopes` (`read`: GET and HEAD, `write`: the rest) until `expiresAt` or until revoked. At most 25 keys per account, expired ones included (`422 limit_exceeded`, `apiKeysPerUser`). An `expiresAt` not in the future is `422 validation_failed`. Not keyed: an `Idempotency-Key` is ignored (a secret is never recorded for a replay). A signed-in person only: a request authenticated with an API key is `403 insufficient_scope`.
     */
    post: operations['createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/api-keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an API key
     * @description Deletes the key: its next request, on any process, is `401 unauthenticated`. Another user’s key, or none (or one already revoked): `404 not_found`. Not keyed. A signed-in person only: a request authenticated with an API key is `403 insufficient_scope`.
     */
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's groups
     * @description Ordered by the caller's join time, newest first (then by id, descending); `archived` keeps the archived groups only (`true`) or the others only (`false`). Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listGroups'];
    put?: never;
    /**
     * Create a group
     * @description The creator becomes its first member. `currency` (the default of its expenses and settlements) defaults to `INR`, `simplifyDebts` to `true`. An account is in at most 500 groups (`groupsPerUser`, API.md §9.1): one more is `422 limit_exceeded`.
     */
    post: operations['createGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A group with its members
     * @description Non-members get `404`, never `403`.
     */
    get: operations['getGroup'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Rename a group, change its description, default currency or which debts clients show
     * @description Honours `If-Match` (`412 precondition_failed` when the group changed). An empty patch changes nothing. `currency` is the default of expenses and settlements created afterwards (existing ones keep theirs); `simplifyDebts` says whether clients show the simplified or the original debts (API.md §6).
     */
    patch: operations['updateGroup'];
    trace?: never;
  };
  '/v1/groups/{groupId}/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add a member: a registered user, or someone without an account
     * @description A registered user by `userId` or by `email` (an unknown user, or a pending member of any group, is `404 not_found`; `200` when they are a member already). Or someone who is not on Tally yet by `{name, email?}`: a new **pending** member (`status: "pending"`, a `usr_…` id) who can pay, owe and settle like anyone else, never signs in, and belongs to this group only. An account can later take over their place, balances and history (an invite with `asMember`, or the claim by email). An account is in at most 500 groups (`groupsPerUser`, API.md §9.1) and a group has at most 100 members (`membersPerGroup`): going over either is `422 limit_exceeded`, naming it.
     */
    post: operations['addMember'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/members/{userId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a member (or leave)
     * @description Any member may remove themselves or another member. `409 member_has_balance` while that member’s net in any currency of the group is not zero: settle up first. The live invites the member made are revoked with the removal (listed in `member.removed`’s `revokedInvites`).
     */
    delete: operations['removeMember'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/members/{memberId}/claim': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Take over a pending member whose email is yours
     * @description No invite needed: the pending member must be unclaimed and must have been added with the caller’s login email (compared as registration normalises it: trimmed, lower-cased), **verified** (API.md §2.5; `403 forbidden` until it is). The caller takes over the member’s place and balances (joining the group if need be, `201`; `200` if already a member: the two merge, the place being the address’s); old records keep naming the pending id, listed in the account’s `claimed`. Anything the caller may not claim (no such pending member in this group, another email, no email) is `404`; a member someone else claimed is `409 member_claimed`. No body (or `{}`). An account is in at most 500 groups (`groupsPerUser`, API.md §9.1): a claim that would make the caller join one more is `422 limit_exceeded`.
     */
    post: operations['claimMember'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/export.csv': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The group's expenses and settlements as CSV
     * @description Streamed (API.md §11.1): RFC 4180, UTF-8 with a byte order mark, CRLF line ends, a header row. One row per live expense and settlement, oldest first; columns `Type`, `Date (UTC)`, `Description`, `Category`, `Currency`, `Amount` (decimal, in major units), `Paid by`, `Id`, then one per member who ever appears (current members in join order, then former ones) with that row's effect on their net. Text cells a spreadsheet would run as a formula get a leading `'`. Read 1,000 records a query (no statement reads the group's whole history). An error after the first byte ends the response abruptly. At most 2 downloads (this one and the other export) per user at once on one API process; one more is `429 rate_limited` with `Retry-After` and `limit.name` `exportsPerUser`.
     */
    get: operations['exportGroupCsv'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/claimable-members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Pending members the caller may claim by email
     * @description Unclaimed pending members, still in their group, that were added with the caller’s login email, once it is verified (API.md §2.5; empty until then): what an account can take over with `POST /v1/groups/{groupId}/members/{memberId}/claim`. At most 100, oldest first.
     */
    get: operations['listClaimableMembers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/archive': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Archive a group
     * @description Any member may. An archived group stays readable (its expenses, balances, events, CSV) but refuses every write, this one’s opposite aside, with `409 group_archived`: expenses, settlements, comments, members, invites, rates, imports, and its recurring expenses’ occurrences (skipped meanwhile). It leaves the activity feed (API.md §8a); the group keeps `archivedAt`. A no-op `200` when already archived. Appends `group.updated`. No request body is needed. Honours `If-Match`.
     */
    post: operations['archiveGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/unarchive': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Unarchive a group
     * @description Any member may: the group takes writes again, and `archivedAt` is `null`. A no-op `200` when not archived. Appends `group.updated`. No request body is needed. Honours `If-Match`.
     */
    post: operations['unarchiveGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/activity': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Activity across the caller’s groups
     * @description The events of every group the caller belongs to, from the time they joined it, newest first by (`occurredAt`, `id`), each with its group’s id and name. The cursor names a position in that order: a page after it never repeats or skips an item that was there when the first page was read, whatever is written meanwhile. A group the caller left is not listed; events older than `EVENT_RETENTION_DAYS` are gone. `unread` counts the items newer than the read marker, at most 100 (`unreadCapped`: more than 100). Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listActivity'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/activity/read': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Move the caller’s read marker
     * @description `upTo` is the id of the newest item read. The marker only moves forward: an item older than the marker leaves it where it is (and is answered `200` all the same). An id that is not an item of the caller’s feed (unknown, of a group they are not in, from before they joined, or no longer kept) is `404`.
     */
    post: operations['markActivityRead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/invites': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The group's live invites
     * @description Not revoked and not expired, newest first, without their codes: all of them (at most 100).
     */
    get: operations['listInvites'];
    put?: never;
    /**
     * Make an invite link
     * @description Any member may. The answer is the only place the `code` ever appears (Tally keeps its SHA-256): 32 random bytes, base64url (43 characters). Anyone signed in who has it can join until it expires (`expiresInDays`, 1–30, default 7) or is revoked. Appends `invite.created` (without the code). A group has at most 100 live invites (`invitesPerGroup`, API.md §9.1): one more is `422 limit_exceeded`.
     */
    post: operations['createInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/invites/{inviteId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an invite
     * @description Any member may. Its code stops working at once. Revoking it again is `204` (nothing changes); an invite of another group is `404`. Appends `invite.revoked`.
     */
    delete: operations['revokeInvite'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invites/{code}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What an invite leads to
     * @description For anyone signed in who has the code: the group, its member count and the pending members the caller may become by accepting with `asMember` (those added with the caller’s verified email, and, for a caller who is not a member, those added by name only). An expired, revoked or unknown code is `404`.
     */
    get: operations['previewInvite'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/invites/{code}/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Join a group by an invite
     * @description `201` with the group when the caller joined (`member.added`), `200` when already a member (nothing changes). With `asMember`, the caller takes over that pending member: place, balances and history (`member.claimed`). A member added with an email is taken over only by the account whose login email it is, verified (`200` and a merge when that account is a member already); one added by name only, only by someone who is not a member yet. Anything else is `403 forbidden` (API.md §3.3: no claim moves money between two people). `asMember` that is not a pending member of the group is `404`; one someone else claimed is `409 member_claimed`. An expired, revoked or unknown code is `404`. An account is in at most 500 groups (`groupsPerUser`, API.md §9.1) and a group has at most 100 members (`membersPerGroup`) (taking over a pending member adds nobody): going over either is `422 limit_exceeded`, naming it.
     */
    post: operations['acceptInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/balances': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Who owes whom, per currency
     * @description `net` = paid − owed + settlements paid − settlements received, over live (not deleted) records. A currency is listed while the group has at least one live expense or settlement in it; every member appears in every listed currency. Read from incrementally kept totals: the cost does not grow with the history, and always equals a full recomputation. With `in` (an ISO 4217 code) the answer also carries `converted`: every member’s balance in that one currency, transfers in it, and the rates used (the group’s own, then the provider’s; API.md §6). A currency no source has a rate for: `422 rate_unavailable` naming it; the provider needed but without rates yet: `503 unavailable`.
     */
    get: operations['getBalances'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/rates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The group’s own exchange rates
     * @description Non-members get `404`. A group that never set rates answers with `base: null` and no rates.
     */
    get: operations['getGroupRates'];
    /**
     * Set the group’s own exchange rates
     * @description Replaces the group’s rates as a whole: `rates[c]` units of currency `c` per one `base`, decimal strings of at most 12 significant digits, of the day `asOf`. Converted balances (`?in=`) use them wherever they give a currency, ahead of the provider (`FX_PROVIDER`). Appends a `rates.updated` event; the same rates again change nothing (no event). Not a money write: `Idempotency-Key` is optional.
     */
    put: operations['setGroupRates'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/expenses': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A group's expenses, searched and filtered
     * @description Newest first by `occurredAt`, then by id (descending). Deleted expenses are not listed unless `includeDeleted=true`. Filters combine with AND (API.md §5.1): `q` (every word a substring of the description or category, ignoring case and accents), `category` (exact), `paidBy`, `involves` (payer or in the split), `from` (inclusive) and `to` (exclusive) on `occurredAt`. With `updatedAfter` (sync) the order is `updatedAt`, then id, ascending. A cursor keeps the filters it was issued with: used with other filters it is `422 validation_failed`. Timestamps must be real RFC 3339 date-times (`2026-02-30…` is `422`). Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listExpenses'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/settlements': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A group's live settlements
     * @description Newest first by `createdAt`, then by id (descending). Deleted settlements are not listed. Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listSettlements'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A group's event log
     * @description Oldest first (by `seq`). Start after a sequence number with `afterSeq` (default 0: from the beginning), or continue with the `cursor` of the previous page; when both are given the cursor wins. The log is kept `EVENT_RETENTION_DAYS` (unset: for ever): when the events right after `afterSeq` (or the cursor) are no longer kept, the answer is `410 resync_required`, never a page with a gap. Read the group’s state again (`GET …/balances` carries `asOfSeq`, and the lists) and continue the log from there. Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/expenses': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record an expense
     * @description `paidBy` is one member’s id (they paid the whole amount) or a list of payers whose amounts add up to `amount`. `currency` defaults to the group’s, `occurredAt` to now. Shares are computed by largest remainder, ties to the participant listed earlier. Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3). A record in a currency the group has no live record in, when it has live records in 20 currencies already, is `422 limit_exceeded` (`currenciesPerGroup`, API.md §9.1).
     */
    post: operations['createExpense'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/expenses/{expenseId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An expense
     * @description A deleted expense is `404` (it can still be restored).
     */
    get: operations['getExpense'];
    /**
     * Replace an expense, or create it at a client-chosen id
     * @description Full body, as for POST. An id that does not exist yet is **created** (`201`) so offline-first clients can choose ids (`^[A-Za-z0-9_-]{8,64}$`); repeating the same PUT leaves the same state. PUT on a **deleted** expense is `404`: restore it first. `groupId` cannot change (`422 validation_failed`). Honours `If-Match` (`412`; also when `If-Match` names an expense that does not exist). Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3). A record in a currency the group has no live record in, when it has live records in 20 currencies already, is `422 limit_exceeded` (`currenciesPerGroup`, API.md §9.1).
     */
    put: operations['putExpense'];
    post?: never;
    /**
     * Delete an expense
     * @description It stops counting in balances and `GET` on it is `404`; deleting an already deleted expense is `204` again. Undo with restore. Honours `If-Match`. Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3).
     */
    delete: operations['deleteExpense'];
    options?: never;
    head?: never;
    /**
     * Change some fields of an expense
     * @description Any non-empty subset of the POST fields except `groupId`; the result is validated as a whole (e.g. a new `amount` with an `exact` split that no longer adds up is `422 split_mismatch`). A patch that changes `amount` (and not `paidBy`) of an expense with a single payer moves that payer’s amount along. Honours `If-Match`. Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3). A record in a currency the group has no live record in, when it has live records in 20 currencies already, is `422 limit_exceeded` (`currenciesPerGroup`, API.md §9.1).
     */
    patch: operations['patchExpense'];
    trace?: never;
  };
  '/v1/expenses/{expenseId}/restore': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Undo the delete of an expense
     * @description A no-op `200` when the expense is not deleted. Restoring appends an `expense.created` event with `data.restored: true`. No request body is needed. Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3). A record in a currency the group has no live record in, when it has live records in 20 currencies already, is `422 limit_exceeded` (`currenciesPerGroup`, API.md §9.1).
     */
    post: operations['restoreExpense'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/expenses/{expenseId}/duplicate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Copy an expense as a new one
     * @description A new expense (`exp_…`) in the same group with the same description, category, amount, currency, payers and split, dated `occurredAt` (default now); `description` may be changed too. The copy is checked as any new expense is. A deleted or unknown expense is `404`. Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3). A record in a currency the group has no live record in, when it has live records in 20 currencies already, is `422 limit_exceeded` (`currenciesPerGroup`, API.md §9.1).
     */
    post: operations['duplicateExpense'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/expenses/{expenseId}/comments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The comments on an expense
     * @description Oldest first (by `createdAt`, then id). Deleted comments are not listed. A deleted expense is `404` (its comments come back when it is restored), as is one in a group the caller is not in. Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listExpenseComments'];
    put?: never;
    /**
     * Comment on an expense
     * @description `text` is stored and returned exactly as sent (no trimming, no HTML): 1–2000 Unicode code points, not only whitespace, line feeds and tabs but no other control characters. Appends `comment.created` to the group’s log. A retried request (same `Idempotency-Key`) creates one comment. A deleted expense, or one in a group the caller is not in, is `404`. At most 500 live comments on one expense (`commentsPerTarget`, API.md §9.1): one more is `422 limit_exceeded`.
     */
    post: operations['createExpenseComment'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/settlements/{settlementId}/comments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The comments on a settlement
     * @description Oldest first (by `createdAt`, then id). Deleted comments are not listed. A deleted settlement is `404` (its comments come back when it is restored), as is one in a group the caller is not in. Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listSettlementComments'];
    put?: never;
    /**
     * Comment on a settlement
     * @description `text` is stored and returned exactly as sent (no trimming, no HTML): 1–2000 Unicode code points, not only whitespace, line feeds and tabs but no other control characters. Appends `comment.created` to the group’s log. A retried request (same `Idempotency-Key`) creates one comment. A deleted settlement, or one in a group the caller is not in, is `404`. At most 500 live comments on one settlement (`commentsPerTarget`, API.md §9.1): one more is `422 limit_exceeded`.
     */
    post: operations['createSettlementComment'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/comments/{commentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a comment
     * @description By its author only: another member of the group gets `403 forbidden`, anyone else `404`. Appends `comment.deleted`; deleting a deleted comment is `204` again (no second event).
     */
    delete: operations['deleteComment'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/expenses/{expenseId}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Every version of an expense, with who changed what
     * @description Oldest first (by the group log’s `seq`): one entry per `expense.*` event, with who, when, the version and ETag, the record as the change left it and a field-by-field diff against the version before (`paidBy`, `shares` and the split’s weights per member). Any member of the group may read it, also after the expense was deleted; anyone else gets `404`. The log is kept `EVENT_RETENTION_DAYS`: `truncated: true` says older versions are gone. Comments (API.md §5.2) are a separate list; a client shows both in one timeline by `occurredAt`/`createdAt`. Cursor-paginated: `limit` 1–50 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue. See API.md §15.
     */
    get: operations['getExpenseHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/settlements/{settlementId}/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Every version of a settlement, with who changed what
     * @description Oldest first (by the group log’s `seq`): one entry per `settlement.*` event, with who, when, the record as the change left it and a field-by-field diff against the version before (`paidBy`, `shares` and the split’s weights per member). Any member of the group may read it, also after the settlement was deleted; anyone else gets `404`. The log is kept `EVENT_RETENTION_DAYS`: `truncated: true` says older versions are gone. Comments (API.md §5.2) are a separate list; a client shows both in one timeline by `occurredAt`/`createdAt`. Cursor-paginated: `limit` 1–50 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue. See API.md §15.
     */
    get: operations['getSettlementHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/settlements': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record that one member paid another back
     * @description `fromUserId` ≠ `toUserId` (`422 validation_failed`); both must be members (`422 not_a_member`). `currency` defaults to the group’s. A record in a currency the group has no live record in, when it has live records in 20 currencies already, is `422 limit_exceeded` (`currenciesPerGroup`, API.md §9.1).
     */
    post: operations['createSettlement'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/settlements/{settlementId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A settlement
     * @description An addition to the contract (API.md §5 lists no single-settlement read). Deleted: `404`.
     */
    get: operations['getSettlement'];
    put?: never;
    post?: never;
    /**
     * Undo a settlement
     * @description Deleting an already deleted settlement is `204` again. Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3).
     */
    delete: operations['deleteSettlement'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/recurring': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A group's recurring expenses
     * @description Newest first; deleted ones are not listed. Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listRecurringExpenses'];
    put?: never;
    /**
     * Schedule a recurring expense
     * @description `expense` is the body of `POST /v1/expenses` without `groupId` and `occurredAt`; `schedule.every` is `week`, `2 weeks`, `month` (the same day of the month, or the month’s last day when it is shorter) or `year`; `until` (inclusive) must not be before `startsOn` (`422 validation_failed`); `timeZone` is an IANA name in any case (not a UTC offset), kept under the zone’s one name (`europe/berlin` → `Europe/Berlin`). A `startsOn` in the past is allowed: the occurrences since are created by the scheduler. At most 100 occurrences may be due at once (`422 limit_exceeded`, `limit.name` `recurringBacklog`): a `startsOn` further back, up to `until`, is refused. A group holds at most 50 recurring expenses (`422 limit_exceeded`, `schedulesPerGroup`). Appends `recurring.created`. Each occurrence becomes an ordinary expense (with `recurringId`, `occurredAt` the start of the occurrence’s local date in `schedule.timeZone`, or the first instant after it that exists there, and an `expense.created` event), created exactly once by the servers, in order, also for the dates missed while they were down. See API.md §6a. Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3).
     */
    post: operations['createRecurringExpense'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/recurring/{recurringId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A recurring expense
     * @description Deleted, or in a group the caller is not a member of: `404`.
     */
    get: operations['getRecurringExpense'];
    put?: never;
    post?: never;
    /**
     * Stop a recurring expense
     * @description No occurrence is created after it; those created stay. Deleting it again is `204`. Honours `If-Match`. Appends `recurring.deleted`.
     */
    delete: operations['deleteRecurringExpense'];
    options?: never;
    head?: never;
    /**
     * Change the template or the schedule, from the next occurrence on
     * @description Any non-empty subset of `expense` fields and of `schedule` fields; the result is validated as a whole. Occurrences already created stay as they are. A changed schedule continues with its first occurrence after the last one created (from `startsOn` when none was); it may not leave more than 100 occurrences due at once, unless fewer than before (`422 limit_exceeded`, `recurringBacklog`). Honours `If-Match`. Appends `recurring.updated`. Payers, participants and settlement parties must be current members (`422 not_a_member`). A change that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, `fromUserId`…). One person, one share: naming both an account and a pending member it took over in the payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3).
     */
    patch: operations['patchRecurringExpense'];
    trace?: never;
  };
  '/v1/groups/{groupId}/imports': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import a Splitwise export
     * @description `csv` is the text of a Splitwise CSV export (header `Date,Description,Category,Cost,Currency`, then one net column per person; a blank line and the `Total balance` row at the end); `members` maps each person column to a member of the group (active or pending). Each row becomes an expense (payers, shares) or, for a `Payment` row, a settlement, giving every member exactly the net the file says, with the usual `expense.created`/`settlement.created` events between `import.started` and `import.completed`. Synchronous: answers when the whole file is done. The same file again (any key) is the same import: nothing is created twice, rows already there count as `existing`; a retry after a crash or a failure resumes where the import stopped. A file that is no Splitwise export is `422 validation_failed` naming its line (`errors[0].path` `csv`), and nothing is written; a row that cannot be imported (or stored) is refused with its line and reason and the rest goes on: the report counts them (`refusedCount`) and lists the first 20 (`refused`), the rest are paged from `…/refusals`. Bounds: at most `IMPORT_MAX_ROWS` rows (10,000 by default) and 200 person columns, else `422 limit_exceeded` (`importRows`, `importPeople`) and nothing is written; the body may be up to `IMPORT_MAX_BYTES` (5 MiB by default), not 64 KiB, else `413`. See API.md §6b.
     */
    post: operations['createImport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/imports/{importId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An import’s report
     * @description Created, existing and refused rows (their number, and the first 20 with line and reason; `…/refusals` pages them all); `404` for a non-member.
     */
    get: operations['getImport'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/imports/{importId}/refusals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An import’s refused rows
     * @description Every refused row of the import once, by line (the last run's, for a file uploaded again). Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.
     */
    get: operations['listImportRefusals'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A group's webhook endpoints
     * @description Oldest first, all of them on one page (at most 10). Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no `Idempotency-Key`, no event in the log.
     */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Register a webhook endpoint
     * @description The events the group appends from now on are sent to `url` (API.md §12.2), signed with the `secret` of the answer, which is shown this once. With `WEBHOOK_ALLOW_PRIVATE_ADDRESSES` off, an IP literal or `localhost` of a private, loopback or link-local network is `422 validation_failed`. A group has at most 10 endpoints (`422 limit_exceeded`, `endpointsPerGroup`). Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no `Idempotency-Key`, no event in the log.
     */
    post: operations['createWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/webhooks/{webhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A webhook endpoint
     * @description Its state, and why it is disabled when it is (`disabledReason`). Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no `Idempotency-Key`, no event in the log.
     */
    get: operations['getWebhook'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint
     * @description With its delivery log; an attempt under way may still arrive. Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no `Idempotency-Key`, no event in the log.
     */
    delete: operations['deleteWebhook'];
    options?: never;
    head?: never;
    /**
     * Change a webhook endpoint
     * @description `enabled: true` on a disabled endpoint starts it again at the event it stopped on, with a new retry window. Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no `Idempotency-Key`, no event in the log.
     */
    patch: operations['patchWebhook'];
    trace?: never;
  };
  '/v1/groups/{groupId}/webhooks/{webhookId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate a webhook endpoint's secret
     * @description A new secret, shown this once; the one it replaces still signs every delivery (a second `v1,` signature in `webhook-signature`) for `previousSecretSeconds`. Rotating again replaces the previous secret. Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no `Idempotency-Key`, no event in the log.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/webhooks/{webhookId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A webhook endpoint's delivery log
     * @description Newest event first: each delivery’s status, attempts, last answer and latency, and its next try. The newest 1000 are kept. Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no `Idempotency-Key`, no event in the log.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a delivery again
     * @description Once more, with the same `webhook-id` and body, soon (by whichever API process serves the endpoint next), ahead of the endpoint’s own order. A disabled endpoint is `422 validation_failed`: enable it first. Any member of the group manages its webhooks; anyone else gets `404`. Not a group write: no `Idempotency-Key`, no event in the log.
     */
    post: operations['resendWebhookDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/notification-settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What the caller is notified of, by push and by mail
     * @description Per kind (`expense`, `comment`, `settlement`, `recurring`, `inviteAccepted`, `reminder`) whether a push and a mail go out, and whether the weekly digest is mailed. Never changed: the defaults (API.md §13.1). Mails go only to a confirmed email address.
     */
    get: operations['getNotificationSettings'];
    /**
     * Change what the caller is notified of
     * @description Any kinds and channels of `NotificationSettings`; those left out keep their value (so an older client does not turn off a kind added later). Answers the whole settings. Not keyed: an `Idempotency-Key` is ignored.
     */
    put: operations['putNotificationSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/push/vapid-public-key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The key browsers subscribe to push with
     * @description The VAPID public key (RFC 8292), base64url: `applicationServerKey` of `PushManager.subscribe`. `null` when this deployment sends no push (no keys, API.md §13.2).
     */
    get: operations['getVapidPublicKey'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/push-subscriptions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's push subscriptions
     * @description Oldest first; at most `pushSubscriptionsPerUser` (10).
     */
    get: operations['listPushSubscriptions'];
    put?: never;
    /**
     * Register a browser for push
     * @description The browser's `PushSubscription.toJSON()`: an `https` endpoint and its RFC 8291 keys. `201` when new; an endpoint registered before (by anyone: one browser profile) is moved to the caller with its new keys, `200`. An 11th subscription is `422 limit_exceeded` (`pushSubscriptionsPerUser`). A push service that answers `404` or `410` ends the subscription (it is deleted). Not keyed: an `Idempotency-Key` is ignored.
     */
    post: operations['createPushSubscription'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/push-subscriptions/{subscriptionId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Stop push to a browser
     * @description Deletes the subscription and what was queued for it. Another user's, or none: `404`. Not keyed: an `Idempotency-Key` is ignored.
     */
    delete: operations['deletePushSubscription'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/reminders': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Remind a member to settle up
     * @description Notifies `toUserId` (push and mail, as their `reminder` settings say) of what they owe the caller in the group's simplified debts (`GET …/balances`). Once per group and pair a day: sooner is `429 rate_limited` with `Retry-After`. Someone who owes the caller nothing, the caller, or a non-member: `422 validation_failed` at `toUserId`. Keyed like the group's other writes: a retry with the same key replays the first answer (without a key it meets the limit: `429`).
     */
    post: operations['createReminder'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/auth/unsubscribe': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * One-click unsubscribe from a notification mail (RFC 8058)
     * @description The URL of a notification mail's `List-Unsubscribe` header: mail clients post `List-Unsubscribe=One-Click` to it (any body is ignored); the web app posts it from the mail's visible link. Turns off mails of the kind the mail was (or the weekly digest); no sign-in. Posting it again: `204` again. A token that is not genuine: `422 validation_failed` at `token`. Rate limited per IP like `/v1/auth`.
     */
    post: operations['unsubscribe'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/expenses/{expenseId}/receipt': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An expense’s receipt and its download links
     * @description For members of the expense’s group: the receipt with links to the file and its thumbnail, good for `RECEIPT_LINK_TTL_SECONDS` (300 s by default); read it again for fresh links. `404` when the expense has no receipt, is deleted, or is in a group the caller is not in.
     */
    get: operations['getExpenseReceipt'];
    /**
     * Attach a receipt to an expense (or replace it)
     * @description The body is the file itself (not JSON): a JPEG, PNG, WebP or HEIC image or a PDF, known by its bytes (the `Content-Type` must be one of the listed types but is not believed: a file that is none of the five is `415`). At most `RECEIPT_MAX_BYTES` (10 MiB by default; more is `413` naming `receiptBytes`). An image is decoded (at most 40000000 pixels, else `422 limit_exceeded` `receiptPixels`; an undecodable one is `422 receipt_unreadable`), turned upright, scaled to 4096 px at most and encoded again without any metadata (EXIF and its location, XMP, IPTC are gone); a HEIC is stored as JPEG; a WebP thumbnail is made. A PDF is stored as it is, without a thumbnail. Replaces the expense’s receipt; appends `expense.receipt_changed`. A retry with the same `Idempotency-Key` and file is answered once and stores the file once (files are named by their SHA-256). `503` (with `Retry-After`) when this process is decoding as many images as it takes at once. See API.md §16.
     */
    put: operations['putExpenseReceipt'];
    post?: never;
    /**
     * Remove an expense’s receipt
     * @description Removes the receipt and its files; appends `expense.receipt_changed` with `receipt: null`. No receipt: `204` again, no event.
     */
    delete: operations['deleteExpenseReceipt'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/receipt-files/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Download a receipt file through a signed link
     * @description A link from `GET /v1/expenses/{expenseId}/receipt` (or the account export): no token needed, the link is the permission. A link that was altered or made up is `404`; one past its expiry is `403 forbidden`; a file replaced or deleted since is `404`. Answers `Cache-Control: private, max-age` up to the expiry, `X-Content-Type-Options: nosniff`, and a PDF as an attachment.
     */
    get: operations['downloadReceiptFile'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/categories': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The categories a group’s expenses can be in
     * @description The fixed default list (10, stable ids such as `food`), then the group’s own, oldest first (at most 50). Not paginated.
     */
    get: operations['listCategories'];
    put?: never;
    /**
     * Add a category of the group’s own
     * @description Appends `category.created`. A name already taken (ignoring case) by a default or a live category of the group is `409 category_name_taken`. At most 50 live ones (`categoriesPerGroup`): one more is `422 limit_exceeded`.
     */
    post: operations['createCategory'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/categories/{categoryId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a category of the group’s own
     * @description Its live expenses lose their category (`categoryId` null, each one’s `version` bumped) in the same statement, which appends `category.deleted`. Only the group’s own categories (`cat_…`) can be changed: a default id (or a deleted or unknown one) is `404`.
     */
    delete: operations['deleteCategory'];
    options?: never;
    head?: never;
    /**
     * Rename a category, or change its icon or colour
     * @description Expenses refer to a category by id, so the new name shows on every one of them at once. Appends `category.updated` (nothing when nothing changes). Only the group’s own categories (`cat_…`) can be changed: a default id (or a deleted or unknown one) is `404`.
     */
    patch: operations['patchCategory'];
    trace?: never;
  };
  '/v1/groups/{groupId}/categories/{categoryId}/merge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Merge a category into another
     * @description Every live expense of the category moves to `into` (a default or another of the group’s own; each one’s `version` bumped) and the category is deleted, in ONE statement that appends `category.merged`. An `into` that is not a category of the group is `422 unknown_category`. Only the group’s own categories (`cat_…`) can be changed: a default id (or a deleted or unknown one) is `404`.
     */
    post: operations['mergeCategory'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/groups/{groupId}/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What a group spent, by category, member or month
     * @description Per currency: the total spent, each member’s share and payments, and the breakdown `by`. Counts the live expenses with `from ≤ occurredAt < to` (UTC months), in one aggregate statement: the whole months from stored totals, the partial months at the edges from the expenses there (API.md §14.2, cost). Settlements are not spending and are not counted. Negative amounts sum as they are. With `?currency=`, `converted` gives the totals in that currency where every currency has a rate (else `converted` is null and `unconverted` names the currencies without one).
     */
    get: operations['getGroupStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/me/stats': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * My share across my groups, by category, group or month
     * @description Per currency: my share (as the pending members I claimed too) and what I paid, and the breakdown `by`. The conversion uses the provider’s rates only (groups’ own rates differ). Counts the live expenses with `from ≤ occurredAt < to` (UTC months), in one aggregate statement: the whole months from stored totals, the partial months at the edges from the expenses there (API.md §14.2, cost). Settlements are not spending and are not counted. Negative amounts sum as they are. With `?currency=`, `converted` gives the totals in that currency where every currency has a rate (else `converted` is null and `unconverted` names the currencies without one).
     */
    get: operations['getMyStats'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/ws': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Live events and presence over a WebSocket
     * @description Upgrades to a WebSocket (RFC 6455) for live events and presence.
     *
     *     **Credentials**: `Authorization: Bearer <accessToken>` on the upgrade request, or none on the upgrade
     *     and the token in the connection's first message, `{"type":"auth","id","accessToken"}` (browsers cannot
     *     set headers on a WebSocket): the server answers `{"type":"authenticated","id","expiresAt"}` then the
     *     `welcome`. Such a connection that sends anything else first, an invalid token, or nothing within
     *     `WS_AUTH_TIMEOUT_MS` (5 s) is closed with 4401; one over the per-user limit when it authenticates is
     *     closed with 1008. `?access_token=` is accepted only where `WS_ALLOW_QUERY_TOKEN=true` (by default only the
     *     single embedded node): elsewhere an upgrade carrying it is refused with 401 (URLs end up in proxy and
     *     access logs). A bad token refuses the upgrade with HTTP 401. A user who already has
     *     `WS_MAX_CONNECTIONS_PER_USER` sockets on this gateway is refused with HTTP 429 `rate_limited`
     *     (`Retry-After`); a gateway that is shutting down refuses it with 503 (`Retry-After: 1`). Every refusal
     *     is problem+json. A plain `GET` without `Upgrade: websocket` is answered `426 upgrade_required` (with
     *     `Upgrade: websocket`), before authentication.
     *
     *     Every message is one JSON text frame: a `ClientMessage` from the client, a `ServerMessage` from the
     *     server (both in the schemas of this document). On open the server sends
     *     `{"type":"welcome","connectionId","userId","heartbeatMs"}`.
     *
     *     | client → server | server → client |
     *     |---|---|
     *     | `{"type":"subscribe","id":"c1","groupId","afterSeq"?}` | the missed events with `seq > afterSeq` as `event` messages, in order, then `{"type":"subscribed","id":"c1","groupId","seq"}`; a non-member gets `{"type":"error","id":"c1","code":"not_found"}` |
     *     | `{"type":"unsubscribe","id","groupId"}` | `{"type":"unsubscribed","id","groupId"}` |
     *     | `{"type":"ping","id"}` | `{"type":"pong","id"}` |
     *     | `{"type":"auth","id","accessToken"}` (a fresh token of the same user, before the current one expires) | `{"type":"authenticated","id","expiresAt"}`; an invalid token or another user's: `{"type":"error","id","code":"unauthenticated"}` (the old deadline stands) |
     *     | anything else, or invalid JSON | `{"type":"error","code":"bad_message"}`; the connection stays open |
     *
     *     - A `subscribe` with `afterSeq` beyond the group's current `seq` is `{"type":"error","id","code":"bad_message"}`.
     *       When the events after `afterSeq` are no longer kept (`EVENT_RETENTION_DAYS`), the answer is
     *       `{"type":"resync_required","id","groupId","seq"}` and no subscription: refetch the group's state and
     *       subscribe again (from `seq`, the group's current one, or from the `asOfSeq` of the state read).
     *       More than `WS_MAX_SUBSCRIPTIONS_PER_CONNECTION` subscriptions: `{"type":"error","id","code":"limit_exceeded"}`.
     *
     *     - **Live events**: `{"type":"event","groupId","seq","event":{…}}` (the `Event` schema) for every event
     *       of a subscribed group, in `seq` order with no gaps and no duplicates on one connection; a connection
     *       that falls behind is caught up from the log, never skipped ahead. Money events carry the group's
     *       balances after the change in `event.data.balances`.
     *     - **Presence**: `{"type":"presence","groupId","online":["usr_…"]}` to a group's subscribers whenever the
     *       set of its members connected (on any gateway) changes.
     *     - A member removed from a group is unsubscribed: `{"type":"unsubscribed","groupId","reason":"removed"}`.
     *     - **Heartbeat**: the server pings every `heartbeatMs` and drops connections that do not answer.
     *     - **Authorization holds for the life of the socket**: when the token the connection was opened (or last
     *       `auth`-ed) with expires, the server closes with 4401; a removed member gets nothing of the group after
     *       the removal commits.
     *     - **Close codes**: 1008 over `WS_MAX_MESSAGES_PER_SECOND`; 1009 for a frame over 64 KiB; 1013 for a client
     *       that stopped reading (more than 1 MiB buffered; a client catching up is paced by its socket instead);
     *       1012 on shutdown (service restart); 4401 when the access token expired. Clients reconnect with jittered backoff and resume each
     *       subscription with `afterSeq` set to the last `seq` they saw.
     */
    get: operations['openWebSocket'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness
     * @description `200` while the process runs.
     */
    get: operations['liveness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness
     * @description `200` when the database answers and the process is not draining; `503` `{"status":"unavailable","starting":true}` while the process is still starting (it listens before it has reached PostgreSQL and migrated; meanwhile every other request gets `503 unavailable` with `Retry-After` and `/healthz` answers 200). Redis is reported in `checks` but does not decide readiness: keyed writes stay exactly-once through PostgreSQL without it, and a Redis outage must not take every pod out of the load balancer at once.
     */
    get: operations['readiness'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Prometheus metrics */
    get: operations['metrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This OpenAPI 3.1 document */
    get: operations['openApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/docs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Human-readable API reference
     * @description Swagger UI rendering this document. Its files come from the `swagger-ui-dist` npm package and are served by this server: the page loads nothing from anywhere else and works offline.
     */
    get: operations['docs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Split:
      | {
          /** @constant */
          type: 'equal';
          between: string[];
        }
      | {
          /** @constant */
          type: 'exact';
          between: {
            userId: string;
            amount: number;
          }[];
        }
      | {
          /** @constant */
          type: 'percent';
          between: {
            userId: string;
            percent: number;
          }[];
        }
      | {
          /** @constant */
          type: 'shares';
          between: {
            userId: string;
            shares: number;
          }[];
        }
      | {
          /** @constant */
          type: 'items';
          items: {
            /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
            description?: string;
            amount: number;
            between: (
              | string
              | {
                  userId: string;
                  shares: number;
                }
            )[];
          }[];
          tax?: number;
          tip?: number;
        };
    RegisterRequest: {
      /** Format: email */
      email: string;
      /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      name: string;
      /** @description 8–128 characters, counted in Unicode code points; any characters, no composition rules; a password on the list of common passwords found in leaks is refused (422), whatever its case */
      password: string;
    };
    LoginRequest: {
      /** Format: email */
      email: string;
      password: string;
    };
    RefreshRequest: {
      refreshToken: string;
    };
    PasswordResetRequest: {
      /** Format: email */
      email: string;
    };
    PasswordResetConfirmRequest: {
      token: string;
      /** @description 8–128 characters, counted in Unicode code points; any characters, no composition rules; a password on the list of common passwords found in leaks is refused (422), whatever its case */
      password: string;
    };
    ChangePasswordRequest: {
      current: string;
      /** @description 8–128 characters, counted in Unicode code points; any characters, no composition rules; a password on the list of common passwords found in leaks is refused (422), whatever its case */
      new: string;
    };
    VerifyEmailRequest: {
      token: string;
    };
    ChangeEmailRequest: {
      /**
       * Format: email
       * @description The new address; the login email once its link is opened
       */
      email: string;
      /** @description The current password */
      password: string;
    };
    NoBody: Record<string, never>;
    CreateApiKeyRequest: {
      /** @description What the key is for, 1–100 characters: shown in the list. Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      name: string;
      /** @description `read`: GET and HEAD; `write`: every other method. One or both, each once */
      scopes: ('read' | 'write')[];
      /**
       * @description When the key stops working (RFC 3339 with an offset; in the future). Absent: it works until revoked
       * @example 2027-01-31T00:00:00Z
       */
      expiresAt?: string;
    };
    CreateGroupRequest: {
      /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      name: string;
      currency?: components['schemas']['Currency'];
      /** @description at most 1000 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      description?: string;
      /** @description Which debts clients show (API.md §6): the simplified ones (`true`, the default) or the original ones */
      simplifyDebts?: boolean;
    };
    PatchGroupRequest: {
      /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      name?: string;
      /** @description at most 1000 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      description?: string;
      currency?: components['schemas']['Currency'];
      /** @description Which debts clients show (API.md §6): the simplified ones (`true`, the default) or the original ones */
      simplifyDebts?: boolean;
    };
    /** @description Exactly one of: `{userId}` or `{email}` (a registered user), or `{name, email?}` (a pending member: someone without an account). `userId` with `email` or `name` is `422 validation_failed`. */
    AddMemberRequest: {
      userId?: string;
      /** Format: email */
      email?: string;
      /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      name?: string;
    } & (unknown | unknown | unknown);
    ActivityReadRequest: {
      /** @description The id of the newest feed item read (an event id) */
      upTo: string;
    };
    CreateInviteRequest: {
      /** @description Lifetime in days (default 7) */
      expiresInDays?: number;
    };
    AcceptInviteRequest: {
      /** @description A pending member of the group to become (their place, balances and history) */
      asMember?: string;
    };
    PutRatesRequest: {
      base: components['schemas']['Currency'];
      /** @description Units of each currency per one `base`, as decimal strings (`{"USD": "1.0823", "JPY": "160.34"}`): keys are ISO 4217 codes other than `base`, values positive decimals of at most 12 significant digits and 20 decimals */
      rates: {
        [key: string]: unknown;
      };
      /** @description The day the rates are of, `YYYY-MM-DD` (a real calendar date) */
      asOf: string;
    };
    ExpenseRequest: {
      groupId: string;
      /** @description Surrounding whitespace is trimmed; then 1–200 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      description: string;
      /** @description 1–64 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      category?: string | null;
      /**
       * @description A default category id (e.g. `food`) or one of the group’s own (`cat_…`)
       * @example food
       */
      categoryId?: string | null;
      /**
       * @description Integer count of minor units (paise, cents, yen); negative for income or a reimbursement
       * @example 100000
       */
      amount: number;
      currency?: components['schemas']['Currency'];
      paidBy:
        | string
        | {
            userId: string;
            /**
             * @description Integer count of minor units (paise, cents, yen); negative for income or a reimbursement
             * @example 100000
             */
            amount: number;
          }[];
      /**
       * @description RFC 3339 date-time with an offset, a real date and time within years 0001–9999
       * @example 2027-01-31T00:00:00Z
       */
      occurredAt?: string;
      split:
        | {
            /** @constant */
            type: 'equal';
            between: string[];
          }
        | {
            /** @constant */
            type: 'exact';
            between: {
              userId: string;
              amount: number;
            }[];
          }
        | {
            /** @constant */
            type: 'percent';
            between: {
              userId: string;
              percent: number;
            }[];
          }
        | {
            /** @constant */
            type: 'shares';
            between: {
              userId: string;
              shares: number;
            }[];
          }
        | {
            /** @constant */
            type: 'items';
            items: {
              /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
              description?: string;
              amount: number;
              between: (
                | string
                | {
                    userId: string;
                    shares: number;
                  }
              )[];
            }[];
            tax?: number;
            tip?: number;
          };
    };
    PatchExpenseRequest: {
      /** @description Surrounding whitespace is trimmed; then 1–200 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      description?: string;
      /** @description 1–64 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      category?: string | null;
      /**
       * @description A default category id (e.g. `food`) or one of the group’s own (`cat_…`)
       * @example food
       */
      categoryId?: string | null;
      /**
       * @description Integer count of minor units (paise, cents, yen); negative for income or a reimbursement
       * @example 100000
       */
      amount?: number;
      currency?: components['schemas']['Currency'];
      paidBy?:
        | string
        | {
            userId: string;
            /**
             * @description Integer count of minor units (paise, cents, yen); negative for income or a reimbursement
             * @example 100000
             */
            amount: number;
          }[];
      /**
       * @description RFC 3339 date-time with an offset, a real date and time within years 0001–9999
       * @example 2027-01-31T00:00:00Z
       */
      occurredAt?: string;
      split?:
        | {
            /** @constant */
            type: 'equal';
            between: string[];
          }
        | {
            /** @constant */
            type: 'exact';
            between: {
              userId: string;
              amount: number;
            }[];
          }
        | {
            /** @constant */
            type: 'percent';
            between: {
              userId: string;
              percent: number;
            }[];
          }
        | {
            /** @constant */
            type: 'shares';
            between: {
              userId: string;
              shares: number;
            }[];
          }
        | {
            /** @constant */
            type: 'items';
            items: {
              /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
              description?: string;
              amount: number;
              between: (
                | string
                | {
                    userId: string;
                    shares: number;
                  }
              )[];
            }[];
            tax?: number;
            tip?: number;
          };
    };
    DuplicateExpenseRequest: {
      /**
       * @description RFC 3339 date-time with an offset, a real date and time within years 0001–9999
       * @example 2027-01-31T00:00:00Z
       */
      occurredAt?: string;
      /** @description Surrounding whitespace is trimmed; then 1–200 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      description?: string;
    };
    CommentRequest: {
      /** @description Stored and returned exactly as sent (no trimming, no HTML interpretation). 1–2000 characters, counted in Unicode code points, not only whitespace; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      text: string;
    };
    SettlementRequest: {
      groupId: string;
      fromUserId: string;
      toUserId: string;
      /**
       * @description Integer count of minor units (paise, cents, yen)
       * @example 100000
       */
      amount: number;
      currency?: components['schemas']['Currency'];
      /** @description at most 500 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      note?: string;
    };
    RecurringExpenseRequest: {
      expense: {
        /** @description Surrounding whitespace is trimmed; then 1–200 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
        description: string;
        /** @description 1–64 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
        category?: string | null;
        /**
         * @description Integer count of minor units (paise, cents, yen)
         * @example 100000
         */
        amount: number;
        currency?: components['schemas']['Currency'];
        paidBy:
          | string
          | {
              userId: string;
              /**
               * @description Integer count of minor units (paise, cents, yen); negative for income or a reimbursement
               * @example 100000
               */
              amount: number;
            }[];
        split:
          | {
              /** @constant */
              type: 'equal';
              between: string[];
            }
          | {
              /** @constant */
              type: 'exact';
              between: {
                userId: string;
                amount: number;
              }[];
            }
          | {
              /** @constant */
              type: 'percent';
              between: {
                userId: string;
                percent: number;
              }[];
            }
          | {
              /** @constant */
              type: 'shares';
              between: {
                userId: string;
                shares: number;
              }[];
            }
          | {
              /** @constant */
              type: 'items';
              items: {
                /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
                description?: string;
                amount: number;
                between: (
                  | string
                  | {
                      userId: string;
                      shares: number;
                    }
                )[];
              }[];
              tax?: number;
              tip?: number;
            };
      };
      schedule: {
        /** @enum {string} */
        every: 'week' | '2 weeks' | 'month' | 'year';
        /**
         * @description A local calendar date, YYYY-MM-DD
         * @example 2027-01-31
         */
        startsOn: string;
        /**
         * @description A local calendar date, YYYY-MM-DD
         * @example 2027-01-31
         */
        until?: string | null;
        /**
         * @description IANA time zone name, in any case; kept under the zone’s one name (`europe/berlin` → `Europe/Berlin`, `Etc/UTC` → `UTC`, `Asia/Calcutta` → `Asia/Kolkata`). A UTC offset such as `+05:30` is not one
         * @example Europe/Berlin
         */
        timeZone: string;
      };
    };
    PatchRecurringExpenseRequest: {
      expense?: {
        /** @description Surrounding whitespace is trimmed; then 1–200 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
        description?: string;
        /** @description 1–64 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
        category?: string | null;
        /**
         * @description Integer count of minor units (paise, cents, yen)
         * @example 100000
         */
        amount?: number;
        currency?: components['schemas']['Currency'];
        paidBy?:
          | string
          | {
              userId: string;
              /**
               * @description Integer count of minor units (paise, cents, yen); negative for income or a reimbursement
               * @example 100000
               */
              amount: number;
            }[];
        split?:
          | {
              /** @constant */
              type: 'equal';
              between: string[];
            }
          | {
              /** @constant */
              type: 'exact';
              between: {
                userId: string;
                amount: number;
              }[];
            }
          | {
              /** @constant */
              type: 'percent';
              between: {
                userId: string;
                percent: number;
              }[];
            }
          | {
              /** @constant */
              type: 'shares';
              between: {
                userId: string;
                shares: number;
              }[];
            }
          | {
              /** @constant */
              type: 'items';
              items: {
                /** @description Surrounding whitespace is trimmed; then 1–100 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
                description?: string;
                amount: number;
                between: (
                  | string
                  | {
                      userId: string;
                      shares: number;
                    }
                )[];
              }[];
              tax?: number;
              tip?: number;
            };
      };
      schedule?: {
        /** @enum {string} */
        every?: 'week' | '2 weeks' | 'month' | 'year';
        /**
         * @description A local calendar date, YYYY-MM-DD
         * @example 2027-01-31
         */
        startsOn?: string;
        /**
         * @description A local calendar date, YYYY-MM-DD
         * @example 2027-01-31
         */
        until?: string | null;
        /**
         * @description IANA time zone name, in any case; kept under the zone’s one name (`europe/berlin` → `Europe/Berlin`, `Etc/UTC` → `UTC`, `Asia/Calcutta` → `Asia/Kolkata`). A UTC offset such as `+05:30` is not one
         * @example Europe/Berlin
         */
        timeZone?: string;
      };
    };
    CreateImportRequest: {
      /**
       * @description The file’s format: a Splitwise CSV export
       * @constant
       */
      format: 'splitwise-csv';
      /** @description The file’s text, as exported */
      csv: string;
      /** @description Each person column of the file (its header name) → the id (`usr_…`) of the group member it is; at most 200 */
      members: {
        [key: string]: unknown;
      };
    };
    CreateWebhookRequest: {
      /**
       * @description An absolute `http:` or `https:` URL, at most 2048 characters, without credentials
       * @example https://example.com/tally-hooks
       */
      url: string;
      /** @description at most 200 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      description?: string;
      /** @description The event types sent to it; empty or absent: every type */
      eventTypes?: (
        | 'group.updated'
        | 'member.added'
        | 'member.removed'
        | 'member.claimed'
        | 'invite.created'
        | 'invite.revoked'
        | 'expense.created'
        | 'expense.updated'
        | 'expense.deleted'
        | 'settlement.created'
        | 'settlement.deleted'
        | 'recurring.created'
        | 'recurring.updated'
        | 'recurring.deleted'
        | 'recurring.skipped'
        | 'rates.updated'
        | 'comment.created'
        | 'comment.deleted'
        | 'category.created'
        | 'category.updated'
        | 'category.deleted'
        | 'category.merged'
        | 'import.started'
        | 'import.completed'
        | 'expense.receipt_changed'
      )[];
    };
    PatchWebhookRequest: {
      /**
       * @description An absolute `http:` or `https:` URL, at most 2048 characters, without credentials
       * @example https://example.com/tally-hooks
       */
      url?: string;
      /** @description at most 200 characters, counted in Unicode code points; line feeds and tabs kept, no other control characters (U+0000–U+001F, U+007F–U+009F); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      description?: string;
      /** @description The event types sent to it; empty or absent: every type */
      eventTypes?: (
        | 'group.updated'
        | 'member.added'
        | 'member.removed'
        | 'member.claimed'
        | 'invite.created'
        | 'invite.revoked'
        | 'expense.created'
        | 'expense.updated'
        | 'expense.deleted'
        | 'settlement.created'
        | 'settlement.deleted'
        | 'recurring.created'
        | 'recurring.updated'
        | 'recurring.deleted'
        | 'recurring.skipped'
        | 'rates.updated'
        | 'comment.created'
        | 'comment.deleted'
        | 'category.created'
        | 'category.updated'
        | 'category.deleted'
        | 'category.merged'
        | 'import.started'
        | 'import.completed'
        | 'expense.receipt_changed'
      )[];
      /** @description `false` stops its deliveries; `true` starts them again where they stopped */
      enabled?: boolean;
    };
    RotateWebhookSecretRequest: {
      /**
       * @description How long the secret it replaces still signs, in seconds (0–604800)
       * @default 86400
       */
      previousSecretSeconds: number;
    };
    NotificationSettingsRequest: {
      expense?: {
        push?: boolean;
        email?: boolean;
      };
      comment?: {
        push?: boolean;
        email?: boolean;
      };
      settlement?: {
        push?: boolean;
        email?: boolean;
      };
      recurring?: {
        push?: boolean;
        email?: boolean;
      };
      inviteAccepted?: {
        push?: boolean;
        email?: boolean;
      };
      reminder?: {
        push?: boolean;
        email?: boolean;
      };
      digest?: {
        email?: boolean;
      };
    };
    PushSubscriptionRequest: {
      /** Format: uri */
      endpoint: string;
      expirationTime?: number | null;
      keys: {
        p256dh: string;
        auth: string;
      };
    };
    ReminderRequest: {
      toUserId: string;
    };
    CategoryRequest: {
      /** @description 1–40 code points; unique (ignoring case) among the group’s live categories. Surrounding whitespace is trimmed; then 1–40 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      name: string;
      /**
       * @description An emoji or a short token (1–16 code points), or null for none. Surrounding whitespace is trimmed; then 1–16 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized.
       * @example 🍕
       */
      icon?: string | null;
      /**
       * @description A colour as `#rrggbb`, or null for none
       * @example #e07a5f
       */
      color?: string | null;
    };
    PatchCategoryRequest: {
      /** @description 1–40 code points; unique (ignoring case) among the group’s live categories. Surrounding whitespace is trimmed; then 1–40 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
      name?: string;
      /**
       * @description An emoji or a short token (1–16 code points), or null for none. Surrounding whitespace is trimmed; then 1–16 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized.
       * @example 🍕
       */
      icon?: string | null;
      /**
       * @description A colour as `#rrggbb`, or null for none
       * @example #e07a5f
       */
      color?: string | null;
    };
    MergeCategoryRequest: {
      /**
       * @description The category that receives the expenses (a default or the group’s own)
       * @example food
       */
      into: string;
    };
    /**
     * @description ISO 4217 currency code: one of the codes the server accepts (those its runtime knows, `Intl.supportedValuesOf("currency")`); anything else is `422 validation_failed`
     * @example INR
     * @enum {string}
     */
    Currency: string;
    User: {
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** Format: email */
      email: string;
      name: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /** @description Whether the account confirmed its `email` by the link mailed to it (API.md §2.5); only a verified address claims the pending members added with it */
      emailVerified: boolean;
    };
    /** @description A signed-in session. The access token is a JWT (HS256) valid `expiresIn` seconds; the refresh token is opaque, lives 30 days and rotates on every use (a used one is dead, and presenting a dead one revokes its whole family). */
    Session: {
      user: components['schemas']['User'];
      /** @description Bearer JWT for `Authorization: Bearer …` */
      accessToken: string;
      /** @description Opaque single-use refresh token (30 days) */
      refreshToken: string;
      /** @description Access token lifetime in seconds */
      expiresIn: number;
    };
    Member: {
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      userId: string;
      name: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      joinedAt: string;
      /**
       * @description `active`: an account; `pending`: someone added by name, without an account; `deleted`: an account its owner deleted (name "Deleted user", API.md §11.3)
       * @enum {string}
       */
      status: 'active' | 'pending' | 'deleted';
      /** @description On an account that took over pending members: their ids, which older expenses, settlements and events still name. Absent otherwise. */
      claimed?: string[];
    };
    /** @description A `Member` as a `member.added` event logged it. Events logged before pending members existed (API.md §3.1) have no `status`: those members are accounts (`active`). */
    LoggedMember: {
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      userId: string;
      name: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      joinedAt: string;
      /** @enum {string} */
      status?: 'active' | 'pending';
      claimed?: string[];
    };
    /** @description An invite link, without its code */
    Invite: {
      /**
       * @description Invite id: `inv_` followed by a ULID. Opaque: do not parse it.
       * @example inv_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      createdBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      expiresAt: string;
    };
    /** @description An invite just made: the only answer that carries its code */
    CreatedInvite: {
      /**
       * @description Invite id: `inv_` followed by a ULID. Opaque: do not parse it.
       * @example inv_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      createdBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      expiresAt: string;
      /** @description 32 random bytes, base64url: share it (e.g. in a link); Tally keeps only its hash */
      code: string;
    };
    /** @description A verification link was mailed (after the answer) to `email` */
    EmailLinkSent: {
      /**
       * Format: email
       * @description Where the link went
       */
      email: string;
    };
    ClaimableMemberList: {
      data: {
        /**
         * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
         * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        groupId: string;
        groupName: string;
        /**
         * @description The pending member to claim
         * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        memberId: string;
        name: string;
      }[];
    };
    InviteList: {
      data: components['schemas']['Invite'][];
    };
    InvitePreview: {
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      groupName: string;
      memberCount: number;
      /** @description Pending members the caller may become by accepting with `asMember` (API.md §3.3): those added with the caller’s verified email and, for a caller who is not a member yet, those added by name only */
      pendingMembers: {
        /**
         * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
         * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        userId: string;
        name: string;
      }[];
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      expiresAt: string;
      /** @description Whether the caller is a member already */
      isMember: boolean;
    };
    Group: {
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      name: string;
      /** @description Empty string when not set */
      description: string;
      /** @description Default currency of new expenses and settlements */
      currency: components['schemas']['Currency'];
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      updatedAt: string;
      /** @description Incremented by every change; the ETag is `"v<version>"` */
      version: number;
      /**
       * Format: date-time
       * @description When the group was archived (it refuses every write meanwhile, API.md §3); null when it is not
       */
      archivedAt: string | null;
      /** @description Which debts clients show: the simplified ones (true) or the original ones (API.md §6) */
      simplifyDebts: boolean;
      /** @description Current members, in the order they joined */
      members: components['schemas']['Member'][];
    };
    /** @description A group without its members (in `group.updated` events) */
    GroupSummary: {
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      name: string;
      /** @description Empty string when not set */
      description: string;
      /** @description Default currency of new expenses and settlements */
      currency: components['schemas']['Currency'];
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      updatedAt: string;
      /** @description Incremented by every change; the ETag is `"v<version>"` */
      version: number;
      /**
       * Format: date-time
       * @description When the group was archived (it refuses every write meanwhile, API.md §3); null when it is not
       */
      archivedAt: string | null;
      /** @description Which debts clients show: the simplified ones (true) or the original ones (API.md §6) */
      simplifyDebts: boolean;
    };
    Payer: {
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      userId: string;
      /**
       * @description Integer count of minor units (paise, cents, yen); negative for income or a reimbursement
       * @example 100000
       */
      amount: number;
    };
    Share: {
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      userId: string;
      /** @description Zero or negative in a negative expense (what the member gets back) */
      owed: number;
    };
    Expense: {
      /**
       * @description Expense id: `exp_` + ULID, or the id a client chose with PUT, or (an occurrence of a recurring expense) derived from its schedule and date
       * @example exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      description: string;
      category: string | null;
      /** @description The expense’s category (API.md §14): a default id (`food`…) or the group’s own (`cat_…`); null for none */
      categoryId: string | null;
      /**
       * @description Integer count of minor units (paise, cents, yen); negative for income or a reimbursement
       * @example 100000
       */
      amount: number;
      currency: components['schemas']['Currency'];
      /** @description Always the list form; the amounts add up to `amount` */
      paidBy: components['schemas']['Payer'][];
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      /** @description As it was sent (generated from the request schema) */
      split: components['schemas']['Split'];
      /** @description What each participant owes, by largest remainder (ties to the one listed earlier); adds up to `amount` exactly */
      shares: components['schemas']['Share'][];
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      createdBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      updatedAt: string;
      /** @description Incremented by every change; the ETag is `"v<version>"` */
      version: number;
      /** @description The recurring expense (`rec_…`) this expense is an occurrence of (API.md §6a); null for any other */
      recurringId: string | null;
      /**
       * Format: date-time
       * @description Only in a list asked with `includeDeleted=true` (API.md §5.1): when the expense was deleted, null when it is live
       */
      deletedAt?: string | null;
    };
    Settlement: {
      /**
       * @description Settlement id: `stl_` followed by a ULID. Opaque: do not parse it.
       * @example stl_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The member who paid
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      fromUserId: string;
      /**
       * @description The member who was paid back
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      toUserId: string;
      /**
       * @description Integer count of minor units (paise, cents, yen)
       * @example 100000
       */
      amount: number;
      currency: components['schemas']['Currency'];
      /** @description Empty string when not set */
      note: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      createdBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
    };
    MemberNet: {
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      userId: string;
      /** @description Minor units; positive: the group owes this member, negative: the member owes the group */
      net: number;
    };
    /** @description One payment that settles debts: `from` pays `to` the `amount` */
    Transfer: {
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      from: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      to: string;
      /**
       * @description Integer count of minor units (paise, cents, yen)
       * @example 100000
       */
      amount: number;
    };
    CurrencyBalances: {
      currency: components['schemas']['Currency'];
      /** @description Every current member (and any former member whose net is not zero); the nets add up to exactly 0 */
      members: components['schemas']['MemberNet'][];
      /** @description Transfers that settle every net exactly, each from a negative-net to a positive-net member, at most (number of non-zero nets − 1) of them */
      simplified: components['schemas']['Transfer'][];
      /** @description Only in `GET …/balances`: the original (unsimplified) debts, one per pair of people with a debt between them, from who owes to whom, sorted by `from`, then `to`; they add up to the nets too */
      original?: components['schemas']['Transfer'][];
    };
    Balances: {
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /** @description The event sequence number these balances reflect */
      asOfSeq: number;
      /** @description The group’s setting: whether clients show `simplified` (true) or `original` (false) debts */
      simplifyDebts: boolean;
      /** @description One entry per currency that has at least one live (not deleted) expense or settlement, ordered by currency code. Currencies are never converted into each other. */
      currencies: components['schemas']['CurrencyBalances'][];
      converted?: components['schemas']['ConvertedBalances'];
    };
    /** @description One entry of the group’s durable, ordered log; `data` depends on `type`. Money events carry the group’s balances after the change in `data.balances`. */
    Event:
      | components['schemas']['GroupUpdatedEvent']
      | components['schemas']['MemberAddedEvent']
      | components['schemas']['MemberRemovedEvent']
      | components['schemas']['MemberClaimedEvent']
      | components['schemas']['InviteCreatedEvent']
      | components['schemas']['InviteRevokedEvent']
      | components['schemas']['ExpenseCreatedEvent']
      | components['schemas']['ExpenseUpdatedEvent']
      | components['schemas']['ExpenseDeletedEvent']
      | components['schemas']['SettlementCreatedEvent']
      | components['schemas']['SettlementDeletedEvent']
      | components['schemas']['RecurringCreatedEvent']
      | components['schemas']['RecurringUpdatedEvent']
      | components['schemas']['RecurringDeletedEvent']
      | components['schemas']['RecurringSkippedEvent']
      | components['schemas']['RatesUpdatedEvent']
      | components['schemas']['CommentCreatedEvent']
      | components['schemas']['CommentDeletedEvent']
      | components['schemas']['CategoryCreatedEvent']
      | components['schemas']['CategoryUpdatedEvent']
      | components['schemas']['CategoryDeletedEvent']
      | components['schemas']['CategoryMergedEvent']
      | components['schemas']['ImportStartedEvent']
      | components['schemas']['ImportCompletedEvent']
      | components['schemas']['ExpenseReceiptChangedEvent'];
    GroupUpdatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'group.updated';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        group: components['schemas']['GroupSummary'];
      };
    };
    MemberAddedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'member.added';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        member: components['schemas']['LoggedMember'];
      };
    };
    MemberRemovedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'member.removed';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        /**
         * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
         * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        userId: string;
        /** @description The live invites the member had made, revoked with the removal (absent when none) */
        revokedInvites?: string[];
      };
    };
    MemberClaimedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'member.claimed';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        /**
         * @description The pending member taken over
         * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        memberId: string;
        /**
         * @description The account that took them over
         * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        userId: string;
        member: components['schemas']['Member'];
        /** @description The group’s balances after the change (the `currencies` of `Balances`) */
        balances: components['schemas']['CurrencyBalances'][];
      };
    };
    InviteCreatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'invite.created';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        invite: components['schemas']['Invite'];
      };
    };
    InviteRevokedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'invite.revoked';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        /**
         * @description Invite id: `inv_` followed by a ULID. Opaque: do not parse it.
         * @example inv_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        inviteId: string;
      };
    };
    ExpenseCreatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'expense.created';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        expense: components['schemas']['Expense'];
        /** @description The group’s balances after the change (the `currencies` of `Balances`) */
        balances: components['schemas']['CurrencyBalances'][];
        /**
         * @description Present when a deleted expense was restored
         * @constant
         */
        restored?: true;
        /** @description Present when the expense is an occurrence of a recurring expense (API.md §6a) */
        recurring?: {
          /**
           * @description Recurring expense id: `rec_` followed by a ULID. Opaque: do not parse it.
           * @example rec_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          id: string;
          /**
           * Format: date
           * @description A local calendar date, YYYY-MM-DD
           * @example 2027-01-31
           */
          occurrenceDate: string;
        };
      };
    };
    ExpenseUpdatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'expense.updated';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        expense: components['schemas']['Expense'];
        /** @description The group’s balances after the change (the `currencies` of `Balances`) */
        balances: components['schemas']['CurrencyBalances'][];
      };
    };
    ExpenseDeletedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'expense.deleted';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        expense: components['schemas']['Expense'];
        /**
         * Format: date-time
         * @description When it was deleted
         * @example 2026-11-25T10:00:00.000Z
         */
        deletedAt: string;
        /** @description The group’s balances after the change (the `currencies` of `Balances`) */
        balances: components['schemas']['CurrencyBalances'][];
      };
    };
    SettlementCreatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'settlement.created';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        settlement: components['schemas']['Settlement'];
        /** @description The group’s balances after the change (the `currencies` of `Balances`) */
        balances: components['schemas']['CurrencyBalances'][];
      };
    };
    SettlementDeletedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'settlement.deleted';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        settlement: components['schemas']['Settlement'];
        /**
         * Format: date-time
         * @description When it was deleted
         * @example 2026-11-25T10:00:00.000Z
         */
        deletedAt: string;
        /** @description The group’s balances after the change (the `currencies` of `Balances`) */
        balances: components['schemas']['CurrencyBalances'][];
      };
    };
    RecurringCreatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'recurring.created';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        recurring: components['schemas']['RecurringExpense'];
      };
    };
    RecurringUpdatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'recurring.updated';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        recurring: components['schemas']['RecurringExpense'];
      };
    };
    RecurringDeletedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'recurring.deleted';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        /**
         * @description Recurring expense id: `rec_` followed by a ULID. Opaque: do not parse it.
         * @example rec_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        recurringId: string;
        /**
         * Format: date-time
         * @description When it was deleted
         * @example 2026-11-25T10:00:00.000Z
         */
        deletedAt: string;
      };
    };
    RecurringSkippedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'recurring.skipped';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        /**
         * @description Recurring expense id: `rec_` followed by a ULID. Opaque: do not parse it.
         * @example rec_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        recurringId: string;
        /**
         * Format: date
         * @description A local calendar date, YYYY-MM-DD
         * @example 2027-01-31
         */
        occurrenceDate: string;
        /**
         * @description `payer_removed`, `participant_removed` (an `exact` or `percent` split naming a removed member) or `no_participants` (nobody of an `equal` or `shares` split is left); other rule codes may be added
         * @example payer_removed
         */
        reason: string;
      };
    };
    RatesUpdatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'rates.updated';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        rates: components['schemas']['GroupRates'];
      };
    };
    CommentCreatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'comment.created';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        comment: components['schemas']['Comment'];
      };
    };
    CommentDeletedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'comment.deleted';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        comment: components['schemas']['Comment'];
        /**
         * Format: date-time
         * @description When it was deleted
         * @example 2026-11-25T10:00:00.000Z
         */
        deletedAt: string;
      };
    };
    CategoryCreatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'category.created';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        category: components['schemas']['Category'];
      };
    };
    CategoryUpdatedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'category.updated';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        category: components['schemas']['Category'];
      };
    };
    CategoryDeletedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'category.deleted';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        category: components['schemas']['Category'];
        /**
         * Format: date-time
         * @description When it was deleted
         * @example 2026-11-25T10:00:00.000Z
         */
        deletedAt: string;
        /** @description How many live expenses lost the category */
        uncategorized: number;
      };
    };
    CategoryMergedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'category.merged';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        /** @description The category merged away (now deleted) */
        category: components['schemas']['Category'];
        /** @description The category its expenses moved to */
        into: components['schemas']['Category'];
        /** @description How many live expenses moved (each one’s version bumped) */
        moved: number;
        /**
         * Format: date-time
         * @description When it was deleted
         * @example 2026-11-25T10:00:00.000Z
         */
        deletedAt: string;
      };
    };
    ImportStartedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'import.started';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        import: {
          /** @description Import id: `imp_` and 64 hex digits, derived from the group and the file */
          id: string;
          /** @enum {string} */
          format: 'splitwise-csv';
          rows: number;
        };
      };
    };
    ImportCompletedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'import.completed';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        import: {
          /** @description Import id: `imp_` and 64 hex digits, derived from the group and the file */
          id: string;
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
          /** @enum {string} */
          format: 'splitwise-csv';
          /** @enum {string} */
          status: 'completed';
          rows: number;
          created: number;
          existing: number;
          /** @description The rows refused (the report lists them) */
          refusedCount: number;
          /**
           * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
           * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          createdBy: string;
          /**
           * Format: date-time
           * @description RFC 3339 UTC timestamp
           * @example 2026-11-25T10:00:00.000Z
           */
          createdAt: string;
          /**
           * Format: date-time
           * @description RFC 3339 UTC timestamp
           * @example 2026-11-25T10:00:00.000Z
           */
          updatedAt: string;
        };
      };
    };
    ExpenseReceiptChangedEvent: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description Per group, strictly increasing, without gaps */
      seq: number;
      /** @constant */
      type: 'expense.receipt_changed';
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description The user whose request made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      data: {
        /**
         * @description Expense id: `exp_` followed by a ULID. Opaque: do not parse it.
         * @example exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
         */
        expenseId: string;
        /** @description The new receipt; null once removed */
        receipt: components['schemas']['Receipt'] | null;
      };
    };
    /** @description Every message the server sends on the WebSocket */
    ServerMessage:
      | {
          /** @constant */
          type: 'welcome';
          connectionId: string;
          /**
           * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
           * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          userId: string;
          /** @description The server pings this often */
          heartbeatMs: number;
        }
      | {
          /** @constant */
          type: 'event';
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
          seq: number;
          event: components['schemas']['Event'];
        }
      | {
          /** @constant */
          type: 'subscribed';
          /** @description Echoed in the answer */
          id?: string;
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
          /** @description The group’s seq when the catch-up ended */
          seq: number;
        }
      | {
          /** @constant */
          type: 'resync_required';
          /** @description Echoed in the answer */
          id?: string;
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
          /** @description The group’s current seq: subscribe again from it, after refetching */
          seq: number;
        }
      | {
          /** @constant */
          type: 'unsubscribed';
          /** @description Echoed in the answer */
          id?: string;
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
          /**
           * @description Set when the user was removed from the group
           * @constant
           */
          reason?: 'removed';
        }
      | {
          /** @constant */
          type: 'presence';
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
          online: string[];
        }
      | {
          /** @constant */
          type: 'pong';
          /** @description Echoed in the answer */
          id?: string;
        }
      | {
          /** @constant */
          type: 'authenticated';
          /** @description Echoed in the answer */
          id?: string;
          /**
           * Format: date-time
           * @description When the new token expires
           * @example 2026-11-25T10:00:00.000Z
           */
          expiresAt: string;
        }
      | {
          /** @constant */
          type: 'error';
          /** @description Echoed in the answer */
          id?: string;
          /** @enum {string} */
          code: 'bad_message' | 'not_found' | 'limit_exceeded' | 'unauthenticated' | 'unavailable';
        }
      | {
          /** @constant */
          type: 'activity';
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
          /**
           * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
           * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          eventId: string;
          seq: number;
          /** @description The event’s `type` (API.md §8) */
          eventType: string;
        }
      | {
          /** @constant */
          type: 'activity.subscribed';
          /** @description Echoed in the answer */
          id?: string;
          /** @description The groups followed */
          groupCount: number;
        }
      | {
          /** @constant */
          type: 'activity.unsubscribed';
          /** @description Echoed in the answer */
          id?: string;
        };
    /** @description Every message a client may send on the WebSocket (unknown fields are ignored) */
    ClientMessage:
      | {
          /** @constant */
          type: 'subscribe';
          /** @description Echoed in the answer */
          id?: string;
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
          /** @description Replay the events after this seq first */
          afterSeq?: number;
        }
      | {
          /** @constant */
          type: 'unsubscribe';
          /** @description Echoed in the answer */
          id?: string;
          /**
           * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
           * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          groupId: string;
        }
      | {
          /** @constant */
          type: 'ping';
          /** @description Echoed in the answer */
          id?: string;
        }
      | {
          /** @constant */
          type: 'auth';
          /** @description Echoed in the answer */
          id?: string;
          accessToken: string;
        }
      | {
          /** @constant */
          type: 'activity.subscribe';
          /** @description Echoed in the answer */
          id?: string;
        }
      | {
          /** @constant */
          type: 'activity.unsubscribe';
          /** @description Echoed in the answer */
          id?: string;
        };
    /** @description RFC 9457 problem details (`application/problem+json`). 5xx bodies never carry internals. */
    Problem: {
      /**
       * @description `/problems/` + the code with `_` turned into `-`
       * @example /problems/idempotency-key-reused
       */
      type: string;
      title: string;
      status: number;
      /**
       * @description Stable, machine-readable; clients switch on it
       * @enum {string}
       */
      code:
        | 'malformed_json'
        | 'idempotency_key_missing'
        | 'idempotency_key_invalid'
        | 'min_seq_invalid'
        | 'unauthenticated'
        | 'invalid_credentials'
        | 'not_found'
        | 'forbidden'
        | 'idempotency_key_reused'
        | 'idempotency_key_in_progress'
        | 'email_taken'
        | 'member_has_balance'
        | 'member_claimed'
        | 'precondition_failed'
        | 'payload_too_large'
        | 'unsupported_media_type'
        | 'validation_failed'
        | 'not_a_member'
        | 'split_mismatch'
        | 'rate_unavailable'
        | 'rate_limited'
        | 'unavailable'
        | 'resync_required'
        | 'upgrade_required'
        | 'internal_error'
        | 'invalid_reset_token'
        | 'wrong_password'
        | 'limit_exceeded'
        | 'insufficient_scope'
        | 'receipt_unreadable'
        | 'group_archived'
        | 'unknown_category'
        | 'category_name_taken';
      detail: string;
      /** @description Same as the `X-Request-Id` response header */
      requestId: string;
      /** @description Present on `validation_failed` and `not_a_member` (one entry per non-member, at the path that names them, e.g. `split.between[2].userId`), and on some `split_mismatch`: one entry per failure */
      errors?: components['schemas']['FieldError'][];
      /** @description On `limit_exceeded` (and a `payload_too_large` that names its bound): which bound of API.md §9 the request ran into, and its value */
      limit?: {
        /** @example schedulesPerGroup */
        name: string;
        max: number;
      };
    };
    FieldError: {
      /**
       * @description Dotted path of the field
       * @example amount
       */
      path: string;
      message: string;
    };
    Health: {
      /** @enum {string} */
      status: 'ok' | 'ready' | 'unavailable';
      /** @description On /readyz: each dependency of this process, `up` or `down` (only `database` decides readiness) */
      checks?: {
        [key: string]: 'up' | 'down';
      };
      /** @description On /readyz: `true` while the process is still starting (waiting for its database, `BOOT_DB_TIMEOUT_SECONDS`) */
      starting?: boolean;
    };
    GroupPage: {
      data: components['schemas']['Group'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    ExpensePage: {
      data: components['schemas']['Expense'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    SettlementPage: {
      data: components['schemas']['Settlement'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    EventPage: {
      data: components['schemas']['Event'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    RecurringExpense: {
      /**
       * @description Recurring expense id: `rec_` followed by a ULID. Opaque: do not parse it.
       * @example rec_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /** @description What each occurrence copies: the body of `POST /v1/expenses` without `groupId` and `occurredAt` */
      expense: {
        description: string;
        category?: string | null;
        /**
         * @description Integer count of minor units (paise, cents, yen)
         * @example 100000
         */
        amount: number;
        /** @description When absent, each occurrence takes the group’s currency */
        currency?: components['schemas']['Currency'];
        /** @description A member id, or payers whose amounts add up to `amount`, as sent */
        paidBy: string | components['schemas']['Payer'][];
        /** @description As it was sent */
        split: components['schemas']['Split'];
      };
      schedule: {
        /** @enum {string} */
        every: 'week' | '2 weeks' | 'month' | 'year';
        /**
         * Format: date
         * @description The first occurrence
         * @example 2027-01-31
         */
        startsOn: string;
        /**
         * Format: date
         * @description The last possible occurrence, inclusive
         */
        until: string | null;
        /**
         * @description IANA time zone name, the zone’s one name (API.md §6a): `Europe/Berlin`, `UTC`, `Asia/Kolkata`
         * @example Europe/Berlin
         */
        timeZone: string;
      };
      /**
       * Format: date
       * @description The local date of the next occurrence to create; null once the schedule is over
       */
      nextOccurrence: string | null;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      createdBy: string;
      /** @description Incremented by every change; the ETag is `"v<version>"` */
      version: number;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      updatedAt: string;
    };
    RecurringExpensePage: {
      data: components['schemas']['RecurringExpense'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    /** @description A row of the file not imported, and why */
    ImportRefusal: {
      /** @description The line of the file the row starts on */
      line: number;
      /** @description Why it was not imported (at most 300 characters) */
      reason: string;
    };
    ImportRefusalPage: {
      data: components['schemas']['ImportRefusal'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    ImportReport: {
      /** @description Import id: `imp_` and 64 hex digits, derived from the group and the file */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /** @enum {string} */
      format: 'splitwise-csv';
      /**
       * @description `running` while a run is under way (or its process died); `failed` when a run stopped on an error it could not refuse as a row. A retry of either resumes where it stopped.
       * @enum {string}
       */
      status: 'running' | 'completed' | 'failed';
      /** @description Expense and payment rows in the file */
      rows: number;
      /** @description Rows this import created (across a resumed run) */
      created: number;
      /** @description Rows found already imported (the same file before) */
      existing: number;
      /** @description Rows refused (all of them) */
      refusedCount: number;
      /** @description The first 20 refused rows, by line; all of them are paged from `GET …/imports/{importId}/refusals` */
      refused: components['schemas']['ImportRefusal'][];
      /** @description How the file’s category names were mapped (API.md §14), first named first, at most 100: to a default, to the group’s own (`created` when the import made it), or to none (`categoryId` null: no room left) */
      categories: {
        /** @description Splitwise’s category name, as in the file */
        name: string;
        categoryId: string | null;
        created: boolean;
      }[];
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      createdBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      updatedAt: string;
    };
    /** @description A group’s own exchange rates: `rates[c]` units of currency `c` per one `base`. A group that never set any has `base`, `asOf`, `updatedBy` and `updatedAt` null and `rates` empty. */
    GroupRates: {
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      base: components['schemas']['Currency'] | null;
      /** @description ISO 4217 code → rate */
      rates: {
        [key: string]: string;
      };
      asOf: string | null;
      updatedBy: string | null;
      updatedAt: string | null;
    };
    /** @description A rate a conversion used: `rate` units of `currency` per one `base`, from `source`, of the day `asOf` */
    UsedRate: {
      currency: components['schemas']['Currency'];
      base: components['schemas']['Currency'];
      /**
       * @description A positive decimal of at most 12 significant digits and 20 decimals, as a string (never a float)
       * @example 1.0823
       */
      rate: string;
      /**
       * @description `group` (the group’s own rates) or the provider (`ecb`)
       * @example ecb
       */
      source: string;
      /**
       * Format: date
       * @description A day, `YYYY-MM-DD`
       * @example 2026-11-25
       */
      asOf: string;
    };
    /** @description Present when the request asked for `in`: every member’s nets of all currencies converted into `currency` at the `rates` listed, rounded once (API.md §6, "Settling in one currency") */
    ConvertedBalances: {
      currency: components['schemas']['Currency'];
      /** @description Every member of any listed currency, with their converted net in `currency`’s minor units; the nets add up to exactly 0, each within one minor unit of its exact value */
      members: components['schemas']['MemberNet'][];
      /** @description Transfers in `currency` that settle the converted nets exactly, at most (non-zero nets − 1) */
      simplified: components['schemas']['Transfer'][];
      /** @description The original debts in `currency`: per pair of people, their debts of every currency converted exactly, netted and rounded down, plus the whole units rounding leaves over, settled as `simplified` settles; they add up to the converted nets exactly. Sorted by `from`, then `to` */
      original: components['schemas']['Transfer'][];
      /** @description The rates used, by currency (empty when nothing needed converting); a cross rate is the quotient of two listed rates of the same `base` */
      rates: components['schemas']['UsedRate'][];
    };
    /** @description An event of one of the caller’s groups, with the group’s name */
    ActivityItem: {
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      groupName: string;
      seq: number;
      /** @description The event’s type (API.md §8) */
      type: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      /** @description The event’s `data`, as in the group’s log */
      data: Record<string, never>;
    };
    ActivityPage: {
      data: components['schemas']['ActivityItem'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
      /** @description Items newer than the read marker, at most 100 */
      unread: number;
      /** @description True when there are more than 100 (show “100+”) */
      unreadCapped: boolean;
      /** @description The id of the item the read marker is at; null when the caller never marked any */
      readUpTo: string | null;
    };
    ActivityUnread: {
      /** @description Items newer than the read marker, at most 100 */
      unread: number;
      /** @description True when there are more than 100 (show “100+”) */
      unreadCapped: boolean;
      /** @description The id of the item the read marker is at; null when the caller never marked any */
      readUpTo: string | null;
    };
    Comment: {
      /**
       * @description Comment id: `cmt_` followed by a ULID. Opaque: do not parse it.
       * @example cmt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description What the comment is on
       * @enum {string}
       */
      targetType: 'expense' | 'settlement';
      /** @description The expense or settlement id */
      targetId: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      authorId: string;
      /** @description Exactly as sent: 1–2000 Unicode code points, no trimming, no HTML interpretation */
      text: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
    };
    CommentPage: {
      data: components['schemas']['Comment'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    /** @description A signed-in device: one refresh-token family (the access token's `sid`). */
    DeviceSession: {
      /**
       * @description Session id: `rtk_` followed by a ULID. Opaque: do not parse it.
       * @example rtk_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description The `User-Agent` of the sign-in as sent (its bytes read as UTF-8; controls and bidi overrides removed; at most 256 code points); null when unknown */
      userAgent: string | null;
      /** @description The client IP of the sign-in (by `TRUST_PROXY`): always an IP address, IPv6 compressed in lower case, an IPv4-mapped one as IPv4; null when unknown */
      ip: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description The sign-in or the latest refresh
       * @example 2026-11-25T10:00:00.000Z
       */
      lastUsedAt: string;
      /** @description The session of the access token that asked */
      current: boolean;
    };
    DeviceSessionList: {
      data: components['schemas']['DeviceSession'][];
    };
    /** @description An API key (API.md §2.6); never its secret. */
    ApiKey: {
      /**
       * @description API key id: `key_` followed by a ULID. Opaque: do not parse it.
       * @example key_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description What the key is for, as given */
      name: string;
      /** @description `read`: GET and HEAD; `write`: every other method */
      scopes: ('read' | 'write')[];
      /**
       * @description The first characters of the secret, to recognise it: not enough to use it
       * @example tally_sk_4fQ9xZ
       */
      prefix: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description Null: until revoked
       */
      expiresAt: string | null;
      /**
       * Format: date-time
       * @description The last request with the key, to the minute (written at most once a minute); null: never used
       */
      lastUsedAt: string | null;
    };
    /** @description A new API key with its secret (shown once). */
    CreatedApiKey: {
      /**
       * @description API key id: `key_` followed by a ULID. Opaque: do not parse it.
       * @example key_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description What the key is for, as given */
      name: string;
      /** @description `read`: GET and HEAD; `write`: every other method */
      scopes: ('read' | 'write')[];
      /**
       * @description The first characters of the secret, to recognise it: not enough to use it
       * @example tally_sk_4fQ9xZ
       */
      prefix: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description Null: until revoked
       */
      expiresAt: string | null;
      /**
       * Format: date-time
       * @description The last request with the key, to the minute (written at most once a minute); null: never used
       */
      lastUsedAt: string | null;
      /** @description The key itself, shown only in this answer: `tally_sk_`, 43 random base62 characters, and their CRC-32 in 6 base62 characters */
      secret: string;
    };
    ApiKeyList: {
      data: components['schemas']['ApiKey'][];
    };
    Webhook: {
      /**
       * @description Webhook id: `whk_` followed by a ULID
       * @example whk_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      url: string;
      description: string;
      /** @description Empty: every event type */
      eventTypes: (
        | 'group.updated'
        | 'member.added'
        | 'member.removed'
        | 'member.claimed'
        | 'invite.created'
        | 'invite.revoked'
        | 'expense.created'
        | 'expense.updated'
        | 'expense.deleted'
        | 'settlement.created'
        | 'settlement.deleted'
        | 'recurring.created'
        | 'recurring.updated'
        | 'recurring.deleted'
        | 'recurring.skipped'
        | 'rates.updated'
        | 'comment.created'
        | 'comment.deleted'
        | 'category.created'
        | 'category.updated'
        | 'category.deleted'
        | 'category.merged'
        | 'import.started'
        | 'import.completed'
        | 'expense.receipt_changed'
      )[];
      enabled: boolean;
      /** @description Why it is disabled (its failures over the retry window, a member, its creator leaving) */
      disabledReason: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      disabledAt: string | null;
      /** @description Every event of the group up to this seq is done (delivered, or not of its types) */
      deliveredSeq: number;
      /** @description Events retention dropped before they were sent (API.md §12.3) */
      skippedEvents: number;
      /**
       * Format: date-time
       * @description Until when the rotated-out secret still signs
       * @example 2026-11-25T10:00:00.000Z
       */
      previousSecretExpiresAt: string | null;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      createdBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      updatedAt: string;
    };
    WebhookWithSecret: {
      /**
       * @description Webhook id: `whk_` followed by a ULID
       * @example whk_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      url: string;
      description: string;
      /** @description Empty: every event type */
      eventTypes: (
        | 'group.updated'
        | 'member.added'
        | 'member.removed'
        | 'member.claimed'
        | 'invite.created'
        | 'invite.revoked'
        | 'expense.created'
        | 'expense.updated'
        | 'expense.deleted'
        | 'settlement.created'
        | 'settlement.deleted'
        | 'recurring.created'
        | 'recurring.updated'
        | 'recurring.deleted'
        | 'recurring.skipped'
        | 'rates.updated'
        | 'comment.created'
        | 'comment.deleted'
        | 'category.created'
        | 'category.updated'
        | 'category.deleted'
        | 'category.merged'
        | 'import.started'
        | 'import.completed'
        | 'expense.receipt_changed'
      )[];
      enabled: boolean;
      /** @description Why it is disabled (its failures over the retry window, a member, its creator leaving) */
      disabledReason: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      disabledAt: string | null;
      /** @description Every event of the group up to this seq is done (delivered, or not of its types) */
      deliveredSeq: number;
      /** @description Events retention dropped before they were sent (API.md §12.3) */
      skippedEvents: number;
      /**
       * Format: date-time
       * @description Until when the rotated-out secret still signs
       * @example 2026-11-25T10:00:00.000Z
       */
      previousSecretExpiresAt: string | null;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      createdBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      updatedAt: string;
      /** @description The signing secret (Standard Webhooks), shown only here */
      secret: string;
    };
    WebhookPage: {
      data: components['schemas']['Webhook'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    WebhookDelivery: {
      /** @description The `webhook-id` header of every attempt of this delivery */
      id: string;
      endpointId: string;
      seq: number;
      /** @enum {string} */
      eventType:
        | 'group.updated'
        | 'member.added'
        | 'member.removed'
        | 'member.claimed'
        | 'invite.created'
        | 'invite.revoked'
        | 'expense.created'
        | 'expense.updated'
        | 'expense.deleted'
        | 'settlement.created'
        | 'settlement.deleted'
        | 'recurring.created'
        | 'recurring.updated'
        | 'recurring.deleted'
        | 'recurring.skipped'
        | 'rates.updated'
        | 'comment.created'
        | 'comment.deleted'
        | 'category.created'
        | 'category.updated'
        | 'category.deleted'
        | 'category.merged'
        | 'import.started'
        | 'import.completed'
        | 'expense.receipt_changed';
      /** @enum {string} */
      status: 'pending' | 'succeeded' | 'failed';
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
      lastLatencyMs: number | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      lastAttemptAt: string | null;
      /**
       * Format: date-time
       * @description When the next attempt is due, while it is pending
       * @example 2026-11-25T10:00:00.000Z
       */
      nextAttemptAt: string | null;
      resendRequested: boolean;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
    };
    WebhookDeliveryPage: {
      data: components['schemas']['WebhookDelivery'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
    };
    /** @description What the user is notified of, by push and by mail (API.md §13.1) */
    NotificationSettings: {
      /** @description An expense that involves me (I paid or have a share), added by someone else */
      expense: {
        push: boolean;
        email: boolean;
      };
      /** @description A comment on an expense or settlement that involves me */
      comment: {
        push: boolean;
        email: boolean;
      };
      /** @description A settlement to or from me, recorded by someone else */
      settlement: {
        push: boolean;
        email: boolean;
      };
      /** @description An occurrence of a recurring expense that involves me */
      recurring: {
        push: boolean;
        email: boolean;
      };
      /** @description Someone accepted an invite and joined one of my groups */
      inviteAccepted: {
        push: boolean;
        email: boolean;
      };
      /** @description A member reminds me to settle up */
      reminder: {
        push: boolean;
        email: boolean;
      };
      /** @description The weekly digest (mail only) */
      digest: {
        email: boolean;
      };
    };
    PushSubscription: {
      /**
       * @description Push subscription id: `psh_` followed by a ULID. Opaque: do not parse it.
       * @example psh_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /** @description The push service URL the browser gave */
      endpoint: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
    };
    PushSubscriptionList: {
      data: components['schemas']['PushSubscription'][];
    };
    VapidPublicKey: {
      /** @description base64url (an uncompressed P-256 point); null: no push */
      publicKey: string | null;
    };
    Reminder: {
      /**
       * @description Reminder id: `rmd_` followed by a ULID. Opaque: do not parse it.
       * @example rmd_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      id: string;
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      fromUserId: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      toUserId: string;
      /** @description What `toUserId` owes the caller, per currency (the simplified debts) */
      owed: {
        currency: components['schemas']['Currency'];
        amount: number;
      }[];
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string;
    };
    /** @description One difference from the version before. `field`: a field of the record (`amount`, `description`…), `paidBy`, `shares` or `split.between` per member (with `userId`; `from`/`to` null where the member is not in that list; a split weight is the amount, percent or shares, `true` in an equal split), `split.type`, `split.items` (whole), `split.tax`, `split.tip`. Money in minor units. */
    FieldChange: {
      /** @example amount */
      field: string;
      /**
       * @description The member, for a per-member field
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      userId?: string;
      /** @description The value in the version before (null: absent) */
      from: unknown;
      /** @description The value in this version (null: absent) */
      to: unknown;
    };
    ExpenseVersion: {
      /** @description The event’s `seq` in the group’s log */
      seq: number;
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      eventId: string;
      /** @enum {string} */
      action: 'created' | 'updated' | 'deleted' | 'restored';
      /**
       * @description Who made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /** @description Their current display name (`Deleted user` for a deleted account) */
      actorName: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      /** @description The expense’s `version` after the change */
      version: number;
      /** @description The expense’s ETag after the change, `"v<version>"` */
      etag: string;
      /** @description The record as the change left it, as its event carries it (a deleted one as it was when deleted) */
      record: components['schemas']['Expense'];
      /** @description Against the version before; empty for a delete or a restore; null for the first version or when the one before is no longer kept */
      changes: components['schemas']['FieldChange'][] | null;
    };
    SettlementVersion: {
      /** @description The event’s `seq` in the group’s log */
      seq: number;
      /**
       * @description Event id: `evt_` followed by a ULID. Opaque: do not parse it.
       * @example evt_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      eventId: string;
      /** @enum {string} */
      action: 'created' | 'updated' | 'deleted' | 'restored';
      /**
       * @description Who made the change
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      actorId: string;
      /** @description Their current display name (`Deleted user` for a deleted account) */
      actorName: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      occurredAt: string;
      /** @description Settlements have no version */
      version: null;
      etag: null;
      /** @description The record as the change left it, as its event carries it (a deleted one as it was when deleted) */
      record: components['schemas']['Settlement'];
      /** @description Against the version before; empty for a delete or a restore; null for the first version or when the one before is no longer kept */
      changes: components['schemas']['FieldChange'][] | null;
    };
    ExpenseHistoryPage: {
      data: components['schemas']['ExpenseVersion'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
      /** @description True when older versions are no longer kept (`EVENT_RETENTION_DAYS`): the first listed version is not the creation (or the one the cursor named) */
      truncated: boolean;
    };
    SettlementHistoryPage: {
      data: components['schemas']['SettlementVersion'][];
      /** @description Pass as `?cursor=` for the next page; null on the last page */
      nextCursor: string | null;
      /** @description True when older versions are no longer kept (`EVENT_RETENTION_DAYS`): the first listed version is not the creation (or the one the cursor named) */
      truncated: boolean;
    };
    /** @description A receipt as `expense.receipt_changed` carries it (no links) */
    Receipt: {
      /**
       * @description Expense id: `exp_` followed by a ULID. Opaque: do not parse it.
       * @example exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      expenseId: string;
      /**
       * @description What is stored (by the upload’s content; a HEIC upload is stored as JPEG)
       * @enum {string}
       */
      mediaType: 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';
      /** @description The stored file’s size */
      bytes: number;
      /** @description Pixels, as stored; null for a PDF */
      width: number | null;
      /** @description Pixels, as stored; null for a PDF */
      height: number | null;
      /** @description An image has a WebP thumbnail (320 px at most); a PDF none */
      hasThumbnail: boolean;
      /** @description SHA-256 (hex) of the stored file */
      sha256: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      uploadedBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      uploadedAt: string;
    };
    ReceiptWithLinks: {
      /**
       * @description Expense id: `exp_` followed by a ULID. Opaque: do not parse it.
       * @example exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      expenseId: string;
      /**
       * @description What is stored (by the upload’s content; a HEIC upload is stored as JPEG)
       * @enum {string}
       */
      mediaType: 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';
      /** @description The stored file’s size */
      bytes: number;
      /** @description Pixels, as stored; null for a PDF */
      width: number | null;
      /** @description Pixels, as stored; null for a PDF */
      height: number | null;
      /** @description An image has a WebP thumbnail (320 px at most); a PDF none */
      hasThumbnail: boolean;
      /** @description SHA-256 (hex) of the stored file */
      sha256: string;
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      uploadedBy: string;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      uploadedAt: string;
      /** @description The file: a path on this API, good until `urlExpiresAt` (`RECEIPT_LINK_TTL_SECONDS`), no token needed */
      url: string;
      /** @description The thumbnail: a path on this API, good until `urlExpiresAt` (`RECEIPT_LINK_TTL_SECONDS`), no token needed */
      thumbnailUrl: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      urlExpiresAt: string;
    };
    Category: {
      /**
       * @description A default’s stable id (`food`, `transport`…) or the group’s own `cat_…`
       * @example food
       */
      id: string;
      /** @description The group of its own category; null for a default */
      groupId: string | null;
      name: string;
      /** @description An emoji or a short token */
      icon: string | null;
      color: string | null;
      /** @description One of the fixed default list (cannot be renamed, deleted or merged) */
      default: boolean;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      createdAt: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      updatedAt: string | null;
    };
    CategoryList: {
      /** @description The defaults, then the group’s own (at most 50), oldest first */
      data: components['schemas']['Category'][];
    };
    CategoryMerged: {
      /** @description The category the expenses moved to */
      category: components['schemas']['Category'];
      /** @description How many live expenses moved */
      moved: number;
    };
    GroupStats: {
      /**
       * @description Group id: `grp_` followed by a ULID. Opaque: do not parse it.
       * @example grp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      groupId: string;
      /** @enum {string} */
      by: 'category' | 'member' | 'month';
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      from: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      to: string | null;
      /** @description One entry per currency with live expenses in the range, by code */
      currencies: {
        currency: components['schemas']['Currency'];
        /** @description What the group spent, in minor units (negative amounts, income or reimbursements, sum as they are) */
        total: number;
        /** @description How many live expenses */
        expenses: number;
        /** @description Each member’s share and payments, by user id */
        members: {
          /**
           * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
           * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          userId: string;
          /** @description What the member owes of the expenses (their shares), in minor units (negative amounts, income or reimbursements, sum as they are) */
          share: number;
          /** @description What the member paid of them, in minor units (negative amounts, income or reimbursements, sum as they are) */
          paid: number;
        }[];
        /** @description The breakdown, by key (null last) */
        buckets: {
          /** @description A category id (null: expenses without one), a member’s user id, a month `YYYY-MM` (UTC) or, in `/v1/me/stats`, a group id */
          key: string | null;
          /** @description What the group spent in this bucket, in minor units (negative amounts, income or reimbursements, sum as they are) */
          total: number;
          /** @description How many live expenses (0 in a breakdown by member) */
          expenses: number;
          members: {
            /**
             * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
             * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
             */
            userId: string;
            /** @description What the member owes of the expenses (their shares), in minor units (negative amounts, income or reimbursements, sum as they are) */
            share: number;
            /** @description What the member paid of them, in minor units (negative amounts, income or reimbursements, sum as they are) */
            paid: number;
          }[];
        }[];
      }[];
      /** @description With `?currency=` and a rate for every currency: the totals in that currency */
      converted: {
        currency: components['schemas']['Currency'];
        /** @description What the group spent, in minor units (negative amounts, income or reimbursements, sum as they are) */
        total: number;
        members: {
          /**
           * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
           * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
           */
          userId: string;
          /** @description What the member owes of the expenses (their shares), in minor units (negative amounts, income or reimbursements, sum as they are) */
          share: number;
          /** @description What the member paid of them, in minor units (negative amounts, income or reimbursements, sum as they are) */
          paid: number;
        }[];
        buckets: {
          /** @description A category id (null: expenses without one), a member’s user id, a month `YYYY-MM` (UTC) or, in `/v1/me/stats`, a group id */
          key: string | null;
          /** @description Spent in this bucket, in minor units (negative amounts, income or reimbursements, sum as they are) */
          total: number;
        }[];
        /** @description The rates the conversion used */
        rates: components['schemas']['UsedRate'][];
      } | null;
      /** @description With `?currency=`: the currencies without a rate into it (then `converted` is null) */
      unconverted: string[];
    };
    MyStats: {
      /**
       * @description User id: `usr_` followed by a ULID. Opaque: do not parse it.
       * @example usr_01JD3Q8Z4T6Y5W2N8K1M0PX7RC
       */
      userId: string;
      /** @enum {string} */
      by: 'category' | 'group' | 'month';
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      from: string | null;
      /**
       * Format: date-time
       * @description RFC 3339 UTC timestamp
       * @example 2026-11-25T10:00:00.000Z
       */
      to: string | null;
      currencies: {
        currency: components['schemas']['Currency'];
        /** @description My share, in minor units (negative amounts, income or reimbursements, sum as they are) */
        share: number;
        /** @description What I paid, in minor units (negative amounts, income or reimbursements, sum as they are) */
        paid: number;
        /** @description How many live expenses */
        expenses: number;
        buckets: {
          /** @description A category id (null: expenses without one), a member’s user id, a month `YYYY-MM` (UTC) or, in `/v1/me/stats`, a group id */
          key: string | null;
          /** @description My share, in minor units (negative amounts, income or reimbursements, sum as they are) */
          share: number;
          /** @description What I paid, in minor units (negative amounts, income or reimbursements, sum as they are) */
          paid: number;
          /** @description How many live expenses */
          expenses: number;
        }[];
      }[];
      converted: {
        currency: components['schemas']['Currency'];
        /** @description My share, in minor units (negative amounts, income or reimbursements, sum as they are) */
        share: number;
        /** @description What I paid, in minor units (negative amounts, income or reimbursements, sum as they are) */
        paid: number;
        buckets: {
          /** @description A category id (null: expenses without one), a member’s user id, a month `YYYY-MM` (UTC) or, in `/v1/me/stats`, a group id */
          key: string | null;
          /** @description My share, in minor units (negative amounts, income or reimbursements, sum as they are) */
          share: number;
          /** @description What I paid, in minor units (negative amounts, income or reimbursements, sum as they are) */
          paid: number;
        }[];
        /** @description The rates the conversion used */
        rates: components['schemas']['UsedRate'][];
      } | null;
      /** @description With `?currency=`: the currencies without a rate into it (then `converted` is null) */
      unconverted: string[];
    };
  };
  responses: never;
  parameters: {
    /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
    IdempotencyKeyRequired: string;
    /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
    IdempotencyKeyOptional: string;
    /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
    MinSeq: string;
    /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
    IfMatch: string;
    /** @description `304 Not Modified` when the current ETag matches. */
    IfNoneMatch: string;
  };
  requestBodies: never;
  headers: {
    /** @description The request id: the client’s own `X-Request-Id` when sane, otherwise generated */
    'X-Request-Id': string;
    /** @description Entity tag of the representation; send it back in `If-Match` / `If-None-Match` */
    ETag: string;
    /** @description URL path of the created resource */
    Location: string;
    /** @description `private, no-cache` on every `/v1` read */
    'Cache-Control': string;
    /** @description `true` when this is a recorded response replayed for a repeated key */
    'Idempotent-Replayed': 'true';
    /** @description The group and its `seq` once this write is in (or as the write found it, when it changed nothing): `<groupId>:<seq>`. Send it back in `X-Min-Seq` so a read never shows an older state (API.md §1). Absent when the write concerns no group. */
    'X-Seq': string;
    /** @description Whole seconds to wait before retrying */
    'Retry-After': number;
    /** @description Requests allowed per window */
    'RateLimit-Limit': number;
    /** @description Requests left in the current window */
    'RateLimit-Remaining': number;
    /** @description Seconds until the window resets */
    'RateLimit-Reset': number;
    /** @description `Bearer` challenge */
    'WWW-Authenticate': string;
    /** @description The protocol to upgrade to */
    Upgrade: 'websocket';
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  register: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RegisterRequest'];
      };
    };
    responses: {
      /** @description Registered and signed in */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `email_taken` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'email_taken';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  login: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LoginRequest'];
      };
    };
    responses: {
      /** @description Signed in */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `invalid_credentials` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'invalid_credentials';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  refresh: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RefreshRequest'];
      };
    };
    responses: {
      /** @description A new access and refresh token */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getMe: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['User'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deleteMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The account is deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `member_has_balance` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'member_has_balance';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  requestPasswordReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PasswordResetRequest'];
      };
    };
    responses: {
      /** @description Accepted; a mail is on its way if the account exists */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            message: string;
          };
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  confirmPasswordReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PasswordResetConfirmRequest'];
      };
    };
    responses: {
      /** @description The password is set; every session has ended */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `malformed_json`, `invalid_reset_token` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'invalid_reset_token';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  changePassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ChangePasswordRequest'];
      };
    };
    responses: {
      /** @description Changed; every other session has ended */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope`, `wrong_password` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope' | 'wrong_password';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  verifyEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['VerifyEmailRequest'];
      };
    };
    responses: {
      /** @description The address is verified */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `email_taken` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'email_taken';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  changeEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ChangeEmailRequest'];
      };
    };
    responses: {
      /** @description A link to confirm the address is on its way (after the answer) */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailLinkSent'];
        };
      };
      /** @description Nothing to confirm: the address is the account’s own, and verified */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope`, `wrong_password` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope' | 'wrong_password';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `email_taken` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'email_taken';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  requestEmailVerification: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NoBody'];
      };
    };
    responses: {
      /** @description A link to confirm the address is on its way (after the answer) */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmailLinkSent'];
        };
      };
      /** @description Nothing waits to be confirmed */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  exportMyData: {
    parameters: {
      query?: never;
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document (`Content-Disposition: attachment`) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: date-time */
            exportedAt: string;
            user: components['schemas']['User'];
            groups: Record<string, never>[];
          };
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listSessions: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The live sessions */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeviceSessionList'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  revokeSession: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description sessionId */
        sessionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The session is ended */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  logout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  logoutAll: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every session is ended */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listApiKeys: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The keys */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKeyList'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateApiKeyRequest'];
      };
    };
    responses: {
      /** @description The key, with its secret */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedApiKey'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description keyId */
        keyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key is revoked */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listGroups: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
        /** @description `true`: only the archived groups; `false`: only the others; absent: all of them */
        archived?: boolean;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of groups */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateGroupRequest'];
      };
    };
    responses: {
      /** @description The new group */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The group */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  updateGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
        /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchGroupRequest'];
      };
    };
    responses: {
      /** @description The group after the change */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `precondition_failed` */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'precondition_failed';
            /** @constant */
            status?: 412;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  addMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddMemberRequest'];
      };
    };
    responses: {
      /** @description Already a member: nothing changed */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Member'];
        };
      };
      /** @description Added */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Member'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  removeMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description User id (`usr_…`) of the member */
        userId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived`, `member_has_balance` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'idempotency_key_reused'
              | 'idempotency_key_in_progress'
              | 'group_archived'
              | 'member_has_balance';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  claimMember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description User id (`usr_…`) of a pending member */
        memberId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NoBody'];
      };
    };
    responses: {
      /** @description Claimed by a member (or already claimed by the caller) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description Claimed; the caller joined the group */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope`, `forbidden` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope' | 'forbidden';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived`, `member_claimed` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'idempotency_key_reused'
              | 'idempotency_key_in_progress'
              | 'group_archived'
              | 'member_claimed';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  exportGroupCsv: {
    parameters: {
      query?: never;
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The CSV file (`Content-Disposition: attachment`) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listClaimableMembers: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The members */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClaimableMemberList'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  archiveGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
        /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The group after the change */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `precondition_failed` */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'precondition_failed';
            /** @constant */
            status?: 412;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  unarchiveGroup: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
        /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The group after the change */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `precondition_failed` */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'precondition_failed';
            /** @constant */
            status?: 412;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listActivity: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of activity */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ActivityPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  markActivityRead: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ActivityReadRequest'];
      };
    };
    responses: {
      /** @description The marker and the unread count after it */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ActivityUnread'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listInvites: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The invites */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InviteList'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createInvite: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateInviteRequest'];
      };
    };
    responses: {
      /** @description The invite, with its code */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedInvite'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  revokeInvite: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description Invite id (`inv_…`) */
        inviteId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  previewInvite: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description An invite code (43 characters, base64url) */
        code: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The preview */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvitePreview'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  acceptInvite: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description An invite code (43 characters, base64url) */
        code: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AcceptInviteRequest'];
      };
    };
    responses: {
      /** @description Already a member (or a pending member added with the caller’s verified email merged in) */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description Joined */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Group'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope`, `forbidden` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope' | 'forbidden';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived`, `member_claimed` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'idempotency_key_reused'
              | 'idempotency_key_in_progress'
              | 'group_archived'
              | 'member_claimed';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getBalances: {
    parameters: {
      query?: {
        /** @description Also convert every member’s balance into this currency (`converted` in the answer) */
        in?:
          | 'AED'
          | 'AFN'
          | 'ALL'
          | 'AMD'
          | 'ANG'
          | 'AOA'
          | 'ARS'
          | 'AUD'
          | 'AWG'
          | 'AZN'
          | 'BAM'
          | 'BBD'
          | 'BDT'
          | 'BGN'
          | 'BHD'
          | 'BIF'
          | 'BMD'
          | 'BND'
          | 'BOB'
          | 'BRL'
          | 'BSD'
          | 'BTN'
          | 'BWP'
          | 'BYN'
          | 'BZD'
          | 'CAD'
          | 'CDF'
          | 'CHF'
          | 'CLP'
          | 'CNY'
          | 'COP'
          | 'CRC'
          | 'CUC'
          | 'CUP'
          | 'CVE'
          | 'CZK'
          | 'DJF'
          | 'DKK'
          | 'DOP'
          | 'DZD'
          | 'EGP'
          | 'ERN'
          | 'ETB'
          | 'EUR'
          | 'FJD'
          | 'FKP'
          | 'GBP'
          | 'GEL'
          | 'GHS'
          | 'GIP'
          | 'GMD'
          | 'GNF'
          | 'GTQ'
          | 'GYD'
          | 'HKD'
          | 'HNL'
          | 'HRK'
          | 'HTG'
          | 'HUF'
          | 'IDR'
          | 'ILS'
          | 'INR'
          | 'IQD'
          | 'IRR'
          | 'ISK'
          | 'JMD'
          | 'JOD'
          | 'JPY'
          | 'KES'
          | 'KGS'
          | 'KHR'
          | 'KMF'
          | 'KPW'
          | 'KRW'
          | 'KWD'
          | 'KYD'
          | 'KZT'
          | 'LAK'
          | 'LBP'
          | 'LKR'
          | 'LRD'
          | 'LSL'
          | 'LYD'
          | 'MAD'
          | 'MDL'
          | 'MGA'
          | 'MKD'
          | 'MMK'
          | 'MNT'
          | 'MOP'
          | 'MRU'
          | 'MUR'
          | 'MVR'
          | 'MWK'
          | 'MXN'
          | 'MYR'
          | 'MZN'
          | 'NAD'
          | 'NGN'
          | 'NIO'
          | 'NOK'
          | 'NPR'
          | 'NZD'
          | 'OMR'
          | 'PAB'
          | 'PEN'
          | 'PGK'
          | 'PHP'
          | 'PKR'
          | 'PLN'
          | 'PYG'
          | 'QAR'
          | 'RON'
          | 'RSD'
          | 'RUB'
          | 'RWF'
          | 'SAR'
          | 'SBD'
          | 'SCR'
          | 'SDG'
          | 'SEK'
          | 'SGD'
          | 'SHP'
          | 'SLE'
          | 'SLL'
          | 'SOS'
          | 'SRD'
          | 'SSP'
          | 'STN'
          | 'SVC'
          | 'SYP'
          | 'SZL'
          | 'THB'
          | 'TJS'
          | 'TMT'
          | 'TND'
          | 'TOP'
          | 'TRY'
          | 'TTD'
          | 'TWD'
          | 'TZS'
          | 'UAH'
          | 'UGX'
          | 'USD'
          | 'UYU'
          | 'UZS'
          | 'VES'
          | 'VND'
          | 'VUV'
          | 'WST'
          | 'XAF'
          | 'XCD'
          | 'XCG'
          | 'XDR'
          | 'XOF'
          | 'XPF'
          | 'XSU'
          | 'YER'
          | 'ZAR'
          | 'ZMW'
          | 'ZWG'
          | 'ZWL';
      };
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The balances */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Balances'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed`, `rate_unavailable` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'rate_unavailable';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getGroupRates: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The group’s rates */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupRates'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  setGroupRates: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PutRatesRequest'];
      };
    };
    responses: {
      /** @description The group’s rates after the change */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupRates'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listExpenses: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
        /** @description Words that must all appear in the description or the category, in any order, as substrings; case, accents and compatibility forms are ignored. At most 200 characters and 10 words; only spaces filters nothing */
        q?: string;
        /** @description Only expenses of exactly this category. 1–64 characters, counted in Unicode code points; no control characters (U+0000–U+001F, U+007F–U+009F, U+2028, U+2029) or bidirectional controls (U+202A–U+202E, U+2066–U+2069); well-formed Unicode (no lone surrogates); stored as sent, not normalized. */
        category?: string;
        /** @description Only expenses in this category (API.md §14) */
        categoryId?: string;
        /** @description Only expenses this member paid (all or part of) */
        paidBy?: string;
        /** @description Only expenses this member paid or has a share in */
        involves?: string;
        /** @description Only expenses with `occurredAt` at or after this time */
        from?: string;
        /** @description Only expenses with `occurredAt` before this time (exclusive) */
        to?: string;
        /** @description Sync: only expenses whose `updatedAt` is after this time, oldest change first (`updatedAt`, then id, ascending) */
        updatedAfter?: string;
        /** @description Also list deleted expenses, each with `deletedAt` (every item then has `deletedAt`, null when live) */
        includeDeleted?: boolean;
      };
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of expenses */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExpensePage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listSettlements: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of settlements */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SettlementPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
        afterSeq?: number;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of events */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `resync_required` */
      410: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'resync_required';
            /** @constant */
            status?: 410;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ExpenseRequest'];
      };
    };
    responses: {
      /** @description The expense */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Expense'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `not_a_member`, `split_mismatch`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'not_a_member' | 'split_mismatch' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getExpense: {
    parameters: {
      query?: never;
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The expense */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Expense'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  putExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
        /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ExpenseRequest'];
      };
    };
    responses: {
      /** @description Replaced */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Expense'];
        };
      };
      /** @description Created at this id */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Expense'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `precondition_failed` */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'precondition_failed';
            /** @constant */
            status?: 412;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `not_a_member`, `split_mismatch`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'not_a_member' | 'split_mismatch' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deleteExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
        /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `precondition_failed` */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'precondition_failed';
            /** @constant */
            status?: 412;
          };
        };
      };
      /** @description `not_a_member` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_a_member';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  patchExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
        /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchExpenseRequest'];
      };
    };
    responses: {
      /** @description The expense after the change */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Expense'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `precondition_failed` */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'precondition_failed';
            /** @constant */
            status?: 412;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `not_a_member`, `split_mismatch`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'not_a_member' | 'split_mismatch' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  restoreExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The live expense */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Expense'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `not_a_member`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_a_member' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  duplicateExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DuplicateExpenseRequest'];
      };
    };
    responses: {
      /** @description The copy */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Expense'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `not_a_member`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'not_a_member' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listExpenseComments: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of comments */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CommentPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createExpenseComment: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CommentRequest'];
      };
    };
    responses: {
      /** @description The comment */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Comment'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listSettlementComments: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Settlement id (`stl_…`) */
        settlementId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of comments */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CommentPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createSettlementComment: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Settlement id (`stl_…`) */
        settlementId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CommentRequest'];
      };
    };
    responses: {
      /** @description The comment */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Comment'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deleteComment: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Comment id (`cmt_…`) */
        commentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope`, `forbidden` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope' | 'forbidden';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getExpenseHistory: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of versions */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ExpenseHistoryPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getSettlementHistory: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Settlement id (`stl_…`) */
        settlementId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of versions */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SettlementHistoryPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createSettlement: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['SettlementRequest'];
      };
    };
    responses: {
      /** @description The settlement */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Settlement'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `not_a_member`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'not_a_member' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getSettlement: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Settlement id (`stl_…`) */
        settlementId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The settlement */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Settlement'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deleteSettlement: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Settlement id (`stl_…`) */
        settlementId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `not_a_member` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_a_member';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listRecurringExpenses: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of recurring expenses */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RecurringExpensePage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createRecurringExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RecurringExpenseRequest'];
      };
    };
    responses: {
      /** @description The recurring expense */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RecurringExpense'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `not_a_member`, `split_mismatch`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'not_a_member' | 'split_mismatch' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getRecurringExpense: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Recurring expense id (`rec_…`) */
        recurringId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The recurring expense */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RecurringExpense'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deleteRecurringExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
        /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description Recurring expense id (`rec_…`) */
        recurringId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Stopped */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `precondition_failed` */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'precondition_failed';
            /** @constant */
            status?: 412;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  patchRecurringExpense: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
        /** @description Apply only if the current ETag matches (or `*`); otherwise `412 precondition_failed`. */
        'If-Match'?: components['parameters']['IfMatch'];
      };
      path: {
        /** @description Recurring expense id (`rec_…`) */
        recurringId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchRecurringExpenseRequest'];
      };
    };
    responses: {
      /** @description The recurring expense after the change */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RecurringExpense'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `precondition_failed` */
      412: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'precondition_failed';
            /** @constant */
            status?: 412;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `not_a_member`, `split_mismatch`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'not_a_member' | 'split_mismatch' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createImport: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateImportRequest'];
      };
    };
    responses: {
      /** @description The import’s report */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ImportReport'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `not_a_member`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'not_a_member' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getImport: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description Import id (`imp_…`) */
        importId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The import’s report */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ImportReport'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listImportRefusals: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page of this list (and filters), exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description Import id (`imp_…`) */
        importId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of refused rows */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ImportRefusalPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of webhook endpoints */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateWebhookRequest'];
      };
    };
    responses: {
      /** @description The endpoint, with its secret */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          Location: components['headers']['Location'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookWithSecret'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description webhookId */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description webhookId */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  patchWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description webhookId */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchWebhookRequest'];
      };
    };
    responses: {
      /** @description The endpoint */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Webhook'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description webhookId */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RotateWebhookSecretRequest'];
      };
    };
    responses: {
      /** @description The endpoint, with its new secret */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookWithSecret'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        limit?: number;
        /** @description The `nextCursor` of the previous page, exactly as given; anything else is 422 */
        cursor?: string;
      };
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description webhookId */
        webhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of deliveries */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDeliveryPage'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  resendWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description webhookId */
        webhookId: string;
        /** @description deliveryId */
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The delivery, `resendRequested: true` */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'];
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getNotificationSettings: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The settings */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationSettings'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  putNotificationSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['NotificationSettingsRequest'];
      };
    };
    responses: {
      /** @description The settings now */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationSettings'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getVapidPublicKey: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['VapidPublicKey'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listPushSubscriptions: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The subscriptions */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PushSubscriptionList'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createPushSubscription: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PushSubscriptionRequest'];
      };
    };
    responses: {
      /** @description Registered before: keys updated */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PushSubscription'];
        };
      };
      /** @description Registered */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PushSubscription'];
        };
      };
      /** @description `malformed_json` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deletePushSubscription: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description subscriptionId */
        subscriptionId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createReminder: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReminderRequest'];
      };
    };
    responses: {
      /** @description The reminder is on its way */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Reminder'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  unsubscribe: {
    parameters: {
      query: {
        token: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Those mails are off */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getExpenseReceipt: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The receipt */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReceiptWithLinks'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  putExpenseReceipt: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'image/jpeg': string;
        'image/png': string;
        'image/webp': string;
        'image/heic': string;
        'image/heif': string;
        'application/pdf': string;
        'application/octet-stream': string;
      };
    };
    responses: {
      /** @description The receipt, with its download links */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReceiptWithLinks'];
        };
      };
      /** @description `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `receipt_unreadable`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'receipt_unreadable' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deleteExpenseReceipt: {
    parameters: {
      query?: never;
      header: {
        /** @description Required on money writes: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Missing: `400 idempotency_key_missing`; malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key': components['parameters']['IdempotencyKeyRequired'];
      };
      path: {
        /** @description Expense id (`exp_…`, or the id a client chose with PUT) */
        expenseId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `idempotency_key_missing`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_missing' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  downloadReceiptFile: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description token */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The file */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'image/jpeg': string;
          'image/png': string;
          'image/webp': string;
          'application/pdf': string;
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `forbidden` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'forbidden';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  listCategories: {
    parameters: {
      query?: never;
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The categories */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CategoryList'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  createCategory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CategoryRequest'];
      };
    };
    responses: {
      /** @description The category */
      201: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Category'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived`, `category_name_taken` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'idempotency_key_reused'
              | 'idempotency_key_in_progress'
              | 'group_archived'
              | 'category_name_taken';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `limit_exceeded` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'limit_exceeded';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  deleteCategory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description categoryId */
        categoryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  patchCategory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description categoryId */
        categoryId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['PatchCategoryRequest'];
      };
    };
    responses: {
      /** @description The category */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Category'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived`, `category_name_taken` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?:
              | 'idempotency_key_reused'
              | 'idempotency_key_in_progress'
              | 'group_archived'
              | 'category_name_taken';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  mergeCategory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Optional on group and member writes, honoured exactly as on money writes when present: 1–255 printable ASCII characters, not all spaces; the same in double quotes (the structured-header form) means the key without them. Malformed: `400 idempotency_key_invalid`. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKeyOptional'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
        /** @description categoryId */
        categoryId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['MergeCategoryRequest'];
      };
    };
    responses: {
      /** @description The target and how many expenses moved */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          'X-Seq': components['headers']['X-Seq'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CategoryMerged'];
        };
      };
      /** @description `malformed_json`, `idempotency_key_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'malformed_json' | 'idempotency_key_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `idempotency_key_reused`, `idempotency_key_in_progress`, `group_archived` */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'idempotency_key_reused' | 'idempotency_key_in_progress' | 'group_archived';
            /** @constant */
            status?: 409;
          };
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'payload_too_large';
            /** @constant */
            status?: 413;
          };
        };
      };
      /** @description `unsupported_media_type` */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unsupported_media_type';
            /** @constant */
            status?: 415;
          };
        };
      };
      /** @description `validation_failed`, `unknown_category` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Idempotent-Replayed': components['headers']['Idempotent-Replayed'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed' | 'unknown_category';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getGroupStats: {
    parameters: {
      query?: {
        /** @description Only expenses with `occurredAt` at or after this time */
        from?: string;
        /** @description Only expenses with `occurredAt` before this time (exclusive) */
        to?: string;
        /** @description Also convert the totals into this currency (`converted`), with the group’s rates and the provider’s */
        currency?:
          | 'AED'
          | 'AFN'
          | 'ALL'
          | 'AMD'
          | 'ANG'
          | 'AOA'
          | 'ARS'
          | 'AUD'
          | 'AWG'
          | 'AZN'
          | 'BAM'
          | 'BBD'
          | 'BDT'
          | 'BGN'
          | 'BHD'
          | 'BIF'
          | 'BMD'
          | 'BND'
          | 'BOB'
          | 'BRL'
          | 'BSD'
          | 'BTN'
          | 'BWP'
          | 'BYN'
          | 'BZD'
          | 'CAD'
          | 'CDF'
          | 'CHF'
          | 'CLP'
          | 'CNY'
          | 'COP'
          | 'CRC'
          | 'CUC'
          | 'CUP'
          | 'CVE'
          | 'CZK'
          | 'DJF'
          | 'DKK'
          | 'DOP'
          | 'DZD'
          | 'EGP'
          | 'ERN'
          | 'ETB'
          | 'EUR'
          | 'FJD'
          | 'FKP'
          | 'GBP'
          | 'GEL'
          | 'GHS'
          | 'GIP'
          | 'GMD'
          | 'GNF'
          | 'GTQ'
          | 'GYD'
          | 'HKD'
          | 'HNL'
          | 'HRK'
          | 'HTG'
          | 'HUF'
          | 'IDR'
          | 'ILS'
          | 'INR'
          | 'IQD'
          | 'IRR'
          | 'ISK'
          | 'JMD'
          | 'JOD'
          | 'JPY'
          | 'KES'
          | 'KGS'
          | 'KHR'
          | 'KMF'
          | 'KPW'
          | 'KRW'
          | 'KWD'
          | 'KYD'
          | 'KZT'
          | 'LAK'
          | 'LBP'
          | 'LKR'
          | 'LRD'
          | 'LSL'
          | 'LYD'
          | 'MAD'
          | 'MDL'
          | 'MGA'
          | 'MKD'
          | 'MMK'
          | 'MNT'
          | 'MOP'
          | 'MRU'
          | 'MUR'
          | 'MVR'
          | 'MWK'
          | 'MXN'
          | 'MYR'
          | 'MZN'
          | 'NAD'
          | 'NGN'
          | 'NIO'
          | 'NOK'
          | 'NPR'
          | 'NZD'
          | 'OMR'
          | 'PAB'
          | 'PEN'
          | 'PGK'
          | 'PHP'
          | 'PKR'
          | 'PLN'
          | 'PYG'
          | 'QAR'
          | 'RON'
          | 'RSD'
          | 'RUB'
          | 'RWF'
          | 'SAR'
          | 'SBD'
          | 'SCR'
          | 'SDG'
          | 'SEK'
          | 'SGD'
          | 'SHP'
          | 'SLE'
          | 'SLL'
          | 'SOS'
          | 'SRD'
          | 'SSP'
          | 'STN'
          | 'SVC'
          | 'SYP'
          | 'SZL'
          | 'THB'
          | 'TJS'
          | 'TMT'
          | 'TND'
          | 'TOP'
          | 'TRY'
          | 'TTD'
          | 'TWD'
          | 'TZS'
          | 'UAH'
          | 'UGX'
          | 'USD'
          | 'UYU'
          | 'UZS'
          | 'VES'
          | 'VND'
          | 'VUV'
          | 'WST'
          | 'XAF'
          | 'XCD'
          | 'XCG'
          | 'XDR'
          | 'XOF'
          | 'XPF'
          | 'XSU'
          | 'YER'
          | 'ZAR'
          | 'ZMW'
          | 'ZWG'
          | 'ZWL';
        /** @description How to break the totals down */
        by?: 'category' | 'member' | 'month';
      };
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /** @description Group id (`grp_…`) */
        groupId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The statistics */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GroupStats'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `not_found` */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'not_found';
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  getMyStats: {
    parameters: {
      query?: {
        /** @description Only expenses with `occurredAt` at or after this time */
        from?: string;
        /** @description Only expenses with `occurredAt` before this time (exclusive) */
        to?: string;
        /** @description Also convert the totals into this currency (`converted`), with the group’s rates and the provider’s */
        currency?:
          | 'AED'
          | 'AFN'
          | 'ALL'
          | 'AMD'
          | 'ANG'
          | 'AOA'
          | 'ARS'
          | 'AUD'
          | 'AWG'
          | 'AZN'
          | 'BAM'
          | 'BBD'
          | 'BDT'
          | 'BGN'
          | 'BHD'
          | 'BIF'
          | 'BMD'
          | 'BND'
          | 'BOB'
          | 'BRL'
          | 'BSD'
          | 'BTN'
          | 'BWP'
          | 'BYN'
          | 'BZD'
          | 'CAD'
          | 'CDF'
          | 'CHF'
          | 'CLP'
          | 'CNY'
          | 'COP'
          | 'CRC'
          | 'CUC'
          | 'CUP'
          | 'CVE'
          | 'CZK'
          | 'DJF'
          | 'DKK'
          | 'DOP'
          | 'DZD'
          | 'EGP'
          | 'ERN'
          | 'ETB'
          | 'EUR'
          | 'FJD'
          | 'FKP'
          | 'GBP'
          | 'GEL'
          | 'GHS'
          | 'GIP'
          | 'GMD'
          | 'GNF'
          | 'GTQ'
          | 'GYD'
          | 'HKD'
          | 'HNL'
          | 'HRK'
          | 'HTG'
          | 'HUF'
          | 'IDR'
          | 'ILS'
          | 'INR'
          | 'IQD'
          | 'IRR'
          | 'ISK'
          | 'JMD'
          | 'JOD'
          | 'JPY'
          | 'KES'
          | 'KGS'
          | 'KHR'
          | 'KMF'
          | 'KPW'
          | 'KRW'
          | 'KWD'
          | 'KYD'
          | 'KZT'
          | 'LAK'
          | 'LBP'
          | 'LKR'
          | 'LRD'
          | 'LSL'
          | 'LYD'
          | 'MAD'
          | 'MDL'
          | 'MGA'
          | 'MKD'
          | 'MMK'
          | 'MNT'
          | 'MOP'
          | 'MRU'
          | 'MUR'
          | 'MVR'
          | 'MWK'
          | 'MXN'
          | 'MYR'
          | 'MZN'
          | 'NAD'
          | 'NGN'
          | 'NIO'
          | 'NOK'
          | 'NPR'
          | 'NZD'
          | 'OMR'
          | 'PAB'
          | 'PEN'
          | 'PGK'
          | 'PHP'
          | 'PKR'
          | 'PLN'
          | 'PYG'
          | 'QAR'
          | 'RON'
          | 'RSD'
          | 'RUB'
          | 'RWF'
          | 'SAR'
          | 'SBD'
          | 'SCR'
          | 'SDG'
          | 'SEK'
          | 'SGD'
          | 'SHP'
          | 'SLE'
          | 'SLL'
          | 'SOS'
          | 'SRD'
          | 'SSP'
          | 'STN'
          | 'SVC'
          | 'SYP'
          | 'SZL'
          | 'THB'
          | 'TJS'
          | 'TMT'
          | 'TND'
          | 'TOP'
          | 'TRY'
          | 'TTD'
          | 'TWD'
          | 'TZS'
          | 'UAH'
          | 'UGX'
          | 'USD'
          | 'UYU'
          | 'UZS'
          | 'VES'
          | 'VND'
          | 'VUV'
          | 'WST'
          | 'XAF'
          | 'XCD'
          | 'XCG'
          | 'XDR'
          | 'XOF'
          | 'XPF'
          | 'XSU'
          | 'YER'
          | 'ZAR'
          | 'ZMW'
          | 'ZWG'
          | 'ZWL';
        /** @description How to break my share down */
        by?: 'category' | 'group' | 'month';
      };
      header?: {
        /** @description States the client has seen, as `X-Seq` gave them: `<groupId>:<seq>` entries, comma-separated, at most 20. The answer reflects at least these (a replica behind them leaves the read to the primary; API.md §1). Malformed: `400 min_seq_invalid`. */
        'X-Min-Seq'?: components['parameters']['MinSeq'];
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The statistics */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Cache-Control': components['headers']['Cache-Control'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MyStats'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `min_seq_invalid` */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'min_seq_invalid';
            /** @constant */
            status?: 400;
          };
        };
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `insufficient_scope` */
      403: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'insufficient_scope';
            /** @constant */
            status?: 403;
          };
        };
      };
      /** @description `validation_failed` */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'validation_failed';
            /** @constant */
            status?: 422;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  openWebSocket: {
    parameters: {
      query?: {
        /** @description The access token in the URL: accepted only with `WS_ALLOW_QUERY_TOKEN=true` (by default only on the single embedded node), otherwise the upgrade is refused with 401. Prefer the `Authorization` header or the first `auth` message. */
        access_token?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Switching Protocols: the connection is now a WebSocket */
      101: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unauthenticated` */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'WWW-Authenticate': components['headers']['WWW-Authenticate'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unauthenticated';
            /** @constant */
            status?: 401;
          };
        };
      };
      /** @description `upgrade_required` */
      426: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          Upgrade: components['headers']['Upgrade'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'upgrade_required';
            /** @constant */
            status?: 426;
          };
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'rate_limited';
            /** @constant */
            status?: 429;
          };
        };
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  liveness: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Alive */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  readiness: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ready */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Not ready (the database is down, still starting, or draining) */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Health'];
        };
      };
    };
  };
  metrics: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Prometheus text exposition format */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  openApiDocument: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'application/json': Record<string, never>;
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  docs: {
    parameters: {
      query?: never;
      header?: {
        /** @description `304 Not Modified` when the current ETag matches. */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description HTML */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          ETag: components['headers']['ETag'];
          [name: string]: unknown;
        };
        content: {
          'text/html': string;
        };
      };
      /** @description Not Modified: `If-None-Match` matched the current ETag */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `unavailable` */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'] & {
            /** @enum {unknown} */
            code?: 'unavailable';
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
}
