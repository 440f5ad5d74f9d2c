import { join, runSql, sql } from '@tally/db';
import { AppError } from '@tally/http-kit';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import { normalizeIp } from '../http/client-ip';

/**
 * Refresh tokens live 30 days; each use rotates it within its family. A session unused that long has
 * expired: its last token is dead.
 */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000;

/** The longest user agent a session keeps, in code points (the rest is cut off). */
export const MAX_USER_AGENT_LENGTH = 256;

const UTF8 = new TextDecoder('utf-8');
/** Lone surrogates (no pair), which no strict JSON parser takes. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** C0 and C1 controls and DEL. */
const CONTROLS = /\p{Cc}/gu;
/** The bidi embeddings, overrides and isolates (U+202A–E, U+2066–9): they could disguise the text. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/**
 * The user agent as the device sent it (API.md §2.3), or null when it sent none (or only spaces):
 * - Node reads a header's bytes as ISO-8859-1, one character per byte: those bytes are decoded as
 *   UTF-8, what clients send; a byte sequence that is not UTF-8 becomes U+FFFD. A string that already
 *   holds characters above U+00FF (a caller's own) is taken as it is.
 * - Controls (C0, DEL, C1) become a space, bidi embeddings, overrides and isolates go, a lone
 *   surrogate becomes U+FFFD; surrounding spaces are trimmed.
 * - At most `MAX_USER_AGENT_LENGTH` code points (a pair is never split).
 */
export function userAgentOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  let text = header;
  const bytes = Buffer.from(text, 'latin1');
  // Every character a byte (what Node made of the header), some of them not ASCII: UTF-8 bytes.
  if (bytes.toString('latin1') === text && /[\u0080-\u00FF]/.test(text)) text = UTF8.decode(bytes);
  text = text.replace(LONE_SURROGATE, '\uFFFD').replace(BIDI_CONTROLS, '').replace(CONTROLS, ' ').trim();
  if (text === '') return null;
  const codePoints = Array.from(text);
  return codePoints.length > MAX_USER_AGENT_LENGTH
    ? codePoints.slice(0, MAX_USER_AGENT_LENGTH).join('').trimEnd()
    : text;
}

/** What a sign-in records about the device (API.md §2, `GET /v1/me/sessions`). */
export type DeviceInfo = { userAgent?: string | undefined; ip?: string | undefined };

/** Why a session ended (`sessions.revoked_reason`). */
export type SessionEndReason =
  | 'logout'
  | 'logout_all'
  | 'revoked'
  | 'reuse'
  | 'password_change'
  | 'password_reset';

export type SessionView = {
  id: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
  lastUsedAt: string;
  /** The session of the access token that asked. */
  current: boolean;
};

type SessionRow = {
  id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date | string;
  last_used_at: Date | string;
};

/** The columns of a new session row (its id is the refresh-token family id). */
export function sessionRow(id: string, userId: string, device: DeviceInfo | undefined, at: Date) {
  return {
    id,
    user_id: userId,
    user_agent: userAgentOf(device?.userAgent),
    ip: normalizeIp(device?.ip) ?? null,
    created_at: at,
    last_used_at: at,
  };
}

export type RevokeSessionsOptions = {
  userId: string;
  /** Only these sessions (ids of other users' sessions are ignored); absent: every session of the user. */
  only?: readonly string[];
  /** Every session but this one (e.g. the caller's, on a password change). */
  except?: string | undefined;
  /** Recorded in `revoked_reason`. @default 'revoked' */
  reason?: SessionEndReason;
};

/**
 * Ends sessions of a user in one statement: each live session matched gets `revoked_at`, and every
 * refresh token of its family is revoked with it (so it refreshes no more). Returns the ids of the
 * sessions it ended (an already ended one is not among them). Pass a transaction to make it part of
 * a larger change; after the commit, call `announce` (`createSessions`) with the ids so that access
 * tokens and WebSockets of those sessions are refused too.
 *
 * The session rows are locked before their refresh tokens, the order a refresh takes them in.
 */
