/** Per-connection and per-user limits of one gateway process (API.md §8: configurable). */
export type GatewayLimits = {
  /**
   * Groups one connection may be subscribed to; a subscribe to one more is answered
   * `{"type":"error","id","code":"limit_exceeded"}`. WS_MAX_SUBSCRIPTIONS_PER_CONNECTION.
   * @default 100
   */
  maxSubscriptionsPerConnection: number;
  /**
   * Messages a connection may send in one second (fixed one-second windows); one more closes it
   * with 1008 (policy violation). WS_MAX_MESSAGES_PER_SECOND.
   * @default 50
   */
  maxMessagesPerSecond: number;
  /**
   * Open connections of one user on this gateway process; the upgrade of one more is refused with
   * HTTP 429 `rate_limited`. WS_MAX_CONNECTIONS_PER_USER.
   * @default 20
   */
  maxConnectionsPerUser: number;
};

export const DEFAULT_LIMITS: GatewayLimits = Object.freeze({
  maxSubscriptionsPerConnection: 100,
  maxMessagesPerSecond: 50,
  maxConnectionsPerUser: 20,
});

/** Open connections per user on this process, for the upgrade's per-user limit. */
export function createUserConnectionCounts() {
  const counts = new Map<string, number>();
  return {
    of: (userId: string): number => counts.get(userId) ?? 0,
    add(userId: string): void {
      counts.set(userId, (counts.get(userId) ?? 0) + 1);
    },
    remove(userId: string): void {
      const left = (counts.get(userId) ?? 0) - 1;
      if (left > 0) counts.set(userId, left);
      else counts.delete(userId);
    },
  };
}
