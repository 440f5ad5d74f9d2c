import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessTokens, IgnoredErrors } from '@tally/http-kit';
import { unavailable } from '@tally/http-kit';
import type { IdempotencyLayer } from '@tally/idempotency';
import express, { type Express, type RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createAccountDeletion } from './account/account-deletion';
import { createRevokedUsers } from './account/revoked-users';
import { activityRoutes } from './activity/activity.routes';
import { createActivityService } from './activity/activity.service';
import { authRoutes, meRoutes } from './auth/auth.routes';
import { createAuthService } from './auth/auth.service';
import { authenticate } from './auth/authenticate';
import { myEmailRoutes, verifyEmailRoutes } from './auth/email.routes';
import { createEmailVerification } from './auth/email-verification';
import type { LoginThrottle } from './auth/login-throttle';
import { changePasswordRoutes, passwordResetRoutes } from './auth/password.routes';
import { createPasswordService } from './auth/password-service';
import { createSessions } from './auth/sessions';
import { sessionRoutes } from './auth/sessions.routes';
import { commentRoutes } from './comments/comments.routes';
import { createCommentsService } from './comments/comments.service';
import { createExpenseSearch } from './expenses/expense-search';
import { createExpensesService } from './expenses/expenses.service';
import { exportRoutes } from './export/export.routes';
import { fxRoutes } from './fx/fx.routes';
import type { RatesProvider } from './fx/rates-provider';
import { createGroupsService } from './groups/groups.service';
import { createInvitesService } from './groups/invites.service';
import {
  clientIpOf,
  compileTrustProxy,
  DEFAULT_TRUST_PROXY,
  normalizeIp,
  type TrustProxy,
} from './http/client-ip';
import { type CorsOrigins, cors } from './http/cors';
import { errorHandler, routeNotFound } from './http/error-handler';
import { createHotLane } from './http/hot-lane';
import { createHttpMetrics } from './http/http-metrics';
import { type ProbeDeps, probeRoutes } from './http/probe-routes';
import { requestId } from './http/request-id';
import { enteredByPrefix } from './http/route-prefix';
import { upgradeRequired, WEBSOCKET_PATH } from './http/upgrade-required';
import { createIdMaker } from './ids';
import { importRoutes } from './imports/imports.routes';
import { createImportsService } from './imports/imports.service';
import type { Announcer } from './ledger/announcer';
import type { GroupGate } from './ledger/group-access';
import { createWriteRunner } from './ledger/write-runner';
import { ledgerRoutes } from './ledger.routes';
import { type BackgroundTasks, createBackgroundTasks } from './mail/background';
import { createLogMailer, type Mailer, withMailMetrics } from './mail/mailer';
import { memberRoutes } from './members.routes';
import { docsRoutes, openApiDocument } from './openapi/openapi';
import { recurringRoutes } from './recurring/recurring.routes';
import { createRecurringService } from './recurring/recurring.service';
import { createSettlementsService } from './settlements/settlements.service';
import { webClientRoutes } from './web/web-client';

export type AppDeps = {
  knex: Knex;
  tokens: AccessTokens;
  logger: Logger;
  registry: Registry;
  /** Publishes every write's committed events (Redis pub/sub or the in-process bus). */
  announcer: Announcer;
  /** The readiness answer (`createReadiness`): PostgreSQL answers and the process is not draining. */
  isReady: ProbeDeps['isReady'];
  /** Per-user and per-IP budgets (API.md §9); absent means unlimited. */
  rateLimits?: { perUser: RequestHandler; perIp: RequestHandler };
  /** Login throttling per account and per client IP (`createLoginThrottle`, API.md §2); absent: none. */
  loginThrottle?: LoginThrottle;
  /** Refuses new work with 503 when this process is saturated. */
  loadShedder?: RequestHandler;
  /** True once the process drains: new work is refused with 503 so the load balancer moves on. */
  isDraining?: () => boolean;
  /** Exactly-once execution of keyed writes (Redis or in-memory store plus the durable record). */
  idempotency?: IdempotencyLayer;
  /** Errors handled by carrying on (a rollback that failed, a readiness check that threw): logged and counted. */
  ignoredErrors?: IgnoredErrors;
  /** Bounds the writes waiting on one group (`createGroupGate`); absent means unbounded. */
  groupGate?: GroupGate;
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
};

