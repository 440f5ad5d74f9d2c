import { type EventBus, type EventLog, type PresenceStore, USER_CONTROL_GROUP } from '@tally/events';
import {
  type AccessTokens,
  createIgnoredErrors,
  type IgnoredErrors,
  type VerifiedToken,
} from '@tally/http-kit';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { WebSocket, WebSocketServer } from 'ws';
import { createActivity } from './activity';
import { CLOSE, Connection, createConnectionScope } from './connection';
import { createFeeds } from './feed';
import { createGatewayMetrics } from './gateway-metrics';
import { heartbeatSlices, startBusWatch, startHeartbeat } from './heartbeat';
import { createUserConnectionCounts, DEFAULT_LIMITS, type GatewayLimits } from './limits';
import { createMessageHandler } from './messages';
import { createPresence } from './presence';
import { createSubscriptions } from './subscriptions';
import { createUpgradeHandler } from './upgrade';

export type GatewayDeps = {
  eventLog: EventLog;
  tokens: AccessTokens;
  bus: EventBus;
  presence: PresenceStore;
  logger: Logger;
  registry?: Registry;
  /** Ping interval; a connection that misses one pong is dropped. Presence expires after two. */
  heartbeatMs: number;
  isDraining?: () => boolean;
  /** Per-connection and per-user limits; each one left out takes its default. */
  limits?: Partial<GatewayLimits>;
  /**
   * How often every feed reads its log while the bus is down (the delivery latency then).
   * @default 1000
   */
  busDownPollMs?: number;
  /**
   * Errors the gateway does not act on: the presence store or bus unreachable (`presence_store`,
   * `presence_publish`, `presence_update`), a feed's read of the log or delivery that failed
   * (`feed_refresh`, `feed_delivery`; the next notification, poll or heartbeat retries).
   * @default createIgnoredErrors({ logger, registry })
   */
  ignoredErrors?: IgnoredErrors;
  /**
   * Whether `?access_token=` is accepted at the upgrade (WS_ALLOW_QUERY_TOKEN); otherwise 401.
   * @default false
   */
  allowQueryToken?: boolean;
  /**
   * How long a connection opened without a token has to send `auth` before it is closed with 4401
   * (WS_AUTH_TIMEOUT_MS).
   * @default 5000
   */
  authTimeoutMs?: number;
};

/** Auth deadlines are rounded up to this, so that connections opened together share one deadline instant. */
const AUTH_DEADLINE_STEP_MS = 100;

/** Frames over 64 KiB close the connection with 1009 (ws enforces `maxPayload`). */
export const MAX_FRAME_BYTES = 64 * 1024;

/**
 * The WebSocket gateway of API.md §8, wired from its parts: the upgrade (`upgrade.ts`), connections
 * (`connection.ts`) and their messages (`messages.ts`), subscriptions (`subscriptions.ts`), per-group
 * feeds (`feed.ts`), presence (`presence.ts`), and the heartbeat and bus watch (`heartbeat.ts`).
 */
