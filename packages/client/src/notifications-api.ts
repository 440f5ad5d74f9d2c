import type { components } from './generated/openapi.js';
import type { CallOptions, HttpClient } from './http-client.js';

type Schemas = components['schemas'];

/** What the caller is notified of, per kind, by push and by mail (API.md §13.1). */
export type NotificationSettings = Schemas['NotificationSettings'];
/** Any kinds and channels of the settings: those left out keep their value. */
export type NotificationSettingsPatch = Schemas['NotificationSettingsRequest'];
/** A registered browser (API.md §13.2). */
export type PushSubscriptionInfo = Schemas['PushSubscription'];
/** A browser's `PushSubscription.toJSON()`, as `POST /v1/me/push-subscriptions` takes it. */
export type PushSubscriptionJson = Schemas['PushSubscriptionRequest'];
/** A reminder to settle up (API.md §13.5). */
export type Reminder = Schemas['Reminder'];

/** Notification settings, reminders and the one-click unsubscribe link (API.md §13). */
export class NotificationsApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `GET /v1/me/notification-settings`. */
  async getSettings(options: CallOptions = {}): Promise<NotificationSettings> {
    return (
      await this.http.request<NotificationSettings>({
        ...options,
        method: 'GET',
        path: '/v1/me/notification-settings',
      })
    ).data;
  }

  /** `PUT /v1/me/notification-settings`: merges `patch`, answers the whole settings. */
  async putSettings(
    patch: NotificationSettingsPatch,
    options: CallOptions = {},
  ): Promise<NotificationSettings> {
    return (
      await this.http.request<NotificationSettings>({
        ...options,
        method: 'PUT',
        path: '/v1/me/notification-settings',
        body: patch,
        idempotencyKey: false,
      })
    ).data;
  }

  /**
   * `POST /v1/groups/{groupId}/reminders`: reminds `toUserId` of what they owe the caller.
   * `RateLimitedError` (its `retryAfterMs`: up to a day) within a day of the pair's last reminder,
   * `ValidationFailedError` when they owe the caller nothing. Sent without a key, so never retried:
   * a keyed retry would honour a `Retry-After` of up to a day, and a reminder whose answer was lost
   * is found out by the 429 of the next one.
   */
  async remind(groupId: string, toUserId: string, options: CallOptions = {}): Promise<Reminder> {
    return (
      await this.http.request<Reminder>({
        ...options,
        method: 'POST',
        path: `/v1/groups/${encodeURIComponent(groupId)}/reminders`,
        body: { toUserId },
        idempotencyKey: false,
      })
    ).data;
  }

  /** `POST /v1/auth/unsubscribe?token=`: the mail's unsubscribe link, no sign-in needed. */
  async unsubscribe(token: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'POST',
      path: '/v1/auth/unsubscribe',
      query: { token },
      idempotencyKey: false,
      authenticated: false,
    });
  }
}

/** Web Push (API.md §13.2): the VAPID key to subscribe with, and the caller's registered browsers. */
export class PushApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `GET /v1/push/vapid-public-key`: `applicationServerKey` for `PushManager.subscribe`; null: no push. */
  async vapidPublicKey(options: CallOptions = {}): Promise<string | null> {
    return (
      await this.http.request<{ publicKey: string | null }>({
        ...options,
        method: 'GET',
        path: '/v1/push/vapid-public-key',
      })
    ).data.publicKey;
  }

  /** `POST /v1/me/push-subscriptions` with `subscription.toJSON()` (a browser's, or any RFC 8030 client's). */
  async subscribe(
    subscription: PushSubscriptionJson,
    options: CallOptions = {},
  ): Promise<PushSubscriptionInfo> {
    const { endpoint, keys } = subscription;
    return (
      await this.http.request<PushSubscriptionInfo>({
        ...options,
        method: 'POST',
        path: '/v1/me/push-subscriptions',
        body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
        idempotencyKey: false,
      })
    ).data;
  }

  /** `GET /v1/me/push-subscriptions`. */
  async list(options: CallOptions = {}): Promise<PushSubscriptionInfo[]> {
    return (
      await this.http.request<{ data: PushSubscriptionInfo[] }>({
        ...options,
        method: 'GET',
        path: '/v1/me/push-subscriptions',
      })
    ).data.data;
  }

  /** `DELETE /v1/me/push-subscriptions/{id}`; `NotFoundError` for one that is not the caller's. */
  async unsubscribe(subscriptionId: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'DELETE',
      path: `/v1/me/push-subscriptions/${encodeURIComponent(subscriptionId)}`,
      idempotencyKey: false,
    });
  }
}
