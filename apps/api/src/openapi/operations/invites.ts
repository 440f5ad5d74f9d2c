import { BOUNDS } from '../../bounds';
import { acceptInviteBody, createInviteBody } from '../../schemas';
import { GROUPS_BOUND_NOTE, MEMBERS_BOUND_NOTE } from './notes';
import { noContent } from './shapes';
import type { Operation } from './types';

/** Invite links (API.md §3.1–§3.3). */
export const invitesOperations: Operation[] = [
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
    body: createInviteBody,
    idempotency: 'optional',
    success: [{ status: 201, description: 'The invite, with its code', schema: 'CreatedInvite' }],
    errors: ['limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/invites',
    operationId: 'listInvites',
    tag: 'Invites',
    summary: "The group's live invites",
    description: `Not revoked and not expired, newest first, without their codes: all of them (at most ${BOUNDS.invitesPerGroup}).`,
    success: [{ status: 200, description: 'The invites', schema: 'InviteList' }],
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
    idempotency: 'optional',
    success: noContent('Revoked'),
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
    success: [{ status: 200, description: 'The preview', schema: 'InvitePreview' }],
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
    errors: ['forbidden', 'member_claimed', 'limit_exceeded'],
  },
];
