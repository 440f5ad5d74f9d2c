/**
 * A load-generating child of the WebSocket bench (`ws-bench.ts`): it opens its share of the
 * connections to one server (Tally's gateway, the bare `ws` baseline or the Socket.IO baseline),
 * subscribes each to its group and records when each bench message arrives on each connection, so
 * that the process under test, not the load generator, decides how long 10,000 connections take.
 *
 * Driven over IPC by the bench: `open` → `opened`, `await` → `complete`, `flush` → `received`,
 * `reset`, `close` → exit. Times are
 * wall-clock milliseconds (`performance.timeOrigin + performance.now()`), comparable across
 * processes on one machine.
 */
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';

export type ClientKind = 'tally' | 'bare' | 'socketio';

/** One connection to open: its group's index (for counting) and what it subscribes with. */
export type Target = {
  group: number;
  groupId: string;
  token?: string;
  /** Which of the system's servers (`OpenCommand.urls`) this connection goes to. */
  server?: number;
};

export type OpenCommand = {
  cmd: 'open';
  kind: ClientKind;
  /** The system's server processes; each target names its own (`Target.server`, default the first). */
  urls: string[];
  targets: Target[];
  /** Connections this process opens at once. */
  concurrency: number;
  /** Local addresses to spread connections over (127.0.0.x), so ephemeral ports do not run out. */
  localAddresses: string[];
};
/** Waits until each connection has `expected[group]` bench messages (or the deadline): `complete`. */
export type AwaitCommand = { cmd: 'await'; expected: Record<number, number>; deadlineMs: number };
/** Pings every connection and waits for the answers (whatever was sent before has arrived): `received`. */
export type FlushCommand = { cmd: 'flush'; deadlineMs: number };
/** Forgets every message received so far (after the warm-up). */
export type ResetCommand = { cmd: 'reset' };
export type Command = OpenCommand | AwaitCommand | FlushCommand | ResetCommand | { cmd: 'close' };

export type Opened = {
  ev: 'opened';
  /** When the last connection completed its handshake, and when the last one was subscribed. */
  handshakesDoneAt: number;
  subscribedAt: number;
  failed: number;
  /** Subscribes answered `unavailable` and sent again. */
  subscribeRetries: number;
};
export type Complete = { ev: 'complete'; incomplete: number };
export type Received = {
  ev: 'received';
  /** Per bench message key: the first receipt time on each connection that got it. */
  receipts: Record<string, number[]>;
  duplicated: number;
  /** Connections still missing messages at the deadline. */
  incomplete: number;
};

const now = () => performance.timeOrigin + performance.now();

type Conn = {
  group: number;
  seen: Map<string, number>;
  /** Distinct bench messages received. */
  distinct: number;
  /** Sends a ping (or an acknowledged no-op) and resolves when it is answered. */
  flush(): Promise<void>;
  close(): void;
};

const receipts = new Map<string, number[]>();
let duplicated = 0;
/** Subscribes answered `unavailable` and sent again (Tally). */
let subscribeRetries = 0;
const conns: Conn[] = [];

function record(conn: Conn, key: string): void {
  const count = conn.seen.get(key) ?? 0;
  conn.seen.set(key, count + 1);
  if (count > 0) {
    duplicated++;
    return;
  }
  conn.distinct++;
  let times = receipts.get(key);
  if (!times) {
    times = [];
    receipts.set(key, times);
  }
  times.push(now());
}

function newConn(group: number, flush: () => Promise<void>, close: () => void): Conn {
  return { group, seen: new Map(), distinct: 0, flush, close };
}

const wsPong = (ws: WebSocket) => (): Promise<void> =>
  new Promise((resolve) => {
    if (ws.readyState !== WebSocket.OPEN) return resolve();
    ws.once('pong', () => resolve());
    ws.ping();
  });

