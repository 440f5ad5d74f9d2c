/**
 * A local HTTP server standing in for the ECB: it serves a real `eurofxref-daily.xml` document
 * (test/fixtures, the ECB's reference rates of 2018-12-21) at `/eurofxref-daily.xml`, and can be
 * told to fail, to hang (before the headers, or half-way through the body), to serve another body,
 * or to stream a huge one. It counts the requests it gets and the body bytes it wrote.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const ECB_SAMPLE = readFileSync(
  path.join(__dirname, '..', 'fixtures', 'eurofxref-daily-2018-12-21.xml'),
  'utf8',
);

/**
 * What the next requests get: the sample, an error status, a body, no answer at all (`hang`), the
 * headers and the sample's first half and then nothing (`stall`), or (`huge`) the sample with
 * `bytes` of padding inside its envelope, a valid document, streamed as the client reads it
 * (`chunked`: without a `Content-Length`).
 */
export type EcbMode =
  | { status: number; body?: string }
  | 'sample'
  | 'hang'
  | 'stall'
  | { huge: number; chunked?: boolean };

export type EcbServer = {
  url: string;
  /** Requests received so far. */
  requests(): number;
  /** Body bytes written so far (the kernel's buffers may still hold some: not all were read). */
  bytesSent(): number;
  /** Answers whose connection the client closed before the end of the body. */
  abandoned(): number;
  serve(mode: EcbMode): void;
  /** Holds answers until `release()` (to see concurrent callers share one fetch). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
};

/** The sample cut where padding (an XML comment, written between the two) goes: inside its envelope. */
function paddedSample(): { head: string; tail: string } {
  const at = ECB_SAMPLE.indexOf('>', ECB_SAMPLE.indexOf('<gesmes:Envelope')) + 1;
  return { head: `${ECB_SAMPLE.slice(0, at)}<!-- `, tail: ` -->${ECB_SAMPLE.slice(at)}` };
}

export async function startEcbServer(): Promise<EcbServer> {
  let mode: EcbMode = 'sample';
  let count = 0;
  let sent = 0;
  let abandoned = 0;
  let held: (() => void)[] | undefined;
  const server = http.createServer((req, res) => {
    count += 1;
    const answer = () => {
      if (mode === 'hang') return;
      if (mode === 'sample') {
        res.writeHead(200, { 'Content-Type': 'text/xml' }).end(ECB_SAMPLE);
        sent += Buffer.byteLength(ECB_SAMPLE);
        return;
      }
      if (mode === 'stall') {
        res.writeHead(200, { 'Content-Type': 'text/xml', 'Content-Length': Buffer.byteLength(ECB_SAMPLE) });
        const half = ECB_SAMPLE.slice(0, ECB_SAMPLE.length / 2);
        res.write(half);
        sent += Buffer.byteLength(half);
        return;
      }
      if ('huge' in mode) {
        const { head, tail } = paddedSample();
        const total = Buffer.byteLength(head) + mode.huge + Buffer.byteLength(tail);
        res.writeHead(200, {
          'Content-Type': 'text/xml',
          ...(mode.chunked ? {} : { 'Content-Length': total }),
        });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let left = mode.huge;
        let ended = false;
        res.on('close', () => {
          if (!ended) abandoned += 1;
        });
        const pump = () => {
          while (left > 0 && !res.destroyed) {
            const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
            left -= piece.length;
            sent += piece.length;
            if (!res.write(piece)) {
              res.once('drain', pump);
              return;
            }
          }
          if (left === 0 && !res.destroyed) {
            ended = true;
            res.end(tail);
          }
        };
        res.write(head);
        pump();
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
    bytesSent: () => sent,
    abandoned: () => abandoned,
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
