/**
 * The environment variables the service reads, each declared once (config.ts parses them; the docs
 * and the manifests' checks read these declarations).
 */
import { DEFAULT_TRUST_PROXY, parseTrustProxy, type TrustProxy } from '@tally/api';
import Joi from 'joi';
import {
  checkDatabaseUrl,
  integer,
  parseCorsOrigins,
  parsedBy,
  parseRedisClusterNodes,
  type RedisClusterConfig,
} from './values';

const ROLES = ['all', 'api', 'gateway'] as const;
export type Role = (typeof ROLES)[number];

// ---------------------------------------------------------------------------------------------------
// The environment variables, each declared once
//
// A variable is one entry `NAME: Joi.<type><T>()…` (or `integer(…)`, a Joi number): its validation
// and default are the Joi schema's, its meaning is the schema's `.description()`, its group is the
// object it sits in. From these come the parsed `Config` (field: the variable in camelCase, but for
// config.ts's FIELD_NAMES; type: the `T` of the schema, `| undefined` where the variable has no default) and
// docs/API.md §10
// (`node --import tsx apps/server/src/config/gen-docs.ts`; config/docs.test.ts fails when they differ).

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const FAULT_POINTS = ['after-claim', 'before-commit', 'after-commit'] as const;

const processVariables = {
  PORT: integer({ min: 0, max: 65535, default: 3000 }, 'Listen port (`0`: any free port).'),
  ROLE: Joi.string<Role>()
    .valid(...ROLES)
    .default('all')
    .description(
      '`all`: the HTTP API and the WebSocket gateway in one process; `api`: the HTTP API only; `gateway`: `/v1/ws` and the probes (`/healthz`, `/readyz`, `/metrics`) only. `api` and `gateway` need `REDIS_URL` or `REDIS_CLUSTER_NODES`.',
    ),
  NODE_ENV: Joi.string()
    .default('development')
    .description(
      '`production` makes `JWT_SECRET` required (as `ROLE` other than `all` and `DATABASE_URL` do).',
    ),
  LOG_LEVEL: Joi.string<(typeof LOG_LEVELS)[number]>()
    .valid(...LOG_LEVELS)
    .default('info')
    .description(
      'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines on stdout.',
    ),
  BOOT_DB_TIMEOUT_SECONDS: integer(
    { min: 0, default: 300 },
    'At start-up, how long the process keeps retrying (exponential backoff, 250 ms doubling to 5 s) to reach PostgreSQL and run the migrations while it is unreachable, starting up or restarting; then it exits 1. It listens meanwhile: `/healthz` 200, `/readyz` and everything else 503. `0`: one attempt.',
  ),
  SHUTDOWN_TIMEOUT_SECONDS: integer(
    { min: 1, default: 25 },
    'On SIGTERM/SIGINT, the longest wait for in-flight requests to finish before connections are closed.',
  ),
};