const privateNoCache: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') res.setHeader('Cache-Control', 'private, no-cache');
  next();
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
  Object.defineProperty(app.request, 'ip', {
    configurable: true,
    enumerable: true,
    get(this: express.Request) {
      return clientIpOf(this, trustRule);
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
  const writes = createWriteRunner({
    knex: deps.knex,
    newId,
    groupGate: deps.groupGate,
    onIgnoredError: deps.ignoredErrors,
    registry: deps.registry,
  });
  const expenses = createExpensesService({ knex: deps.knex, newId });
  const accounts = createAccountDeletion({
    knex: deps.knex,
    onDeleted: (userId) => {
      revokedUsers.revoke(userId);
      deps.announceUserRevoked?.(userId);
    },
  });
  const settlements = createSettlementsService({ knex: deps.knex, newId });
  const ledger = ledgerRoutes({
    knex: deps.knex,
    writes,
    announcer: deps.announcer,
    groups: createGroupsService({ knex: deps.knex, newId }),
    expenses,
    settlements,
    idempotency: deps.idempotency,
  });
  const members = memberRoutes({
    writes,
    announcer: deps.announcer,
    invites: createInvitesService({ knex: deps.knex, newId }),
    idempotency: deps.idempotency,
  });
  const recurring = recurringRoutes({
    writes,
    announcer: deps.announcer,
    recurring: createRecurringService({ knex: deps.knex, newId, expenses }),
    idempotency: deps.idempotency,
  });
  const fx = fxRoutes({
    knex: deps.knex,
    writes,
    announcer: deps.announcer,
    idempotency: deps.idempotency,
    provider: deps.ratesProvider,
  });
  const activity = activityRoutes({
    writes,
    announcer: deps.announcer,
    activity: createActivityService({ knex: deps.knex }),
    idempotency: deps.idempotency,
  });
  const comments = commentRoutes({
    writes,
    announcer: deps.announcer,
    comments: createCommentsService({ knex: deps.knex, newId }),
    search: createExpenseSearch({ knex: deps.knex, expenses }),
    idempotency: deps.idempotency,
  });
  const importing = importRoutes({
    imports: createImportsService({ knex: deps.knex, writes, expenses, settlements }),
    writes,
    announcer: deps.announcer,
    idempotency: deps.idempotency,
    maxBytes: deps.importMaxBytes,
    maxRows: deps.importMaxRows,
  });
  // Every write route but auth's, as registered: tests check each is keyed (API.md §7).
  app.locals['writeRoutes'] = [
    ...ledger.writeRoutes,
    ...members.writeRoutes,
    ...recurring.writeRoutes,
    ...fx.writeRoutes,
    ...activity.writeRoutes,
    ...comments.writeRoutes,
    ...importing.writeRoutes,
  ];

  const metrics = createHttpMetrics(deps.registry);
  app.use(requestId);
  app.use(metrics.middleware);
  // Ahead of load shedding, the drain check, authentication and the rate limits: a preflight is
  // answered without a token or a budget, and every refusal still carries the CORS headers.
  if (deps.corsOrigins && deps.corsOrigins.length > 0) app.use('/v1', cors(deps.corsOrigins));
  if (deps.loadShedder) app.use(deps.loadShedder);
  app.use((req, _res, next) => {
    if (deps.isDraining?.() && req.path !== '/healthz' && req.path !== '/readyz' && req.path !== '/metrics') {
      throw unavailable('This instance is shutting down; retry.', 1);
    }
    next();
  });

  app.get('/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  // A plain GET of the WebSocket path: 426, without a token (the upgrade itself never gets here).
  app.get(WEBSOCKET_PATH, upgradeRequired);

  const v1 = express.Router();
  v1.use(privateNoCache);
  if (deps.rateLimits) v1.use('/auth', deps.rateLimits.perIp);
  v1.use(enteredByPrefix(authRoutes({ auth, ...emailDeps })));
  v1.use(enteredByPrefix(passwordResetRoutes({ passwords, background })));
  v1.use(enteredByPrefix(verifyEmailRoutes(emailDeps)));
  v1.use(authenticate(deps.tokens, revokedUsers.isRevoked));
  if (deps.rateLimits) v1.use(deps.rateLimits.perUser);
  v1.use(enteredByPrefix(meRoutes({ auth })));
  v1.use(enteredByPrefix(sessionRoutes({ sessions })));
  v1.use(enteredByPrefix(changePasswordRoutes({ passwords })));
  v1.use(enteredByPrefix(myEmailRoutes(emailDeps)));
  v1.use(enteredByPrefix(exportRoutes({ knex: deps.knex, logger: deps.logger, accounts })));
  // Ahead of the ledger: it answers the balances reads that ask for a conversion (`?in=`).
  v1.use(enteredByPrefix(fx.router));
  // Ahead of the ledger: it answers the expense list, with its search and filters.
  v1.use(enteredByPrefix(comments.router));
  v1.use(enteredByPrefix(ledger.router));
  v1.use(enteredByPrefix(members.router));
  v1.use(enteredByPrefix(recurring.router));
  v1.use(enteredByPrefix(activity.router));
  v1.use(enteredByPrefix(importing.router));
  // The API first: every request passes the layers ahead of the one that answers it, and `/v1` is
  // where the traffic is. The probes, the docs and the web client come after it (no path overlaps).
  app.use('/v1', v1);
  app.use(probeRoutes(deps));
  app.use(docsRoutes('/v1/openapi.json'));
  // The demo web client at `/`, where its sources are at hand (`npm start`; not the production bundle).
  app.use(webClientRoutes());
  app.use(routeNotFound);
  app.use(errorHandler(deps.logger));

  // The hot lane (http/hot-lane.ts) ahead of express: a replay of POST /v1/expenses, GET of an
  // expense and of balances, in their plainest spelling, with the same steps and answers.
  const hotLane = createHotLane({
    tokens: deps.tokens,
    isRevoked: revokedUsers.isRevoked,
    perUser: deps.rateLimits?.perUser,
    loadShedder: deps.loadShedder,
    isDraining: deps.isDraining,
    corsOrigins: deps.corsOrigins,
    observe: metrics.observe,
    logger: deps.logger,
    etagOf: app.get('etag fn'),
    routes: ledger.hot,
  });
  type Handle = (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  const routed = app as unknown as { handle: Handle };
  const handle = routed.handle.bind(app);
  routed.handle = (req, res, next) => {
    if (!hotLane(req, res)) handle(req, res, next);
  };
  return app;
}
