import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { seededRandom } from '../support/random';
import { until } from '../support/until';

/**
 * What the proxy does with one request:
 * - `forward`: passes it on and returns the answer;
 * - `delay`: waits a little (less than the client's attempt timeout), then forwards;
 * - `slow`: waits longer than the client's attempt timeout, then forwards anyway (the client has
 *   given up; the server still executes the request);
 * - `reset-before`: resets the client's connection without forwarding (the server never sees it);
 * - `drop-response`: forwards, lets the server finish, then destroys the client's connection
 *   instead of returning the answer (the write happened; the client does not know).
 */
export type FaultAction = 'forward' | 'delay' | 'slow' | 'reset-before' | 'drop-response';

export type FaultProxyOptions = {
  /** The server, e.g. `http://127.0.0.1:3000`. */
  target: string;
  /** Relative weights of the actions. */
  weights: Record<FaultAction, number>;
  /** Range of `delay`. @default [5, 100] */
  delayMs?: [number, number];
  /** Wait of `slow`. @default 500 */
  slowMs?: number;
  /** Random numbers in [0, 1). @default a PRNG seeded with `seed` */
  random?: () => number;
  /** @default 1 */
  seed?: number;
};

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

function kill(socket: Socket, reset: boolean): void {
  if (socket.destroyed) return;
  if (reset && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/**
 * A fault-injecting HTTP proxy between the client and the server (node:http only). Every request
 * gets one action, drawn at random with the configured weights; `counts` says how often each ran.
 */
export class FaultProxy {
  readonly counts: Record<FaultAction, number> = {
    forward: 0,
    delay: 0,
    slow: 0,
    'reset-before': 0,
    'drop-response': 0,
  };
  /** Requests the server answered (forwarded ones, whether or not the client got the answer). */
  forwarded = 0;
  /** Every request received: method, path, Idempotency-Key and body (before any fault). */
  readonly log: { method: string; path: string; key: string | undefined; body: string }[] = [];
  /** Requests waiting to be forwarded or waiting for the server's answer. */
  private pending = 0;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const random = options.random ?? seededRandom(options.seed ?? 1);
    const entries = Object.entries(options.weights) as [FaultAction, number][];
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    const pick = (): FaultAction => {
      let r = random() * total;
      for (const [action, weight] of entries) {
        r -= weight;
        if (r < 0) return action;
      }
      return 'forward';
    };
    const [minDelay, maxDelay] = options.delayMs ?? [5, 100];
    const slowMs = options.slowMs ?? 500;
    const target = new URL(options.target);

    let proxy: FaultProxy | undefined;
    const server = http.createServer((req, res) => {
      const self = proxy as FaultProxy;
      const action = pick();
      self.counts[action]++;
      req.on('error', () => {});
      res.on('error', () => {});
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const key = req.headers['idempotency-key'];
        self.log.push({
          method: req.method ?? '',
          path: req.url ?? '',
          key: typeof key === 'string' ? key : undefined,
          body: body.toString(),
        });
        if (action === 'reset-before') {
          kill(req.socket, true);
          return;
        }
        self.pending++;
        let settled = false;
        const done = () => {
          if (!settled) self.pending--;
          settled = true;
        };
        const forward = () => {
          const upstream = http.request(
            {
              hostname: target.hostname,
              port: target.port,
              method: req.method,
              path: req.url,
              headers: { ...endToEnd(req.headers), host: target.host, 'content-length': String(body.length) },
              agent: self.agent,
            },
            (upRes) => {
              const out: Buffer[] = [];
              upRes.on('data', (chunk: Buffer) => out.push(chunk));
              upRes.on('error', () => {
                done();
                kill(req.socket, false);
              });
              upRes.on('end', () => {
                done();
                self.forwarded++;
                const payload = Buffer.concat(out);
                if (action === 'drop-response') {
                  kill(req.socket, false);
                  return;
                }
                if (res.destroyed || req.socket.destroyed) return;
                res.writeHead(upRes.statusCode ?? 502, {
                  ...endToEnd(upRes.headers),
                  'content-length': String(payload.length),
                });
                res.end(payload);
              });
            },
          );
          upstream.on('error', () => {
            done();
            kill(req.socket, false);
          });
          upstream.end(body);
        };
        const wait =
          action === 'delay'
            ? minDelay + Math.floor(random() * (maxDelay - minDelay))
            : action === 'slow'
              ? slowMs
              : 0;
        if (wait === 0) {
          forward();
          return;
        }
        const timer = setTimeout(() => {
          self.timers.delete(timer);
          forward();
        }, wait);
        self.timers.add(timer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    proxy = new FaultProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  /**
   * Waits until every request the proxy took has reached the server and been answered, including
   * `slow` ones whose client gave up long ago.
   */
  async drain(): Promise<void> {
    await until(() => this.pending === 0, 'the proxy to have no request in flight');
  }

  /** Total requests the proxy received. */
  get received(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }
}