const databaseVariables = {
  DATABASE_URL: Joi.string<string | undefined>()
    .empty('')
    .custom(parsedBy(checkDatabaseUrl))
    .description(
      "`postgres://` or `postgresql://` URL of PostgreSQL, or libpq's multi-host form (`postgres://u@h1:5432,h2:5432/tally?target_session_attrs=read-write`): hosts tried in turn for a session that fits. Unset: embedded PGlite in `DATA_DIR/pg` (a single process only).",
    ),
  DATABASE_READ_URL: Joi.string<string | undefined>()
    .empty('')
    .custom(parsedBy(checkDatabaseUrl))
    .description(
      "Where the reads of expenses, balances, search, activity and the exports go: a replica (a hot standby streaming from the primary; CloudNativePG's `-ro` service), one host or libpq's multi-host form (`target_session_attrs=prefer-standby` or `read-only`). A read never shows an older state than the client names in `X-Min-Seq`: a replica behind it leaves the read to the primary, as does a replica that is down (API.md §1). A pool of `DB_POOL_MAX` connections of its own. Needs `DATABASE_URL`. Unset: every read goes to `DATABASE_URL`.",
    ),
  DATA_DIR: Joi.string()
    .default('./data')
    .description(
      'Where the embedded database (`DATA_DIR/pg`) and the generated JWT secret (`DATA_DIR/jwt-secret`) live.',
    ),
  DB_POOL_MAX: integer(
    { min: 1, max: 1000, default: 10 },
    "PostgreSQL connections per process (1–1000); size PostgreSQL's `max_connections` for (processes × this).",
  ),
  DB_POOL_ACQUIRE_TIMEOUT_MS: integer(
    { min: 1, default: 3000 },
    "Longest wait for a pooled PostgreSQL connection, and for a write's turn on a busy group; then `503 unavailable` instead of a hang.",
  ),
  DB_STATEMENT_TIMEOUT_MS: integer(
    { min: 0, default: 5000 },
    "PostgreSQL cancels a statement of this process running longer (`statement_timeout` on every connection; `0`: PostgreSQL's own setting); the request gets `503 unavailable`. Not applied to the embedded database.",
  ),
  DB_LOCK_TIMEOUT_MS: integer(
    { min: 0, default: 2000 },
    "PostgreSQL gives up a lock wait (a write queued behind another change to the same group) after this long (`lock_timeout`; `0`: PostgreSQL's own setting); the request gets `503 unavailable`. Keep it below `DB_STATEMENT_TIMEOUT_MS`.",
  ),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: integer(
    { min: 0, default: 10000 },
    "PostgreSQL ends a session left idle inside a transaction this long (`idle_in_transaction_session_timeout`; `0`: PostgreSQL's own setting), so a stalled process cannot keep a group's row lock.",
  ),
  EVENT_RETENTION_DAYS: Joi.number<number | undefined>()
    .integer()
    .min(0)
    .max(36500)
    .empty(Joi.valid('', 0))
    .description(
      "Days the event log is kept (up to 36500). Unset, empty or `0`: for ever. Older events go a whole daily partition at a time, and a client resuming from before them gets `resync_required`. Never shorter than `IDEMPOTENCY_TTL_SECONDS`: a durable idempotency record may point at its write's event.",
    ),
};

const redisVariables = {
  REDIS_URL: Joi.string<string | undefined>()
    .uri({ scheme: ['redis', 'rediss'] })
    .empty('')
    .description(
      '`redis://` or `rediss://` URL of one Redis: idempotency store, rate-limit counters, event bus, presence. Unset (and no `REDIS_CLUSTER_NODES`): in-process equivalents, allowed only with `ROLE=all`. Boot waits up to 5 s for it, then keeps reconnecting.',
    ),
  REDIS_CLUSTER_NODES: Joi.string<RedisClusterConfig | undefined>()
    .empty('')
    .custom(parsedBy(parseRedisClusterNodes))
    .description(
      'A Redis Cluster instead of one Redis: comma-separated `host:port` of any of its nodes, or `redis://`/`rediss://` URLs (the same credentials on every entry). Set together with `REDIS_URL`, start-up stops.',
    ),
};

const authVariables = {
  // Required outside the single embedded node: two pods with generated secrets would reject each
  // other's tokens (checked below, with the other cross-variable rules).
  JWT_SECRET: Joi.string<string | undefined>()
    .min(32)
    .empty('')
    .description(
      'HS256 signing key, at least 32 characters. Required unless the process is the single embedded node (`ROLE=all`, no `DATABASE_URL`, `NODE_ENV` not `production`), where a generated one is kept in `DATA_DIR/jwt-secret`.',
    ),
  JWT_SECRET_PREVIOUS: Joi.string<string | undefined>()
    .min(32)
    .empty('')
    .invalid(Joi.ref('JWT_SECRET'))
    .description(
      'A retired signing key (at least 32 characters, not `JWT_SECRET`) still accepted when verifying access tokens, so a rotation logs nobody out; new tokens are signed with `JWT_SECRET`.',
    ),
  JWT_AUDIENCE: Joi.string()
    .trim()
    .min(1)
    .max(200)
    .default('tally')
    .description(
      "The `aud` claim written into access tokens and required of every token presented: deployments that share `JWT_SECRET` but not `JWT_AUDIENCE` refuse each other's tokens.",
    ),
  ACCESS_TOKEN_TTL_SECONDS: integer({ min: 1, default: 900 }, 'Access token lifetime.'),
  REFRESH_REUSE_GRACE_SECONDS: integer(
    { min: 0, max: 300, default: 10 },
    '0–300: a refresh token presented again this soon after its rotation (a retried refresh) answers the same successor token as the first time instead of revoking its family. `0`: strict rotation.',
  ),
};

