import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';

/**
 * Everyone whose balance a change touches must be a current member: that keeps a removed member's
 * net at zero, and it is what API.md means by `422 not_a_member`.
 */
export async function assertPartiesAreMembers(
  trx: Knex.Transaction,
  groupId: string,
  userIds: readonly string[],
) {
  const wanted = [...new Set(userIds)];
  if (wanted.length === 0) return;
  const found = new Set<string>(
    await trx('group_members').where({ group_id: groupId }).whereIn('user_id', wanted).pluck('user_id'),
  );
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError('not_a_member', 422, `Not a member of this group: ${missing.join(', ')}.`, {
      errors: missing.map((id) => ({ path: 'userId', message: `${id} is not a member of this group` })),
    });
  }
}
