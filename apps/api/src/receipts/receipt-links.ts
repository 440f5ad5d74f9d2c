import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, notFound } from '@tally/http-kit';

/** @default 300 s */
export const DEFAULT_RECEIPT_LINK_TTL_SECONDS = 300;
/** How long the links in `GET /v1/me/export` stay good: the export is read later than a screen. */
export const EXPORT_LINK_TTL_SECONDS = 24 * 60 * 60;

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');

/**
 * Short-lived download links of stored receipt files (API.md §16): `/v1/receipt-files/{token}`,
 * the token `base64url(key "\n" expiry)` `.` `base64url(HMAC-SHA256(secret, key "\n" expiry))`.
 * Only the API makes them, for a member of the expense's group; whoever holds one may download the
 * file until it expires (no bearer token, so an `<img src>` works). A forged or altered token is
 * `404 not_found`; a genuine one past its expiry is `403 forbidden`.
 */
export function createReceiptLinks(options: { secret: string; ttlSeconds?: number; now?: () => number }) {
  const ttl = options.ttlSeconds ?? DEFAULT_RECEIPT_LINK_TTL_SECONDS;
  const now = options.now ?? Date.now;
  const sign = (payload: string) => createHmac('sha256', options.secret).update(payload).digest();
  return {
    ttlSeconds: ttl,
    /** A link to `key`, good for `ttlSeconds` (this maker's TTL by default), and when it expires. */
    linkTo(key: string, ttlSeconds = ttl): { url: string; expiresAt: string } {
      const expiry = Math.floor(now() / 1000) + ttlSeconds;
      const payload = `${key}\n${expiry}`;
      return {
        url: `/v1/receipt-files/${b64(payload)}.${b64(sign(payload))}`,
        expiresAt: new Date(expiry * 1000).toISOString(),
      };
    },
    /** The storage key a token names: 404 when forged, 403 when expired. */
    keyOf(token: string): string {
      const [payloadPart, signaturePart, extra] = token.split('.');
      if (!payloadPart || !signaturePart || extra !== undefined) throw notFound('Receipt file');
      const payload = Buffer.from(payloadPart, 'base64url').toString('utf8');
      const given = Buffer.from(signaturePart, 'base64url');
      const expected = sign(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw notFound('Receipt file');
      const [key, expiry] = payload.split('\n');
      if (!key || !expiry) throw notFound('Receipt file');
      if (Number(expiry) * 1000 <= now()) {
        throw new AppError(
          'forbidden',
          403,
          'This receipt link has expired; read the receipt again for a new one.',
        );
      }
      return key;
    },
  };
}

export type ReceiptLinks = ReturnType<typeof createReceiptLinks>;