const idempotencyVariables = {
  IDEMPOTENCY_TTL_SECONDS: integer(
    { min: 1, default: 86400 },
    'How long a recorded response is kept for replay, in the store and in PostgreSQL; after it the key counts as unseen.',
  ),
  IDEMPOTENCY_LEASE_SECONDS: integer(
    { min: 1, max: 300, default: 10 },
    '1–300: the in-flight lease on a key, renewed once a write outlives a third of it; a retry takes over at once the lease of a process that has died.',
  ),
  IDEMPOTENCY_IN_PROGRESS_WAIT_MS: integer(
    { min: 0, max: 10000, default: 2000 },
    '0–10000: how long a request whose key a live process holds waits for that outcome, replaying it if it comes, before answering `409 idempotency_key_in_progress`. `0`: answer at once.',
  ),
};

const httpVariables = {
  TRUST_PROXY: Joi.string<TrustProxy>()
    .empty('')
    .custom(parsedBy(parseTrustProxy))
    .default(() => DEFAULT_TRUST_PROXY)
    .description(
      'Which peers are proxies whose `X-Forwarded-For` tells the client IP (the per-IP `/v1/auth` budget, the login throttle and the sessions’ `ip` use it): a hop count (`0`–`16`: that many proxies in front of every request, whatever their address; `0`: the socket’s peer is the client), or comma-separated addresses and CIDRs (`10.0.0.0/8`, `fd00::/8`) and the names `loopback`, `linklocal`, `uniquelocal`. The client IP is the nearest address not trusted (or the farthest given), always an IP address. Unset: `loopback` (a proxy on the same machine only).',
    ),
  CORS_ORIGINS: Joi.string<'*' | readonly string[]>()
    .empty('')
    .custom(parsedBy((text) => Object.freeze(parseCorsOrigins(text))))
    .default(() => Object.freeze([]))
    .description(
      'Origins whose pages may call `/v1` from a browser: exact origins, comma-separated, or `*` alone for any. Unset: no CORS headers.',
    ),
  ACCOUNT_STATUS_TTL_MS: integer(
    { min: 0, max: 900000, default: 10000 },
    'How long an API process believes an account it found active (and a session live) before reading its status again (API.md §11.3, §2): a deleted account’s or a signed-out session’s access token is refused by the other processes at most this long after the deletion or sign-out; the read costs one round trip per user and session per period.',
  ),
  IMPORT_MAX_BYTES: integer(
    { min: 65536, max: 104857600, default: 5242880 },
    '64 KiB–100 MiB: the largest request body of `POST /v1/groups/{groupId}/imports` (a Splitwise export in JSON; 10,000 rows of 30 people with 200-character descriptions take under 4 MiB); every other body stays at 64 KiB. Over it: `413 payload_too_large`.',
  ),
  IMPORT_MAX_ROWS: integer(
    { min: 1, max: 100000, default: 10000 },
    '1–100000: the most expense and payment rows one Splitwise import may have (API.md §6b); a file with more is refused whole, `422 limit_exceeded` (`importRows`), nothing written.',
  ),
  RATE_LIMIT_PER_MINUTE: integer(
    { min: 1, default: 600 },
    'Requests per fixed one-minute window, per user on authenticated `/v1` routes (`/v1/auth/*` has its own: `AUTH_RATE_LIMIT_PER_MINUTE`).',
  ),
  AUTH_RATE_LIMIT_PER_MINUTE: integer(
    { min: 1, default: 60 },
    'Requests per fixed one-minute window per client IP on `/v1/auth/*` (register, login, refresh), distinct from `RATE_LIMIT_PER_MINUTE`; over it: `429 rate_limited`. Raise it where many users share one IP (NAT, an office proxy).',
  ),
  LOGIN_THROTTLE_ACCOUNT_FREE_FAILURES: integer(
    { min: 1, default: 5 },
    'Login attempts per account (the email, registered or not) before each further one locks it for a doubling delay (`LOGIN_THROTTLE_FIRST_DELAY_SECONDS`, twice that, four times … up to `LOGIN_THROTTLE_MAX_DELAY_SECONDS`); a successful login resets it (API.md §2).',
  ),
  LOGIN_THROTTLE_IP_FREE_FAILURES: integer(
    { min: 1, default: 20 },
    'Failed login attempts per client IP (an IPv6 address by its /64) before each further one locks the IP for a doubling delay; a successful login takes its attempt back (API.md §2).',
  ),
  LOGIN_THROTTLE_FIRST_DELAY_SECONDS: integer(
    { min: 1, max: 86400, default: 1 },
    'The first lock of the login throttle (API.md §2), in seconds; each further one doubles, up to `LOGIN_THROTTLE_MAX_DELAY_SECONDS`.',
  ),
  LOGIN_THROTTLE_MAX_DELAY_SECONDS: integer(
    { min: 1, max: 86400, default: 900 },
    'The longest lock of the login throttle (API.md §2), in seconds.',
  ),
  LOGIN_THROTTLE_DECAY_SECONDS: integer(
    { min: 1, max: 86400, default: 900 },
    'How long the login throttle remembers an account’s or an IP’s attempts after the last one (or after its lock ends), in seconds.',
  ),
  API_KEY_FAILURES_PER_IP: integer(
    { min: 1, default: 20 },
    'Failed API-key attempts (unknown, revoked, expired or malformed `tally_sk_…` keys) per client IP in `API_KEY_FAILURE_WINDOW_SECONDS` before every key request from that IP is `429 rate_limited` until the window ends (API.md §2.6).',
  ),
  API_KEY_FAILURE_WINDOW_SECONDS: integer(
    { min: 1, max: 86400, default: 900 },
    'The window of `API_KEY_FAILURES_PER_IP`, from an IP’s first failed API-key attempt, in seconds.',
  ),
  MAX_IN_FLIGHT: integer(
    { min: 1, default: 512 },
    'Most requests in flight in one process; with that many, a new one gets `503 unavailable` (load shedding).',
  ),
  MAX_EVENT_LOOP_DELAY_MS: integer(
    { min: 10, default: 1000 },
    'Event-loop delay (p99 over the last second, at least 10) above which new requests get `503 unavailable`.',
  ),
  MAX_WRITES_WAITING_PER_GROUP: integer(
    { min: 1, default: 64 },
    'Writes to one group one process lets run or wait at once (one at a time goes on to the database); one more gets `503 unavailable` at once.',
  ),
  RECURRING_POLL_MS: integer(
    { min: 0, max: 3600000, default: 30000 },
    'How often each API process looks for due occurrences of recurring expenses and creates them (API.md §6a), in ms; every process does, without a leader. `0`: this process creates none.',
  ),
  // Webhooks (API.md §12): every API process sends them, without a leader.
  WEBHOOK_POLL_MS: integer(
    { min: 0, max: 60000, default: 500 },
    'How often each API process looks for webhook endpoints with events to send (API.md §12.3), in ms; a write in this process wakes it at once. `0`: this process sends none.',
  ),
  WEBHOOK_CONCURRENCY: integer(
    { min: 1, max: 1000, default: 32 },
    '1–1000: webhook endpoints one API process sends to at once (each one delivery at a time, in order).',
  ),
  WEBHOOK_TIMEOUT_MS: integer(
    { min: 100, max: 60000, default: 10000 },
    '100–60000: a webhook attempt without its answer by then fails (and is retried).',
  ),
  WEBHOOK_LEASE_MS: integer(
    { min: 1000, max: 600000, default: 60000 },
    '1000–600000: how long a process’s claim of a webhook endpoint lasts unrenewed (renewed after each attempt): the wait before another process takes over from one that died. At least `WEBHOOK_TIMEOUT_MS` + 1 s (a shorter one is raised to that).',
  ),
  WEBHOOK_RETRY_DELAYS_MS: Joi.string()
    .pattern(/^\d{1,9}(,\d{1,9}){0,19}$/)
    .default('5000,300000,1800000,7200000,18000000,36000000,36000000')
    .description(
      'The waits after the 1st, 2nd… failed attempt of a delivery, in ms, comma-separated (1–20 of them), each with ±20 % jitter; after the last the endpoint is disabled. The default (about 28 h) is Svix’s.',
    ),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: Joi.boolean()
    .default(false)
    .description(
      '`true` lets webhooks reach private, loopback, link-local, unique-local, CGNAT and other non-public addresses (tests, a receiver on the same network). Off, such an address is refused at registration and at every attempt (SSRF).',
    ),
};

