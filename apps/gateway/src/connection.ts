import { randomBytes } from 'node:crypto';
import { WebSocket } from 'ws';
import type { Subscription } from './feed';
import type { GatewayMetrics } from './gateway-metrics';
import { socketOf } from './ws-internals';

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

/** What `sendFrame` takes: a serialised message, as text or as its UTF-8 bytes (sent as a text frame). */
export type Frame = string | Buffer | PreparedFrame;

/**
 * A text message framed once for every connection it goes to. A server's frames are not masked
 * (RFC 6455, 5.1), so the frame's bytes are the same for every client: each socket gets one `write`
 * of the same Buffer, with none of ws's per-send framing (two buffers, a cork, a `writev`) — what
 * gorilla/websocket calls a PreparedMessage. Only for sockets without compression (the gateway
 * turns `perMessageDeflate` off).
 */
export class PreparedFrame {
  readonly bytes: Buffer;

  constructor(payload: Buffer) {
    const length = payload.length;
    const header = length < 126 ? 2 : length < 0x10000 ? 4 : 10;
    const bytes = Buffer.allocUnsafe(header + length);
    bytes[0] = 0x81; // FIN, opcode 1 (text)
    if (length < 126) bytes[1] = length;
    else if (length < 0x10000) {
      bytes[1] = 126;
      bytes.writeUInt16BE(length, 2);
    } else {
      bytes[1] = 127;
      bytes.writeBigUInt64BE(BigInt(length), 2);
    }
    payload.copy(bytes, header);
    this.bytes = bytes;
  }
}

export type ConnectionHooks = {
  metrics: GatewayMetrics;
  /** Called once, when the connection closes for any reason. */
  onClose(conn: Connection): void;
};

/** A ping frame without data (FIN, opcode 9, length 0): the same bytes for every connection. */
const PING_FRAME = Buffer.from([0x89, 0x00]);

/** Text frames: ws would otherwise send a Buffer as a binary frame. */
const TEXT = Object.freeze({ binary: false });

/** The connection of each socket, for the listeners below (one set of functions for every socket). */
const CONNECTION = Symbol('tally.connection');
type Socket = WebSocket & { [CONNECTION]?: Connection };
/** The connection a socket belongs to (set when the Connection is made). */
export const connectionOf = (ws: WebSocket): Connection | undefined => (ws as Socket)[CONNECTION];
function onPong(this: WebSocket): void {
  const conn = connectionOf(this);
  if (conn) conn.alive = true;
}
/**
 * `close`, and `error` too: a socket error (the client reset the connection, sent a bad or oversized
 * frame) is the client's, not ours to count or log; ws closes the socket, and all there is to do is
 * let go of the connection.
 */
function onGone(this: WebSocket): void {
  connectionOf(this)?.finish();
}

/**
 * Token deadlines under one timer: connections are grouped by the exact instant their token
 * expires (JWT expiries are whole seconds, so thousands of connections share a few hundred
 * instants), and the timer is armed for the earliest.
 */
export function createTokenDeadlines() {
  const due = new Map<number, Set<Connection>>();
  /** The instants of `due`, ascending. */
  const instants: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  let armedFor = Number.POSITIVE_INFINITY;

  function arm(): void {
    const next = instants[0] ?? Number.POSITIVE_INFINITY;
    if (next === armedFor) return;
    clearTimeout(timer);
    timer = undefined;
    armedFor = next;
    if (next === Number.POSITIVE_INFINITY) return;
    timer = setTimeout(fire, Math.min(Math.max(0, next - Date.now()), MAX_TIMER_MS));
    timer.unref();
  }

  function fire(): void {
    timer = undefined;
    armedFor = Number.POSITIVE_INFINITY;
    const now = Date.now();
    while (instants.length > 0 && (instants[0] as number) <= now) {
      const at = instants.shift() as number;
      const conns = due.get(at);
      due.delete(at);
      for (const conn of conns ?? []) conn.expire();
    }
    arm();
  }

  return {
    add(conn: Connection, at: number): void {
      let conns = due.get(at);
      if (!conns) {
        conns = new Set();
        due.set(at, conns);
        let i = instants.length;
        while (i > 0 && (instants[i - 1] as number) > at) i--;
        instants.splice(i, 0, at);
      }
      conns.add(conn);
      if (at < armedFor) arm();
    },
    remove(conn: Connection, at: number): void {
      const conns = due.get(at);
      if (!conns?.delete(conn) || conns.size > 0) return;
      due.delete(at);
      instants.splice(instants.indexOf(at), 1);
      arm();
    },
  };
}

export type TokenDeadlines = ReturnType<typeof createTokenDeadlines>;

/**
 * What the connections of one gateway share: how their ids are made, a random prefix per gateway
 * and a counter (unique across gateways, for presence and logs, without a UUID's randomness and
 * formatting per connection), and their token deadlines, under one timer for all of them.
 */
