import type { CurrencyBalances, GroupEvent } from './types.js';

/**
 * The part of the WebSocket API the client uses. Browsers, React Native and the `ws` package
 * (Node) all have it.
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** Set to a function taking `{ data }` (a string for text frames). */
  onmessage: ((event: never) => void) | null;
  /** Set to a function taking `{ code, reason }`. */
  onclose: ((event: never) => void) | null;
  /** Set to a function taking the platform's error event. */
  onerror: ((event: never) => void) | null;
  /** Set to a function called once the socket is open (for `tokenIn: 'message'`). */
  onopen?: ((event: never) => void) | null;
}

/**
 * A WebSocket constructor: `globalThis.WebSocket`, or `require('ws')` in Node. The third argument
 * (headers) is understood by `ws` and React Native, not by browsers.
 */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => WebSocketLike;

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Live balances of a group, from a money event's `data.balances`. */
export type BalancesUpdate = { groupId: string; seq: number; currencies: CurrencyBalances[] };
export type PresenceUpdate = { groupId: string; online: string[] };
/** A problem of the realtime connection: a server `error` message, a failed connection, a throwing listener. */
export type RealtimeError = { code: string; groupId?: string; message: string; cause?: unknown };

/** Callbacks of one group subscription. */
export type SubscriptionHandlers = {
  /** Every event of the group, exactly once, in seq order. */
  onEvent?: (event: GroupEvent) => void;
  /** The group's balances after each money event. */
  onBalances?: (update: BalancesUpdate) => void;
  /** The members connected to the group (on any gateway) whenever that set changes. */
  onPresence?: (update: PresenceUpdate) => void;
  /** The subscription ended on the server's side: the caller was removed from the group, or it is not one. */
  onEnded?: (reason: 'removed' | 'not_found') => void;
  /** The events after the seq asked for are no longer kept: see {@link RealtimeListeners.resync_required}. */
  onResyncRequired?: (info: ResyncRequired) => void;
};

/**
 * The server no longer keeps the events after the seq a subscription asked for (`EVENT_RETENTION_DAYS`):
 * they will never be delivered. The client resubscribes from `seq` (the group's seq when the server
 * answered), so events after it keep coming in order; the app refetches the group's state (its
 * balances carry `asOfSeq`) and skips the events at or below what that state reflects, or subscribes
 * again itself with `afterSeq` set to it.
 */
export type ResyncRequired = { groupId: string; seq: number };

/** A subscription the server confirmed (`subscribed`): events after `seq` will be delivered. */
export type SubscribedInfo = { groupId: string; seq: number };

/**
 * What {@link RealtimeClient.subscribe} returns: the function that unsubscribes (as before), with the
 * server's confirmation as `confirmed`. `await rt.subscribe(groupId).confirmed` resolves once the
 * server has the subscription in place (its `subscribed` answer), so every write made after it
 * reaches this subscription. It waits across reconnects; it rejects with `SubscriptionEndedError`
 * when the subscription ends first (not a member, removed, unsubscribed or replaced). Not awaiting it
 * is fine. The subscription itself is not a promise (not a thenable), so calling `subscribe` without
 * awaiting is no floating promise, and returning it from an async function does not wait.
 */
export type GroupSubscription = (() => void) & {
  /** Stops the events of the group (the same as calling the subscription). */
  unsubscribe: () => void;
  /** The server's confirmation: `{ groupId, seq, unsubscribe }`. */
  confirmed: Promise<SubscribedInfo & { unsubscribe: () => void }>;
};

export type SubscribeOptions = SubscriptionHandlers & {
  /**
   * Deliver the events after this seq first (e.g. the last one the app stored); 0 for the whole log.
   * @default undefined: only events from now on
   */
  afterSeq?: number;
};

/** What the server says of a new event in one of the user's groups (`activity` message). */
export type ActivityNotice = { groupId: string; eventId: string; seq: number; eventType: string };

/** Listeners of {@link RealtimeClient.on}, for every group. */
export type RealtimeListeners = {
  event: (event: GroupEvent) => void;
  balances: (update: BalancesUpdate) => void;
  presence: (update: PresenceUpdate) => void;
  /** The server confirmed a subscription (also after each resubscription): events after `seq` follow. */
  subscribed: (info: SubscribedInfo) => void;
  ended: (info: { groupId: string; reason: 'removed' | 'not_found' }) => void;
  /** A subscription's missed events are no longer kept: refetch the group's state (see {@link ResyncRequired}). */
  resync_required: (info: ResyncRequired) => void;
  /**
   * After {@link RealtimeClient.followActivity}: a new event in one of the user's groups (API.md §8a).
   * A hint to refetch `tally.activity.list()`; one may be missed while the connection is down.
   */
  activity: (notice: ActivityNotice) => void;
  state: (state: ConnectionState) => void;
  /** A reconnect is scheduled: `failures` connection attempts in a row failed before a welcome. */
  reconnecting: (info: { delayMs: number; failures: number }) => void;
  error: (error: RealtimeError) => void;
};

export type RealtimeOptions = {
  /** The server: `https://…` (or `ws(s)://…`); the client connects to `<url>/v1/ws`. */
  url: string;
  /**
   * The access token for a (re)connection, and the fresh one sent with `auth` before the current
   * one expires. `rejectedToken` is set when that token is no good any more: the previous attempt
   * looked refused with 401, the server closed with 4401 (token expired), or it is about to expire
   * and was handed out again. Refresh then.
   */
  getAccessToken: (context: { rejectedToken?: string }) => Promise<string | undefined> | string | undefined;
  /**
   * The WebSocket constructor; pass `WebSocket` from the `ws` package in Node.
   * @default globalThis.WebSocket
   */
  WebSocket?: WebSocketConstructor;
  /**
   * How the token travels: `header` (Authorization at the upgrade; needs `ws` or React Native),
   * `message` (the socket opens without one and sends `{"type":"auth"}` first; works everywhere,
   * browsers included), or `query` (`?access_token=`, which proxies and access logs keep; servers
   * refuse it unless WS_ALLOW_QUERY_TOKEN=true).
   * @default 'header' in Node with the `WebSocket` option given, 'message' otherwise
   */
  tokenIn?: 'query' | 'header' | 'message';
  /**
   * Base of the reconnect backoff: before reconnect n the client waits a random time in
   * [0, min(maxReconnectDelayMs, reconnectBaseDelayMs × 2^(n−1))).
   * @default 500
   */
  reconnectBaseDelayMs?: number;
  /** @default 30000 */
  maxReconnectDelayMs?: number;
  /**
   * Give up on a connection attempt that has not been welcomed after this long.
   * @default 15000
   */
  connectTimeoutMs?: number;
  /**
   * Interval of the client's own pings; a connection silent for twice this long is dropped and
   * replaced (a half-open TCP connection otherwise looks alive for minutes).
   * @default the server's `heartbeatMs` from `welcome`
   */
  heartbeatMs?: number;
  /**
   * Random numbers in [0, 1) for the jitter.
   * @default Math.random
   */
  random?: () => number;
  /** @default Date.now */
  now?: () => number;
};

export type RealtimeStats = {
  /** Connections that got a `welcome`. */
  connections: number;
  /** Events delivered to listeners. */
  delivered: number;
  /** Events dropped because their seq was already delivered. */
  duplicatesDropped: number;
  /** Times an event arrived after a gap and the group was resubscribed from its last seq. */
  gapsRepaired: number;
  /** Times the open connection was given a fresh token (`auth` answered `authenticated`). */
  reauthenticated: number;
};
