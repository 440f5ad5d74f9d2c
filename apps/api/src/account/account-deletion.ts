import { runSql, sql } from '@tally/db';
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
  /** After the commit: the expenses whose receipts the user had uploaded, whose files must go (API.md §16). */
  onReceiptsDeleted?: (expenseIds: string[]) => void;
};

type NetRow = { group_id: string; group_name: string; currency: string; net: string | number };

/**
 * The caller's non-zero nets, their own and those of the pending members they claimed, per group and
 * currency. Driven by the caller's memberships (`group_members (user_id, …)`),
 * each net read once by its whole primary key (group, currency, user: a sub-plan per pair, so the
 * planner cannot make it a scan) for each currency the group has ever had (`group_currencies`): the
 * cost is the caller's groups × their currencies (API.md §9.1 `groupsPerUser`), never the size of
 * the `balances` table. Only members can have a net that is not zero: every change checks that its
 * parties are members, and a member leaves only at zero.
 */
const netsOf = (userId: string) => sql`
  with mine as (
    select m.group_id, m.user_id from group_members m where m.user_id = ${userId}
    union all
    select c.group_id, c.user_id from group_members m
      join group_members c on c.group_id = m.group_id and c.claimed_by = m.user_id
     where m.user_id = ${userId}),
  nets as materialized (
    select mine.group_id, gc.currency,
           (select b.net from balances b
             where b.group_id = mine.group_id and b.currency = gc.currency and b.user_id = mine.user_id) as net
      from mine join group_currencies gc on gc.group_id = mine.group_id)
  select n.group_id, g.name as group_name, n.currency, sum(n.net)::text as net
    from nets n join groups g on g.id = n.group_id
   where n.net <> 0
   group by n.group_id, g.name, n.currency
  having sum(n.net) <> 0
   order by n.group_id, n.currency`;

/**
 * `DELETE /v1/me` (API.md §11.3). One transaction, with the user's row locked first:
 *
 * 1. the caller's nets in every group (their own and those of pending members they claimed, which
 *    the group counts as theirs): any that is not zero refuses with `409 member_has_balance`, the
 *    groups listed in `errors`, because nobody could sign in as them to settle it;
 * 2. the row keeps its id (records, memberships and events name it) but loses email, name (now
 *    "Deleted user"), password hash, any pending email and its email verification (the links
 *    mailed to confirm an address are deleted); `status` becomes `deleted`;
 * 3. every session (API.md §2) and refresh token of the user is revoked, and every API key deleted;
 * 4. the receipts the user uploaded (§16) are removed, their files once the transaction committed.
 *
 * Memberships stay: the groups' members, histories and balances read as before, the member shown
 * as a deleted user.
 */
export function createAccountDeletion(deps: AccountDeletionDeps) {
  const { knex } = deps;
  return {
    async deleteAccount(userId: string): Promise<void> {
      let receiptsOf: string[] = [];
      await knex.transaction(async (trx) => {
        const users = await runSql<{ status: string }>(
          trx,
          sql`select status from users where id = ${userId} for update`,
        );
        if (users[0]?.status !== 'active')
          throw new AppError('unauthenticated', 401, 'The user of this token no longer exists.');
        const nets = await runSql<NetRow>(trx, netsOf(userId));
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
        await runSql(
          trx,
          sql`update users set email = null, email_normalized = null, password_hash = null, name = ${DELETED_USER_NAME},
                               pending_email = null, pending_email_normalized = null, email_verified_at = null,
                               status = 'deleted', deleted_at = ${now}
               where id = ${userId}`,
        );
        // The links mailed to confirm an address hold that address: they go with it.
        await runSql(trx, sql`delete from email_verifications where user_id = ${userId}`);
        // Its API keys (§2.6) go too (a key of a deleted account was refused already, by its lookup).
        await runSql(trx, sql`delete from api_keys where user_id = ${userId}`);
        // Its notification settings and browsers (§13) go too, with what was still to be sent to it
        // (a delivery to a removed browser goes with the browser).
        await runSql(trx, sql`delete from push_subscriptions where user_id = ${userId}`);
        await runSql(trx, sql`delete from notification_settings where user_id = ${userId}`);
        await runSql(
          trx,
          sql`delete from notification_deliveries where user_id = ${userId} and status = 'pending'`,
        );
        // The receipts it uploaded (§16): photos of its own, so they go; the files after the commit.
        const receipts = await runSql<{ expense_id: string }>(
          trx,
          sql`delete from receipts where uploaded_by = ${userId} returning expense_id`,
        );
        receiptsOf = receipts.map((r) => r.expense_id);
        // The live sessions by `sessions_user_live`, their refresh tokens by family (every token
        // since migration 011 belongs to a session; a refresh is refused once its session ended).
        await runSql(
          trx,
          sql`with ended as (
                update sessions set revoked_at = ${now}, revoked_reason = 'deleted' where user_id = ${userId} and revoked_at is null
                returning id)
              update refresh_tokens set revoked_at = ${now} where family_id in (select id from ended) and revoked_at is null`,
        );
      });
      deps.onDeleted(userId);
      if (receiptsOf.length > 0) deps.onReceiptsDeleted?.(receiptsOf);
    },
  };
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;
