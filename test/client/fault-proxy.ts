import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { seededRandom } from '../support/random';
import { until } from '../support/until';

/**
 * What the proxy does with one request:
 * - `forward`: passes it on and returns the answer;
 * - `delay`: waits a little (far less than the client's attempt timeout), then forwards;
 * - `slow`: holds it until the client gives up (closes the connection at its attempt timeout),
 *   then forwards it anyway (the server executes a request whose client is gone). A hold, not a
 *   wait of so many ms: the client times out however fast or slow the machine is;
 * - `reset-before`: resets the client's connection without forwarding (the server never sees it);
 * - `drop-response`: forwards, lets the server finish, then destroys the client's connection
 *   instead of returning the answer (the write happened; the client does not know).
 */
export type FaultAction = 'forward' | 'delay' | 'slow' | 'reset-before' | 'drop-response';

/** The actions after which the client has no answer: each costs it an attempt. */
export const FAULTS: ReadonlySet<FaultAction> = new Set(['slow', 'reset-before', 'drop-response']);

export type FaultProxyOptions = {
  /** The server, e.g. `http://127.0.0.1:3000`. */
  target: string;
  /** Relative weights of the actions. */
  weights: Record<FaultAction, number>;
  /** Range of `delay`. @default [5, 100] */
  delayMs?: [number, number];
  /**
   * At most this many faulted attempts (`FAULTS`) per `Idempotency-Key`: the attempts of a key
   * after them are forwarded (or delayed). With fewer than the client's `maxAttempts`, no
   * operation can run out of attempts because of the proxy. @default Infinity
   */
  maxFaultsPerKey?: number;
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
 * Draws the actions, deterministically: each `Idempotency-Key` gets its own PRNG, seeded with the
 * seed and the key's place among the keys seen (the n-th key gets the n-th script, whichever
 * operation it belongs to), and its faults are capped; a request without a key draws from the
 * proxy's own PRNG. So the faults of a run depend on the seed and the number of operations, not on
 * which request happened to arrive first, and no operation sees more than `maxFaultsPerKey`.
 */
function faultScript(options: FaultProxyOptions) {
  const seed = options.seed ?? 1;
  const maxFaults = options.maxFaultsPerKey ?? Number.POSITIVE_INFINITY;
  const entries = Object.entries(options.weights) as [FaultAction, number][];
  const draw = (random: () => number, allowed: [FaultAction, number][]): FaultAction => {
    const total = allowed.reduce((sum, [, w]) => sum + w, 0);
    let r = random() * total;
    for (const [action, weight] of allowed) {
      r -= weight;
      if (r < 0) return action;
    }
    return 'forward';
  };
  const harmless = entries.filter(([action]) => !FAULTS.has(action));
  const unkeyed = seededRandom(seed);
  const keys = new Map<string, { random: () => number; faults: number }>();
  const pick = (key: string | undefined): { action: FaultAction; random: () => number } => {
    if (key === undefined) return { action: draw(unkeyed, entries), random: unkeyed };
    let state = keys.get(key);
    if (!state) {
      state = { random: seededRandom((seed ^ Math.imul(keys.size + 1, 0x9e3779b1)) >>> 0), faults: 0 };
      keys.set(key, state);
    }
    const action = draw(state.random, state.faults < maxFaults ? entries : harmless);
    if (FAULTS.has(action)) state.faults++;
    return { action, random: state.random };
  };
  const faultsPerKey = () => new Map([...keys].map(([key, state]) => [key, state.faults]));
  return { pick, faultsPerKey };
}

/**
 * A fault-injecting HTTP proxy between the client and the server (node:http only). Every request
 * gets one action, drawn from a seeded PRNG with the configured weights (see `faultScript`); `counts`
 * says how often each ran.
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
  /** Once closed, nothing held is forwarded any more. */
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    /** The faulted attempts (`FAULTS`) of each `Idempotency-Key` so far. */
    readonly faultsPerKey: () => Map<string, number>,
  ) {}

  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const script = faultScript(options);
    const pick = script.pick;
    const [minDelay, maxDelay] = options.delayMs ?? [5, 100];
    const target = new URL(options.target);

    let proxy: FaultProxy | undefined;
    const server = http.createServer((req, res) => {
      const self = proxy as FaultProxy;
      req.on('error', () => {});
      res.on('error', () => {});
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const header = req.headers['idempotency-key'];
        const key = typeof header === 'string' ? header : undefined;
        const { action, random } = pick(key);
        self.counts[action]++;
        self.log.push({ method: req.method ?? '', path: req.url ?? '', key, body: body.toString() });
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
          if (self.closed) {
            done();
            return;
          }
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
        if (action === 'slow') {
          // Held until the client gives up: its connection closes (at its attempt timeout), then
          // the request goes on to the server, whose answer nobody reads.
          if (req.socket.destroyed) forward();
          else req.socket.once('close', forward);
          return;
        }
        const wait = action === 'delay' ? minDelay + Math.floor(random() * (maxDelay - minDelay)) : 0;
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
    proxy = new FaultProxy(server, `http://127.0.0.1:${port}`, script.faultsPerKey);
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
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }
}
