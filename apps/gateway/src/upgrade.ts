import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type AccessTokens,
  AppError,
  problemResponseText,
  unavailable,
  type VerifiedToken,
} from '@tally/http-kit';
import type { GatewayMetrics } from './gateway-metrics';

/** How long a user over the per-user connection limit is asked to wait before trying again. */
export const CONNECTION_LIMIT_RETRY_AFTER_SECONDS = 5;

export type UpgradeDeps = {
  tokens: AccessTokens;
  metrics: GatewayMetrics;
  isDraining?: () => boolean;
  /** A user whose sessions were revoked (account deleted), or a signed-out session: refused like an invalid token. */
  isRevoked?: (userId: string, sessionId?: string) => boolean;
  maxConnectionsPerUser: number;
  /** Open connections of the user on this process. */
  connectionsOf(userId: string): number;
  /**
   * Whether `?access_token=` is accepted (WS_ALLOW_QUERY_TOKEN); when not, an upgrade carrying it is
   * refused with 401 (the token has already been in a URL that proxies and access logs keep).
   * @default false
   */
  allowQueryToken?: boolean;
  /**
   * Completes the WebSocket handshake for an accepted upgrade. `identity` is undefined for an upgrade
   * without a token: the connection must then authenticate with its first message (`auth`).
   */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, identity: VerifiedToken | undefined): void;
};

/** The request target of an upgrade with its query left out: what may be logged (never a token). */
export function redactedUrl(url: string | undefined): string {
  if (url === undefined) return '';
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query)}?[redacted]`;
}

/** Refuses an upgrade with a problem+json HTTP response; the socket never becomes a WebSocket. */
function refuse(socket: Duplex, error: AppError): void {
  socket.end(problemResponseText(error, randomUUID()));
  socket.destroy();
}

/** The token of an upgrade: `Authorization: Bearer` (when well-formed) wins over `?access_token=`. */
function tokenOf(req: IncomingMessage, url: URL | undefined): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  return match?.[1] ?? url?.searchParams.get('access_token') ?? undefined;
}

const unauthenticated = (detail: string) =>
  new AppError('unauthenticated', 401, detail, {
    headers: { 'WWW-Authenticate': 'Bearer realm="tally"' },
  });

/** The upgrade's URL, or null when it does not parse (its error would carry the URL, token and all). */
function parseUrl(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://gateway');
  } catch {
    return null;
  }
}

/**
 * One error listener for every upgrading socket: an error there is the client's (it went away
 * mid-handshake), nothing to count or log; the socket is let go.
 */
function destroyOnError(this: Duplex): void {
  this.destroy();
}

/**
 * `GET /v1/ws` (API.md §8): the path, the drain, the access token (its user and its expiry, the
 * connection's first 4401 deadline) and the per-user connection limit, in that order. An upgrade
 * with no token at all is accepted unauthenticated: its first message must be `auth`
 * (`messages.ts`), and the limit is checked then.
 */
export function createUpgradeHandler(deps: UpgradeDeps) {
  return async function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', destroyOnError);
    // The plain path needs no URL parsing; a query (`?access_token=`) or anything else does.
    const url = req.url === '/v1/ws' ? undefined : parseUrl(req.url);
    if (url === null || (url !== undefined && url.pathname !== '/v1/ws')) {
      refuse(socket, new AppError('not_found', 404, 'There is no such route.'));
      return;
    }
    if (deps.isDraining?.()) {
      refuse(socket, unavailable('This gateway is shutting down.', 1));
      return;
    }
    if (!deps.allowQueryToken && url?.searchParams.has('access_token')) {
      refuse(
        socket,
        unauthenticated(
          'An access token in the URL (?access_token=) is not accepted by this server (WS_ALLOW_QUERY_TOKEN): send it in the Authorization header, or connect without one and send {"type":"auth","accessToken":…} first.',
        ),
      );
      return;
    }
    const token = tokenOf(req, url);
    // No token at all: an unauthenticated connection, which must send `auth` first (API.md §8).
    if (token === undefined && req.headers.authorization === undefined) {
      deps.accept(req, socket, head, undefined);
      return;
    }
    const identity = token ? await deps.tokens.verifyDetailed(token) : undefined;
    if (!identity || deps.isRevoked?.(identity.userId, identity.sessionId)) {
      refuse(socket, unauthenticated('A valid bearer access token is required.'));
      return;
    }
    // Checked and counted in one synchronous step with the handshake, so no two upgrades both fit.
    if (deps.connectionsOf(identity.userId) >= deps.maxConnectionsPerUser) {
      deps.metrics.limitHits.inc({ limit: 'connections' });
      const wait = String(CONNECTION_LIMIT_RETRY_AFTER_SECONDS);
      refuse(
        socket,
        new AppError(
          'rate_limited',
          429,
          'Too many open WebSocket connections for this user; close one first.',
          {
            headers: {
              'Retry-After': wait,
              'RateLimit-Limit': String(deps.maxConnectionsPerUser),
              'RateLimit-Remaining': '0',
              'RateLimit-Reset': wait,
            },
          },
        ),
      );
      return;
    }
    deps.accept(req, socket, head, identity);
  };
}
