import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, problemResponseText, toProblem, unavailable } from '@tally/http-kit';
import type { Logger } from 'pino';

/** How long a client is asked to wait while the process is still starting. */
export const BOOT_RETRY_AFTER_SECONDS = 5;

/** What the HTTP server hands upgrades to (the gateway, or the boot gate in front of it). */
export type UpgradeTarget = {
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
  close(): Promise<void>;
};

const starting = () =>
  unavailable(
    'The server is starting (waiting for its database); try again shortly.',
    BOOT_RETRY_AFTER_SECONDS,
  );

/**
 * The process listens before it has its database (API.md §9): until `open()`, `/healthz` answers
 * 200 (the process runs), `/readyz` 503 `{"status":"unavailable","starting":true}`, every other
 * request 503 `unavailable` with `Retry-After`, and WebSocket upgrades 503. Then everything goes to
 * the app and the gateway.
 */
export function createBootGate(options: { servesWebSockets: boolean }) {
  let app: http.RequestListener | undefined;
  let gateway: UpgradeTarget | undefined;

  function bootAnswer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const requestId = randomUUID();
    res.setHeader('X-Request-Id', requestId);
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (path === '/healthz') {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ status: 'ok' }));
        return;
      }
      if (path === '/readyz') {
        res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ status: 'unavailable', starting: true }));
        return;
      }
    }
    const error = starting();
    res.writeHead(503, { 'Content-Type': PROBLEM_CONTENT_TYPE, ...error.headers });
    res.end(JSON.stringify(toProblem(error, requestId)));
  }

  const upgrades: UpgradeTarget = {
    async handleUpgrade(req, socket, head) {
      if (gateway) return gateway.handleUpgrade(req, socket, head);
      socket.end(problemResponseText(starting(), randomUUID()));
      socket.destroy();
    },
    async close() {
      await gateway?.close();
    },
  };

  return {
    /** The request listener: the app once open, the boot answers before. */
    app: ((req, res) => {
      if (app) app(req, res);
      else bootAnswer(req, res);
    }) as http.RequestListener,
    /** For the HTTP server's upgrades (only when the process serves WebSockets). */
    upgrades: options.servesWebSockets ? upgrades : undefined,
    /** The process is built: requests and upgrades go to it from now on. */
    open(ready: { app: http.RequestListener; gateway: UpgradeTarget | undefined }): void {
      app = ready.app;
      gateway = ready.gateway;
    },
  };
}

/** Thrown when the boot gave up waiting for the database, or was cancelled (SIGTERM). */
export class BootAbortedError extends Error {
  override name = 'BootAbortedError';
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
]);
/**
 * SQLSTATEs a retry can outlive: admin_shutdown (57P01, e.g. the connection terminated by a
 * restart), crash_shutdown (57P02), cannot_connect_now (57P03, "the database system is starting up"
 * or shutting down), connection exceptions (08xxx), too_many_connections (53300).
 */
const RETRYABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const RETRYABLE_MESSAGES =
  /Connection terminated|connection error|Timeout acquiring a connection|terminating connection|server closed the connection|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * Whether a failure to reach PostgreSQL or migrate may go away by itself (the database is down,
 * refusing connections, starting up, restarting). Anything else (bad credentials 28xxx, a missing
 * database 3D000, a migration's SQL error) fails at once.
 */
export function isRetryableDatabaseError(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code !== undefined) {
    if (NETWORK_CODES.has(code) || RETRYABLE_SQLSTATES.has(code) || /^08/.test(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return false;
  }
  if (e.name === 'KnexTimeoutError') return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isRetryableDatabaseError(inner, depth + 1))) {
    return true;
  }
  if (e.cause !== undefined && isRetryableDatabaseError(e.cause, depth + 1)) return true;
  return typeof e.message === 'string' && RETRYABLE_MESSAGES.test(e.message);
}

/** The code and message of an error, for the log (never a connection string). */
function describe(error: unknown): { code?: string; message: string } {
  const e = error as { code?: unknown; message?: unknown; errors?: unknown };
  let code = typeof e?.code === 'string' ? e.code : undefined;
  if (code === undefined && Array.isArray(e?.errors)) {
    code = (e.errors as { code?: unknown }[])
      .map((inner) => inner?.code)
      .find((c) => typeof c === 'string') as string | undefined;
  }
  const message = error instanceof Error ? error.message : String(error);
  // A URL with credentials, should a driver ever put one in its message.
  return { code, message: message.replace(/\/\/[^/@\s]*@/g, '//***@') };
}

export type BootRetryOptions = {
  logger: Logger;
  /** Give up (BootAbortedError) when the next attempt would start after this long. 0: one attempt. */
  timeoutMs: number;
  /** Aborted on SIGTERM/SIGINT: the wait ends with BootAbortedError. */
  signal?: AbortSignal;
  /** @default 250 */
  initialDelayMs?: number;
  /** @default 5000 */
  maxDelayMs?: number;
};

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Runs `attempt` (connect and migrate) until it succeeds, retrying what `isRetryableDatabaseError`
 * says may pass with exponential backoff (250 ms doubling to 5 s, each wait jittered to 50–100 %),
 * logging every failed attempt, for at most `timeoutMs`.
 */
export async function withDatabaseRetries<T>(
  attempt: () => Promise<T>,
  options: BootRetryOptions,
): Promise<T> {
  const started = Date.now();
  const maxDelayMs = options.maxDelayMs ?? 5000;
  let delayMs = options.initialDelayMs ?? 250;
  for (let n = 1; ; n++) {
    if (options.signal?.aborted)
      throw new BootAbortedError('start-up cancelled while waiting for the database');
    try {
      return await attempt();
    } catch (error) {
      if (options.signal?.aborted)
        throw new BootAbortedError('start-up cancelled while waiting for the database');
      if (!isRetryableDatabaseError(error)) throw error;
      const waitMs = Math.round(delayMs / 2 + (Math.random() * delayMs) / 2);
      const elapsedMs = Date.now() - started;
      const { code, message } = describe(error);
      if (elapsedMs + waitMs > options.timeoutMs) {
        options.logger.error(
          { attempt: n, elapsedMs, timeoutMs: options.timeoutMs, code, error: message },
          'database still unreachable at start-up: giving up (BOOT_DB_TIMEOUT_SECONDS)',
        );
        throw new BootAbortedError(
          `the database was not reachable within BOOT_DB_TIMEOUT_SECONDS (${Math.round(options.timeoutMs / 1000)} s): ${message}`,
        );
      }
      options.logger.warn(
        { attempt: n, nextDelayMs: waitMs, elapsedMs, code, error: message },
        'database not reachable at start-up; retrying',
      );
      await sleep(waitMs, options.signal);
      delayMs = Math.min(maxDelayMs, delayMs * 2);
    }
  }
}
