import type { AccessTokens } from '@tally/http-kit';
import type { Logger } from 'pino';
import { CLOSE, type Connection } from './connection';
import type { GatewayMetrics } from './gateway-metrics';
import { createMessageWindow } from './limits';
import { type ClientMessage, parseClientMessage } from './protocol';
import type { Subscriptions } from './subscriptions';

export type MessagesDeps = {
  tokens: AccessTokens;
  subscriptions: Subscriptions;
  metrics: GatewayMetrics;
  logger: Logger;
  maxMessagesPerSecond: number;
};

/**
 * What a connection's messages do (API.md §8 client → server). Each message is handled as it
 * arrives; a slow one (a subscribe awaiting the database) does not hold up a `ping` behind it.
 */
export function createMessageHandler(deps: MessagesDeps) {
  const { tokens, subscriptions, metrics, logger } = deps;

  /** `auth`: a fresh token of the same user moves the connection's 4401 deadline to its expiry. */
  async function authenticate(conn: Connection, id: string | undefined, accessToken: string): Promise<void> {
    const verified = await tokens.verifyDetailed(accessToken);
    if (conn.closed) return;
    if (!verified || verified.userId !== conn.userId) {
      conn.send({ type: 'error', id, code: 'unauthenticated' });
      return;
    }
    conn.setExpiry(verified.expiresAt);
    conn.send({ type: 'authenticated', id, expiresAt: verified.expiresAt.toISOString() });
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
    }
  }

  /** Reads a connection's messages: the per-second limit (1008), parsing (`bad_message`), then `handle`. */
  return function listen(conn: Connection): void {
    const window = createMessageWindow(deps.maxMessagesPerSecond);
    conn.ws.on('message', (data, isBinary) => {
      if (conn.closed) return;
      if (!window.admit()) {
        metrics.limitHits.inc({ limit: 'messages' });
        conn.close(CLOSE.policyViolation, 'too many messages');
        return;
      }
      const message = isBinary ? undefined : parseClientMessage(data.toString());
      if (!message) {
        conn.send({ type: 'error', code: 'bad_message' });
        return;
      }
      handle(conn, message).catch((err: unknown) => {
        logger.warn({ err, type: message.type }, 'websocket message failed');
        conn.send({ type: 'error', id: message.id, code: 'unavailable' });
      });
    });
  };
}
