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
  /** Completes the WebSocket handshake for an accepted upgrade. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, identity: VerifiedToken): void;
};

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

/**
 * One error listener for every upgrading socket: an error there is the client's (it went away
 * mid-handshake), nothing to count or log; the socket is let go.
 */
function destroyOnError(this: Duplex): void {
  this.destroy();
}

/**
 * `GET /v1/ws` (API.md §8): the path, the drain, the access token (its user and its expiry, the
 * connection's first 4401 deadline) and the per-user connection limit, in that order.
 */
export function createUpgradeHandler(deps: UpgradeDeps) {
  return async function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', destroyOnError);
    // The plain path needs no URL parsing; a query (`?access_token=`) or anything else does.
    const url = req.url === '/v1/ws' ? undefined : new URL(req.url ?? '/', 'http://gateway');
    if (url !== undefined && url.pathname !== '/v1/ws') {
      refuse(socket, new AppError('not_found', 404, 'There is no such route.'));
      return;
    }
    if (deps.isDraining?.()) {
      refuse(socket, unavailable('This gateway is shutting down.', 1));
      return;
    }
    const token = tokenOf(req, url);
    const identity = token ? await deps.tokens.verifyDetailed(token) : undefined;
    if (!identity || deps.isRevoked?.(identity.userId, identity.sessionId)) {
      refuse(
        socket,
        new AppError('unauthenticated', 401, 'A valid bearer access token is required.', {
          headers: { 'WWW-Authenticate': 'Bearer realm="tally"' },
        }),
      );
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
