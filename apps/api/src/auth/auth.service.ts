import { randomBytes } from 'node:crypto';
import type { AccessTokens } from '@tally/http-kit';
import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';
import { isUniqueViolation, toIso } from '../db-errors';
import type { NewId } from '../ids';
import { sha256Hex } from '../sha256';
import type { LoginThrottle } from './login-throttle';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords';
import { type DeviceInfo, sessionRow } from './sessions';

/** Refresh tokens live 30 days; each use rotates it within its family. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

/** An account as the API shows it to its owner; `emailVerified`: its login email is confirmed (API.md §2.5). */
export type User = { id: string; email: string; name: string; createdAt: string; emailVerified: boolean };
export type Session = { user: User; accessToken: string; refreshToken: string; expiresIn: number };

type UserRow = {
  id: string;
  email: string;
  email_normalized: string;
  name: string;
  password_hash: string | null;
  status?: string;
  created_at: Date | string;
  email_verified_at?: Date | string | null;
};

export const toUser = (
  row: Pick<UserRow, 'id' | 'email' | 'name' | 'created_at' | 'email_verified_at'>,
): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  createdAt: toIso(row.created_at),
  emailVerified: row.email_verified_at != null,
});

const deadRefreshToken = () =>
  new AppError('unauthenticated', 401, 'The refresh token is not valid.', {
    headers: { 'WWW-Authenticate': 'Bearer realm="tally"' },
  });

export type AuthServiceDeps = {
  knex: Knex;
  tokens: AccessTokens;
  newId: NewId;
  /** How long a just-rotated refresh token still refreshes (a retried refresh); 0 = strict. @default 10 */
  refreshReuseGraceSeconds?: number;
  /** Login throttling per account and per IP (API.md §2); absent: none. */
  loginThrottle?: LoginThrottle;
  /** After reuse detection ended a session (committed): as `Sessions.announce`. */
  onSessionsRevoked?: (userId: string, sessionIds: readonly string[]) => void;
};

type RefreshTokenRow = {
  family_id: string;
  user_id: string;
  used_at: Date | string | null;
  revoked_at: Date | string | null;
  expires_at: Date | string;
};

