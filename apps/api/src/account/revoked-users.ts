import type { Knex } from 'knex';

export type RevokedUsersOptions = {
  knex: Knex;
  /** How long an account found active is believed so without asking again. @default 10000 */
  activeTtlMs?: number;
  /** At most this many users remembered (the oldest answer goes first). @default 100000 */
  maxEntries?: number;
};

/**
 * Whether an access token's user may still act: access tokens are JWTs valid 15 minutes, so a
 * deleted account's token must be refused by the API itself. Asking PostgreSQL on every request
 * would add a round trip to every write; instead an account found active is believed so for
 * `activeTtlMs`, and a deletion made by this process is known at once (`revoke`). Another API
 * process refuses the token at the latest `activeTtlMs` after the deletion (API.md §11.3).
 */
export function createRevokedUsers(options: RevokedUsersOptions) {
  const { knex } = options;
  const ttlMs = options.activeTtlMs ?? 10_000;
  const maxEntries = options.maxEntries ?? 100_000;
  /** userId → until when it is known active, or 0 for revoked. Insertion order is age. */
  const known = new Map<string, number>();

  const remember = (userId: string, until: number) => {
    known.delete(userId);
    known.set(userId, until);
    if (known.size > maxEntries) known.delete(known.keys().next().value as string);
  };

  return {
    async isRevoked(userId: string): Promise<boolean> {
      const until = known.get(userId);
      if (until === 0) return true;
      if (until !== undefined && until > Date.now()) return false;
      const { rows } = (await knex.raw('select status from users where id = ?', [userId])) as {
        rows: { status: string }[];
      };
      // Only a deleted account is refused here: a token of an id this database does not hold (signed
      // with a shared secret elsewhere) is left to the routes, as before accounts could be deleted.
      const deleted = rows[0]?.status === 'deleted';
      remember(userId, deleted ? 0 : Date.now() + ttlMs);
      return deleted;
    },
    revoke(userId: string): void {
      remember(userId, 0);
    },
  };
}

export type RevokedUsers = ReturnType<typeof createRevokedUsers>;
