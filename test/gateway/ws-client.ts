import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { UNTIL_TIMEOUT_MS, until } from '../support/until';

export type Message = Record<string, unknown> & { type: string };

/** A test WebSocket client that records every message and lets a test wait for the next matching one. */
export class TestSocket {
  readonly messages: Message[] = [];
  private cursor = 0;
  private waiters: (() => void)[] = [];
  /** WebSocket ping frames received: one per server heartbeat. */
  pings = 0;
  /** Set once the connection closed. */
  closedWith: { code: number; reason: string } | undefined;
  /** When the connection closed (`Date.now()`), for checks that it did not close too early. */
  closedAt: number | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on('ping', () => {
      this.pings++;
    });
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as Message);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closedAt = Date.now();
        this.closedWith = { code, reason: reason.toString() };
        resolve(this.closedWith);
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  static async open(
    baseUrl: string,
    token: string | undefined,
    options: WebSocket.ClientOptions = {},
  ): Promise<TestSocket> {
    const url = baseUrl.replace(/^http/, 'ws');
    const ws = new WebSocket(`${url}/v1/ws`, {
      ...options,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    return socket;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /**
   * The next message (after the ones already taken) that matches; fails after `timeoutMs` (by default
   * as generous as until()'s: a deadline for a broken test, not a measure of speed).
   */
  async next(match: (m: Message) => boolean = () => true, timeoutMs = UNTIL_TIMEOUT_MS): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.messages.length) {
        const m = this.messages[this.cursor++] as Message;
        if (match(m)) return m;
      }
      if (this.closedWith)
        throw new Error(
          `closed with ${this.closedWith.code} before a matching message; got ${summary(this.messages)}`,
        );
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no matching message within ${timeoutMs} ms; got ${summary(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Messages of one type for one group received so far. */
  all(type: string, groupId?: string): Message[] {
    return this.messages.filter(
      (m) => m.type === type && (groupId === undefined || m['groupId'] === groupId),
    );
  }

  seqs(groupId: string): number[] {
    return this.all('event', groupId).map((m) => m['seq'] as number);
  }

  close(): void {
    this.ws.close();
  }

  /** The TCP socket under the WebSocket, to stop and resume reading. */
  raw(): { pause(): void; resume(): void } {
    return (this.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  }

  /** Waits until the server has sent `count` more heartbeat pings (so that many heartbeats ran). */
  async heartbeats(count: number): Promise<void> {
    const target = this.pings + count;
    await until(() => this.pings >= target, `${count} heartbeat(s)`);
  }

  /** The close code, or a failure if the connection is still open after `timeoutMs`. */
  async closeCode(timeoutMs = UNTIL_TIMEOUT_MS): Promise<number> {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs).unref(),
    );
    return (await Promise.race([this.closed, timeout])).code;
  }
}

/** The last few messages, without their (possibly large) events, for failure messages. */
const summary = (messages: Message[]) =>
  JSON.stringify(messages.slice(-5).map(({ event: _event, ...rest }) => rest));

/** The HTTP answer to an upgrade: 101 when it became a WebSocket, else the refusal with its body. */
export async function upgradeResponse(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`, { headers });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, headers: {}, body: '' });
    });
    ws.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

/** The HTTP status of a refused upgrade. */
export async function upgradeStatus(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${path}`, { headers });
  return new Promise((resolve) => {
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('error', () => resolve(-1));
  });
}

/**
 * A real WebSocket connection on a throwaway local server: the server's end (for a gateway part
 * under test) and a TestSocket client reading it.
 */
export async function socketPair(
  options: WebSocket.ClientOptions = {},
): Promise<{ server: WebSocket; client: TestSocket; close(): Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const http = createServer();
  let accepted: ((ws: WebSocket) => void) | undefined;
  const serverSide = new Promise<WebSocket>((resolve) => {
    accepted = resolve;
  });
  http.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => accepted?.(ws)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const client = await TestSocket.open(`http://127.0.0.1:${port}`, undefined, options);
  const server = await serverSide;
  return {
    server,
    client,
    async close() {
      client.ws.terminate();
      server.terminate();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
