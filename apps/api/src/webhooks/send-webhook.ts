import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddress } from '../http/refused-address';

/** What one attempt ended with: a status (2xx is success), or why no status came back. */
export type AttemptResult = {
  ok: boolean;
  status: number | undefined;
  /** Why it failed, in a line an admin reads (API.md §12.5); undefined on success. */
  error: string | undefined;
  latencyMs: number;
  /** The receiver's `Retry-After` on a 429 or 503, in ms (bounded by the caller). */
  retryAfterMs: number | undefined;
};

export type SendOptions = {
  /** Connect to private, loopback, link-local… addresses (`WEBHOOK_ALLOW_PRIVATE_ADDRESSES`). */
  allowPrivate: boolean;
  /** The whole attempt, connection to last byte. */
  timeoutMs: number;
  /** The response body read at most; more is not read (the status decides). */
  maxResponseBytes: number;
};

/** `Retry-After` as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The address this attempt connects to: the host resolved once (a literal taken as it is), every
 * address it resolves to checked, so that a name with one private address among public ones is
 * refused. The connection then goes to exactly this address (`lookup` below), so a second resolution
 * (DNS rebinding) cannot swap it.
 */
async function resolveOnce(
  host: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: number }> {
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  const found =
    isIP(literal) !== 0
      ? [{ address: literal, family: isIP(literal) }]
      : await dnsLookup(literal, { all: true });
  if (found.length === 0) throw new Error(`${host} resolves to no address`);
  if (!allowPrivate) {
    for (const { address } of found) {
      const why = refusedAddress(address);
      if (why !== undefined) throw new Error(`refused: ${host} resolves to ${address}, a ${why} address`);
    }
  }
  return found[0] as { address: string; family: number };
}

/**
 * One POST of a webhook (API.md §12.4): resolved and checked once, sent to that address, never a
 * redirect followed (a 3xx is a failed attempt), cut off after `timeoutMs`, at most
 * `maxResponseBytes` of the answer read.
 */
export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, status?: number, retryAfter?: number): AttemptResult => ({
    ok: false,
    status,
    error,
    latencyMs: elapsed(),
    retryAfterMs: retryAfter,
  });
  const target = new URL(url);
  let resolved: { address: string; family: number };
  try {
    resolved = await resolveOnce(target.hostname, options.allowPrivate);
  } catch (error) {
    return failed((error as Error).message);
  }
  const lookup: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) callback(null, [resolved]);
    else callback(null, resolved.address, resolved.family);
  };
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        // A fresh connection per attempt: a pooled one may have been opened to an address resolved before.
        agent: false,
        lookup,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Tally-Webhooks/1',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough: the status decides, the rest is not read.
          if (read > options.maxResponseBytes) res.destroy();
        });
        const done = () => {
          if (status >= 200 && status < 300) {
            finish({ ok: true, status, error: undefined, latencyMs: elapsed(), retryAfterMs: undefined });
          } else if (status >= 300 && status < 400) {
            finish(failed(`redirect (${status}) not followed`, status));
          } else {
            const retryAfter =
              status === 429 || status === 503 ? retryAfterMs(res.headers['retry-after']) : undefined;
            finish(failed(`answered ${status}`, status, retryAfter));
          }
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish(failed(`no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    req.on('error', (error) => finish(failed(`connection failed: ${error.message}`)));
    req.end(body);
  });
}
