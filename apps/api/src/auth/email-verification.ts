import { randomBytes } from 'node:crypto';
import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { isUniqueViolation } from '../db-errors';
import type { Mail } from '../mail/mailer';
import { sha256Hex } from '../sha256';
import { verifyPassword } from './passwords';

/** How long a verification link works (API.md §2.5). */
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 3600;
/** Verification mails one account gets per hour at most (API.md §2.5). */
export const EMAIL_VERIFICATION_MAX_PER_HOUR = 3;

const HOUR_MS = 3600 * 1000;

export const VERIFY_SUBJECT = 'Confirm your email address for Tally';

/** A verification link that was used already, was superseded, expired or never existed (API.md §2.5). */
const deadLink = () =>
  new AppError(
    'not_found',
    404,
    'This verification link is not valid: it was used already, a newer one replaced it, it expired, or it never existed. Ask for a new one.',
  );

export function verificationMail(input: {
  to: string;
  name: string;
  link: string;
  ttlSeconds: number;
  change: boolean;
}): Mail {
  const hours = Math.max(1, Math.round(input.ttlSeconds / 3600));
  const text = [
    `Hello ${input.name},`,
    '',
    input.change
      ? `You asked to use ${input.to} for your Tally account. Open this link to confirm that this address is yours:`
      : `Open this link to confirm that ${input.to} is the address of your Tally account:`,
    '',
    input.link,
    '',
    `The link works once, for ${hours} hour${hours === 1 ? '' : 's'}.`,
    input.change
      ? 'Until you open it you keep signing in with your current address.'
      : 'Once confirmed, you can take over the places groups kept for you under this address.',
    'If you did not ask for this, ignore this mail.',
  ].join('\n');
  return { to: input.to, subject: VERIFY_SUBJECT, text };
}

export type EmailVerificationDeps = {
  knex: Knex;
  logger: Logger;
  /** The web client's address; the link in the mail is `<base>/#verify-email=<token>`. */
  linkBase: () => string;
  /** @default EMAIL_VERIFICATION_TTL_SECONDS */
  ttlSeconds?: number;
  /** @default EMAIL_VERIFICATION_MAX_PER_HOUR */
  maxPerHour?: number;
};

type AccountRow = {
  id: string;
  email: string;
  email_normalized: string;
  name: string;
  password_hash: string | null;
  email_verified_at: Date | string | null;
};

/** What a request for a link decided: the mail to send (after the commit), or that nothing needs confirming. */
export type LinkToSend = { email: string; mail: Mail } | undefined;

/**
 * Email verification and change by a mailed link (API.md §2.5), modelled on the password reset: a
 * random token, of which only the SHA-256 is stored, that works once and expires. The services
 * decide and store; the routes send the mail after the commit (and after the answer).
 */