export async function revokeSessions(
  db: Knex | Knex.Transaction,
  options: RevokeSessionsOptions,
): Promise<string[]> {
  if (options.only !== undefined && options.only.length === 0) return [];
  const now = new Date();
  const conditions = [sql`user_id = ${options.userId}`, sql`revoked_at is null`];
  if (options.only !== undefined) conditions.push(sql`id in (${join(options.only.map((id) => sql`${id}`))})`);
  if (options.except !== undefined) conditions.push(sql`id <> ${options.except}`);
  // Every session: every refresh token of the user as well, a family without a session row included.
  const everyToken = options.only === undefined && options.except === undefined;
  const rows = await runSql<{ id: string }>(
    db,
    sql`with ended as (
          update sessions set revoked_at = ${now}, revoked_reason = ${options.reason ?? 'revoked'}
           where ${join(conditions, ' and ')}
           returning id),
        tokens as (
          update refresh_tokens set revoked_at = ${now}
           where ${everyToken ? sql`user_id = ${options.userId}` : sql`family_id in (select id from ended)`}
             and revoked_at is null
           returning 1)
        select id from ended`,
  );
  return rows.map((r) => r.id);
}

export type SessionsDeps = {
  knex: Knex;
  /**
   * After sessions ended (committed): this process's authentication refuses their access tokens
   * at once, and every gateway closes their WebSockets (the bus's control channel).
   */
  onRevoked: (userId: string, sessionIds: readonly string[]) => void;
};

/** Sessions of a user (API.md §2): list, sign one out, sign out this one or all of them. */
export function createSessions(deps: SessionsDeps) {
  const { knex } = deps;

  const announce = (userId: string, sessionIds: readonly string[]) => {
    if (sessionIds.length > 0) deps.onRevoked(userId, sessionIds);
  };

  const end = async (options: RevokeSessionsOptions): Promise<string[]> => {
    const ids = await revokeSessions(knex, options);
    announce(options.userId, ids);
    return ids;
  };

  return {
    /** Tells this process and the gateways about sessions ended by `revokeSessions` in a transaction. */
    announce,
    /** `revokeSessions` on its own, then `announce`. */
    end,

    /**
     * Live sessions (neither ended nor expired), the most recently used first; `current` marks
     * `currentId`.
     */
    async list(userId: string, currentId: string | undefined): Promise<SessionView[]> {
      const rows = (await knex('sessions')
        .where({ user_id: userId })
        .whereNull('revoked_at')
        .where('last_used_at', '>', new Date(Date.now() - REFRESH_TOKEN_TTL_MS))
        .orderBy([
          { column: 'last_used_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .select('id', 'user_agent', 'ip', 'created_at', 'last_used_at')) as SessionRow[];
      return rows.map((r) => ({
        id: r.id,
        userAgent: r.user_agent,
        ip: r.ip,
        createdAt: toIso(r.created_at),
        lastUsedAt: toIso(r.last_used_at),
        current: r.id === currentId,
      }));
    },

    /**
     * `DELETE /v1/me/sessions/{id}`: a session of another user, or none, is `404 not_found`; one
     * already ended is done (idempotent).
     */
    async revoke(userId: string, sessionId: string): Promise<void> {
      const ended = await end({ userId, only: [sessionId], reason: 'revoked' });
      if (ended.length > 0) return;
      const row = await knex('sessions').where({ id: sessionId, user_id: userId }).first('id');
      if (!row) throw new AppError('not_found', 404, 'There is no such session.');
    },

    /**
     * `POST /v1/auth/logout`: the token's session. A token without a session (issued before sessions
     * were recorded, at most one access-token lifetime old) cannot say which one it is: every
     * session of the user ends, as `logout-all`.
     */
    async logout(userId: string, sessionId: string | undefined): Promise<void> {
      if (sessionId === undefined) await end({ userId, reason: 'logout_all' });
      else await end({ userId, only: [sessionId], reason: 'logout' });
    },

    /** `POST /v1/auth/logout-all`: every session of the user, this one included. */
    async logoutAll(userId: string): Promise<void> {
      await end({ userId, reason: 'logout_all' });
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
