import { dispatchMessage, type MessageHandlers } from './dispatch-message.js';
import { Emitter } from './emitter.js';
import { Heartbeat } from './heartbeat.js';
import { RealtimeTransport } from './realtime-transport.js';
import type {
  ConnectionState,
  GroupSubscription,
  RealtimeListeners,
  RealtimeOptions,
  RealtimeStats,
  SubscribeOptions,
} from './realtime-types.js';
import { ReconnectBackoff } from './reconnect-backoff.js';
import { type Subscription, SubscriptionTracker } from './subscription-tracker.js';
import { TokenRenewer } from './token-renewer.js';

/** The close code of a connection whose access token expired (API.md §8). */
const TOKEN_EXPIRED = 4401;

/**
 * The realtime client of API.md §8: one WebSocket that reconnects with jittered exponential backoff
 * and resubscribes every group with `afterSeq` = the last seq it delivered, so events arrive exactly
 * once and in order across reconnects, gateway restarts and crashes (duplicates are dropped by seq; a
 * gap makes it resubscribe from the last delivered seq rather than skip ahead).
 *
 * This class is the connection's life (connecting, open, reconnecting, closed); the socket, the
 * backoff, the heartbeat, the token and the subscriptions each have their own module.
 */
export class RealtimeClient {
  private readonly options: RealtimeOptions;
  private readonly listeners = new Emitter<RealtimeListeners>((cause, type) => {
    if (type !== 'error') this.emit('error', { code: 'listener_failed', message: 'a listener threw', cause });
  });
  private readonly transport: RealtimeTransport;
  private readonly backoff: ReconnectBackoff;
  private readonly heartbeat: Heartbeat;
  private readonly token: TokenRenewer;
  private readonly subscriptions: SubscriptionTracker;
  private readonly handlers: MessageHandlers;
  private currentState: ConnectionState = 'idle';
  /** The socket got its `welcome`: requests sent now are answered. */
  private welcomed = false;
  /** Connections that got a `welcome`. */
  private connections = 0;
  /** `followActivity()` is on: every (re)connect sends `activity.subscribe`. */
  private followingActivity = false;

