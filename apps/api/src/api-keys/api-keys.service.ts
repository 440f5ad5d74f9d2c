import { runSql, sql } from '@tally/db';
import { limitExceeded, notFound } from '@tally/http-kit';
import type { Knex } from 'knex';
import { toIso } from '../db-errors';
import type { NewId } from '../ids';
import type { KeyScope } from './scopes';
import { hashOfSecret, newSecret } from './secret';

/** Keys one account may hold, expired ones included (API.md §9.1 `apiKeysPerUser`). */
export const API_KEYS_PER_USER = 25;

/** `lastUsedAt` is written at most this often per key: a busy script costs no write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeyView = {
  id: string;
  name: string;
  scopes: KeyScope[];
  /** `tally_sk_` and the first characters of the secret: enough to recognise it, not to use it. */
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
};

type ApiKeyRow = {
  id: string;
  name: string;
  scopes: string;
  prefix: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  last_used_at: Date | string | null;
};

/** The columns every view reads; `scopes` as one space-separated text (the same in PGlite and pg). */
const VIEW_COLUMNS = sql`id, name, array_to_string(scopes, ' ') as scopes, prefix, created_at, expires_at, last_used_at`;

const toView = (r: ApiKeyRow): ApiKeyView => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes.split(' ').filter(Boolean) as KeyScope[],
  prefix: r.prefix,
  createdAt: toIso(r.created_at),
  expiresAt: r.expires_at === null ? null : toIso(r.expires_at),
  lastUsedAt: r.last_used_at === null ? null : toIso(r.last_used_at),
});

export type NewApiKey = { name: string; scopes: KeyScope[]; expiresAt?: Date | undefined };

/** Who a working key is: its id (the rate-limit budget), its user and scopes. */
export type KeyIdentity = { keyId: string; userId: string; scopes: KeyScope[] };

/** API keys of a user (API.md §2.6): create (the secret shown once), list, revoke, and use. */
export function createApiKeys(deps: { knex: Knex; newId: NewId }) {
  const { knex } = deps;
  return {
    /**
     * A new key and its secret (never stored; only its SHA-256 is). The user's row is locked while
     * the keys are counted, so two creations at once cannot both take the last place.
     */
    async create(userId: string, input: NewApiKey): Promise<ApiKeyView & { secret: string }> {
      const { secret, prefix, hash } = newSecret();
      const row = await knex.transaction(async (trx) => {
        await runSql(trx, sql`select 1 from users where id = ${userId} for update`);
        const [count] = await runSql<{ n: number }>(
          trx,
          sql`select count(*)::int as n from api_keys where user_id = ${userId}`,
        );
        if ((count?.n ?? 0) >= API_KEYS_PER_USER) {
          throw limitExceeded(
            'apiKeysPerUser',
            API_KEYS_PER_USER,
            `You have ${API_KEYS_PER_USER} API keys already; revoke one first.`,
          );
        }
        const [created] = await runSql<ApiKeyRow>(
          trx,
          sql`insert into api_keys (id, user_id, name, scopes, prefix, secret_hash, created_at, expires_at)
              values (${deps.newId('key')}, ${userId}, ${input.name}, string_to_array(${input.scopes.join(' ')}, ' '),
                      ${prefix}, ${hash}, ${new Date()}, ${input.expiresAt ?? null})
              returning ${VIEW_COLUMNS}`,
        );
        return created as ApiKeyRow;
      });
      return { ...toView(row), secret };
    },

    /** Every key of the user (expired ones too, until revoked), the newest first; never a secret or hash. */
    async list(userId: string): Promise<ApiKeyView[]> {
      const rows = await runSql<ApiKeyRow>(
        knex,
        sql`select ${VIEW_COLUMNS} from api_keys where user_id = ${userId} order by created_at desc, id desc`,
      );
      return rows.map(toView);
    },

    /** Deletes the key: the next request with it, on any process, finds nothing. Not the user's: 404. */
    async revoke(userId: string, keyId: string): Promise<void> {
      const rows = await runSql<{ id: string }>(
        knex,
        sql`delete from api_keys where id = ${keyId} and user_id = ${userId} returning id`,
      );
      if (rows.length === 0) throw notFound('API key');
    },

    /**
     * The key of `secret`, if it works: found by its hash, not expired, of an active account. One
     * statement, so one round trip, whose update of `last_used_at` writes only when the value is
     * older than `LAST_USED_RESOLUTION_MS` (a data-modifying CTE runs whether or not it is read).
     */
    async authenticate(secret: string): Promise<KeyIdentity | undefined> {
      const now = new Date();
      const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
      const rows = await runSql<{ id: string; user_id: string; scopes: string }>(
        knex,
        sql`with found as (
              select k.id, k.user_id, array_to_string(k.scopes, ' ') as scopes
                from api_keys k join users u on u.id = k.user_id
               where k.secret_hash = ${hashOfSecret(secret)} and u.status = 'active'
                 and (k.expires_at is null or k.expires_at > ${now})),
            touched as (
              update api_keys set last_used_at = ${now}
               where id in (select id from found) and (last_used_at is null or last_used_at <= ${stale})
              returning 1)
            select id, user_id, scopes from found`,
      );
      const row = rows[0];
      if (!row) return undefined;
      return { keyId: row.id, userId: row.user_id, scopes: row.scopes.split(' ') as KeyScope[] };
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
