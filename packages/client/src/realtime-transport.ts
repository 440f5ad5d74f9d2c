import type {
  RealtimeError,
  RealtimeOptions,
  WebSocketConstructor,
  WebSocketLike,
} from './realtime-types.js';
import type { ClientMessage } from './types.js';

const WS_OPEN = 1;

/** What the transport reports of the socket it holds now (never of one it has abandoned). */
export type TransportEvents = {
  message: (data: unknown) => void;
  /**
   * The socket is gone or never came up: closed (`closeCode`), failed (`upgradeRefused` when the
   * server answered the upgrade with 401), or not confirmed within the connect timeout.
   */
  dropped: (reason: string, detail: { closeCode?: number; upgradeRefused?: boolean }) => void;
};

/**
 * The WebSocket of the realtime client: where it connects, how the token travels, and the sockets it
 * gives up on. Every attempt gets a generation; a callback of an older socket (a late `close`, an
 * error after a replacement) is dropped here, so the rest of the client only ever hears of the
 * current one.
 */
export class RealtimeTransport {
  private socket: WebSocketLike | undefined;
  /** Bumped by every attempt and every abandoned socket. */
  private generation = 0;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private requestCounter = 0;

  private readonly options: Pick<RealtimeOptions, 'url' | 'WebSocket' | 'tokenIn' | 'connectTimeoutMs'>;
  private readonly events: TransportEvents;

  constructor(
    options: Pick<RealtimeOptions, 'url' | 'WebSocket' | 'tokenIn' | 'connectTimeoutMs'>,
    events: TransportEvents,
  ) {
    this.options = options;
    this.events = events;
  }

  /** Starts an attempt: whatever an older attempt still reports is ignored from now on. */
  begin(): number {
    return ++this.generation;
  }

  isCurrent(generation: number): boolean {
    return generation === this.generation;
  }

  /**
   * Opens the socket of the current attempt. It must be confirmed (`confirm()`, on the server's
   * welcome) within the connect timeout, or it is dropped.
   * @returns the error when no socket could be made
   */
  open(token: string | undefined): RealtimeError | undefined {
    const Ctor =
      this.options.WebSocket ??
      (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket ??
      undefined;
    if (!Ctor) return { code: 'no_websocket', message: 'no WebSocket: pass the `WebSocket` option' };
    const base = this.options.url.replace(/\/+$/, '').replace(/^http/i, 'ws');
    const tokenIn = this.tokenIn();
    const viaHeader = tokenIn === 'header';
    const url = `${base}/v1/ws${token && tokenIn === 'query' ? `?access_token=${encodeURIComponent(token)}` : ''}`;
    let socket: WebSocketLike;
    try {
      socket =
        viaHeader && token
          ? new Ctor(url, [], { headers: { Authorization: `Bearer ${token}` } })
          : new Ctor(url);
    } catch (cause) {
      return { code: 'connect_failed', message: 'could not create the WebSocket', cause };
    }
    const generation = this.generation;
    const current = () => generation === this.generation;
    this.socket = socket;
    this.connectTimer = setTimeout(() => {
      if (current()) this.events.dropped('connect timeout', {});
    }, this.options.connectTimeoutMs ?? 15_000);
    if (tokenIn === 'message' && token) {
      // The socket opens unauthenticated: its first message is the token (the server answers
      // `authenticated`, then `welcome`, which confirms the socket as usual).
      socket.onopen = () => {
        if (current() && socket.readyState === WS_OPEN) {
          socket.send(JSON.stringify({ type: 'auth', id: this.nextId(), accessToken: token }));
        }
      };
    }
    socket.onmessage = (event: { data: unknown }) => {
      if (current()) this.events.message(event.data);
    };
    socket.onclose = (event: { code?: number }) => {
      if (current()) this.events.dropped(`closed with ${event?.code}`, { closeCode: event?.code });
    };
    socket.onerror = (event: { message?: unknown; error?: { message?: unknown } } | undefined) => {
      if (!current()) return;
      const message = String(event?.message ?? event?.error?.message ?? '');
      // `ws` reports a refused upgrade as "Unexpected server response: 401".
      this.events.dropped(message || 'socket error', { upgradeRefused: /\b401\b/.test(message) });
    };
    return undefined;
  }

  /**
   * How the token travels (`tokenIn`): by default in the header where the constructor can set one
   * (`ws` in Node, given as the `WebSocket` option), else in the first message (browsers).
   */
  private tokenIn(): 'query' | 'header' | 'message' {
    if (this.options.tokenIn) return this.options.tokenIn;
    const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
    return node !== undefined && this.options.WebSocket !== undefined ? 'header' : 'message';
  }

  /** The server welcomed the socket: it is no longer subject to the connect timeout. */
  confirm(): void {
    if (this.connectTimer !== undefined) clearTimeout(this.connectTimer);
    this.connectTimer = undefined;
  }

  /** Sends on the open socket; a message with no open socket is dropped (a resubscription follows). */
  send(message: ClientMessage): void {
    const socket = this.socket;
    if (socket && socket.readyState === WS_OPEN) socket.send(JSON.stringify(message));
  }

  /** A fresh id for a request (`subscribe`, `ping`, `auth`, …), unique for this client. */
  nextId(): string {
    this.requestCounter += 1;
    return `c${this.requestCounter}`;
  }

  /** Gives the socket up: nothing it does is reported any more, and it is closed with `code`. */
  abandon(code: number, reason: string): void {
    this.generation++;
    this.confirm();
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    // No-ops, not null: `ws` throws an 'error' emitted without a listener.
    const ignore = () => {};
    socket.onmessage = ignore;
    socket.onclose = ignore;
    socket.onerror = ignore;
    if (socket.onopen) socket.onopen = ignore;
    try {
      socket.close(code, reason.slice(0, 100));
    } catch {
      // already closed
    }
  }
}