/** Tally: `welcome`, then `subscribe`, then `subscribed`; events carry the expense id as the key. */
function openTally(url: string, t: Target, localAddress: string | undefined, onHandshake: () => void) {
  return new Promise<Conn>((resolve, reject) => {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/ws`, {
      headers: { Authorization: `Bearer ${t.token}` },
      perMessageDeflate: false,
      ...(localAddress ? { localAddress } : {}),
    });
    const conn = newConn(t.group, wsPong(ws), () => ws.terminate());
    let tries = 0;
    const subscribe = () => ws.send(JSON.stringify({ type: 'subscribe', id: 's', groupId: t.groupId }));
    ws.once('open', onHandshake);
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as {
        type: string;
        event?: { data?: { expense?: { id: string } } };
      };
      if (m.type === 'event') {
        const key = m.event?.data?.expense?.id;
        if (key) record(conn, key);
      } else if (m.type === 'welcome') subscribe();
      else if (m.type === 'subscribed') resolve(conn);
      else if (m.type === 'error' && (m as { code?: string }).code === 'unavailable' && tries++ < 5) {
        // The gateway could not check the subscription now (API.md: retry): a client tries again.
        subscribeRetries++;
        setTimeout(subscribe, 500);
      } else if (m.type === 'error') reject(new Error(`subscribe refused: ${data.toString()}`));
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`closed with ${code}`)));
  });
}

/** The bare baseline: `{"subscribe":"g<n>"}`, then `{"type":"subscribed"}`; messages carry `id`. */
function openBare(url: string, t: Target, localAddress: string | undefined, onHandshake: () => void) {
  return new Promise<Conn>((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'), {
      perMessageDeflate: false,
      ...(localAddress ? { localAddress } : {}),
    });
    const conn = newConn(t.group, wsPong(ws), () => ws.terminate());
    ws.once('open', () => {
      onHandshake();
      ws.send(JSON.stringify({ subscribe: t.groupId }));
    });
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { type: string; id?: string };
      if (m.id) record(conn, m.id);
      else if (m.type === 'subscribed') resolve(conn);
    });
    ws.once('error', reject);
  });
}

/** Socket.IO over its WebSocket transport only: `subscribe` with an acknowledgement; `event` messages. */
function openSocketIo(url: string, t: Target, localAddress: string | undefined, onHandshake: () => void) {
  return new Promise<Conn>((resolve, reject) => {
    const socket: Socket = io(url, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      perMessageDeflate: false,
      ...(localAddress ? { localAddress } : {}),
    } as unknown as Parameters<typeof io>[1]);
    const conn = newConn(
      t.group,
      () => new Promise<void>((resolve) => socket.emit('flush', () => resolve())),
      () => socket.disconnect(),
    );
    socket.on('event', (message: string) => {
      const m = JSON.parse(message) as { id?: string };
      if (m.id) record(conn, m.id);
    });
    socket.once('connect', () => {
      onHandshake();
      socket.emit('subscribe', t.groupId, () => resolve(conn));
    });
    socket.once('connect_error', reject);
  });
}

async function open(command: OpenCommand): Promise<Opened> {
  const { targets, localAddresses } = command;
  const opener = { tally: openTally, bare: openBare, socketio: openSocketIo }[command.kind];
  let next = 0;
  let failed = 0;
  let handshakesDoneAt = 0;
  const handshake = () => {
    handshakesDoneAt = now();
  };
  await Promise.all(
    Array.from({ length: Math.min(command.concurrency, targets.length) }, async () => {
      while (next < targets.length) {
        const i = next++;
        const local = localAddresses.length > 0 ? localAddresses[i % localAddresses.length] : undefined;
        try {
          const target = targets[i] as Target;
          const url = command.urls[target.server ?? 0] as string;
          conns.push(await opener(url, target, local, handshake));
        } catch (err) {
          failed++;
          if (failed <= 3) process.stderr.write(`ws-clients: ${String(err)}\n`);
        }
      }
    }),
  );
  return { ev: 'opened', handshakesDoneAt, subscribedAt: now(), failed, subscribeRetries };
}

let incomplete = 0;

async function awaitAll(command: AwaitCommand): Promise<Complete> {
  const deadline = now() + command.deadlineMs;
  const complete = (c: Conn) => c.distinct >= (command.expected[c.group] ?? 0);
  let pending = conns.filter((c) => !complete(c));
  while (pending.length > 0 && now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    pending = pending.filter((c) => !complete(c));
  }
  incomplete = pending.length;
  return { ev: 'complete', incomplete };
}

async function flush(command: FlushCommand): Promise<Received> {
  // Whatever the server sent before its answer to this, duplicates included, has now arrived.
  await Promise.race([
    Promise.all(conns.map((c) => c.flush())),
    new Promise((resolve) => setTimeout(resolve, command.deadlineMs)),
  ]);
  return { ev: 'received', receipts: Object.fromEntries(receipts), duplicated, incomplete };
}

process.on('message', (command: Command) => {
  const reply = (message: Opened | Complete | Received) => process.send?.(message);
  if (command.cmd === 'open') void open(command).then(reply);
  else if (command.cmd === 'await') void awaitAll(command).then(reply);
  else if (command.cmd === 'flush') void flush(command).then(reply);
  else if (command.cmd === 'reset') {
    receipts.clear();
    duplicated = 0;
    for (const c of conns) {
      c.seen.clear();
      c.distinct = 0;
    }
    process.send?.({ ev: 'reset' });
  } else {
    for (const c of conns) c.close();
    setTimeout(() => process.exit(0), 200);
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ev: 'ready' });
