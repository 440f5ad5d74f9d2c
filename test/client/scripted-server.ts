import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the scripted server received it. */
export type Recorded = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
};

/** What the server does with one request. */
export type Step =
  | { status: number; headers?: Record<string, string>; body?: unknown; raw?: string; delayMs?: number }
  /** Destroys the connection without answering (a network error for the client). */
  | { action: 'destroy' }
  /** Never answers (a timeout for the client). */
  | { action: 'hang' };

export type Handler = (req: Recorded) => Step | Promise<Step>;

/** A problem+json step. */
export function problem(status: number, code: string, headers: Record<string, string> = {}): Step {
  return {
    status,
    headers: { 'Content-Type': 'application/problem+json; charset=utf-8', ...headers },
    body: {
      type: `/problems/${code.replace(/_/g, '-')}`,
      title: code,
      status,
      code,
      detail: `scripted ${code}`,
      requestId: 'req-scripted',
    },
  };
}

/** A JSON success step. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Step {
  return { status, body, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } };
}

/**
 * A tiny local HTTP server that answers from a script: queued steps first (in order), then the
 * handler. Records every request. For testing the client's retry and auth logic against real HTTP.
 */
export class ScriptedServer {
  readonly requests: Recorded[] = [];
  private readonly queue: Step[] = [];
  private handler: Handler = () => problem(500, 'internal_error');

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedServer> {
    let self: ScriptedServer | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void self?.answer(req, res, Buffer.concat(chunks).toString());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    self = new ScriptedServer(server, `http://127.0.0.1:${port}`);
    return self;
  }

  /** Queues steps for the next requests. */
  reply(...steps: Step[]): this {
    this.queue.push(...steps);
    return this;
  }

  /** Answers requests once the queue is empty. */
  otherwise(handler: Handler): this {
    this.handler = handler;
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.handler = () => problem(500, 'internal_error');
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse, text: string): Promise<void> {
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const recorded: Recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    this.requests.push(recorded);
    const step = this.queue.shift() ?? (await this.handler(recorded));
    if ('action' in step) {
      if (step.action === 'destroy') req.socket.destroy();
      return;
    }
    if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    if (res.destroyed) return;
    const payload = step.raw ?? (step.body === undefined ? '' : JSON.stringify(step.body));
    res.writeHead(step.status, step.headers ?? {});
    res.end(payload);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