export type ConnectionScope = {
  readonly idPrefix: string;
  /** The next connection's number: 1, 2, ... in the order they open. */
  nextSerial(): number;
  readonly deadlines: TokenDeadlines;
};

export function createConnectionScope(): ConnectionScope {
  let lastSerial = 0;
  return {
    idPrefix: `c${randomBytes(9).toString('base64url')}`,
    nextSerial: () => ++lastSerial,
    deadlines: createTokenDeadlines(),
  };
}

/**
 * One client socket: who it is, until when its token holds, its subscriptions, and the sending side:
 * every message goes through `sendFrame`, which closes a client that lets more than 1 MiB pile up,
 * and event senders wait for `room()` so that a backlog goes out as fast as the client reads it.
 *
 * Kept small, as a gateway holds tens of thousands: its socket listeners are shared functions, its
 * token deadline is an entry under its gateway's one timer (`scope`), and what only some connections need
 * (subscribes in flight, senders waiting for room) is created when first needed.
 */
export class Connection {
  /** Numbers the connections of its gateway in order (the heartbeat's slices go by it). */
  readonly serial: number;
  /**
   * The session (`sid`) of the access token it was opened or last authenticated with: when that
   * session is signed out, the connection closes with 4401. Undefined for a token without one.
   */
  sessionId: string | undefined;
  closed = false;
  /** It answered the last heartbeat ping. */
  alive = true;
  /** What `flushed()` was just after the last heartbeat's ping. */
  private flushedAtBeat = 0;
  readonly subs = new Map<string, Subscription>();
  /** Messages received in the current one-second window (the per-connection message limit). */
  windowStart = 0;
  windowCount = 0;
  /** The latest subscribe or unsubscribe of each group still in flight: an older one gives way. */
  private intents: Map<string, number> | undefined;
  private intentCounter = 0;
  private expiresAtMs = Number.POSITIVE_INFINITY;
  /** The instant this connection is registered under in its scope's deadlines, if any. */
  private deadlineAt: number | undefined;
  private waiters: ((open: boolean) => void)[] | undefined;
  /** A `drain` listener is on the socket for the waiters. */
  private drainArmed = false;

  /**
   * Whether it has shown a valid token (at the upgrade, or with its first `auth` message). An
   * unauthenticated connection has `userId` '' and its deadline (`setExpiry`) is the auth deadline.
   */
  authenticated = true;
  /** The first `auth` being verified: messages arriving meanwhile wait for it (`messages.ts`). */
  authPending: Promise<void> | undefined;

  /** `scope`: its gateway's (`createConnectionScope`, one for all of them); one of its own by default. */
  constructor(
    readonly ws: WebSocket,
    /** Set once: at the upgrade, or when an unauthenticated connection authenticates. */
    public userId: string,
    private readonly hooks: ConnectionHooks,
    private readonly scope: ConnectionScope = createConnectionScope(),
  ) {
    this.serial = scope.nextSerial();
    (ws as Socket)[CONNECTION] = this;
    ws.on('pong', onPong);
    ws.on('close', onGone);
    ws.on('error', onGone);
  }

  /** Unique across gateways (the `welcome` says it); made from `serial` when asked, not kept. */
  get id(): string {
    return `${this.scope.idPrefix}${this.serial.toString(36)}`;
  }

  /**
   * Bytes that have left this process for the client (handed to the kernel): what the socket was
   * given, less what still waits in it. Read at heartbeats, so that sends need no callback.
   */
  private flushed(): number {
    const socket = socketOf(this.ws);
    return socket === undefined ? 0 : (socket.bytesWritten ?? 0) - socket.writableLength;
  }

  /** Bytes left for the client since the last heartbeat (its pong may be queued behind them). */
  get drained(): boolean {
    return this.flushed() > this.flushedAtBeat;
  }

  /** A heartbeat's ping was just sent: `drained` counts from here. */
  beaten(): void {
    this.flushedAtBeat = this.flushed();
  }

  // ---- the access token's deadline ------------------------------------------------------------------

  get expiresAt(): Date {
    return new Date(this.expiresAtMs);
  }

  /** The connection now holds a token valid until `expiresAt`: at that instant it closes with 4401. */
  setExpiry(expiresAt: Date): void {
    this.expiresAtMs = expiresAt.getTime();
    this.clearDeadline();
    if (this.closed) return;
    if (this.expiresAtMs <= Date.now()) {
      this.expire();
      return;
    }
    this.deadlineAt = this.expiresAtMs;
    this.scope.deadlines.add(this, this.deadlineAt);
  }