const webSocketVariables = {
  WS_HEARTBEAT_MS: integer(
    { min: 100, max: 300000, default: 25000 },
    '100–300000: WebSocket ping interval, sent to clients as `heartbeatMs`; a connection that has neither answered the last ping nor taken any bytes since is dropped.',
  ),
  WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: integer(
    { min: 1, default: 100 },
    'Groups one WebSocket connection may subscribe to; one more is answered `limit_exceeded`.',
  ),
  WS_MAX_MESSAGES_PER_SECOND: integer(
    { min: 1, default: 50 },
    'Messages one WebSocket connection may send per second; the next one closes it with 1008.',
  ),
  WS_MAX_CONNECTIONS_PER_USER: integer(
    { min: 1, default: 20 },
    'Open WebSocket connections of one user on one gateway process; the upgrade of one more gets `429 rate_limited`.',
  ),
  WS_ALLOW_QUERY_TOKEN: Joi.boolean()
    .empty('')
    .description(
      'Whether `/v1/ws?access_token=` (the token in the URL, which proxies and access logs keep) is accepted; when false such an upgrade gets `401`. Unset: `true` for the single embedded node (`ROLE=all`, no `DATABASE_URL`, `NODE_ENV` not `production`), `false` otherwise. Use the `Authorization` header or the first `auth` message instead.',
    ),
  WS_AUTH_TIMEOUT_MS: integer(
    { min: 100, max: 60000, default: 5000 },
    '100–60000: a WebSocket opened without a token must send `{"type":"auth"}` within this long, or it is closed with 4401.',
  ),
};

