export {
  MemoryTokenStore,
  type StoredTokens,
  TokenManager,
  type TokenManagerOptions,
  type TokenStore,
} from './auth';
export { AuthApi } from './auth-api';
export * from './errors';
export { etagOf } from './etag';
export { type ConditionalWriteOptions, ExpensesApi } from './expenses-api';
export { GroupsApi } from './groups-api';
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
} from './http-client';
export { randomIdempotencyKey } from './idempotency-key';
export {
  Outbox,
  type OutboxDeps,
  type OutboxListeners,
  type OutboxOptions,
  type OutboxRejection,
} from './outbox';
export { fileOutbox, type NodeFsLike } from './outbox-file-storage';
export { type IndexedDbFactoryLike, indexedDbOutbox } from './outbox-indexeddb-storage';
export {
  type AsyncStorageLike,
  asyncStorageOutbox,
  MemoryOutboxStorage,
  type SnapshotBackend,
  snapshotOutboxStorage,
} from './outbox-storage';
export type * from './outbox-types';
export { paginate } from './pages';
export { RealtimeClient } from './realtime';
export type {
  BalancesUpdate,
  ConnectionState,
  PresenceUpdate,
  RealtimeError,
  RealtimeListeners,
  RealtimeOptions,
  RealtimeStats,
  SubscribeOptions,
  SubscriptionHandlers,
  WebSocketConstructor,
  WebSocketLike,
} from './realtime-types';
export { requestOf } from './request-of';
export {
  type AttemptOutcome,
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isRetryableOutcome,
  isRetryableRequest,
  parseRetryAfter,
  type RetryPolicy,
  retryDelay,
} from './retry-policy';
export { SettlementsApi } from './settlements-api';
export { TallyClient, type TallyClientOptions } from './tally-client';
export type * from './types';
export { ulidFactory } from './ulid';
