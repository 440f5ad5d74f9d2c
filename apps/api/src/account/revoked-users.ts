import { runSql, sql } from '@tally/db';
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

  /** sessionId → until when it is known live, or 0 for ended (the same bounds as `known`). */
  const sessions = new Map<string, number>();
  const rememberSession = (sessionId: string, until: number) => {
    sessions.delete(sessionId);
    sessions.set(sessionId, until);
    if (sessions.size > maxEntries) sessions.delete(sessions.keys().next().value as string);
  };
  const isFresh = (until: number | undefined) => until !== undefined && until > Date.now();

  return {
    /**
     * `sessionId` (the token's `sid`): a session that ended (signed out, API.md §2) is refused as
     * well. User and session are asked about in one query, and only when either answer is stale.
     */
    async isRevoked(userId: string, sessionId?: string): Promise<boolean> {
      const until = known.get(userId);
      if (until === 0) return true;
      const sessionUntil = sessionId === undefined ? undefined : sessions.get(sessionId);
      if (sessionUntil === 0) return true;
      if (isFresh(until) && (sessionId === undefined || isFresh(sessionUntil))) return false;
      const rows = await runSql<{ status: string; ended: boolean | null }>(
        knex,
        sessionId === undefined
          ? sql`select status, null as ended from users where id = ${userId}`
          : sql`select u.status, (s.revoked_at is not null) as ended
                  from users u left join sessions s on s.id = ${sessionId} and s.user_id = u.id
                 where u.id = ${userId}`,
      );
      // Only a deleted account is refused here: a token of an id this database does not hold (signed
      // with a shared secret elsewhere) is left to the routes, as before accounts could be deleted.
      // Likewise a `sid` without a session row (none was recorded for it) is not refused.
      const deleted = rows[0]?.status === 'deleted';
      remember(userId, deleted ? 0 : Date.now() + ttlMs);
      const ended = rows[0]?.ended === true;
      if (sessionId !== undefined) rememberSession(sessionId, ended ? 0 : Date.now() + ttlMs);
      return deleted || ended;
    },
    revoke(userId: string): void {
      remember(userId, 0);
    },
    /** Sessions this process ended (or heard of): their access tokens are refused at once here. */
    revokeSessions(sessionIds: readonly string[]): void {
      for (const id of sessionIds) rememberSession(id, 0);
    },
  };
}
export type RevokedUsers = ReturnType<typeof createRevokedUsers>;