const FX_PROVIDERS = ['none', 'ecb'] as const;

const fxVariables = {
  FX_PROVIDER: Joi.string<(typeof FX_PROVIDERS)[number]>()
    .valid(...FX_PROVIDERS)
    .default('none')
    .description(
      'Where converted balances (`GET …/balances?in=`) take the rates a group does not set itself: `none` (only the groups’ own rates) or `ecb` (the European Central Bank’s daily euro reference rates, fetched from `FX_ECB_URL`).',
    ),
  FX_ECB_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml')
    .description('The ECB’s `eurofxref-daily.xml` document (with `FX_PROVIDER=ecb`).'),
  FX_CACHE_SECONDS: integer(
    { min: 1, default: 3600 },
    'How long fetched provider rates are used before they are fetched again (in the background; the old ones are served meanwhile, and kept when a fetch fails).',
  ),
  FX_FETCH_TIMEOUT_MS: integer(
    { min: 100, max: 60000, default: 5000 },
    '100–60000: a fetch of the provider’s rates that takes longer is abandoned (and counts as failed).',
  ),
};

const mailVariables = {
  SMTP_URL: Joi.string<string | undefined>()
    .uri({ scheme: ['smtp', 'smtps'] })
    .empty('')
    .description(
      '`smtp://user:pass@host:587` (STARTTLS where offered) or `smtps://user:pass@host:465` (TLS): the SMTP server password reset mails go through. Unset: each mail, its reset link included, is written to the log at `info` instead (the embedded default; set it in production).',
    ),
  MAIL_FROM: Joi.string()
    .trim()
    .min(3)
    .max(320)
    .default('Tally <no-reply@tally.invalid>')
    .description('The `From` of every mail, e.g. `Tally <no-reply@example.com>`.'),
  APP_URL: Joi.string<string | undefined>()
    .uri({ scheme: ['http', 'https'] })
    .empty('')
    .description(
      'Where users open the web app: reset links in mails are `APP_URL/#reset=<token>`. Unset: `http://localhost:PORT`, this process’s own web app.',
    ),
  PASSWORD_RESET_TTL_SECONDS: integer(
    { min: 1, max: 86400, default: 1800 },
    '1–86400: how long a password reset link works (once).',
  ),
  PASSWORD_RESET_MAX_PER_HOUR: integer(
    { min: 1, max: 100, default: 3 },
    '1–100: reset mails one account gets per hour at most; further requests are answered alike but send nothing.',
  ),
};

