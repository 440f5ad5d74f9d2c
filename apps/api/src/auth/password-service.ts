import { randomBytes } from 'node:crypto';
import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer';
import { sha256Hex } from '../sha256';
import { hashPassword, verifyPassword } from './passwords';
import { revokeSessions } from './sessions';

/** How long a reset link works when `PASSWORD_RESET_TTL_SECONDS` is not set. */
export const DEFAULT_PASSWORD_RESET_TTL_SECONDS = 1800;
/** Reset mails one account gets per hour at most when `PASSWORD_RESET_MAX_PER_HOUR` is not set. */
export const DEFAULT_PASSWORD_RESET_MAX_PER_HOUR = 3;

const HOUR_MS = 3600 * 1000;

const invalidResetToken = () =>
  new AppError(
    'invalid_reset_token',
    400,
    'This password reset link is not valid: it was used already, it expired, or it never existed. Ask for a new one.',
  );

/** Told, after the commit, which sessions a change or reset ended (`Sessions.announce`). */
export type SessionsRevokedAnnouncer = (userId: string, sessionIds: readonly string[]) => void;

export type PasswordServiceDeps = {
  knex: Knex;
  mailer: Mailer;
  logger: Logger;
  /** The web client's address; the link in the mail is `<base>/#reset=<token>`. */
  linkBase: () => string;
  /** @default DEFAULT_PASSWORD_RESET_TTL_SECONDS */
  resetTtlSeconds?: number;
  /** @default DEFAULT_PASSWORD_RESET_MAX_PER_HOUR */
  resetMaxPerHour?: number;
  /**
   * Told after a commit that ended sessions: this process refuses their access tokens at once and
   * the gateways close their WebSockets (`Sessions.announce`).
   */
  announceSessionsRevoked?: SessionsRevokedAnnouncer;
};

type ResetUserRow = { id: string; email: string; name: string };

export function resetMail(input: { to: string; name: string; link: string; ttlSeconds: number }) {
  const minutes = Math.max(1, Math.round(input.ttlSeconds / 60));
  const text = [
    `Hello ${input.name},`,
    '',
    'Somebody (hopefully you) asked to set a new password for your Tally account. Open this link to choose one:',
    '',
    input.link,
    '',
    `The link works once, for ${minutes} minute${minutes === 1 ? '' : 's'}. Setting a new password signs you out everywhere.`,
    'If you did not ask for this, ignore this mail: your password stays as it is.',
  ].join('\n');
  return { to: input.to, subject: 'Reset your Tally password', text };
}

/** Password change (signed in) and reset by a mailed link (API.md §2). */
export function createPasswordService(deps: PasswordServiceDeps) {
  const { knex, mailer, logger } = deps;
  const ttlMs = (deps.resetTtlSeconds ?? DEFAULT_PASSWORD_RESET_TTL_SECONDS) * 1000;
  const maxPerHour = deps.resetMaxPerHour ?? DEFAULT_PASSWORD_RESET_MAX_PER_HOUR;

  return {
    /**
     * The work behind `POST /v1/auth/password-reset`, run after the answer: for an active account,
     * a new single-use token and a mail with its link, unless the account had `maxPerHour` already
     * in the last hour. Unknown, pending and deleted accounts get nothing.
     */
    async requestReset(email: string): Promise<void> {
      const token = randomBytes(32).toString('base64url');
      const sent = await knex.transaction(async (trx) => {
        // Locked, so concurrent requests for one account count each other.
        const user = (await trx('users')
          .where({ email_normalized: email.toLowerCase(), status: 'active' })
          .forUpdate()
          .first('id', 'email', 'name')) as ResetUserRow | undefined;
        if (!user) return undefined;
        const now = new Date();
        const [recent] = (await trx('password_resets')
          .where({ user_id: user.id })
          .where('created_at', '>', new Date(now.getTime() - HOUR_MS))
          .count({ n: '*' })) as { n: string | number }[];
        if (Number(recent?.n ?? 0) >= maxPerHour) {
          logger.info({ userId: user.id }, 'password reset not mailed: hourly limit reached');
          return undefined;
        }
        await trx('password_resets').insert({
          token_hash: sha256Hex(token),
          user_id: user.id,
          created_at: now,
          expires_at: new Date(now.getTime() + ttlMs),
        });
        return user;
      });
      if (!sent) return;
      const link = `${deps.linkBase().replace(/\/+$/, '')}/#reset=${token}`;
      await mailer.send(resetMail({ to: sent.email, name: sent.name, link, ttlSeconds: ttlMs / 1000 }));
    },

    /**
     * `POST /v1/auth/password-reset/confirm`: sets the password, uses up the token and every other
     * outstanding one of the account, and ends every session, in one transaction.
     */
    async confirmReset(token: string, password: string): Promise<void> {
      const hash = sha256Hex(token);
      // A cheap look first: a dead token costs no password hashing.
      const live = await knex('password_resets')
        .where({ token_hash: hash })
        .whereNull('used_at')
        .where('expires_at', '>', new Date())
        .first('user_id');
      if (!live) throw invalidResetToken();
      const passwordHash = await hashPassword(password);
      const reset = await knex.transaction(async (trx) => {
        const now = new Date();
        const claimed = (await trx('password_resets')
          .where({ token_hash: hash })
          .whereNull('used_at')
          .where('expires_at', '>', now)
          .update({ used_at: now })
          .returning(['user_id'])) as { user_id: string }[];
        const id = claimed[0]?.user_id;
        if (!id) return undefined;
        const updated = await trx('users')
          .where({ id, status: 'active' })
          .update({ password_hash: passwordHash });
        if (updated !== 1) return undefined;
        await trx('password_resets').where({ user_id: id }).whereNull('used_at').update({ used_at: now });
        const ended = await revokeSessions(trx, { userId: id, reason: 'password_reset' });
        return { id, ended };
      });
      if (!reset) throw invalidResetToken();
      deps.announceSessionsRevoked?.(reset.id, reset.ended);
    },

    /**
     * `POST /v1/me/password`: checks `current`, sets `next`, and ends every session of the user but
     * `sessionId` (the caller's). Outstanding reset links stop working too.
     */
    async change(
      userId: string,
      sessionId: string | undefined,
      current: string,
      next: string,
    ): Promise<void> {
      const row = (await knex('users').where({ id: userId, status: 'active' }).first('password_hash')) as
        | { password_hash: string | null }
        | undefined;
      if (!row) throw new AppError('unauthenticated', 401, 'The user of this token no longer exists.');
      if (!row.password_hash || !(await verifyPassword(current, row.password_hash)))
        throw new AppError('wrong_password', 403, 'The current password is wrong.');
      const passwordHash = await hashPassword(next);
      const changed = await knex.transaction(async (trx) => {
        // Only if nobody changed it meanwhile: the hash checked is still the one stored.
        const updated = await trx('users')
          .where({ id: userId, status: 'active', password_hash: row.password_hash })
          .update({ password_hash: passwordHash });
        if (updated !== 1) return undefined;
        await trx('password_resets')
          .where({ user_id: userId })
          .whereNull('used_at')
          .update({ used_at: new Date() });
        return revokeSessions(trx, { userId, except: sessionId, reason: 'password_change' });
      });
      if (!changed) throw new AppError('wrong_password', 403, 'The current password is wrong.');
      deps.announceSessionsRevoked?.(userId, changed);
    },
  };
}

export type PasswordService = ReturnType<typeof createPasswordService>;
