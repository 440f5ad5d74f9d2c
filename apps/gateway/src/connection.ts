import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import type { Subscription } from './feed';
import type { GatewayMetrics } from './gateway-metrics';

/** A message due while more than this is buffered for the client: it is too slow to read (1013). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Events wait while this much is buffered for the client, so a long catch-up goes out as it drains. */
export const PACE_BYTES = 256 * 1024;
/** The longest delay setTimeout takes; a later token deadline is re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The close codes the server uses (API.md §8). */
export const CLOSE = {
  policyViolation: 1008,
  serviceRestart: 1012,
  tooSlow: 1013,
  tokenExpired: 4401,
} as const;

export type ServerMessage = Record<string, unknown> & { type: string };

export type ConnectionHooks = {
  metrics: GatewayMetrics;
  /** Called once, when the connection closes for any reason. */
  onClose(conn: Connection): void;
};

/**
 * One client socket: who it is, until when its token holds, its subscriptions, and the sending side:
 * every message goes through `send`, which closes a client that lets more than 1 MiB pile up, and
 * event senders wait for `room()` so that a backlog goes out as fast as the client reads it.
 */
export class Connection {
  readonly id = randomUUID();
  closed = false;
  /** It answered the last heartbeat ping. */
  alive = true;
  /** Bytes left for the client since the last heartbeat (its pong may be queued behind them). */
  drained = false;
  readonly subs = new Map<string, Subscription>();
  /** The latest subscribe or unsubscribe of each group still in flight: an older one gives way. */
  private readonly intents = new Map<string, number>();
  private intentCounter = 0;
  private expiresAtMs = Number.POSITIVE_INFINITY;
  private deadline: NodeJS.Timeout | undefined;
  private waiters: ((open: boolean) => void)[] = [];

  constructor(
    readonly ws: WebSocket,
    readonly userId: string,
    private readonly hooks: ConnectionHooks,
  ) {
    ws.on('pong', () => {
      this.alive = true;
    });
    ws.on('close', () => this.finish());
    ws.on('error', () => this.finish());
  }

  // ---- the access token's deadline ------------------------------------------------------------------

  get expiresAt(): Date {
    return new Date(this.expiresAtMs);
  }

  /** The connection now holds a token valid until `expiresAt`: at that instant it closes with 4401. */
  setExpiry(expiresAt: Date): void {
    this.expiresAtMs = expiresAt.getTime();
    this.armDeadline();
  }

  private armDeadline(): void {
    clearTimeout(this.deadline);
    if (this.closed) return;
    const left = this.expiresAtMs - Date.now();
    if (left <= 0) {
      this.close(CLOSE.tokenExpired, 'token expired');
      return;
    }
    this.deadline = setTimeout(() => this.armDeadline(), Math.min(left, MAX_TIMER_MS));
    this.deadline.unref();
  }

  // ---- subscribe and unsubscribe in flight ----------------------------------------------------------

  /** Starts a subscribe or unsubscribe of `groupId`; an older one of the same group still running gives way. */
  intend(groupId: string): number {
    this.intentCounter += 1;
    this.intents.set(groupId, this.intentCounter);
    return this.intentCounter;
  }

  /** Whether the request holding `ticket` is still the latest for its group, on an open socket. */
  isCurrent(groupId: string, ticket: number): boolean {
    return !this.closed && this.intents.get(groupId) === ticket;
  }

  /** The request holding `ticket` is over. */
  settle(groupId: string, ticket: number): void {
    if (this.intents.get(groupId) === ticket) this.intents.delete(groupId);
  }

  /** Groups subscribed or being subscribed: what the per-connection subscription limit counts. */
  groupCount(): number {
    let count = this.subs.size;
    for (const groupId of this.intents.keys()) if (!this.subs.has(groupId)) count++;
    return count;
  }

  /** Whether `groupId` is subscribed or has a subscribe in flight. */
  holds(groupId: string): boolean {
    return this.subs.has(groupId) || this.intents.has(groupId);
  }

  // ---- sending ----------------------------------------------------------------------------------

  send(message: ServerMessage): boolean {
    return this.sendFrame(JSON.stringify(message), message.type);
  }

  /** Sends one text frame; false when the connection is closed (or has just been, as too slow). */
  sendFrame(text: string, type: string): boolean {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.hooks.metrics.slowConsumerCloses.inc();
      this.close(CLOSE.tooSlow, 'too slow to read');
      return false;
    }
    this.ws.send(text, this.written);
    this.hooks.metrics.messagesSent.inc({ type });
    return true;
  }

  /** Whether an event may be sent now without piling up more than PACE_BYTES for the client. */
  hasRoom(): boolean {
    return this.ws.bufferedAmount < PACE_BYTES;
  }

  /** Resolves true once there is room (at once if there is), false if the connection closes first. */
  room(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.hasRoom()) return Promise.resolve(true);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Wakes the senders waiting for room, if there is room. */
  wakeIfRoom(): void {
    if (this.waiters.length > 0 && this.hasRoom()) for (const wake of this.waiters.splice(0)) wake(true);
  }

  /** The callback of every send: the frame has left this process for the client. */
  private readonly written = (err?: Error | null): void => {
    if (err) return;
    this.drained = true;
    this.wakeIfRoom();
  };

  // ---- closing ----------------------------------------------------------------------------------

  /** Closes with a close frame (queued behind what is buffered); the connection counts as closed at once. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.hooks.metrics.serverCloses.inc({ code: String(code) });
    this.ws.close(code, reason);
    this.finish();
  }

  /** Drops the TCP connection without a close frame (a client that answers nothing). */
  terminate(): void {
    if (this.closed) return;
    this.ws.terminate();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.deadline);
    for (const wake of this.waiters.splice(0)) wake(false);
    this.hooks.onClose(this);
  }
}