// Notifications (API.md §13).
const notificationVariables = {
  VAPID_PUBLIC_KEY: Joi.string<string | undefined>()
    .pattern(/^[A-Za-z0-9_-]{80,100}$/)
    .empty('')
    .description(
      'The VAPID public key push is signed with (RFC 8292; base64url, as `npx web-push generate-vapid-keys` prints it). Set with `VAPID_PRIVATE_KEY`, both or neither; every process of a deployment the same, for good (browsers subscribe with it). Neither: generated once and kept in `DATA_DIR/vapid-keys.json` (the embedded default).',
    ),
  VAPID_PRIVATE_KEY: Joi.string<string | undefined>()
    .pattern(/^[A-Za-z0-9_-]{40,50}$/)
    .empty('')
    .description('The VAPID private key (base64url), with `VAPID_PUBLIC_KEY`.'),
  VAPID_SUBJECT: Joi.string()
    .pattern(/^(mailto:|https:\/\/)\S+$/)
    .max(300)
    .default('mailto:no-reply@tally.invalid')
    .description(
      'How push services reach the operator (a `mailto:` or `https:` URL), sent in every VAPID token.',
    ),
  NOTIFY_POLL_MS: integer(
    { min: 0, max: 3600000, default: 2000 },
    'How often each API process turns new events into notifications, queues the weekly digests and sends what is due (API.md §13), in ms; every process does, without a leader. `0`: this process sends none.',
  ),
  PUSH_TIMEOUT_MS: integer(
    { min: 100, max: 60000, default: 10000 },
    '100–60000: a push service that has not answered within this long counts as failed (retried later).',
  ),
  PUSH_ALLOW_PRIVATE_ENDPOINTS: Joi.boolean()
    .default(false)
    .description(
      'Whether push endpoints may be plain `http` and resolve to loopback, private or link-local addresses. Off (the default), such a subscription is refused or never reached: endpoints are URLs clients give. For tests and a push service inside the network.',
    ),
};

