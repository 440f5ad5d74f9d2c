export type { GroupEvent } from '@tally/events';
export { type AccessTokens, createAccessTokens } from '@tally/http-kit';
export { createKeyFailures, type KeyFailures, type KeyFailuresOptions } from './api-keys/key-failures';
export { checksumOf, isWellFormedSecret, SECRET_PREFIX } from './api-keys/secret';
export {
  type AuthRecordsSweeper,
  createAuthRecordsSweeper,
  ENDED_SESSION_RETENTION_MS,
  PASSWORD_RESET_RETENTION_MS,
  type SweepResult,
  sweepAuthRecords,
} from './auth/auth-records-sweeper';
export {
  createLoginThrottle,
  LOGIN_THROTTLED_METRIC,
  type LoginThrottle,
  type LoginThrottleOptions,
} from './auth/login-throttle';
export { type AppDeps, createApp } from './create-app';
export { createEcbRatesProvider, ECB_DAILY_URL } from './fx/ecb-rates-provider';
export type { ProviderRates, RatesProvider } from './fx/rates-provider';
export {
  DEFAULT_TRUST_PROXY,
  normalizeIp,
  parseTrustProxy,
  type TrustProxy,
} from './http/client-ip';
export { createLoadShedder } from './http/load-shedding';
export {
  createProbesApp,
  createReadiness,
  type DependencyCheck,
  type Readiness,
  type ReadinessProbe,
} from './http/probe-routes';
export { createRateLimits } from './http/rate-limit';
export { requestContext } from './http/request-context';
export { createIdMaker } from './ids';
export { type Announcer, createAnnouncer } from './ledger/announcer';
export { createGroupGate, type GroupGate } from './ledger/group-access';
export { createWriteRunner, type WriteRunner } from './ledger/write-runner';
export { type BackgroundTasks, createBackgroundTasks } from './mail/background';
export {
  createLogMailer,
  createSmtpMailer,
  DEFAULT_MAIL_FROM,
  type Mail,
  type Mailer,
  withMailMetrics,
} from './mail/mailer';
export { createNotifier, type Notifier } from './notifications/notifier';
export { createPushSender, type PushSender } from './notifications/push-sender';
export { createUnsubscribeTokens } from './notifications/unsubscribe-token';
export { RECURRING_LIMITS } from './recurring/recurring.service';
export {
  createRecurringScheduler,
  RECURRING_SLICES,
  type RecurringScheduler,
  type RecurringSchedulerOptions,
} from './recurring/recurring-scheduler';
export {
  createWebhookDispatcher,
  DEFAULT_RETRY_DELAYS_MS,
  type WebhookDispatcher,
} from './webhooks/webhook-dispatcher';