export function createGateway(deps: GatewayDeps) {
  const { eventLog, bus, logger } = deps;
  const metrics = createGatewayMetrics(deps.registry);
  const ignoredErrors = deps.ignoredErrors ?? createIgnoredErrors({ logger, registry: deps.registry });
  /** Its connections' ids and token deadlines (one timer for all of them), apart from any other gateway's. */
  const scope = createConnectionScope();
  const limits: GatewayLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    clientTracking: false,
    perMessageDeflate: false,
  });
  /** Open connections, kept apart by heartbeat slice (`serial % slices`): each tick beats one set. */
  const slices = heartbeatSlices(deps.heartbeatMs);
  const connections = Array.from({ length: slices }, () => new Set<Connection>());
  const sliceOf = (conn: Connection) => connections[conn.serial % slices] as Set<Connection>;
  let connectionCount = 0;
  const perUser = createUserConnectionCounts();

  const feeds = createFeeds({
    eventLog,
    bus,
    metrics,
    logger,
    ignoredErrors,
    onSelfRemoved: (sub) => subscriptions.removed(sub),
    onPresenceChange: (feed) => void presence.update(feed),
  });
  const presence = createPresence({
    store: deps.presence,
    bus,
    logger,
    ignoredErrors,
    ttlMs: deps.heartbeatMs * 2,
    findFeed: feeds.get,
  });
  const subscriptions = createSubscriptions({
    eventLog,
    feeds,
    presence,
    metrics,
    maxSubscriptionsPerConnection: limits.maxSubscriptionsPerConnection,
  });
  const activity = createActivity({ eventLog, bus, ignoredErrors });
  const listen = createMessageHandler({
    tokens: deps.tokens,
    isRevoked: (userId, sessionId) => isRevoked(userId, sessionId),
    subscriptions,
    activity,
    metrics,
    logger,
    maxMessagesPerSecond: limits.maxMessagesPerSecond,
    admit: (conn, id, identity) => {
      if (isRevoked(identity.userId, identity.sessionId)) {
        conn.close(CLOSE.tokenExpired, 'session revoked');
        return;
      }
      // The per-user limit applies from the moment the connection is someone's (the upgrade's 429
      // cannot be sent on an open WebSocket: 1008 instead).
      if (perUser.of(identity.userId) >= limits.maxConnectionsPerUser) {
        metrics.limitHits.inc({ limit: 'connections' });
        conn.close(CLOSE.policyViolation, 'too many connections');
        return;
      }
      conn.send({ type: 'authenticated', id, expiresAt: identity.expiresAt.toISOString() });
      authenticated(conn, identity);
    },
  });
  const authTimeoutMs = deps.authTimeoutMs ?? 5000;

  function onClose(conn: Connection): void {
    if (sliceOf(conn).delete(conn)) connectionCount--;
    if (conn.authenticated) perUser.remove(conn.userId);
    metrics.connections.dec();
    void subscriptions.endAll(conn);
    activity.end(conn);
  }

  /** One hooks object for every connection. */
  const hooks = { metrics, onClose };

  /**
   * A connection is open. Without `identity` (no token at the upgrade) it must authenticate with its
   * first message within `authTimeoutMs` (the deadline under the scope's one timer, like token
   * expiries), or it closes with 4401; it has no user, subscriptions or presence until then.
   */
  function open(ws: WebSocket, identity: VerifiedToken | undefined): void {
    const conn = new Connection(ws, identity?.userId ?? '', hooks, scope);
    sliceOf(conn).add(conn);
    connectionCount++;
    metrics.connections.inc();
    if (!identity) conn.authenticated = false;
    listen(conn);
    if (identity) {
      authenticated(conn, identity);
      return;
    }
    const deadline = Math.ceil((Date.now() + authTimeoutMs) / AUTH_DEADLINE_STEP_MS) * AUTH_DEADLINE_STEP_MS;
    conn.setExpiry(new Date(deadline));
  }

  /** The connection is `identity`'s from now on: it counts for the per-user limit, and is welcomed. */
  function authenticated(conn: Connection, identity: VerifiedToken): void {
    conn.userId = identity.userId;
    // The session a sign-out closes (API.md §2.3); an `auth` with a fresh token moves it.
    conn.sessionId = identity.sessionId;
    conn.authenticated = true;
    perUser.add(conn.userId);
    conn.sendFrame(
      `{"type":"welcome","connectionId":"${conn.id}","userId":${JSON.stringify(conn.userId)},"heartbeatMs":${deps.heartbeatMs}}`,
      'welcome',
    );
    conn.setExpiry(identity.expiresAt);
  }

  /**
   * Users whose sessions ended (account deleted, API.md §11.3), until their last access token has
   * expired: their open sockets close with 4401 and an upgrade with a token issued before is refused.
   */
  const revokedUntil = new Map<string, number>();
  /**
   * Sessions signed out (API.md §2), likewise until their last access token has expired: only the
   * connections of those sessions close; the user's others stay.
   */
  const revokedSessionsUntil = new Map<string, number>();
  const stopRevocations = bus.subscribe(USER_CONTROL_GROUP, (message) => {
    if (message.kind === 'session.revoked') {
      const now = Date.now();
      for (const [id, until] of revokedSessionsUntil) if (until <= now) revokedSessionsUntil.delete(id);
      const ended = new Set(message.sessionIds);
      for (const id of ended) revokedSessionsUntil.set(id, now + deps.tokens.ttlSeconds * 1000);
      for (const conn of connections.flatMap((set) => [...set])) {
        if (conn.userId === message.userId && conn.sessionId !== undefined && ended.has(conn.sessionId))
          conn.close(CLOSE.tokenExpired, 'session revoked');
      }
      return;
    }
    if (message.kind !== 'user.revoked') return;
    const now = Date.now();
    for (const [userId, until] of revokedUntil) if (until <= now) revokedUntil.delete(userId);
    revokedUntil.set(message.userId, now + deps.tokens.ttlSeconds * 1000);
    for (const conn of connections.flatMap((set) => [...set])) {
      if (conn.userId === message.userId) conn.close(CLOSE.tokenExpired, 'session revoked');
    }
  });
  const isRevoked = (userId: string, sessionId?: string) => {
    const now = Date.now();
    if ((revokedUntil.get(userId) ?? 0) > now) return true;
    return sessionId !== undefined && (revokedSessionsUntil.get(sessionId) ?? 0) > now;
  };

  const handleUpgrade = createUpgradeHandler({
    tokens: deps.tokens,
    isRevoked,
    metrics,
    isDraining: deps.isDraining,
    maxConnectionsPerUser: limits.maxConnectionsPerUser,
    connectionsOf: perUser.of,
    allowQueryToken: deps.allowQueryToken ?? false,
    accept: (req, socket, head, identity) => {
      // The handshake's 101 response and the welcome leave in one write.
      socket.cork();
      try {
        wss.handleUpgrade(req, socket, head, (ws) => open(ws, identity));
      } finally {
        socket.uncork();
      }
    },
  });
  const stopHeartbeat = startHeartbeat({
    intervalMs: deps.heartbeatMs,
    connectionsIn: (slice) => connections[slice] ?? [],
    feeds,
    presence,
    metrics,
  });
  const stopBusWatch = startBusWatch({
    bus,
    pollMs: deps.busDownPollMs ?? 1000,
    feeds,
    presence,
    metrics,
    logger,
  });

  return {
    metrics,
    /** For the HTTP server's `upgrade` event. */
    handleUpgrade,
    connectionCount: (): number => connectionCount,
    feedCount: (): number => feeds.size(),
    activityGroupCount: (): number => activity.groupCount(),
    /** Closes every connection with 1012 (service restart) and removes their presence entries. */
    async close(): Promise<void> {
      stopHeartbeat();
      stopBusWatch();
      stopRevocations();
      const leaving: Promise<void>[] = [];
      for (const conn of connections.flatMap((set) => [...set])) {
        leaving.push(subscriptions.endAll(conn));
        if (conn.ws.readyState === WebSocket.OPEN) conn.close(CLOSE.serviceRestart, 'service restart');
        else conn.terminate();
      }
      await Promise.all(leaving);
      feeds.closeAll();
      wss.close();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