// Receipts on file (API.md §16).
const receiptVariables = {
  RECEIPT_STORAGE: Joi.string<'directory' | 's3'>()
    .valid('directory', 's3')
    .default('directory')
    .description(
      'Where receipt files live: `directory` (`DATA_DIR/receipts`, the embedded default; a fleet would need that folder shared) or `s3` (an S3-compatible bucket, `RECEIPT_S3_*`: every process sees the same files).',
    ),
  RECEIPT_MAX_BYTES: integer(
    { min: 65536, max: 52428800, default: 10485760 },
    '64 KiB–50 MiB: the largest receipt upload (`PUT /v1/expenses/{expenseId}/receipt`, held in memory while it is decoded); over it: `413 payload_too_large` naming `receiptBytes`.',
  ),
  RECEIPT_DECODES_AT_ONCE: integer(
    { min: 1, max: 16, default: 2 },
    '1–16: receipt images one API process decodes and re-encodes at once (each takes a libuv thread, or a worker thread for HEIC, and up to about 4 bytes a pixel); 16 more wait, one more is `503 unavailable`.',
  ),
  RECEIPT_LINK_SECRET: Joi.string<string | undefined>()
    .min(32)
    .empty('')
    .description(
      'The HMAC key of receipt download links, at least 32 characters, every process the same. Unset: derived from `JWT_SECRET` (which every process shares). Changing it voids the links given out.',
    ),
  RECEIPT_LINK_TTL_SECONDS: integer(
    { min: 10, max: 3600, default: 300 },
    '10–3600: how long a receipt download link is good (the links of `GET /v1/me/export` are good for a day).',
  ),
  RECEIPT_S3_BUCKET: Joi.string<string | undefined>()
    .empty('')
    .description(
      'The bucket of `RECEIPT_STORAGE=s3` (required then). Keep it private: files are served only through the API’s signed links.',
    ),
  RECEIPT_S3_ENDPOINT: Joi.string<string | undefined>()
    .uri({ scheme: ['http', 'https'] })
    .empty('')
    .description('An S3-compatible endpoint (MinIO, Ceph, R2…); unset: AWS S3 of `RECEIPT_S3_REGION`.'),
  RECEIPT_S3_REGION: Joi.string().default('us-east-1').description('The bucket’s region.'),
  RECEIPT_S3_FORCE_PATH_STYLE: Joi.boolean()
    .default(false)
    .description(
      'Address the bucket in the path (`endpoint/bucket/key`), as most S3-compatible servers want.',
    ),
  RECEIPT_S3_ACCESS_KEY_ID: Joi.string<string | undefined>()
    .empty('')
    .description(
      'With `RECEIPT_S3_SECRET_ACCESS_KEY`, both or neither; neither: the AWS SDK’s default chain (instance role, `AWS_*` variables).',
    ),
  RECEIPT_S3_SECRET_ACCESS_KEY: Joi.string<string | undefined>()
    .empty('')
    .description('The secret of `RECEIPT_S3_ACCESS_KEY_ID`.'),
  RECEIPT_S3_KEY_PREFIX: Joi.string()
    .pattern(/^([A-Za-z0-9._-]+\/)*$/)
    .empty('')
    .default('')
    .description('Prepended to every object key (e.g. `receipts/`), so the bucket may hold other things.'),
};

const testVariables = {
  TALLY_TEST_FAULT_POINT: Joi.string<(typeof FAULT_POINTS)[number] | undefined>()
    .valid(...FAULT_POINTS)
    .empty('')
    .description(
      'Tests only, and honoured only with `NODE_ENV=test` (otherwise ignored with a warning): `after-claim`, `before-commit` or `after-commit`, where the process SIGKILLs itself the first time a keyed write gets there.',
    ),
  TALLY_TEST_CLOCK_OFFSET_MS: integer(
    { default: 0 },
    'Tests only, and honoured only with `NODE_ENV=test`: ms added to the clock the recurring-expense scheduler compares due dates with (docs/TESTING.md). Ignored otherwise.',
  ),
};

/** The variables by group, in the order docs/API.md §10 lists them. */
export const CONFIG_GROUPS = [
  { title: 'Process', variables: processVariables },
  { title: 'Database', variables: databaseVariables },
  { title: 'Redis', variables: redisVariables },
  { title: 'Authentication', variables: authVariables },
  { title: 'Idempotency', variables: idempotencyVariables },
  { title: 'HTTP API', variables: httpVariables },
  { title: 'WebSocket gateway', variables: webSocketVariables },
  { title: 'Currency conversion', variables: fxVariables },
  { title: 'Mail and password reset', variables: mailVariables },
  { title: 'Notifications', variables: notificationVariables },
  { title: 'Receipts', variables: receiptVariables },
  { title: 'Tests', variables: testVariables },
] as const;

export const VARIABLES = {
  ...processVariables,
  ...databaseVariables,
  ...redisVariables,
  ...authVariables,
  ...idempotencyVariables,
  ...httpVariables,
  ...webSocketVariables,
  ...fxVariables,
  ...mailVariables,
  ...notificationVariables,
  ...receiptVariables,
  ...testVariables,
};

/** Every environment variable the service reads. */
export const CONFIG_VARIABLES = Object.keys(VARIABLES) as readonly (keyof typeof VARIABLES)[];
