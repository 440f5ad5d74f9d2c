import { notFound } from '@tally/http-kit';
import Joi from 'joi';
import type { Knex } from 'knex';
import { assertRoomFor, NOTIFICATION_BOUNDS } from './notification-bounds';

/** The most push subscriptions (browsers, devices) one user keeps (`pushSubscriptionsPerUser`). */
export const PUSH_SUBSCRIPTIONS_PER_USER = NOTIFICATION_BOUNDS.pushSubscriptionsPerUser;

const base64url = (min: number, max: number) =>
  Joi.string()
    .pattern(/^[A-Za-z0-9_-]+=*$/)
    .min(min)
    .max(max)
    .message('must be base64url');

/**
 * A browser's `PushSubscription.toJSON()`: the push service URL (https; at most 2048 characters)
 * and its RFC 8291 keys, `p256dh` (an uncompressed P-256 point: 65 bytes, 87 characters) and
 * `auth` (16 bytes, 22 characters). `expirationTime` is accepted and ignored.
 */
export const pushSubscriptionBody = Joi.object({
  endpoint: Joi.string()
    .uri({ scheme: ['https', 'http'] })
    // The scheme again as a pattern: the OpenAPI document's `format: uri` does not say it.
    .pattern(/^https?:\/\//)
    .message('must be an http(s) URL')
    .max(2048)
    .required(),
  expirationTime: Joi.number().allow(null),
  keys: Joi.object({
    p256dh: base64url(86, 88).required(),
    auth: base64url(22, 24).required(),
  }).required(),
}).label('PushSubscriptionRequest');

export type PushSubscriptionInput = { endpoint: string; keys: { p256dh: string; auth: string } };

type Row = { id: string; user_id: string; endpoint: string; p256dh: string; auth: string; created_at: Date };

const toSubscription = (row: Row) => ({
  id: row.id,
  endpoint: row.endpoint,
  createdAt: new Date(row.created_at).toISOString(),
});

export function createPushSubscriptions(deps: { knex: Knex; newId: () => string }) {
  const { knex } = deps;
  return {
    async list(userId: string) {
      const rows: Row[] = await knex('push_subscriptions')
        .where({ user_id: userId })
        .orderBy('created_at')
        .limit(PUSH_SUBSCRIPTIONS_PER_USER);
      return rows.map(toSubscription);
    },
    /**
     * Registers the subscription for `userId`. An endpoint is one browser profile: registered again
     * (by this user or, after a sign-in of another, by them) it moves to the caller with its new keys.
     */
    add(userId: string, input: PushSubscriptionInput) {
      return knex.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`push_subscriptions:${userId}`]);
        const existing: Row | undefined = await trx('push_subscriptions')
          .where({ endpoint: input.endpoint })
          .first();
        if (existing?.user_id !== userId) {
          const [count] = await trx('push_subscriptions').where({ user_id: userId }).count({ n: '*' });
          assertRoomFor(
            'pushSubscriptionsPerUser',
            Number(count?.n ?? 0),
            'This account has as many push subscriptions as it may',
          );
        }
        const row = {
          id: existing?.id ?? deps.newId(),
          user_id: userId,
          endpoint: input.endpoint,
          p256dh: input.keys.p256dh,
          auth: input.keys.auth,
          created_at: existing?.created_at ?? new Date(),
        };
        await trx('push_subscriptions').insert(row).onConflict('endpoint').merge();
        return { created: existing === undefined, subscription: toSubscription(row) };
      });
    },
    async remove(userId: string, id: string) {
      const deleted = await knex('push_subscriptions').where({ id, user_id: userId }).delete();
      if (deleted === 0) throw notFound('Push subscription');
    },
  };
}

export type PushSubscriptions = ReturnType<typeof createPushSubscriptions>;
