import Joi from 'joi';
import type { Knex } from 'knex';
import { jsonColumn } from '../json-column';

/** What a notification is about: one preference each (API.md §13.1). */
export const NOTIFICATION_KINDS = [
  'expense',
  'comment',
  'settlement',
  'recurring',
  'inviteAccepted',
  'reminder',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export type Channel = 'push' | 'email';

/** Per kind, per channel; the weekly digest is mail only. */
export type NotificationSettings = Record<NotificationKind, Record<Channel, boolean>> & {
  digest: { email: boolean };
};

/**
 * The defaults: push for everything that concerns the user; mail only for what matters without
 * the app open (money paid to or by the user, a reminder, the weekly digest).
 */
export const DEFAULT_SETTINGS: NotificationSettings = Object.freeze({
  expense: { push: true, email: false },
  comment: { push: true, email: false },
  settlement: { push: true, email: true },
  recurring: { push: true, email: false },
  inviteAccepted: { push: true, email: false },
  reminder: { push: true, email: true },
  digest: { email: true },
}) as NotificationSettings;

const channels = Joi.object({ push: Joi.boolean().strict(), email: Joi.boolean().strict() });

/** `PUT /v1/me/notification-settings`: any kinds and channels; those left out keep their value. */
export const notificationSettingsBody = Joi.object({
  ...Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channels])),
  digest: Joi.object({ email: Joi.boolean().strict() }),
}).label('NotificationSettingsRequest');

type SettingsPatch = Partial<Record<NotificationKind, Partial<Record<Channel, boolean>>>> & {
  digest?: { email?: boolean };
};

/** The stored settings over the defaults (a kind added later takes its default). */
export function withDefaults(stored: unknown): NotificationSettings {
  const patch = (stored ?? {}) as SettingsPatch;
  return merge(DEFAULT_SETTINGS, patch);
}

function merge(base: NotificationSettings, patch: SettingsPatch): NotificationSettings {
  const kinds = Object.fromEntries(
    NOTIFICATION_KINDS.map((kind) => [kind, { ...base[kind], ...patch[kind] }]),
  ) as Record<NotificationKind, Record<Channel, boolean>>;
  return { ...kinds, digest: { ...base.digest, ...patch.digest } };
}

/** Whether `settings` let a notification of `kind` go out on `channel`. */
export function isWanted(
  settings: NotificationSettings,
  kind: NotificationKind | 'digest',
  channel: Channel,
) {
  if (kind === 'digest') return channel === 'email' && settings.digest.email;
  return settings[kind][channel];
}

export function createNotificationSettings(deps: { knex: Knex }) {
  const { knex } = deps;
  const read = async (db: Knex | Knex.Transaction, userId: string): Promise<NotificationSettings> => {
    const row = await db('notification_settings').where({ user_id: userId }).first('settings');
    return withDefaults(row ? jsonColumn(row.settings) : undefined);
  };
  return {
    read: (userId: string) => read(knex, userId),
    /** Several users' settings at once (the recipients of one event). */
    async readMany(userIds: readonly string[]): Promise<Map<string, NotificationSettings>> {
      const rows: { user_id: string; settings: unknown }[] = userIds.length
        ? await knex('notification_settings').whereIn('user_id', userIds).select('user_id', 'settings')
        : [];
      const stored = new Map(rows.map((r) => [r.user_id, jsonColumn(r.settings)]));
      return new Map(userIds.map((id) => [id, withDefaults(stored.get(id))]));
    },
    /** Merges `patch` into the user's settings under the row's lock; answers the result. */
    update(userId: string, patch: SettingsPatch): Promise<NotificationSettings> {
      return knex.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`notification_settings:${userId}`]);
        const next = merge(await read(trx, userId), patch);
        await trx('notification_settings')
          .insert({ user_id: userId, settings: JSON.stringify(next), updated_at: new Date() })
          .onConflict('user_id')
          .merge();
        return next;
      });
    },
  };
}

export type NotificationSettingsStore = ReturnType<typeof createNotificationSettings>;
