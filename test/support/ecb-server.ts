/**
 * A local HTTP server standing in for the ECB: it serves a real `eurofxref-daily.xml` document
 * (test/fixtures, the ECB's reference rates of 2018-12-21) at `/eurofxref-daily.xml`, and can be
 * told to fail, to hang, or to serve another body. It counts the requests it gets.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const ECB_SAMPLE = readFileSync(
  path.join(__dirname, '..', 'fixtures', 'eurofxref-daily-2018-12-21.xml'),
  'utf8',
);

export type EcbServer = {
  url: string;
  /** Requests received so far. */
  requests(): number;
  /** What the next requests get: the sample, an error status, a body, or no answer at all. */
  serve(mode: { status: number; body?: string } | 'sample' | 'hang'): void;
  /** Holds answers until `release()` (to see concurrent callers share one fetch). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
};

export async function startEcbServer(): Promise<EcbServer> {
  let mode: { status: number; body?: string } | 'sample' | 'hang' = 'sample';
  let count = 0;
  let held: (() => void)[] | undefined;
  const server = http.createServer((req, res) => {
    count += 1;
    const answer = () => {
      if (mode === 'hang') return;
      if (mode === 'sample') {
        res.writeHead(200, { 'Content-Type': 'text/xml' }).end(ECB_SAMPLE);
        return;
      }
      res.writeHead(mode.status, { 'Content-Type': 'text/xml' }).end(mode.body ?? '');
    };
    if (req.url !== '/eurofxref-daily.xml') {
      res.writeHead(404).end();
      return;
    }
    if (held) held.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/eurofxref-daily.xml`,
    requests: () => count,
    serve(next) {
      mode = next;
    },
    hold() {
      held = [];
    },
    release() {
      const waiting = held ?? [];
      held = undefined;
      for (const answer of waiting) answer();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
