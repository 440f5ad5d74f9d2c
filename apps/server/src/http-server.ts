import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { redactedUrl } from '@tally/gateway';
import { AppError, problemResponseText } from '@tally/http-kit';
import type { Logger } from 'pino';
import type { UpgradeTarget } from './boot';

export type HttpServer = {
  port: number;
  /**
   * The drain: WebSockets close with 1012, keep-alive connections close after their current
   * response, in-flight requests finish (for at most `timeoutMs`), then the listener closes.
   * `isDraining` (readiness answers 503, new requests get 503) is the caller's, set before.
   */
  drain(timeoutMs: number): Promise<void>;
};

/**
 * The process's one HTTP server: the app's requests, the gateway's WebSocket upgrades, and a
 * problem+json answer even to requests Node cannot parse.
 */
export async function listen(deps: {
  app: http.RequestListener;
  gateway: UpgradeTarget | undefined;
  port: number;
  logger: Logger;
  isDraining: () => boolean;
}): Promise<HttpServer> {
  const { app, gateway, logger, isDraining } = deps;
  const server = http.createServer(app);
  // Requests Node cannot even parse (a malformed Content-Length, a bad request line) still get a
  // problem+json answer rather than a bare 400.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    socket.end(
      problemResponseText(
        new AppError('malformed_json', 400, 'The request could not be parsed.'),
        randomUUID(),
      ),
    );
  });
  if (gateway) {
    server.on('upgrade', (req, socket, head) => {
      gateway.handleUpgrade(req, socket, head).catch((err: unknown) => {
        // Never the upgrade's URL: its query may hold an access token (`?access_token=`).
        logger.warn(
          { err: { message: err instanceof Error ? err.message : String(err) }, path: redactedUrl(req.url) },
          'websocket upgrade failed',
        );
        socket.destroy();
      });
    });
  }
  // In-flight requests, so that a drain waits for them (not merely for their sockets) before the
  // database and Redis connections they use are closed.
  const inFlight = new Set<http.ServerResponse>();
  let settled: (() => void) | undefined;
  server.on('request', (_req, res: http.ServerResponse) => {
    if (isDraining() && !res.headersSent) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) settled?.();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, () => resolve());
  });

  return {
    port: (server.address() as AddressInfo).port,
    async drain(timeoutMs) {
      // WebSockets close with 1012 (service restart): clients reconnect elsewhere and resume.
      await gateway?.close();
      // Keep-alive connections close after their current response; idle ones close now. The
      // listener stays open while in-flight work finishes, so probes see /readyz answer 503 and
      // late requests get a 503 with Retry-After rather than a refused connection.
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
      const drained = new Promise<void>((resolve) => {
        settled = resolve;
        if (inFlight.size === 0) resolve();
      });
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
      await Promise.race([drained, timeout]);
      server.close();
      server.closeAllConnections();
    },
  };
}
