import { BOUNDS, EXPORTS_PER_USER } from '../../bounds';

/** Texts several operations' descriptions share, written once. */

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

export const RECURRING_NOTE =
  'Each occurrence becomes an ordinary expense (with `recurringId`, `occurredAt` the start of the ' +
  'occurrence’s local date in `schedule.timeZone`, or the first instant after it that exists there, and ' +
  'an `expense.created` event), created exactly once by the servers, in order, also for the dates missed ' +
  'while they were down. See API.md §6a.';

export const RECURRING_BACKLOG_NOTE =
  'At most 100 occurrences may be due at once (`422 limit_exceeded`, `limit.name` `recurringBacklog`): ' +
  'a `startsOn` further back, up to `until`, is refused.';

export const LIST_NOTE =
  'Cursor-paginated: `limit` 1–100 (default 20) and the opaque `cursor` of the previous page. ' +
  'Unknown query parameters are rejected with `422 validation_failed`, as is a cursor this API did not issue.';

export const NOT_MEMBER_NOTE =
  'Payers, participants and settlement parties must be current members (`422 not_a_member`). A change ' +
  'that would alter the net of someone who is no longer a member (e.g. editing, deleting or restoring an ' +
  'expense they took part in after they left) is also `422 not_a_member`. Its `errors` name each ' +
  'non-member at the path of the request that names them (`paidBy`, `split.between[2].userId`, ' +
  '`fromUserId`…). One person, one share: naming both an account and a pending member it took over in the ' +
  'payers, or both in the split, is `422 validation_failed` with the path of the later one (API.md §3.3).';

export const CURRENCY_BOUND_NOTE =
  `A record in a currency the group has no live record in, when it has live records in ` +
  `${BOUNDS.currenciesPerGroup} currencies already, is \`422 limit_exceeded\` (\`currenciesPerGroup\`, API.md §9.1).`;

export const GROUPS_BOUND_NOTE = `An account is in at most ${BOUNDS.groupsPerUser} groups (\`groupsPerUser\`, API.md §9.1)`;
export const MEMBERS_BOUND_NOTE = `a group has at most ${BOUNDS.membersPerGroup} members (\`membersPerGroup\`)`;

export const EXPORTS_NOTE =
  `At most ${EXPORTS_PER_USER} downloads (this one and the other export) per user at once on one API ` +
  'process; one more is `429 rate_limited` with `Retry-After` and `limit.name` `exportsPerUser`.';