  /** Called at the deadline: closes with 4401 (a deadline moved later in the meantime is kept). */
  expire(): void {
    this.deadlineAt = undefined;
    if (this.closed) return;
    if (this.expiresAtMs > Date.now()) {
      this.setExpiry(this.expiresAt);
      return;
    }
    this.close(CLOSE.tokenExpired, this.authenticated ? 'token expired' : 'authentication timeout');
  }

  private clearDeadline(): void {
    if (this.deadlineAt === undefined) return;
    this.scope.deadlines.remove(this, this.deadlineAt);
    this.deadlineAt = undefined;
  }

  // ---- subscribe and unsubscribe in flight ----------------------------------------------------------

  /** Starts a subscribe or unsubscribe of `groupId`; an older one of the same group still running gives way. */
  intend(groupId: string): number {
    this.intentCounter += 1;
    this.intents ??= new Map();
    this.intents.set(groupId, this.intentCounter);
    return this.intentCounter;
  }

  /** Whether the request holding `ticket` is still the latest for its group, on an open socket. */
  isCurrent(groupId: string, ticket: number): boolean {
    return !this.closed && this.intents?.get(groupId) === ticket;
  }

  /** The request holding `ticket` is over. */
  settle(groupId: string, ticket: number): void {
    if (this.intents?.get(groupId) !== ticket) return;
    this.intents.delete(groupId);
    if (this.intents.size === 0) this.intents = undefined;
  }

  /** Groups subscribed or being subscribed: what the per-connection subscription limit counts. */
  groupCount(): number {
    let count = this.subs.size;
    for (const groupId of this.intents?.keys() ?? []) if (!this.subs.has(groupId)) count++;
    return count;
  }

  /** Whether `groupId` is subscribed or has a subscribe in flight. */
  holds(groupId: string): boolean {
    return this.subs.has(groupId) || this.intents?.has(groupId) === true;
  }

  // ---- sending ----------------------------------------------------------------------------------

  /** Serialises and sends a message meant for this connection alone. */
  send(message: ServerMessage): boolean {
    return this.sendFrame(JSON.stringify(message), message.type);
  }

  /**
   * Sends one text frame; false when the connection is closed (or has just been, as too slow).
   * A frame meant for many connections is serialised once and the same string or bytes given to each.
   */
  sendFrame(frame: Frame, type: string): boolean {
    if (!this.write(frame)) return false;
    this.hooks.metrics.sent(type);
    return true;
  }

  /** `sendFrame` for a caller that counts what it sent itself (a feed's pass over its subscribers). */
  write(frame: Frame): boolean {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.hooks.metrics.slowConsumerCloses.inc();
      this.close(CLOSE.tooSlow, 'too slow to read');
      return false;
    }
    if (frame instanceof PreparedFrame) {
      // ws writes nothing of its own in between: no compression, and nothing but text is sent.
      socketOf(this.ws)?.write(frame.bytes);
    } else this.ws.send(frame, TEXT);
    return true;
  }

  /** A ping (the heartbeat's): one write of a shared, prepared frame, as events are. */
  ping(): void {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    const socket = socketOf(this.ws);
    if (socket) socket.write(PING_FRAME);
    else this.ws.ping();
  }

  /** Holds the frames sent until `uncork` in this process, so that they leave in one write. */
  cork(): void {
    socketOf(this.ws)?.cork();
  }

  uncork(): void {
    socketOf(this.ws)?.uncork();
  }

  /** Whether an event may be sent now without piling up more than PACE_BYTES for the client. */
  hasRoom(): boolean {
    return this.ws.bufferedAmount < PACE_BYTES;
  }

  /** Resolves true once there is room (at once if there is), false if the connection closes first. */
  room(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (this.hasRoom()) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.waiters ??= [];
      this.waiters.push(resolve);
      this.awaitDrain();
    });
  }

  /**
   * Wakes the waiters when the socket has written what it holds. It holds more than its high-water
   * mark (PACE_BYTES is far above it), so it emits `drain` then. The heartbeat wakes them too.
   */
  private awaitDrain(): void {
    if (this.drainArmed) return;
    const socket = socketOf(this.ws);
    if (socket === undefined) return;
    this.drainArmed = true;
    socket.once('drain', () => {
      this.drainArmed = false;
      this.wakeIfRoom();
      if (this.waiters !== undefined && !this.closed) this.awaitDrain();
    });
  }

  /** Wakes the senders waiting for room, if there is room. */
  wakeIfRoom(): void {
    if (this.waiters === undefined || !this.hasRoom()) return;
    const waiters = this.waiters;
    this.waiters = undefined;
    for (const wake of waiters) wake(true);
  }

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

  /** The connection is over (closed by either side, or failed): everything it held is let go. */
  finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.clearDeadline();
    const waiters = this.waiters;
    this.waiters = undefined;
    for (const wake of waiters ?? []) wake(false);
    this.hooks.onClose(this);
  }
}
