import type { Knex } from 'knex';

/**
 * Ends sessions of a user: revokes every live refresh token of theirs (so no refresh-token family
 * refreshes again), but for the family `except` (the caller's own session, on a password change).
 * Run it inside the transaction that changes the password. Access tokens already issued stay
 * valid until they expire (API.md §2).
 */
export async function revokeUserSessions(
  db: Knex | Knex.Transaction,
  userId: string,
  options: { except?: string | undefined } = {},
): Promise<void> {
  const query = db('refresh_tokens').where({ user_id: userId }).whereNull('revoked_at');
  if (options.except !== undefined) query.whereNot({ family_id: options.except });
  await query.update({ revoked_at: new Date() });
}
