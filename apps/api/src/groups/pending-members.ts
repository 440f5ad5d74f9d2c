import { sql } from '@tally/db';
import { validationFailed } from '@tally/http-kit';
import type { NewId } from '../ids';
import type { GroupChange } from '../ledger/group-change';
import type { WriteResult } from '../ledger/write-runner';
import type { Member } from './groups.service';

/**
 * Adds someone without an account (API.md §3.1): a `users` row with `status = 'pending'`, no login
 * email and no password, that belongs to this group only, and its membership, in the change's one
 * statement. The email the group typed (already trimmed and lower-cased by the schema, as
 * registration normalises) is kept apart from the login email, not unique: the real person can
 * still register with it, and several groups may add the same friend.
 */
export function addPendingMember(
  change: GroupChange,
  newId: NewId,
  actorId: string,
  name: string,
  email: string | undefined,
): WriteResult<{ member: Member; added: boolean }> {
  const id = newId('usr');
  const joinedAt = new Date();
  change.write(
    sql`insert into users (id, name, status, pending_email, pending_email_normalized, pending_group_id, created_at)
        select ${id}::text, ${name}::text, 'pending', ${email ?? null}::text, ${email ?? null}::text, guard.id,
               ${joinedAt}::timestamptz from guard`,
  );
  change.write(
    sql`insert into group_members (group_id, user_id, joined_at)
        select guard.id, ${id}::text, ${joinedAt}::timestamptz from guard`,
  );
  change.memberAdded(id);
  const member: Member = { userId: id, name, joinedAt: joinedAt.toISOString(), status: 'pending' };
  const event = change.commit('member.added', actorId, { member }, { bumpVersion: true, at: joinedAt });
  return { value: { member, added: true }, events: [event] };
}

/** The body of `POST /v1/groups/{groupId}/members` after its schema: `userId` stands alone (the schema cannot say so). */
export function checkAddMemberInput<T extends { userId?: string; email?: string; name?: string }>(
  input: T,
): T {
  if (input.userId !== undefined && (input.email !== undefined || input.name !== undefined)) {
    throw validationFailed([{ path: 'userId', message: 'userId cannot be combined with email or name' }]);
  }
  return input;
}
