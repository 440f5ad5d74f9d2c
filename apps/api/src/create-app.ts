import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccessTokens, IgnoredErrors } from '@tally/http-kit';
import type { IdempotencyLayer } from '@tally/idempotency';
import express, { type Express } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createAccountDeletion } from './account/account-deletion';
import { createRevokedUsers } from './account/revoked-users';
import { activityRoutes } from './activity/activity.routes';
import { createActivityService } from './activity/activity.service';
import { apiKeyRoutes } from './api-keys/api-keys.routes';
import { createApiKeys } from './api-keys/api-keys.service';
import { createKeyAuthentication } from './api-keys/key-authentication';
import { createKeyFailures, type KeyFailures } from './api-keys/key-failures';
import { authRoutes, meRoutes } from './auth/auth.routes';
import { createAuthService } from './auth/auth.service';
import { myEmailRoutes, verifyEmailRoutes } from './auth/email.routes';
import { createEmailVerification } from './auth/email-verification';
import type { LoginThrottle } from './auth/login-throttle';
import { changePasswordRoutes, passwordResetRoutes } from './auth/password.routes';
import { createPasswordService } from './auth/password-service';
import { createSessions } from './auth/sessions';
import { sessionRoutes } from './auth/sessions.routes';
import { categoryRoutes } from './categories/categories.routes';
import { createCategoriesService } from './categories/categories.service';
import { commentRoutes } from './comments/comments.routes';
import { createCommentsService } from './comments/comments.service';
import { createExpenseSearch } from './expenses/expense-search';
import { createExpensesService } from './expenses/expenses.service';
import { exportRoutes } from './export/export.routes';
import { fxRoutes } from './fx/fx.routes';
import { createGroupRates } from './fx/group-rates';
import type { RatesProvider } from './fx/rates-provider';
import { createGroupsService } from './groups/groups.service';
import { createInvitesService } from './groups/invites.service';
import { historyRoutes } from './history/history.routes';
import { createHistoryService } from './history/history.service';
import {
  clientIpOf,
  compileTrustProxy,
  DEFAULT_TRUST_PROXY,
  normalizeIp,
  type TrustProxy,
} from './http/client-ip';
import type { CorsOrigins } from './http/cors';
import { errorHandler, routeNotFound } from './http/error-handler';
import { handleAhead } from './http/express-internals';
import { createFastDispatch } from './http/fast-dispatch';
import { createHttpMetrics } from './http/http-metrics';
import type { Shedder } from './http/load-shedding';
import { createPipeline, type Step } from './http/pipeline';
import { type ProbeDeps, probeRoutes } from './http/probe-routes';
import type { Budget } from './http/rate-limit';
import { ok } from './http/reply';
import { type Route, route } from './http/route';
import { outsideSteps, v1Router } from './http/router';
import { requestSteps } from './http/steps';
import { isUpgrade, upgradeRequiredError } from './http/upgrade-required';
import { createWriteRoutes, writeRoutesOf } from './http/write-route';
import { createIdMaker } from './ids';
import { importRoutes } from './imports/imports.routes';
import { createImportsService } from './imports/imports.service';
import type { Announcer } from './ledger/announcer';
import type { GroupGate } from './ledger/group-access';
import { createWriteRunner, type WriteRunner } from './ledger/write-runner';
import { ledgerRoutes } from './ledger.routes';
import { type BackgroundTasks, createBackgroundTasks } from './mail/background';
import { createLogMailer, type Mailer, withMailMetrics } from './mail/mailer';
import { memberRoutes } from './members.routes';
import { notificationRoutes } from './notifications/notifications.routes';
import { createUnsubscribeTokens } from './notifications/unsubscribe-token';
import { docsRoutes, openApiDocument } from './openapi/openapi';
import { createReadRouting } from './read-routing';
import { createDecodeGate } from './receipts/decode-gate';
import { createDirectoryStorage } from './receipts/directory-storage';
import { createReceiptLinks } from './receipts/receipt-links';
import type { ReceiptStorage } from './receipts/receipt-storage';
import { receiptRoutes } from './receipts/receipts.routes';
import { createReceiptsService } from './receipts/receipts.service';
import { recurringRoutes } from './recurring/recurring.routes';
import { createRecurringService } from './recurring/recurring.service';
import { createSettlementsService } from './settlements/settlements.service';
import { createStatsService } from './stats/stats.service';
import { webAppRoutes } from './web-app/web-app';
import { webhookRoutes } from './webhooks/webhooks.routes';
import { createWebhooksService } from './webhooks/webhooks.service';

