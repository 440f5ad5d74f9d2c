import {
  changeEmailBody,
  changePasswordBody,
  loginBody,
  noBody,
  passwordResetBody,
  passwordResetConfirmBody,
  refreshBody,
  registerBody,
  verifyEmailBody,
} from '../../schemas';
import { EXPORTS_NOTE } from './notes';
import { EMAIL_LINK_SENT, noContent } from './shapes';
import type { Operation } from './types';

/** Sign-up, sign-in, the account and its sessions (API.md §2, §11). */
export const authOperations: Operation[] = [
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
    success: [{ status: 200, description: 'The caller', schema: 'User' }],
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
    body: passwordResetConfirmBody,
    success: noContent('The password is set; every session has ended'),
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
    body: changePasswordBody,
    success: noContent('Changed; every other session has ended'),
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
    body: verifyEmailBody,
    success: noContent('The address is verified'),
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
    body: changeEmailBody,
    success: [
      EMAIL_LINK_SENT,
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
    body: noBody,
    success: [EMAIL_LINK_SENT, { status: 204, description: 'Nothing waits to be confirmed' }],
  },
  {
    method: 'get',
    path: '/v1/me/export',
    operationId: 'exportMyData',
    replicaRead: true,
    tag: 'Auth',
    summary: "The caller's data, as one JSON document",
    description:
      'Streamed (API.md §11.2): `exportedAt`, `user` (id, email, name, createdAt; never the password hash), ' +
      'and `groups`: each group the caller belongs to as `GET /v1/groups/{groupId}` shows it, with ' +
      '`expenses` and `settlements` (every live one, oldest first), read 1,000 records a query. An error ' +
      'after the first byte ends the response abruptly (a broken download, never a complete-looking ' +
      `document). ${EXPORTS_NOTE}`,
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
    success: noContent('The account is deleted'),
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
    success: [
      {
        status: 200,
        description: 'The live sessions',
        schema: 'DeviceSessionList',
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
    success: noContent('The session is ended'),
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
    success: noContent('Signed out'),
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
    success: noContent('Every session is ended'),
  },
];
