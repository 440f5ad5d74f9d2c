import { addMemberBody, createGroupBody, listGroupsQuery, noBody, patchGroupBody } from '../../schemas';
import { EXPORTS_NOTE, GROUPS_BOUND_NOTE, LIST_NOTE, MEMBERS_BOUND_NOTE } from './notes';
import { noContent, page } from './shapes';
import type { Operation } from './types';

/** Groups, their members and the group export (API.md §3, §11.1). */
export const groupsOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/groups',
    operationId: 'listGroups',
    tag: 'Groups',
    summary: "The caller's groups",
    description: `Ordered by the caller's join time, newest first (then by id, descending); \`archived\` keeps the archived groups only (\`true\`) or the others only (\`false\`). ${LIST_NOTE}`,
    query: listGroupsQuery,
    success: [page('GroupPage', 'groups')],
  },
  {
    method: 'post',
    path: '/v1/groups',
    operationId: 'createGroup',
    tag: 'Groups',
    summary: 'Create a group',
    description: `The creator becomes its first member. \`currency\` (the default of its expenses and settlements) defaults to \`INR\`, \`simplifyDebts\` to \`true\`. ${GROUPS_BOUND_NOTE}: one more is \`422 limit_exceeded\`.`,
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
    success: [{ status: 200, description: 'The group', schema: 'Group', headers: ['ETag'] }],
  },
  {
    method: 'patch',
    path: '/v1/groups/{groupId}',
    operationId: 'updateGroup',
    tag: 'Groups',
    summary: 'Rename a group, change its description, default currency or which debts clients show',
    description:
      'Honours `If-Match` (`412 precondition_failed` when the group changed). An empty patch changes nothing. ' +
      '`currency` is the default of expenses and settlements created afterwards (existing ones keep theirs); ' +
      '`simplifyDebts` says whether clients show the simplified or the original debts (API.md §6).',
    body: patchGroupBody,
    idempotency: 'optional',
    ifMatch: true,
    success: [{ status: 200, description: 'The group after the change', schema: 'Group', headers: ['ETag'] }],
    errors: ['precondition_failed'],
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
    body: addMemberBody,
    idempotency: 'optional',
    success: [
      { status: 201, description: 'Added', schema: 'Member' },
      { status: 200, description: 'Already a member: nothing changed', schema: 'Member' },
    ],
    errors: ['limit_exceeded'],
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
    idempotency: 'optional',
    success: noContent('Removed'),
    errors: ['member_has_balance'],
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
    errors: ['forbidden', 'member_claimed', 'limit_exceeded'],
  },
  {
    method: 'get',
    path: '/v1/groups/{groupId}/export.csv',
    operationId: 'exportGroupCsv',
    replicaRead: true,
    tag: 'Groups',
    summary: "The group's expenses and settlements as CSV",
    description:
      'Streamed (API.md §11.1): RFC 4180, UTF-8 with a byte order mark, CRLF line ends, a header row. One ' +
      'row per live expense and settlement, oldest first; columns `Type`, `Date (UTC)`, `Description`, ' +
      '`Category`, `Currency`, `Amount` (decimal, in major units), `Paid by`, `Id`, then one per member who ' +
      "ever appears (current members in join order, then former ones) with that row's effect on their " +
      "net. Text cells a spreadsheet would run as a formula get a leading `'`. Read 1,000 records a query " +
      `(no statement reads the group's whole history). An error after the first byte ends the response abruptly. ${EXPORTS_NOTE}`,
    success: [
      {
        status: 200,
        description: 'The CSV file (`Content-Disposition: attachment`)',
        contentType: 'text/csv',
        schema: { type: 'string' },
      },
    ],
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
    success: [{ status: 200, description: 'The members', schema: 'ClaimableMemberList' }],
  },
  ...(['archive', 'unarchive'] as const).map(
    (verb): Operation => ({
      method: 'post',
      path: `/v1/groups/{groupId}/${verb}`,
      operationId: `${verb}Group`,
      tag: 'Groups',
      summary: verb === 'archive' ? 'Archive a group' : 'Unarchive a group',
      description:
        verb === 'archive'
          ? 'Any member may. An archived group stays readable (its expenses, balances, events, CSV) but refuses ' +
            'every write, this one’s opposite aside, with `409 group_archived`: expenses, settlements, comments, ' +
            'members, invites, rates, imports, and its recurring expenses’ occurrences (skipped meanwhile). It leaves ' +
            'the activity feed (API.md §8a); the group keeps `archivedAt`. A no-op `200` when already archived. ' +
            'Appends `group.updated`. No request body is needed. Honours `If-Match`.'
          : 'Any member may: the group takes writes again, and `archivedAt` is `null`. A no-op `200` when not ' +
            'archived. Appends `group.updated`. No request body is needed. Honours `If-Match`.',
      jsonBody: true,
      idempotency: 'optional',
      ifMatch: true,
      success: [
        { status: 200, description: 'The group after the change', schema: 'Group', headers: ['ETag'] },
      ],
      errors: ['precondition_failed'],
    }),
  ),
];