  constructor(options: RealtimeOptions) {
    this.options = options;
    const now = options.now ?? Date.now;
    this.transport = new RealtimeTransport(options, {
      message: (data) => this.onMessage(data),
      dropped: (reason, detail) => this.onDropped(reason, detail),
    });
    this.backoff = new ReconnectBackoff({
      baseDelayMs: options.reconnectBaseDelayMs,
      maxDelayMs: options.maxReconnectDelayMs,
      random: options.random ?? Math.random,
    });
    this.heartbeat = new Heartbeat(now);
    const send = this.transport.send.bind(this.transport);
    const nextId = this.transport.nextId.bind(this.transport);
    this.token = new TokenRenewer({
      getAccessToken: options.getAccessToken,
      now,
      send,
      nextId,
      reportError: (error) => this.emit('error', error),
    });
    this.subscriptions = new SubscriptionTracker({
      listeners: this.listeners,
      send,
      nextId,
      isWelcomed: () => this.welcomed,
    });
    this.handlers = {
      welcome: (message) => this.onWelcome(message.heartbeatMs),
      authenticated: (message) => this.token.onAuthenticated(message),
      event: (message) => this.subscriptions.onEvent(message.groupId, message.seq, message.event),
      subscribed: (message) => this.subscriptions.onSubscribed(message.groupId, message.seq, message.id),
      unsubscribed: (message) => {
        if (message.reason === 'removed') this.subscriptions.end(message.groupId, 'removed');
      },
      resync_required: (message) =>
        this.subscriptions.onResyncRequired(message.groupId, message.seq, message.id),
      presence: (message) => this.subscriptions.onPresence(message.groupId, message.online),
      activity: (message) =>
        this.emit('activity', {
          groupId: message.groupId,
          eventId: message.eventId,
          seq: message.seq,
          eventType: message.eventType,
        }),
      error: (message) => {
        if (this.token.onError(message)) return;
        const groupId = this.subscriptions.groupOfRequest(message.id);
        if (groupId !== undefined && message.code === 'not_found') {
          this.subscriptions.end(groupId, 'not_found');
          return;
        }
        this.emit('error', {
          code: message.code,
          ...(groupId !== undefined ? { groupId } : {}),
          message: `server error: ${message.code}`,
        });
      },
    };
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  stats(): RealtimeStats {
    return {
      connections: this.connections,
      delivered: this.subscriptions.delivered,
      duplicatesDropped: this.subscriptions.duplicatesDropped,
      gapsRepaired: this.subscriptions.gapsRepaired,
      reauthenticated: this.token.reauthenticated,
    };
  }

  /** The last seq delivered for a group (what a resubscription resumes after). */
  lastSeq(groupId: string): number | undefined {
    return this.subscriptions.lastSeq(groupId);
  }

  /** Adds a listener for every group; returns the function that removes it. */
  on<K extends keyof RealtimeListeners>(type: K, listener: RealtimeListeners[K]): () => void {
    return this.listeners.on(type, listener);
  }

  /** Opens the connection (and keeps it open until `close()`). Subscribing connects too. */
  connect(): void {
    if (this.currentState !== 'idle' && this.currentState !== 'closed') return;
    this.backoff.succeeded();
    void this.open();
  }

  /** Closes the connection for good (until `connect()`); subscriptions are kept for a later connect. */
  close(): void {
    this.abandonSocket(1000, 'client closed');
    this.backoff.cancel();
    this.setState('closed');
  }

  /**
   * Hears `activity` for every new event of any of the user's groups (API.md §8a), with no
   * subscription per group. Sent again on every reconnect; call it again after the user joins or
   * creates a group, so that the server re-reads their groups. Returns the function that stops it.
   */
  followActivity(): () => void {
    this.followingActivity = true;
    if (this.welcomed) this.transport.send({ type: 'activity.subscribe', id: this.transport.nextId() });
    else this.connect();
    return () => {
      this.followingActivity = false;
      if (this.welcomed) this.transport.send({ type: 'activity.unsubscribe', id: this.transport.nextId() });
    };
  }

  /**
   * Subscribes to a group's events (replacing an existing subscription to it). Returns the function
   * that unsubscribes; await its `confirmed` to know the server has the subscription in place
   * (`subscribed`), so that a write made after it is delivered. `confirmed` rejects with
   * `SubscriptionEndedError` if the subscription ends before (see {@link GroupSubscription}).
   */
  subscribe(groupId: string, options: SubscribeOptions = {}): GroupSubscription {
    const sub = this.subscriptions.add(groupId, options);
    if (!this.welcomed) this.connect();
    const unsubscribe = () => this.unsubscribe(groupId, sub);
    const confirmed = sub.confirmed.then((info) => ({ ...info, unsubscribe }));
    confirmed.catch(() => {}); // awaiting is optional
    return Object.assign(unsubscribe, { unsubscribe, confirmed });
  }

  /** Stops the events of a group. */
  unsubscribe(groupId: string, only?: Subscription): void {
    this.subscriptions.remove(groupId, only);
  }

  // ---- connection -------------------------------------------------------------------------------

  private async open(): Promise<void> {
    this.backoff.cancel();
    this.setState(
      this.connections === 0 && this.backoff.failuresInARow === 0 ? 'connecting' : 'reconnecting',
    );
    const generation = this.transport.begin();
    let token: string | undefined;
    try {
      token = await this.token.forConnection();
    } catch (cause) {
      if (!this.transport.isCurrent(generation)) return;
      this.emit('error', { code: 'token_unavailable', message: 'could not get an access token', cause });
      this.scheduleReconnect();
      return;
    }
    if (!this.transport.isCurrent(generation)) return;
    const error = this.transport.open(token);
    if (error) {
      this.emit('error', error);
      // Without a WebSocket implementation no retry can succeed.
      if (error.code === 'no_websocket') this.setState('closed');
      else this.scheduleReconnect();
      return;
    }
    this.token.presented(token);
    this.welcomed = false;
    this.heartbeat.touch();
  }

  private onDropped(reason: string, detail: { closeCode?: number; upgradeRefused?: boolean }): void {
    // The server ended the connection at its token's expiry: reconnect with a fresh one.
    if (detail.closeCode === TOKEN_EXPIRED) this.token.expired();
    if (detail.upgradeRefused && !this.welcomed) {
      this.token.refused();
      this.emit('error', { code: 'unauthenticated', message: 'the upgrade was refused with 401' });
    }
    this.dropped(reason);
  }

  /** The current socket is gone: forget it and reconnect after a jittered backoff. */
  private dropped(reason: string): void {
    if (!this.welcomed) this.backoff.failed();
    this.abandonSocket(4000, reason);
    this.scheduleReconnect();
  }

  private abandonSocket(code: number, reason: string): void {
    this.welcomed = false;
    this.heartbeat.stop();
    this.token.stop();
    this.subscriptions.connectionLost();
    this.transport.abandon(code, reason);
  }

  private scheduleReconnect(): void {
    if (this.currentState === 'closed') return;
    this.setState('reconnecting');
    const delayMs = this.backoff.schedule(() => void this.open());
    this.emit('reconnecting', { delayMs, failures: this.backoff.failuresInARow });
  }

  private setState(state: ConnectionState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.emit('state', state);
  }

  // ---- messages ---------------------------------------------------------------------------------

  private onMessage(data: unknown): void {
    this.heartbeat.touch();
    dispatchMessage(data, this.handlers, (cause) =>
      this.emit('error', {
        code: 'bad_message',
        message: 'the server sent something that is not JSON',
        cause,
      }),
    );
  }

  private onWelcome(heartbeatMs: number): void {
    this.transport.confirm();
    this.welcomed = true;
    this.backoff.succeeded();
    this.connections++;
    this.setState('open');
    this.heartbeat.start(
      this.options.heartbeatMs ?? heartbeatMs,
      () => this.transport.send({ type: 'ping', id: this.transport.nextId() }),
      () => this.dropped('heartbeat timeout'),
    );
    this.token.welcomed();
    this.subscriptions.resubscribeAll();
    if (this.followingActivity)
      this.transport.send({ type: 'activity.subscribe', id: this.transport.nextId() });
  }

  private emit<K extends keyof RealtimeListeners>(type: K, ...args: Parameters<RealtimeListeners[K]>): void {
    this.listeners.emit(type, ...args);
  }
}
