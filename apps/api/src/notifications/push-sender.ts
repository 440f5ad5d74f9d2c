import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import webpush from 'web-push';
import { guardedLookup, isInternalAddress, RefusedAddressError } from './address-guard';

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** What a push carries, as the service worker reads it (`push` event, `event.data.json()`). */
export type PushMessage = { id: string; title: string; body: string; url: string; tag: string };

/** A subscription as stored. */
export type PushTarget = { endpoint: string; p256dh: string; auth: string };

/**
 * The outcome of one push: `sent`; `gone` (404/410 from the push service: the subscription is
 * deleted); `retry` (anything else: a timeout, a 5xx, a 429, a refused address, a network error).
 */
export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; reason: string };

/** The payload plaintext RFC 8291 leaves room for in a 4096-byte record (push services' own bound). */
export const MAX_PUSH_PAYLOAD_BYTES = 3000;

export type PushSenderOptions = {
  vapid: VapidKeys;
  /** Give up on a push service's answer after this long (`PUSH_TIMEOUT_MS`). @default 10000 */
  timeoutMs?: number;
  /** Whether endpoints on loopback/private addresses, and plain http, may be reached (tests). @default false */
  allowInternal?: boolean;
  /** How long the push service keeps a message for an offline device, in seconds. @default 86400 */
  ttlSeconds?: number;
};

/**
 * Sends RFC 8030 pushes, RFC 8291-encrypted and VAPID-signed by `web-push`
 * (`generateRequestDetails`), over this module's own request: the endpoint's address is checked
 * (address-guard.ts), the answer is awaited at most `timeoutMs` and read at most 4 KiB.
 */
export function createPushSender(options: PushSenderOptions) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const allowInternal = options.allowInternal ?? false;
  const lookup = guardedLookup(allowInternal);

  return {
    async send(target: PushTarget, message: PushMessage): Promise<PushOutcome> {
      const payload = Buffer.from(JSON.stringify(message));
      if (payload.length > MAX_PUSH_PAYLOAD_BYTES) throw new Error('push payload over its bound');
      const url = new URL(target.endpoint);
      if (url.protocol !== 'https:' && !(allowInternal && url.protocol === 'http:'))
        return { kind: 'retry', reason: 'endpoint is not https' };
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) !== 0 && isInternalAddress(host) && !allowInternal)
        return { kind: 'retry', reason: 'endpoint address refused' };
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        {
          vapidDetails: options.vapid,
          TTL: options.ttlSeconds ?? 86_400,
          urgency: 'normal',
          // The same notification sent again replaces the undelivered copy at the push service.
          topic: message.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(-32),
        },
      );
      try {
        const status = await post(url, details.headers as Record<string, string | number>, details.body);
        if (status >= 200 && status < 300) return { kind: 'sent' };
        if (status === 404 || status === 410) return { kind: 'gone', status };
        return { kind: 'retry', reason: `push service answered ${status}` };
      } catch (error) {
        const reason =
          error instanceof RefusedAddressError ? 'endpoint address refused' : (error as Error).message;
        return { kind: 'retry', reason };
      }
    },
  };

  function post(url: URL, headers: Record<string, string | number>, body: Buffer | null): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = (url.protocol === 'https:' ? https : http).request(
        url,
        { method: 'POST', headers, lookup, timeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) },
        (res) => {
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > 4096) res.destroy();
          });
          res.on('error', () => resolve(res.statusCode ?? 0));
          res.on('close', () => resolve(res.statusCode ?? 0));
        },
      );
      request.on('timeout', () => request.destroy(new Error('push service timed out')));
      request.on('error', reject);
      request.end(body ?? undefined);
    });
  }
}

export type PushSender = ReturnType<typeof createPushSender>;
