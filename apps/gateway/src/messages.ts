import type { AccessTokens, VerifiedToken } from '@tally/http-kit';
import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import type { Activity } from './activity';
import { CLOSE, type Connection, connectionOf } from './connection';
import type { GatewayMetrics } from './gateway-metrics';
import { type ClientMessage, parseClientMessage } from './protocol';
import type { Subscriptions } from './subscriptions';

export type MessagesDeps = {
  tokens: AccessTokens;
  subscriptions: Subscriptions;
  activity: Activity;
  metrics: GatewayMetrics;
  logger: Logger;
  maxMessagesPerSecond: number;
  /** A token of a deleted account or a signed-out session (API.md §2, §8) is refused like an invalid one. */
  isRevoked?: (userId: string, sessionId?: string) => boolean;
  /**
   * The first `auth` of a connection opened without a token verified `identity`: the gateway admits
   * it (revocation, per-user limit, `authenticated` and `welcome`) or closes it.
   */
  admit(conn: Connection, id: string | undefined, identity: VerifiedToken): void;
};

/**
 * What a connection's messages do (API.md §8 client → server). Each message is handled as it
 * arrives; a slow one (a subscribe awaiting the database) does not hold up a `ping` behind it.
 */
export function createMessageHandler(deps: MessagesDeps) {
  const { tokens, subscriptions, metrics, logger } = deps;

  /**
   * `auth`: a fresh token of the same user moves the connection's 4401 deadline to its expiry, and
   * the connection to its session.
   */
  async function authenticate(conn: Connection, id: string | undefined, accessToken: string): Promise<void> {
    const verified = await tokens.verifyDetailed(accessToken);
    if (conn.closed) return;
    if (
      !verified ||
      verified.userId !== conn.userId ||
      deps.isRevoked?.(verified.userId, verified.sessionId)
    ) {
      conn.send({ type: 'error', id, code: 'unauthenticated' });
      return;
    }
    // The connection now belongs to the fresh token's session (the one a sign-out must close).
    conn.sessionId = verified.sessionId;
    conn.setExpiry(verified.expiresAt);
    conn.send({ type: 'authenticated', id, expiresAt: verified.expiresAt.toISOString() });
  }

  /** The `auth` of a connection opened without a token: a bad token closes it with 4401. */
  async function authenticateFirst(
    conn: Connection,
    id: string | undefined,
    accessToken: string,
  ): Promise<void> {
    const verified = await tokens.verifyDetailed(accessToken);
    if (conn.closed) return;
    if (!verified) {
      conn.close(CLOSE.tokenExpired, 'invalid token');
      return;
    }
    deps.admit(conn, id, verified);
  }

  /**
   * A message of a connection that has not authenticated yet: only `auth` is allowed (anything else,
   * a bad message included, closes it with 4401); messages after it wait for its outcome.
   */
  function beforeAuth(conn: Connection, message: ClientMessage | undefined): void {
    const pending = conn.authPending;
    if (pending !== undefined) {
      void pending.then(() => {
        if (!conn.closed) dispatch(conn, message);
      });
      return;
    }
    if (message?.type !== 'auth') {
      conn.close(CLOSE.tokenExpired, 'authentication required');
      return;
    }
    conn.authPending = authenticateFirst(conn, message.id, message.accessToken)
      .catch((err: unknown) => {
        logger.warn({ err }, 'websocket authentication failed');
        conn.close(CLOSE.tokenExpired, 'authentication failed');
      })
      .finally(() => {
        conn.authPending = undefined;
      });
  }

  function dispatch(conn: Connection, message: ClientMessage | undefined): void {
    if (!message) {
      conn.send({ type: 'error', code: 'bad_message' });
      return;
    }
    handle(conn, message).catch((err: unknown) => {
      logger.warn({ err, type: message.type }, 'websocket message failed');
      conn.send({ type: 'error', id: message.id, code: 'unavailable' });
    });
  }

  async function handle(conn: Connection, message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'ping':
        conn.send({ type: 'pong', id: message.id });
        return;
      case 'auth':
        await authenticate(conn, message.id, message.accessToken);
        return;
      case 'subscribe':
        await subscriptions.subscribe(conn, message.id, message.groupId, message.afterSeq);
        return;
      case 'unsubscribe':
        subscriptions.unsubscribe(conn, message.id, message.groupId);
        return;
      case 'activity.subscribe':
        await deps.activity.subscribe(conn, message.id);
        return;
      case 'activity.unsubscribe':
        deps.activity.unsubscribe(conn, message.id);
        return;
    }
  }

  /** The per-second message limit of a connection, in fixed one-second windows kept on the connection. */
  function admit(conn: Connection): boolean {
    const at = Date.now();
    if (at - conn.windowStart >= 1000) {
      conn.windowStart = at;
      conn.windowCount = 0;
    }
    conn.windowCount++;
    return conn.windowCount <= deps.maxMessagesPerSecond;
  }

  /** Every connection's `message` listener (one function for all: the socket is `this`). */
  function onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
    const conn = connectionOf(this);
    if (!conn || conn.closed) return;
    if (!admit(conn)) {
      metrics.limitHits.inc({ limit: 'messages' });
      conn.close(CLOSE.policyViolation, 'too many messages');
      return;
    }
    const message = isBinary ? undefined : parseClientMessage(data.toString());
    if (!conn.authenticated) beforeAuth(conn, message);
    else dispatch(conn, message);
  }

  /**
   * Reads a connection's messages: the per-second limit (1008), parsing (`bad_message`), the first
   * `auth` of a connection opened without a token (anything else first: 4401), then `handle`.
   */
  return function listen(conn: Connection): void {
    conn.ws.on('message', onMessage);
  };
}
