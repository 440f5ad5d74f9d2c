export { ActivityApi } from './activity-api.js';
export { ApiKeysApi, ApiKeyTokenStore } from './api-keys-api.js';
export {
  MemoryTokenStore,
  type StoredTokens,
  TokenManager,
  type TokenManagerOptions,
  type TokenStore,
} from './auth.js';
export { AuthApi } from './auth-api.js';
export { CategoriesApi } from './categories-api.js';
export { CommentsApi, type CommentTarget } from './comments-api.js';
export * from './errors.js';
export { etagOf } from './etag.js';
export { type ConditionalWriteOptions, ExpensesApi } from './expenses-api.js';
export { GroupsApi } from './groups-api.js';
export { HistoryApi, type HistoryTarget, mergeTimeline, type TimelineEntry } from './history-api.js';
export {
  type CallOptions,
  defaultSleep,
  type FetchInit,
  type FetchLike,
  type FetchResponse,
  HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type HttpResponse,
  type RetryInfo,
  type Sleep,
  type WriteOptions,
} from './http-client.js';
export { randomIdempotencyKey } from './idempotency-key.js';
export { ImportsApi } from './imports-api.js';
export { InvitesApi } from './invites-api.js';
export { MeApi, type MyDataExport } from './me-api.js';
export {
  type NotificationSettings,
  type NotificationSettingsPatch,
  NotificationsApi,
  PushApi,
  type PushSubscriptionInfo,
  type PushSubscriptionJson,
  type Reminder,
} from './notifications-api.js';
export {
  Outbox,
  type OutboxDeps,
  type OutboxListeners,
  type OutboxOptions,
  type OutboxPaused,
  type OutboxRejection,
} from './outbox.js';
export { fileOutbox, type NodeFsLike } from './outbox-file-storage.js';
export { type IndexedDbFactoryLike, indexedDbOutbox } from './outbox-indexeddb-storage.js';
export {
  type AsyncStorageLike,
  asyncStorageOutbox,
  MemoryOutboxStorage,
  type SnapshotBackend,
  snapshotOutboxStorage,
} from './outbox-storage.js';
export type * from './outbox-types.js';
export { paginate } from './pages.js';
export { RealtimeClient } from './realtime.js';
export type {
  ActivityNotice,
  BalancesUpdate,
  ConnectionState,
  GroupSubscription,
  PresenceUpdate,
  RealtimeError,
  RealtimeListeners,
  RealtimeOptions,
  RealtimeStats,
  SubscribedInfo,
  SubscribeOptions,
  SubscriptionHandlers,
  WebSocketConstructor,
  WebSocketLike,
} from './realtime-types.js';
export { type ReceiptFile, ReceiptsApi } from './receipts-api.js';
export { RecurringApi } from './recurring-api.js';
export { requestOf } from './request-of.js';
export * from './retry-policy.js';
export { MAX_MIN_SEQ_ENTRIES, SeenStates } from './seen-states.js';
export { SessionsApi } from './sessions-api.js';
export { SettlementsApi } from './settlements-api.js';
export { TallyClient, type TallyClientOptions } from './tally-client.js';
export type * from './types.js';
export { ulidFactory } from './ulid.js';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
} from './verify-webhook.js';
export {
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointPatch,
  type WebhookEndpointRequest,
  type WebhookEndpointWithSecret,
  WebhooksApi,
} from './webhooks-api.js';