export function createEmailVerification(deps: EmailVerificationDeps) {
  const { knex, logger } = deps;
  const ttlMs = (deps.ttlSeconds ?? EMAIL_VERIFICATION_TTL_SECONDS) * 1000;
  const maxPerHour = deps.maxPerHour ?? EMAIL_VERIFICATION_MAX_PER_HOUR;

  /** The account, locked: concurrent requests for one account count each other. */
  async function lockedAccount(trx: Knex.Transaction, userId: string): Promise<AccountRow> {
    const row = (await trx('users')
      .where({ id: userId, status: 'active' })
      .forUpdate()
      .first('id', 'email', 'email_normalized', 'name', 'password_hash', 'email_verified_at')) as
      | AccountRow
      | undefined;
    if (!row) throw new AppError('unauthenticated', 401, 'The user of this token no longer exists.');
    return row;
  }

  /** Every link of the account stops working; what can no longer count or be used goes. */
  async function supersede(trx: Knex.Transaction, userId: string, now: Date): Promise<void> {
    await trx('email_verifications').where({ user_id: userId }).whereNull('used_at').update({ used_at: now });
    await trx('email_verifications')
      .where({ user_id: userId })
      .where('created_at', '<=', new Date(now.getTime() - HOUR_MS))
      .delete();
  }

  /**
   * A new link for `email`, replacing the account's other links, unless the account had
   * `maxPerHour` in the last hour: then `429 rate_limited` (with `Retry-After`), or, `quiet`, nothing.
   */
  async function issue(
    trx: Knex.Transaction,
    account: AccountRow,
    email: string,
    options: { quiet?: boolean } = {},
  ): Promise<LinkToSend> {
    const now = new Date();
    const recent = (await trx('email_verifications')
      .where({ user_id: account.id })
      .where('created_at', '>', new Date(now.getTime() - HOUR_MS))
      .orderBy('created_at', 'asc')
      .select('created_at')) as { created_at: Date | string }[];
    if (recent.length >= maxPerHour) {
      if (options.quiet) {
        logger.info({ userId: account.id }, 'verification mail not sent: hourly limit reached');
        return undefined;
      }
      const oldest = new Date((recent[0] as { created_at: Date | string }).created_at).getTime();
      const retryAfter = Math.max(1, Math.ceil((oldest + HOUR_MS - now.getTime()) / 1000));
      throw new AppError(
        'rate_limited',
        429,
        `At most ${maxPerHour} verification mails an hour; wait and retry later.`,
        { headers: { 'Retry-After': String(retryAfter) } },
      );
    }
    await supersede(trx, account.id, now);
    const token = randomBytes(32).toString('base64url');
    await trx('email_verifications').insert({
      token_hash: sha256Hex(token),
      user_id: account.id,
      email,
      email_normalized: email.toLowerCase(),
      created_at: now,
      expires_at: new Date(now.getTime() + ttlMs),
    });
    const link = `${deps.linkBase().replace(/\/+$/, '')}/#verify-email=${token}`;
    const change = email.toLowerCase() !== account.email_normalized;
    return {
      email,
      mail: verificationMail({ to: email, name: account.name, link, ttlSeconds: ttlMs / 1000, change }),
    };
  }

  /** The address a change is waiting for (the live link's, when it is not the account's own). */
  async function pendingChange(trx: Knex.Transaction, account: AccountRow): Promise<string | undefined> {
    const live = (await trx('email_verifications')
      .where({ user_id: account.id })
      .whereNull('used_at')
      .where('expires_at', '>', new Date())
      .whereNot('email_normalized', account.email_normalized)
      .orderBy('created_at', 'desc')
      .first('email')) as { email: string } | undefined;
    return live?.email;
  }

  return {
    /**
     * A link for the address that waits to be confirmed: the one of a pending change, else the
     * account's own while unverified; undefined when nothing waits. `quiet`: over the hourly limit,
     * nothing (the mail after registration) instead of `429`.
     */
    async requestLink(userId: string, options: { quiet?: boolean } = {}): Promise<LinkToSend> {
      return knex.transaction(async (trx) => {
        const account = await lockedAccount(trx, userId);
        const target =
          (await pendingChange(trx, account)) ??
          (account.email_verified_at === null ? account.email : undefined);
        if (target === undefined) return undefined;
        return issue(trx, account, target, options);
      });
    },

    /**
     * `POST /v1/me/email`: a link to `email` (already trimmed and lower-cased by the schema), which
     * becomes the login email once confirmed; until then the current one stays in force. The
     * account's own address cancels a pending change (and is mailed a link if unverified).
     */
    async changeEmail(userId: string, email: string, password: string): Promise<LinkToSend> {
      const current = (await knex('users').where({ id: userId, status: 'active' }).first('password_hash')) as
        | { password_hash: string | null }
        | undefined;
      if (!current) throw new AppError('unauthenticated', 401, 'The user of this token no longer exists.');
      if (!current.password_hash || !(await verifyPassword(password, current.password_hash))) {
        throw new AppError('wrong_password', 403, 'The password is wrong.');
      }
      return knex.transaction(async (trx) => {
        const account = await lockedAccount(trx, userId);
        if (email === account.email_normalized) {
          if (account.email_verified_at !== null) {
            await supersede(trx, userId, new Date());
            return undefined;
          }
          return issue(trx, account, account.email);
        }
        const taken = await trx('users').where({ email_normalized: email }).first('id');
        if (taken) throw new AppError('email_taken', 409, 'This email is already registered.');
        return issue(trx, account, email);
      });
    },

    /**
     * `POST /v1/auth/verify-email`: the link's address is verified, and becomes the login email if
     * it is a new one (`409 email_taken` if an account registered it meanwhile). The link and every
     * other of the account stop working. A dead link is `404 not_found`.
     */
    async confirm(token: string): Promise<void> {
      const hash = sha256Hex(token);
      try {
        await knex.transaction(async (trx) => {
          const now = new Date();
          const [used] = (await trx('email_verifications')
            .where({ token_hash: hash })
            .whereNull('used_at')
            .where('expires_at', '>', now)
            .update({ used_at: now })
            .returning(['user_id', 'email', 'email_normalized'])) as {
            user_id: string;
            email: string;
            email_normalized: string;
          }[];
          if (!used) throw deadLink();
          const account = (await trx('users')
            .where({ id: used.user_id, status: 'active' })
            .forUpdate()
            .first('email_normalized', 'email_verified_at')) as
            | Pick<AccountRow, 'email_normalized' | 'email_verified_at'>
            | undefined;
          if (!account) throw deadLink();
          if (used.email_normalized === account.email_normalized) {
            if (account.email_verified_at === null) {
              await trx('users').where({ id: used.user_id }).update({ email_verified_at: now });
            }
          } else {
            await trx('users')
              .where({ id: used.user_id })
              .update({ email: used.email, email_normalized: used.email_normalized, email_verified_at: now });
          }
          await supersede(trx, used.user_id, now);
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new AppError('email_taken', 409, 'Another account registered this email meanwhile.');
        }
        throw error;
      }
    },
  };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;