export type AppDeps = {
  knex: Knex;
  /**
   * The replicas' pool (`DATABASE_READ_URL`): the reads of expenses, balances, search, activity and
   * the exports go there, never behind a state the client names (read-routing.ts). Absent: the primary.
   */
  readKnex?: Knex;
  tokens: AccessTokens;
  logger: Logger;
  registry: Registry;
  /** Publishes every write's committed events (Redis pub/sub or the in-process bus). */
  announcer: Announcer;
  /** The readiness answer (`createReadiness`): PostgreSQL answers and the process is not draining. */
  isReady: ProbeDeps['isReady'];
  /** Per-user and per-IP budgets (API.md §9); absent means unlimited. */
  rateLimits?: { perUser: Budget; perIp: Budget };
  /** Login throttling per account and per client IP (`createLoginThrottle`, API.md §2); absent: none. */
  loginThrottle?: LoginThrottle;
  /** Failed API-key attempts per client IP (`createKeyFailures`, API.md §2.6); absent: counted in this process. */
  apiKeyFailures?: KeyFailures;
  /** Refuses new work with 503 when this process is saturated. */
  loadShedder?: Shedder;
  /** True once the process drains: new work is refused with 503 so the load balancer moves on. */
  isDraining?: () => boolean;
  /** Exactly-once execution of keyed writes (Redis or in-memory store plus the durable record). */
  idempotency?: IdempotencyLayer;
  /** Errors handled by carrying on (a rollback that failed, a readiness check that threw): logged and counted. */
  ignoredErrors?: IgnoredErrors;
  /** Bounds the writes waiting on one group (`createGroupGate`); absent means unbounded. */
  groupGate?: GroupGate;
  /**
   * The process's write runner (`createWriteRunner`), shared with the recurring scheduler so that one
   * group commit, state cache and set of metrics serve every write of the process; absent: the app's own.
   */
  writes?: WriteRunner;
  /** How long a just-rotated refresh token still refreshes (API.md §2). @default 10 */
  refreshReuseGraceSeconds?: number;
  /**
   * The keys a refresh token's successor is derived with (API.md §2, docs/DECISIONS.md): the first
   * derives, every one is tried when a retry looks its successor up. Every process of a deployment
   * must have the same (start.ts passes the JWT secrets). Absent: one random key of this app's own.
   */
  refreshTokenKeys?: readonly string[];
  /** Which peers may tell the client IP in `X-Forwarded-For` (`TRUST_PROXY`). @default loopback only */
  trustProxy?: TrustProxy;
  /** Origins whose pages may call `/v1` from a browser (`CORS_ORIGINS`); absent or empty: no CORS. */
  corsOrigins?: CorsOrigins;
  /** Exchange rates from outside (`FX_PROVIDER`) for converted balances; absent: the groups' own only. */
  ratesProvider?: RatesProvider;
  /**
   * After an account was deleted (API.md §11.3): tells every gateway, so they close the user's
   * WebSockets with 4401 (the bus's control channel). Absent: no gateway is told.
   */
  announceUserRevoked?: (userId: string) => void;
  /**
   * After sessions were signed out (API.md §2.3–§2.4: logout, logout-all, `DELETE
   * /v1/me/sessions/{id}`, reuse detection, a password change or reset): tells every gateway, so they close those sessions' WebSockets with 4401 (the
   * bus's control channel). Absent: no gateway is told.
   */
  announceSessionsRevoked?: (userId: string, sessionIds: readonly string[]) => void;
  /** How long an API process believes an account active before asking again. @default 10000 */
  revokedUsersTtlMs?: number;
  /** The largest import request body (`IMPORT_MAX_BYTES`, API.md §6b). @default 5 MiB */
  importMaxBytes?: number;
  /** The most rows one import may have (`IMPORT_MAX_ROWS`, API.md §6b). @default 10,000 */
  importMaxRows?: number;
  /** Where password reset and email verification mails go (`createSmtpMailer`); absent: a log mailer on `logger`. */
  mailer?: Mailer;
  /** Runs the work of a reset request, and the mails, after their answer; absent: one of this app's own. */
  background?: BackgroundTasks;
  /** The web client's address, the base of reset and verification links (`APP_URL`). @default http://localhost */
  appUrl?: () => string;
  /** How long a reset link works (`PASSWORD_RESET_TTL_SECONDS`). @default 1800 */
  passwordResetTtlSeconds?: number;
  /** Reset mails per account per hour at most (`PASSWORD_RESET_MAX_PER_HOUR`). @default 3 */
  passwordResetMaxPerHour?: number;
  /** Webhooks may name private, loopback, link-local… addresses (`WEBHOOK_ALLOW_PRIVATE_ADDRESSES`). @default false */
  webhookAllowPrivateAddresses?: boolean;
  /**
   * Notifications (API.md §13): the VAPID public key clients subscribe with (absent: no push), the
   * secret unsubscribe links are signed with (every process the same; absent: one of this app's
   * own), and whether plain-http push endpoints are taken (tests).
   */
  notifications?: { vapidPublicKey?: string; unsubscribeSecret?: string; allowHttpEndpoints?: boolean };
  /**
   * Receipts (API.md §16): where files live (absent: a new directory in the OS's temp dir, for
   * tests), the secret download links are signed with (every process the same; absent: one of this
   * app's own), their lifetime, the largest upload, and how many images one process decodes at once.
   */
  receipts?: {
    storage?: ReceiptStorage;
    linkSecret?: string;
    linkTtlSeconds?: number;
    maxBytes?: number;
    decodesAtOnce?: number;
  };
  /** Tests only: steps added at the end of the request pipeline (they run on every `/v1` route). */
  extraSteps?: readonly Step[];
  /** Tests only: the routes as declared, changed (a handler that throws). */
  adjustRoutes?: (routes: readonly Route[]) => readonly Route[];
  /** Tests only: false routes every request through express (no fast dispatch). @default true */
  fastDispatch?: boolean;
};

