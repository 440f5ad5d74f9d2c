import type { ClientMessage, CurrencyBalances, GroupEvent, ServerMessage } from './types';

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

export type SubscribeOptions = SubscriptionHandlers & {
  /**
   * Deliver the events after this seq first (e.g. the last one the app stored); 0 for the whole log.
   * @default undefined: only events from now on
   */
  afterSeq?: number;
};

/** Listeners of {@link RealtimeClient.on}, for every group. */
export type RealtimeListeners = {
  event: (event: GroupEvent) => void;
  balances: (update: BalancesUpdate) => void;
  presence: (update: PresenceUpdate) => void;
  subscribed: (info: { groupId: string; seq: number }) => void;
  ended: (info: { groupId: string; reason: 'removed' | 'not_found' }) => void;
  /** A subscription's missed events are no longer kept: refetch the group's state (see {@link ResyncRequired}). */
  resync_required: (info: ResyncRequired) => void;
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
   * How the token travels: `?access_token=` works everywhere; `header` (Authorization) keeps it out
   * of URLs but needs `ws` or React Native.
   * @default 'query'
   */
  tokenIn?: 'query' | 'header';
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

type Subscription = {
  groupId: string;
  handlers: SubscriptionHandlers;
  /** The initial `afterSeq`, until something is delivered. */
  from: number | undefined;
  /** The last seq delivered (or confirmed by `subscribed`); resubscriptions resume after it. */
  lastSeq: number | undefined;
  /** The id of the subscribe request in flight on this connection. */
  requestId: string | undefined;
  resyncing: boolean;
};

type Timer = ReturnType<typeof setTimeout>;
type Interval = ReturnType<typeof setInterval>;

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

const WS_OPEN = 1;
/** The close code of a connection whose access token expired (API.md §8). */
const TOKEN_EXPIRED = 4401;
/** A fresh token is sent this long before the current one expires, or a quarter of its remaining life if less. */
const RENEW_LEAD_MS = 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A JWT's `exp` in epoch milliseconds, read without verifying it (the server does); undefined if unreadable. */
function expiryOf(token: string | undefined): number | undefined {
  const payload = token?.split('.')[1];
  if (!payload || typeof atob !== 'function') return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const exp = (JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))) as { exp?: unknown })
      .exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function isBalances(value: unknown): value is CurrencyBalances[] {
  return Array.isArray(value);
}

function textOf(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data !== null && typeof data === 'object' && 'toString' in data) return String(data);
  return undefined;
}

/**
 * The realtime client of API.md §8: one WebSocket that reconnects with jittered exponential backoff
 * and resubscribes every group with `afterSeq` = the last seq it delivered, so events arrive exactly
 * once and in order across reconnects, gateway restarts and crashes (duplicates are dropped by seq; a
 * gap makes it resubscribe from the last delivered seq rather than skip ahead).
 */
export class RealtimeClient {
  private readonly options: RealtimeOptions;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly subs = new Map<string, Subscription>();
  private readonly listeners: { [K in keyof RealtimeListeners]: Set<RealtimeListeners[K]> } = {
    event: new Set(),
    balances: new Set(),
    presence: new Set(),
    subscribed: new Set(),
    ended: new Set(),
    resync_required: new Set(),
    state: new Set(),
    reconnecting: new Set(),
    error: new Set(),
  };
  private socket: WebSocketLike | undefined;
  /** Bumped whenever a socket is abandoned: callbacks of older sockets are ignored. */
  private generation = 0;
  private currentState: ConnectionState = 'idle';
  private failures = 0;
  private welcomed = false;
  private tokenUsed: string | undefined;
  private rejectedToken: string | undefined;
  private reconnectTimer: Timer | undefined;
  private connectTimer: Timer | undefined;
  /** When the token of the open connection expires (epoch ms), if known. */
  private tokenExpiresAt: number | undefined;
  private renewTimer: Timer | undefined;
  /** The `auth` in flight: its request id and the token it carries. */
  private pendingAuth: { id: string; token: string } | undefined;
  private heartbeat: Interval | undefined;
  private lastMessageAt = 0;
  private requestCounter = 0;
  private readonly counters: RealtimeStats = {
    connections: 0,
    delivered: 0,
    duplicatesDropped: 0,
    gapsRepaired: 0,
    reauthenticated: 0,
  };

