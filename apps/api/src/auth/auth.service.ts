import { createHmac, randomBytes } from 'node:crypto';
import { runSql, sql } from '@tally/db';
import type { AccessTokens } from '@tally/http-kit';
import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';
import { isUniqueViolation, toIso } from '../db-errors';
import type { NewId } from '../ids';
import { sha256Hex } from '../sha256';
import type { LoginThrottle } from './login-throttle';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from './passwords';
import { type DeviceInfo, REFRESH_TOKEN_TTL_MS, sessionRow } from './sessions';

export { REFRESH_TOKEN_TTL_MS } from './sessions';

/** What a refresh-token key is derived under from a configured secret (never the secret itself). */
const SUCCESSOR_KEY_LABEL = 'tally/refresh-token-successor/v1';

/**
 * The one successor of `refreshToken` under `key`: HMAC-SHA256 of the token, as a refresh token
 * (`rt_` and 43 base64url characters, 256 bits like a random one). Whoever holds a token but not
 * the key cannot compute its successor; every process with the key computes the same one, so a
 * refresh repeated within the grace window answers the token the first one issued (DECISIONS.md).
 */
export const successorOf = (refreshToken: string, key: Buffer): string =>
  `rt_${createHmac('sha256', key).update(refreshToken).digest('base64url')}`;

/** The key `successorOf` uses for a configured secret. */
export const successorKeyOf = (secret: string): Buffer =>
  createHmac('sha256', secret).update(SUCCESSOR_KEY_LABEL).digest();

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
  /**
   * Secrets the successor of a refresh token is derived from (`successorKeyOf`): the first for new
   * successors, each in turn when a retry looks one up (a rotated secret). Every process of a
   * deployment needs the same. Absent: one random secret of this service's own.
   */
  refreshTokenKeys?: readonly string[];
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
  const secrets = deps.refreshTokenKeys?.length ? deps.refreshTokenKeys : [randomBytes(32).toString('hex')];
  const successorKeys = [...new Set(secrets)].map(successorKeyOf);
  const successorKey = successorKeys[0] as Buffer;

  /** A token rotated less than the grace window ago, in a family nobody revoked: a retried refresh. */
  const withinGrace = (row: RefreshTokenRow, now: Date) =>
    graceMs > 0 &&
    row.revoked_at === null &&
    row.used_at !== null &&
    new Date(row.used_at).getTime() > now.getTime() - graceMs &&
    new Date(row.expires_at).getTime() > now.getTime();

  /**
   * A refresh token in `familyId`: `refreshToken` (a successor, `successorOf`) or a random one.
   * `device`: the family is new (a sign-in), and its session row (API.md §2) is inserted in the same
   * statement as the token.
   */
  async function issueSession(
    db: Knex | Knex.Transaction,
    user: User,
    familyId: string,
    device?: DeviceInfo,
    successor?: string,
  ): Promise<Session> {
    const refreshToken = successor ?? `rt_${randomBytes(32).toString('base64url')}`;
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
      await runSql(
        db,
        sql`with s as (insert into sessions (id, user_id, user_agent, ip, created_at, last_used_at)
                       values (${s.id}, ${s.user_id}, ${s.user_agent}, ${s.ip}, ${s.created_at}, ${s.last_used_at}))
            insert into refresh_tokens (id, token_hash, family_id, user_id, expires_at, created_at)
            values (${token.id}, ${token.token_hash}, ${token.family_id}, ${token.user_id},
                    ${token.expires_at}, ${token.created_at})`,
      );
    }
    return {
      user,
      accessToken: await tokens.sign(user.id, familyId),
      refreshToken,
      expiresIn: tokens.ttlSeconds,
    };
  }

  const activeUser = async (db: Knex.Transaction, id: string): Promise<User | undefined> => {
    const row = await db<UserRow>('users').where({ id }).where('status', 'active').first();
    return row ? toUser(row) : undefined;
  };

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
     * atomic across processes), and its one successor is `successorOf` it; presenting a used or
     * revoked token revokes its whole family, since either the client or a thief holds a copy that
     * should not exist. One exception: a token presented again within the grace window after its
     * rotation (the client lost the answer and retried, or sent it twice at once) answers that same
     * successor again, with an access token for it: one chain per session, never a fork. A retry
     * whose successor is not found (rotated by a process with other keys) is refused without
     * revoking anything.
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
        await runSql(
          trx,
          sql`insert into sessions (id, user_id, created_at, last_used_at)
              select family_id, user_id, ${now}, ${now} from refresh_tokens
               where token_hash = ${hash} and revoked_at is null and expires_at > ${now}
              on conflict (id) do update set last_used_at = excluded.last_used_at where sessions.revoked_at is null`,
        );
        const claimed = (await trx('refresh_tokens')
          .where({ token_hash: hash })
          .whereNull('used_at')
          .whereNull('revoked_at')
          .where('expires_at', '>', now)
          .update({ used_at: now })
          .returning(['family_id', 'user_id'])) as Pick<RefreshTokenRow, 'family_id' | 'user_id'>[];
        const first = claimed[0];
        if (first) {
          // A deleted account's tokens were revoked with it; its status says so as well.
          const user = await activeUser(trx, first.user_id);
          if (!user) return undefined;
          const successor = successorOf(refreshToken, successorKey);
          return issueSession(trx, user, first.family_id, undefined, successor);
        }
        // Locked, so a concurrent revocation of the family is either seen here or waits for us; a
        // concurrent first use of it has committed (its successor is there to be found).
        const known = (await trx('refresh_tokens')
          .where({ token_hash: hash })
          .forUpdate()
          .first('family_id', 'user_id', 'used_at', 'revoked_at', 'expires_at')) as
          | RefreshTokenRow
          | undefined;
        if (!known) return undefined;
        if (!withinGrace(known, now)) {
          // Reuse: the family and its session end (the session row is already locked above).
          await runSql(
            trx,
            sql`with s as (update sessions set revoked_at = ${now}, revoked_reason = 'reuse'
                            where id = ${known.family_id} and revoked_at is null returning id)
                update refresh_tokens set revoked_at = ${now} where family_id = ${known.family_id} and revoked_at is null`,
          );
          reused = { userId: known.user_id, familyId: known.family_id };
          return undefined;
        }
        // A repeat within the grace window: the successor the first use issued, if it is still live.
        const user = await activeUser(trx, known.user_id);
        if (!user) return undefined;
        const candidates = successorKeys.map((key) => successorOf(refreshToken, key));
        const live = (await trx('refresh_tokens')
          .whereIn('token_hash', candidates.map(sha256Hex))
          .where({ family_id: known.family_id })
          .whereNull('revoked_at')
          .where('expires_at', '>', now)
          .first('token_hash')) as { token_hash: string } | undefined;
        const successor = live && candidates.find((c) => sha256Hex(c) === live.token_hash);
        if (!successor) return undefined;
        return {
          user,
          accessToken: await tokens.sign(user.id, known.family_id),
          refreshToken: successor,
          expiresIn: tokens.ttlSeconds,
        };
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
