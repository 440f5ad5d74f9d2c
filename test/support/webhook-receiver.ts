/**
 * A real HTTP server receiving webhooks, for tests and the bench: every request recorded with its
 * Standard Webhooks headers and body, and (given the secret) verified with the `standardwebhooks`
 * package, the specification's reference implementation. What it answers is up to the test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Received = {
  /** The path the endpoint was registered with (one receiver serves many endpoints). */
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The event's seq and type, from the body. */
  seq: number;
  type: string;
  occurredAt: string;
  receivedAt: number;
};

export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number; body?: string };

export type WebhookReceiver = {
  url: string;
  received: Received[];
  /** Requests being answered right now, by path (a second at once for one path is a double send). */
  inFlight: Map<string, number>;
  /** The most requests for one path being answered at once, ever. */
  maxInFlight(): number;
  /** What the next request to `path` is answered (default: 204). */
  answer: (request: Received) => Answer;
  /** The deliveries to `path`, in arrival order. */
  of(path: string): Received[];
  /** Checks each request to `path` with the `standardwebhooks` package; throws on the first bad one. */
  verifyAll(path: string, secret: string): void;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const inFlight = new Map<string, number>();
  let most = 0;
  const receiver: WebhookReceiver = {
    url: '',
    received,
    inFlight,
    maxInFlight: () => most,
    answer: () => ({ status: 204 }),
    of: (path) => received.filter((r) => r.path === path),
    verifyAll(path, secret) {
      const verifier = new Webhook(secret);
      for (const r of receiver.of(path)) {
        verifier.verify(r.body, {
          'webhook-id': r.id,
          'webhook-timestamp': r.timestamp,
          'webhook-signature': r.signature,
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const path = req.url ?? '/';
      let parsed: { type?: string; data?: { seq?: number; occurredAt?: string } } = {};
      try {
        parsed = JSON.parse(body);
      } catch {}
      const request: Received = {
        path,
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body,
        seq: Number(parsed.data?.seq),
        type: String(parsed.type),
        occurredAt: String(parsed.data?.occurredAt),
        receivedAt: Date.now(),
      };
      const now = (inFlight.get(path) ?? 0) + 1;
      inFlight.set(path, now);
      most = Math.max(most, now);
      const answer = receiver.answer(request);
      const reply = () => {
        inFlight.set(path, (inFlight.get(path) ?? 1) - 1);
        received.push(request);
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