  constructor(options: RealtimeOptions) {
    this.options = options;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  stats(): RealtimeStats {
    return { ...this.counters };
  }

  /** The last seq delivered for a group (what a resubscription resumes after). */
  lastSeq(groupId: string): number | undefined {
    return this.subs.get(groupId)?.lastSeq;
  }

  /** Adds a listener for every group; returns the function that removes it. */
  on<K extends keyof RealtimeListeners>(type: K, listener: RealtimeListeners[K]): () => void {
    const set = this.listeners[type] as Set<RealtimeListeners[K]>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Opens the connection (and keeps it open until `close()`). Subscribing connects too. */
  connect(): void {
    if (this.currentState !== 'idle' && this.currentState !== 'closed') return;
    this.failures = 0;
    void this.open();
  }

  /** Closes the connection for good (until `connect()`); subscriptions are kept for a later connect. */
  close(): void {
    this.abandonSocket(1000, 'client closed');
    this.clearReconnect();
    this.setState('closed');
  }

  /**
   * Subscribes to a group's events (replacing an existing subscription to it). Returns the function
   * that unsubscribes.
   */
  subscribe(groupId: string, options: SubscribeOptions = {}): () => void {
    const { afterSeq, ...handlers } = options;
    const sub: Subscription = {
      groupId,
      handlers,
      from: afterSeq,
      lastSeq: afterSeq,
      requestId: undefined,
      resyncing: false,
    };
    this.subs.set(groupId, sub);
    if (this.welcomed) this.sendSubscribe(sub);
    else this.connect();
    return () => this.unsubscribe(groupId, sub);
  }

  /** Stops the events of a group. */
  unsubscribe(groupId: string, only?: Subscription): void {
    const sub = this.subs.get(groupId);
    if (!sub || (only && sub !== only)) return;
    this.subs.delete(groupId);
    if (this.welcomed) this.send({ type: 'unsubscribe', id: this.nextId(), groupId });
  }

  // ---- connection -------------------------------------------------------------------------------

  private async open(): Promise<void> {
    this.clearReconnect();
    this.setState(this.counters.connections === 0 && this.failures === 0 ? 'connecting' : 'reconnecting');
    const generation = ++this.generation;
    let token: string | undefined;
    try {
      const rejectedToken = this.rejectedToken;
      token = await this.options.getAccessToken(rejectedToken === undefined ? {} : { rejectedToken });
    } catch (cause) {
      if (generation !== this.generation) return;
      this.emit('error', { code: 'token_unavailable', message: 'could not get an access token', cause });
      this.scheduleReconnect();
      return;
    }
    if (generation !== this.generation) return;
    const Ctor =
      this.options.WebSocket ??
      (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket ??
      undefined;
    if (!Ctor) {
      this.emit('error', { code: 'no_websocket', message: 'no WebSocket: pass the `WebSocket` option' });
      this.setState('closed');
      return;
    }
    const base = this.options.url.replace(/\/+$/, '').replace(/^http/i, 'ws');
    const viaHeader = this.options.tokenIn === 'header';
    const url = `${base}/v1/ws${token && !viaHeader ? `?access_token=${encodeURIComponent(token)}` : ''}`;
    let socket: WebSocketLike;
    try {
      socket =
        viaHeader && token
          ? new Ctor(url, [], { headers: { Authorization: `Bearer ${token}` } })
          : new Ctor(url);
    } catch (cause) {
      this.emit('error', { code: 'connect_failed', message: 'could not create the WebSocket', cause });
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.tokenUsed = token;
    this.welcomed = false;
    this.lastMessageAt = this.now();
    this.connectTimer = setTimeout(() => {
      if (generation === this.generation && !this.welcomed) this.dropped(generation, 'connect timeout');
    }, this.options.connectTimeoutMs ?? 15_000);
    socket.onmessage = (event: { data: unknown }) => {
      if (generation === this.generation) this.onMessage(event.data);
    };
    socket.onclose = (event: { code?: number }) => {
      // The server ended the connection at its token's expiry: reconnect with a fresh one.
      if (generation === this.generation && event?.code === TOKEN_EXPIRED)
        this.rejectedToken ??= this.tokenUsed;
      this.dropped(generation, `closed with ${event?.code}`);
    };
    socket.onerror = (event: { message?: unknown; error?: { message?: unknown } } | undefined) => {
      if (generation !== this.generation) return;
      const message = String(event?.message ?? event?.error?.message ?? '');
      // `ws` reports a refused upgrade as "Unexpected server response: 401".
      if (!this.welcomed && /\b401\b/.test(message)) {
        this.rejectedToken = this.tokenUsed;
        this.emit('error', { code: 'unauthenticated', message: 'the upgrade was refused with 401' });
      }
      this.dropped(generation, message || 'socket error');
    };
  }

  /** The socket `generation` is gone: forget it and reconnect after a jittered backoff. */
  private dropped(generation: number, reason: string): void {
    if (generation !== this.generation) return;
    if (!this.welcomed) this.failures++;
    this.abandonSocket(4000, reason);
    this.scheduleReconnect();
  }

  private abandonSocket(code: number, reason: string): void {
    this.generation++;
    this.welcomed = false;
    if (this.connectTimer !== undefined) clearTimeout(this.connectTimer);
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    if (this.renewTimer !== undefined) clearTimeout(this.renewTimer);
    this.connectTimer = undefined;
    this.heartbeat = undefined;
    this.renewTimer = undefined;
    this.pendingAuth = undefined;
    const socket = this.socket;
    this.socket = undefined;
    for (const sub of this.subs.values()) {
      sub.requestId = undefined;
      sub.resyncing = false;
    }
    if (socket) {
      // No-ops, not null: `ws` throws an 'error' emitted without a listener.
      const ignore = () => {};
      socket.onmessage = ignore;
      socket.onclose = ignore;
      socket.onerror = ignore;
      try {
        socket.close(code, reason.slice(0, 100));
      } catch {
        // already closed
      }
    }
  }

  private scheduleReconnect(): void {
    if (this.currentState === 'closed') return;
    this.setState('reconnecting');
    this.clearReconnect();
    const base = this.options.reconnectBaseDelayMs ?? 500;
    const max = this.options.maxReconnectDelayMs ?? 30_000;
    const window = Math.min(max, base * 2 ** Math.max(0, this.failures - 1));
    const delay = Math.floor(this.random() * window);
    this.emit('reconnecting', { delayMs: delay, failures: this.failures });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.open();
    }, delay);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
  }

  private setState(state: ConnectionState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.emit('state', state);
  }

  private send(message: ClientMessage): void {
    const socket = this.socket;
    if (socket && socket.readyState === WS_OPEN) socket.send(JSON.stringify(message));
  }

  private nextId(): string {
    this.requestCounter += 1;
    return `c${this.requestCounter}`;
  }

  private sendSubscribe(sub: Subscription): void {
    sub.requestId = this.nextId();
    const afterSeq = sub.lastSeq ?? sub.from;
    this.send({
      type: 'subscribe',
      id: sub.requestId,
      groupId: sub.groupId,
      ...(afterSeq !== undefined ? { afterSeq } : {}),
    });
  }

  private startHeartbeat(serverHeartbeatMs: number): void {
    const interval = this.options.heartbeatMs ?? serverHeartbeatMs;
    if (!(interval > 0)) return;
    const generation = this.generation;
    this.heartbeat = setInterval(() => {
      if (generation !== this.generation) return;
      if (this.now() - this.lastMessageAt > interval * 2) {
        this.dropped(generation, 'heartbeat timeout');
        return;
      }
      this.send({ type: 'ping', id: this.nextId() });
    }, interval);
  }

  // ---- the token of the open connection ---------------------------------------------------------

  /** Sends a fresh token shortly before the current one expires, so the server never closes with 4401. */
  private scheduleRenewal(): void {
    if (this.renewTimer !== undefined) clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
    if (this.tokenExpiresAt === undefined) return;
    const left = this.tokenExpiresAt - this.now();
    const delay = Math.max(0, left - Math.min(RENEW_LEAD_MS, left / 4));
    const generation = this.generation;
    this.renewTimer = setTimeout(
      () => {
        this.renewTimer = undefined;
        if (generation !== this.generation) return;
        if (this.tokenExpiresAt !== undefined && this.tokenExpiresAt - this.now() > RENEW_LEAD_MS) {
          this.scheduleRenewal(); // a very long lifetime outlasts one timer
          return;
        }
        void this.renewToken(generation);
      },
      Math.min(delay, MAX_TIMER_MS),
    );
  }

  private async renewToken(generation: number): Promise<void> {
    const current = this.tokenUsed;
    let token: string | undefined;
    try {
      token = await this.options.getAccessToken({});
      // The provider handed out the token about to expire: ask it to refresh.
      if (current !== undefined && token === current)
        token = await this.options.getAccessToken({ rejectedToken: current });
    } catch (cause) {
      if (generation === this.generation)
        this.emit('error', {
          code: 'token_unavailable',
          message: 'could not get a fresh access token',
          cause,
        });
      return; // the server closes with 4401 at expiry, and the reconnect asks again
    }
    if (generation !== this.generation || !this.welcomed || !token || token === current) return;
    const id = this.nextId();
    this.pendingAuth = { id, token };
    this.send({ type: 'auth', id, accessToken: token });
  }

  private onAuthenticated(message: Extract<ServerMessage, { type: 'authenticated' }>): void {
    const pending = this.pendingAuth;
    if (!pending || message.id !== pending.id) return;
    this.pendingAuth = undefined;
    this.tokenUsed = pending.token;
    const expiresAt = Date.parse(message.expiresAt);
    this.tokenExpiresAt = Number.isNaN(expiresAt) ? expiryOf(pending.token) : expiresAt;
    this.counters.reauthenticated++;
    this.scheduleRenewal();
  }

  // ---- messages ---------------------------------------------------------------------------------

  private onMessage(data: unknown): void {
    this.lastMessageAt = this.now();
    const text = textOf(data);
    let message: ServerMessage;
    try {
      message = JSON.parse(text ?? '') as ServerMessage;
    } catch (cause) {
      this.emit('error', {
        code: 'bad_message',
        message: 'the server sent something that is not JSON',
        cause,
      });
      return;
    }
    switch (message.type) {
      case 'welcome':
        this.onWelcome(message.heartbeatMs);
        return;
      case 'authenticated':
        this.onAuthenticated(message);
        return;
      case 'event':
        this.onEvent(message.groupId, message.seq, message.event);
        return;
      case 'subscribed':
        this.onSubscribed(message.groupId, message.seq, message.id);
        return;
      case 'unsubscribed':
        if (message.reason === 'removed') this.ended(message.groupId, 'removed');
        return;
      case 'resync_required':
        this.onResyncRequired(message.groupId, message.seq, message.id);
        return;
      case 'presence': {
        const sub = this.subs.get(message.groupId);
        if (!sub) return;
        const update = { groupId: message.groupId, online: message.online };
        this.call(() => sub.handlers.onPresence?.(update));
        this.emit('presence', update);
        return;
      }
      case 'error': {
        const auth = this.pendingAuth;
        if (auth && message.id === auth.id) {
          // The fresh token was refused: the connection ends at the old token's expiry (4401), and
          // the reconnect refreshes.
          this.pendingAuth = undefined;
          this.rejectedToken = auth.token;
          this.emit('error', { code: message.code, message: 'the server refused the fresh access token' });
          return;
        }
        const sub = [...this.subs.values()].find(
          (s) => s.requestId !== undefined && s.requestId === message.id,
        );
        if (sub && message.code === 'not_found') {
          this.ended(sub.groupId, 'not_found');
          return;
        }
        this.emit('error', {
          code: message.code,
          ...(sub ? { groupId: sub.groupId } : {}),
          message: `server error: ${message.code}`,
        });
        return;
      }
      default:
        return;
    }
  }

  private onWelcome(heartbeatMs: number): void {
    if (this.connectTimer !== undefined) clearTimeout(this.connectTimer);
    this.connectTimer = undefined;
    this.welcomed = true;
    this.failures = 0;
    this.rejectedToken = undefined;
    this.counters.connections++;
    this.setState('open');
    this.startHeartbeat(heartbeatMs);
    this.tokenExpiresAt = expiryOf(this.tokenUsed);
    this.scheduleRenewal();
    for (const sub of this.subs.values()) this.sendSubscribe(sub);
  }

  private onEvent(groupId: string, seq: number, event: GroupEvent): void {
    const sub = this.subs.get(groupId);
    if (!sub) return;
    if (sub.lastSeq !== undefined && seq <= sub.lastSeq) {
      this.counters.duplicatesDropped++;
      return;
    }
    if (sub.lastSeq !== undefined && seq !== sub.lastSeq + 1) {
      // Never skip ahead: ask again for everything after the last delivered seq.
      if (!sub.resyncing) {
        sub.resyncing = true;
        this.counters.gapsRepaired++;
        this.sendSubscribe(sub);
      }
      return;
    }
    sub.lastSeq = seq;
    this.counters.delivered++;
    this.call(() => sub.handlers.onEvent?.(event));
    this.emit('event', event);
    const balances = (event.data as { balances?: unknown }).balances;
    if (isBalances(balances)) {
      const update = { groupId, seq, currencies: balances };
      this.call(() => sub.handlers.onBalances?.(update));
      this.emit('balances', update);
    }
  }

  private onSubscribed(groupId: string, seq: number, id: string | undefined): void {
    const sub = this.subs.get(groupId);
    if (!sub) return;
    const current = sub.requestId !== undefined && id === sub.requestId;
    // While resyncing after a gap, only the answer to the resubscription may move lastSeq: an older
    // `subscribed` would vouch for events that were dropped.
    if (sub.resyncing && !current) return;
    sub.resyncing = false;
    if (sub.lastSeq === undefined || seq > sub.lastSeq) sub.lastSeq = seq;
    this.emit('subscribed', { groupId, seq: sub.lastSeq });
  }

  /** The answer to the subscription's current subscribe: resume from the group's seq, and tell the app. */
  private onResyncRequired(groupId: string, seq: number, id: string | undefined): void {
    const sub = this.subs.get(groupId);
    if (!sub || sub.requestId === undefined || id !== sub.requestId) return;
    sub.lastSeq = seq;
    sub.resyncing = false;
    const info = { groupId, seq };
    this.call(() => sub.handlers.onResyncRequired?.(info));
    this.emit('resync_required', info);
    // A handler may have replaced or ended the subscription.
    if (this.subs.get(groupId) === sub && this.welcomed) this.sendSubscribe(sub);
  }

  private ended(groupId: string, reason: 'removed' | 'not_found'): void {
    const sub = this.subs.get(groupId);
    if (!sub) return;
    this.subs.delete(groupId);
    this.call(() => sub.handlers.onEnded?.(reason));
    this.emit('ended', { groupId, reason });
  }

  /** Runs a subscription callback; a throwing callback is reported, never breaks delivery. */
  private call(fn: () => void): void {
    try {
      fn();
    } catch (cause) {
      this.emit('error', { code: 'listener_failed', message: 'a listener threw', cause });
    }
  }

  private emit<K extends keyof RealtimeListeners>(type: K, ...args: Parameters<RealtimeListeners[K]>): void {
    for (const listener of this.listeners[type] as Set<(...a: Parameters<RealtimeListeners[K]>) => void>) {
      try {
        listener(...args);
      } catch (cause) {
        if (type !== 'error')
          this.emit('error', { code: 'listener_failed', message: 'a listener threw', cause });
      }
    }
  }
}