/** The composition root of the HTTP API: every dependency comes in, nothing is read from the environment. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', 'weak');
  app.set('query parser', 'simple');
  // Behind the load balancer (HAProxy, the ingress controller) the client is in X-Forwarded-For,
  // believed only from the proxies TRUST_PROXY names (default: loopback). `req.ip` is that client
  // IP, always an IP address (http/client-ip.ts): the per-IP budget, the login throttle and the
  // sessions all read it. Express's own `trust proxy` (req.protocol, req.hostname) follows the rule.
  const trustRule = compileTrustProxy(deps.trustProxy ?? DEFAULT_TRUST_PROXY);
  app.set('trust proxy', (address: string, hop: number) => trustRule(normalizeIp(address) ?? '', hop));
  const ipOf = (req: IncomingMessage) => clientIpOf(req, trustRule);
  Object.defineProperty(app.request, 'ip', {
    configurable: true,
    enumerable: true,
    get(this: express.Request) {
      return ipOf(this);
    },
  });

  // The one id maker of this app (its randomness is its own): every id the API makes comes from it.
  const newId = createIdMaker();
  const revokedUsers = createRevokedUsers({ knex: deps.knex, activeTtlMs: deps.revokedUsersTtlMs });
  // Sessions (API.md §2). For a change that ends sessions in its own transaction (a password change
  // or reset): `revokeSessions(trx, …)` from ./auth/sessions, then `sessions.announce(userId, ids)`.
  const sessions = createSessions({
    knex: deps.knex,
    onRevoked: (userId, sessionIds) => {
      revokedUsers.revokeSessions(sessionIds);
      deps.announceSessionsRevoked?.(userId, sessionIds);
    },
  });
  const auth = createAuthService({
    knex: deps.knex,
    newId,
    tokens: deps.tokens,
    refreshReuseGraceSeconds: deps.refreshReuseGraceSeconds,
    refreshTokenKeys: deps.refreshTokenKeys,
    loginThrottle: deps.loginThrottle,
    onSessionsRevoked: sessions.announce,
  });
  const mailer = withMailMetrics(deps.mailer ?? createLogMailer({ logger: deps.logger }), deps.registry);
  const linkBase = deps.appUrl ?? (() => 'http://localhost');
  const passwords = createPasswordService({
    knex: deps.knex,
    mailer,
    logger: deps.logger,
    linkBase,
    resetTtlSeconds: deps.passwordResetTtlSeconds,
    resetMaxPerHour: deps.passwordResetMaxPerHour,
    announceSessionsRevoked: sessions.announce,
  });
  const background = deps.background ?? createBackgroundTasks({ ignoredErrors: deps.ignoredErrors });
  // Email verification and change (API.md §2.5): links mailed like password resets.
  const verification = createEmailVerification({ knex: deps.knex, logger: deps.logger, linkBase });
  const emailDeps = { verification, mailer, background };
  const reads = createReadRouting({ primary: deps.knex, replica: deps.readKnex, registry: deps.registry });
  const writes =
    deps.writes ??
    createWriteRunner({
      knex: deps.knex,
      newId,
      groupGate: deps.groupGate,
      onIgnoredError: deps.ignoredErrors,
      registry: deps.registry,
    });
  const expenses = createExpensesService({ knex: deps.knex, newId });
  const receipts = createReceiptsService({
    knex: deps.knex,
    storage: deps.receipts?.storage ?? createDirectoryStorage(mkdtempSync(join(tmpdir(), 'tally-receipts-'))),
    onIgnoredError: deps.ignoredErrors,
  });
  const receiptLinks = createReceiptLinks({
    secret: deps.receipts?.linkSecret ?? randomUUID(),
    ttlSeconds: deps.receipts?.linkTtlSeconds,
  });
  const accounts = createAccountDeletion({
    knex: deps.knex,
    onReceiptsDeleted: (expenseIds) => {
      for (const expenseId of expenseIds) receipts.forgetExpense(expenseId);
    },
    onDeleted: (userId) => {
      revokedUsers.revoke(userId);
      deps.announceUserRevoked?.(userId);
    },
  });
  const settlements = createSettlementsService({ knex: deps.knex, newId });
  const categories = createCategoriesService({ knex: deps.knex, newId });
  // API keys (API.md §2.6): looked up by hash on every keyed request, so a revoke holds everywhere at once.
  const apiKeys = createApiKeys({ knex: deps.knex, newId });
  const keyAuthentication = createKeyAuthentication({
    apiKeys,
    failures: deps.apiKeyFailures ?? createKeyFailures({ registry: deps.registry, logger: deps.logger }),
  });
  // The one maker of write routes (http/write-route.ts): every keyed write runs its steps.
  const routes = createWriteRoutes({ writes, announcer: deps.announcer, idempotency: deps.idempotency });
  const fx = fxRoutes({ knex: deps.knex, routes, provider: deps.ratesProvider, reads });
  // Every /v1 route, each declared once by its module (method and path from its OpenAPI operation).
  const declared: Route[] = [
    route('openApiDocument', () => ok(openApiDocument())),
    // A plain GET of the WebSocket path: 426, without a token. An upgrade that reaches express was
    // not taken by a gateway (a ROLE=api process serves none): it goes on as any unknown route.
    route(
      'openWebSocket',
      () => {
        throw upgradeRequiredError();
      },
      { access: 'open', declines: isUpgrade },
    ),
    ...authRoutes({ auth, ...emailDeps }),
    ...passwordResetRoutes({ passwords, background }),
    ...verifyEmailRoutes(emailDeps),
    ...meRoutes({ auth }),
    ...sessionRoutes({ sessions }),
    ...apiKeyRoutes({ apiKeys }),
    ...changePasswordRoutes({ passwords }),
    ...myEmailRoutes(emailDeps),
    ...exportRoutes({ reads, logger: deps.logger, accounts, receiptLinks }),
    ...fx.routes,
    ...commentRoutes({
      routes,
      comments: createCommentsService({ knex: deps.knex, newId }),
      search: createExpenseSearch({ knex: deps.knex, expenses }),
      reads,
    }),
    ...ledgerRoutes({
      knex: deps.knex,
      routes,
      groups: createGroupsService({ knex: deps.knex, newId }),
      expenses,
      settlements,
      convertedBalances: fx.convertedBalances,
      reads,
      onExpenseDeleted: receipts.forgetExpense,
    }),
    ...memberRoutes({ routes, invites: createInvitesService({ knex: deps.knex, newId }) }),
    ...recurringRoutes({ routes, recurring: createRecurringService({ knex: deps.knex, newId, expenses }) }),
    ...activityRoutes({ routes, activity: createActivityService({ knex: deps.knex }), reads }),
    ...importRoutes({
      imports: createImportsService({ knex: deps.knex, writes, expenses, settlements, categories }),
      routes,
      announcer: deps.announcer,
      maxBytes: deps.importMaxBytes,
      maxRows: deps.importMaxRows,
    }),
    ...webhookRoutes({
      webhooks: createWebhooksService({
        knex: deps.knex,
        allowPrivateAddresses: deps.webhookAllowPrivateAddresses ?? false,
      }),
    }),
    ...notificationRoutes({
      knex: deps.knex,
      routes,
      tokens: createUnsubscribeTokens(deps.notifications?.unsubscribeSecret ?? randomUUID()),
      appUrl: linkBase,
      vapidPublicKey: deps.notifications?.vapidPublicKey,
      allowHttpEndpoints: deps.notifications?.allowHttpEndpoints,
    }),
    ...historyRoutes({ history: createHistoryService({ knex: deps.knex }) }),
    ...receiptRoutes({
      routes,
      receipts,
      links: receiptLinks,
      gate: createDecodeGate({ running: deps.receipts?.decodesAtOnce ?? 2, waiting: 16 }),
      maxBytes: deps.receipts?.maxBytes,
    }),
    ...categoryRoutes({
      routes,
      categories,
      stats: createStatsService({
        knex: deps.knex,
        provider: deps.ratesProvider,
        groupRates: createGroupRates({ knex: deps.knex }).get,
      }),
      reads,
    }),
  ];
  const v1Routes = deps.adjustRoutes?.(declared) ?? declared;
  // Every write route but auth's, as registered: tests check each is keyed (API.md §7).
  app.locals['writeRoutes'] = writeRoutesOf(v1Routes);

  // The request pipeline (http/steps.ts): the one list of steps every /v1 request runs, whichever
  // way it is routed.
  const metrics = createHttpMetrics(deps.registry);
  const pipeline = createPipeline(
    requestSteps({
      tokens: deps.tokens,
      isRevoked: revokedUsers.isRevoked,
      observe: metrics.observe,
      corsOrigins: deps.corsOrigins,
      loadShedder: deps.loadShedder,
      isDraining: deps.isDraining,
      rateLimits: deps.rateLimits,
      apiKeys: keyAuthentication,
      extraSteps: deps.extraSteps,
    }),
    { logger: deps.logger, etagOf: app.get('etag fn'), ipOf },
  );

  // The API first: `/v1` is where the traffic is. The probes, the docs and the web client come
  // after it (no path overlaps), behind the pipeline's steps that apply to them too.
  app.use('/v1', v1Router(v1Routes, pipeline));
  app.use(outsideSteps(pipeline, ipOf));
  app.use(probeRoutes(deps));
  app.use(docsRoutes('/v1/openapi.json'));
  // The web app at `/` (from the sources, or prebuilt in dist/web-app by `npm run build`).
  app.use(webAppRoutes());
  app.use(routeNotFound);
  app.use(errorHandler(deps.logger, app.get('etag fn')));

  // The fast dispatch (http/fast-dispatch.ts) ahead of express's router: the busiest requests in
  // their plainest spelling go straight to the pipeline, with their route and params.
  if (deps.fastDispatch !== false) {
    const byOperation = (operationId: string): Route => {
      const found = v1Routes.find((r) => r.operationId === operationId);
      if (found === undefined) throw new Error(`no route for ${operationId}`);
      return found;
    };
    const fast = createFastDispatch(pipeline, {
      getExpense: byOperation('getExpense'),
      getBalances: byOperation('getBalances'),
      createExpense: byOperation('createExpense'),
    });
    handleAhead(app, fast);
  }
  return app;
}
