import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';

/** The name every deleted account shows under, in its groups and in old records. */
export const DELETED_USER_NAME = 'Deleted user';

export type AccountDeletionDeps = {
  knex: Knex;
  /**
   * After the commit: tells every gateway (the control channel of the bus) and this process's
   * authentication that the user's sessions are over. Never fails the deletion.
   */
  onDeleted: (userId: string) => void;
};

type NetRow = { group_id: string; group_name: string; currency: string; net: string | number };

/**
 * `DELETE /v1/me` (API.md §11.3). One transaction, with the user's row locked first:
 *
 * 1. the caller's nets in every group (their own and those of pending members they claimed, which
 *    the group counts as theirs): any that is not zero refuses with `409 member_has_balance`, the
 *    groups listed in `errors`, because nobody could sign in as them to settle it;
 * 2. the row keeps its id (records, memberships and events name it) but loses email, name (now
 *    "Deleted user"), password hash, any pending email and its email verification (the links
 *    mailed to confirm an address are deleted); `status` becomes `deleted`;
 * 3. every session (API.md §2) and refresh token of the user is revoked.
 *
 * Memberships stay: the groups' members, histories and balances read as before, the member shown
 * as a deleted user.
 */
export function createAccountDeletion(deps: AccountDeletionDeps) {
  const { knex } = deps;
  return {
    async deleteAccount(userId: string): Promise<void> {
      await knex.transaction(async (trx) => {
        const { rows: users } = (await trx.raw(`select status from users where id = ? for update`, [
          userId,
        ])) as {
          rows: { status: string }[];
        };
        if (users[0]?.status !== 'active')
          throw new AppError('unauthenticated', 401, 'The user of this token no longer exists.');
        const { rows: nets } = (await trx.raw(
          `select b.group_id, g.name as group_name, b.currency, sum(b.net)::text as net
             from balances b join groups g on g.id = b.group_id
            where b.net <> 0
              and (b.user_id = ? or b.user_id in (select c.user_id from group_members c
                                                   where c.claimed_by = ? and c.group_id = b.group_id))
            group by b.group_id, g.name, b.currency
           having sum(b.net) <> 0
            order by b.group_id, b.currency`,
          [userId, userId],
        )) as { rows: NetRow[] };
        if (nets.length > 0) {
          throw new AppError(
            'member_has_balance',
            409,
            'You still owe or are owed money in some groups; settle up there before deleting your account.',
            {
              errors: nets.map((n) => ({
                path: `groups.${n.group_id}`,
                message: `${n.group_name}: net ${n.net} (${n.currency} minor units)`,
              })),
            },
          );
        }
        const now = new Date();
        await trx.raw(
          `update users set email = null, email_normalized = null, password_hash = null, name = ?,
                            pending_email = null, pending_email_normalized = null, email_verified_at = null,
                            status = 'deleted', deleted_at = ?
            where id = ?`,
          [DELETED_USER_NAME, now, userId],
        );
        // The links mailed to confirm an address hold that address: they go with it.
        await trx.raw('delete from email_verifications where user_id = ?', [userId]);
        await trx.raw(
          `update sessions set revoked_at = ?, revoked_reason = 'deleted' where user_id = ? and revoked_at is null`,
          [now, userId],
        );
        await trx.raw('update refresh_tokens set revoked_at = ? where user_id = ? and revoked_at is null', [
          now,
          userId,
        ]);
      });
      deps.onDeleted(userId);
    },
  };
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;