export function createAuthService(deps: AuthServiceDeps) {
  const { knex, tokens, newId } = deps;
  const graceMs = (deps.refreshReuseGraceSeconds ?? 10) * 1000;

  /** A token rotated less than the grace window ago, in a family nobody revoked: a retried refresh. */
  const withinGrace = (row: RefreshTokenRow, now: Date) =>
    graceMs > 0 &&
    row.revoked_at === null &&
    row.used_at !== null &&
    new Date(row.used_at).getTime() > now.getTime() - graceMs &&
    new Date(row.expires_at).getTime() > now.getTime();

  /**
   * A refresh token in `familyId`. `device`: the family is new (a sign-in), and its session row
   * (API.md §2) is inserted in the same statement as the token.
   */
  async function issueSession(
    db: Knex | Knex.Transaction,
    user: User,
    familyId: string,
    device?: DeviceInfo,
  ): Promise<Session> {
    const refreshToken = `rt_${randomBytes(32).toString('base64url')}`;
    const now = Date.now();
    const token = {
      id: newId('rtk'),
      token_hash: sha256Hex(refreshToken),
      family_id: familyId,
      user_id: user.id,
      expires_at: new Date(now + REFRESH_TOKEN_TTL_MS),
      created_at: new Date(now),
    };
    if (device === undefined) await db('refresh_tokens').insert(token);
    else {
      const s = sessionRow(familyId, user.id, device, new Date(now));
      await db.raw(
        `with s as (insert into sessions (id, user_id, user_agent, ip, created_at, last_used_at)
                    values (?, ?, ?, ?, ?, ?))
         insert into refresh_tokens (id, token_hash, family_id, user_id, expires_at, created_at)
         values (?, ?, ?, ?, ?, ?)`,
        [
          s.id,
          s.user_id,
          s.user_agent,
          s.ip,
          s.created_at,
          s.last_used_at,
          token.id,
          token.token_hash,
          token.family_id,
          token.user_id,
          token.expires_at,
          token.created_at,
        ],
      );
    }
    return {
      user,
      accessToken: await tokens.sign(user.id, familyId),
      refreshToken,
      expiresIn: tokens.ttlSeconds,
    };
  }

  return {
    /** `device`: the new session's user agent and IP (API.md §2). */
    async register(
      input: { email: string; name: string; password: string },
      device: DeviceInfo = {},
    ): Promise<Session> {
      const passwordHash = await hashPassword(input.password);
      const row = {
        id: newId('usr'),
        email: input.email,
        email_normalized: input.email.toLowerCase(),
        name: input.name,
        password_hash: passwordHash,
        created_at: new Date(),
      };
      try {
        return await knex.transaction(async (trx) => {
          await trx('users').insert(row);
          return issueSession(trx, toUser(row), newId('rtk'), device);
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('email_taken', 409, 'This email is already registered.');
        throw error;
      }
    },

    /**
     * Every path costs one hash and ends in the same answer unless the password is right: an
     * unknown email, a pending or deleted user (no login email, no password) and a wrong password
     * are all `401 invalid_credentials`. The throttle counts the attempt first and may refuse it
     * (429) before anything is read or hashed, for any email alike. `device`: the new session's
     * user agent and IP (API.md §2); its IP is also the throttle's.
     */
    async login(input: { email: string; password: string }, device: DeviceInfo = {}): Promise<Session> {
      const email = input.email.toLowerCase();
      const attempt = await deps.loginThrottle?.attempt(email, device.ip);
      const row = await knex<UserRow>('users').where({ email_normalized: email }).first();
      const usable = row && row.status === 'active' && row.password_hash ? row.password_hash : undefined;
      const valid = await verifyPassword(input.password, usable ?? (await DUMMY_HASH_PROMISE));
      if (!row || !usable || !valid)
        throw new AppError('invalid_credentials', 401, 'The email or password is wrong.');
      await attempt?.succeeded();
      return issueSession(knex, toUser(row), newId('rtk'), device);
    },

    /**
     * Rotation with reuse detection: a token is used at most once (the conditional UPDATE makes that
     * atomic across processes); presenting a used or revoked token revokes its whole family, since
     * either the client or a thief holds a copy that should not exist. One exception: a token
     * presented again within the grace window after its rotation (the client lost the answer and
     * retried) refreshes again, in the same family, and every token issued stays valid.
     */
    async refresh(refreshToken: string): Promise<Session> {
      const hash = sha256Hex(refreshToken);
      let reused: { userId: string; familyId: string } | undefined;
      const result = await knex.transaction(async (trx) => {
        const now = new Date();
        // The session first (API.md §2): its row is locked before the token's, the order in which
        // `revokeSessions` takes them, so a concurrent sign-out either ends the session before this
        // rotation (which then finds the token revoked) or waits for it and revokes its new token.
        // A family without a session row (signed in by a process of the version before sessions,
        // during a rolling deploy) gets one here, device unknown.
        await trx.raw(
          `insert into sessions (id, user_id, created_at, last_used_at)
           select family_id, user_id, ?, ? from refresh_tokens
            where token_hash = ? and revoked_at is null and expires_at > ?
           on conflict (id) do update set last_used_at = excluded.last_used_at where sessions.revoked_at is null`,
          [now, now, hash, now],
        );
        const claimed = await trx('refresh_tokens')
          .where({ token_hash: hash })
          .whereNull('used_at')
          .whereNull('revoked_at')
          .where('expires_at', '>', now)
          .update({ used_at: now })
          .returning(['family_id', 'user_id']);
        let token = claimed[0] as Pick<RefreshTokenRow, 'family_id' | 'user_id'> | undefined;
        if (!token) {
          // Locked, so a concurrent revocation of the family is either seen here or waits for us.
          const known = (await trx('refresh_tokens')
            .where({ token_hash: hash })
            .forUpdate()
            .first('family_id', 'user_id', 'used_at', 'revoked_at', 'expires_at')) as
            | RefreshTokenRow
            | undefined;
          if (!known) return undefined;
          if (!withinGrace(known, now)) {
            // Reuse: the family and its session end (the session row is already locked above).
            await trx.raw(
              `with s as (update sessions set revoked_at = ?, revoked_reason = 'reuse'
                           where id = ? and revoked_at is null returning id)
               update refresh_tokens set revoked_at = ? where family_id = ? and revoked_at is null`,
              [now, known.family_id, now, known.family_id],
            );
            reused = { userId: known.user_id, familyId: known.family_id };
            return undefined;
          }
          token = known;
        }
        // A deleted account's tokens were revoked with it; its status says so as well.
        const user = await trx<UserRow>('users')
          .where({ id: token.user_id })
          .where('status', 'active')
          .first();
        if (!user) return undefined;
        return issueSession(trx, toUser(user), token.family_id);
      });
      if (reused) deps.onSessionsRevoked?.(reused.userId, [reused.familyId]);
      if (!result) throw deadRefreshToken();
      return result;
    },

    async me(userId: string): Promise<User> {
      const row = await knex<UserRow>('users').where({ id: userId }).where('status', 'active').first();
      if (!row) throw new AppError('unauthenticated', 401, 'The user of this token no longer exists.');
      return toUser(row);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
