import { TallyError } from './errors.js';

/** A delivery that is not from Tally (or not as sent): a wrong signature, a stale timestamp, missing headers. */
export class WebhookVerificationError extends TallyError {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export type VerifyWebhookOptions = {
  /** How far `webhook-timestamp` may be from now, in seconds (replays). @default 300 */
  toleranceSeconds?: number;
  /** The clock, in ms. @default Date.now */
  now?: () => number;
};

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const toBase64 = (bytes: ArrayBuffer): string => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/** Compares in time independent of where the strings differ. */
function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks a webhook delivery as the Standard Webhooks specification says (API.md §12.2) and returns
 * its parsed body: `webhook-signature` must hold a `v1,` HMAC-SHA256 of `id.timestamp.body` under
 * `secret` (`whsec_…`; during a rotation either secret verifies), and `webhook-timestamp` must be
 * within `toleranceSeconds` of now. Pass the body exactly as received (the raw text, not re-encoded
 * JSON). WebCrypto only (browsers, Node 20+, workers): no dependency. Deduplicate on `webhook-id`:
 * a delivery may come more than once, always with the same id.
 * @throws WebhookVerificationError
 */
export async function verifyWebhook<T = unknown>(
  secret: string,
  headers: HeaderSource,
  body: string,
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook headers');
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
  const now = (options.now ?? Date.now)() / 1000;
  if (Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('webhook-timestamp too far from now');
  }
  let keyBytes: Uint8Array;
  try {
    keyBytes = fromBase64(secret.replace(/^whsec_/, ''));
  } catch {
    throw new WebhookVerificationError('the secret is not base64');
  }
  const key = await crypto.subtle.importKey(
    'raw',
    keyBytes as BufferSource,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  const expected = toBase64(mac);
  const matches = signatures
    .split(' ')
    .some((entry) => entry.startsWith('v1,') && equalInConstantTime(entry.slice(3), expected));
  if (!matches) throw new WebhookVerificationError('no matching signature');
  try {
    return JSON.parse(body) as T;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
