import WebSocket from 'ws';

export type Message = Record<string, unknown> & { type: string };

/** A test WebSocket client that records every message and lets a test wait for the next matching one. */
export class TestSocket {
  readonly messages: Message[] = [];
  private cursor = 0;
  private waiters: (() => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as Message);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
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

  /** The next message (after the ones already taken) that matches; fails after `timeoutMs`. */
  async next(match: (m: Message) => boolean = () => true, timeoutMs = 5000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.messages.length) {
        const m = this.messages[this.cursor++] as Message;
        if (match(m)) return m;
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.slice(-5))}`,
        );
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
}

/** Waits until `check` holds, polling. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
