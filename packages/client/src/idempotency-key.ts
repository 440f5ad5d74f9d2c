import { TallyError } from './errors.js';

type CryptoLike = {
  randomUUID?: () => string;
  getRandomValues?: <T extends Uint8Array>(array: T) => T;
};

const hex = (bytes: Uint8Array, from: number, to: number): string => {
  let out = '';
  for (let i = from; i < to; i++) out += (bytes[i] ?? 0).toString(16).padStart(2, '0');
  return out;
};

/**
 * A fresh UUIDv4 for one logical operation: `globalThis.crypto.randomUUID()`, or a v4 built from
 * `crypto.getRandomValues()` where only that exists (React Native with `react-native-get-random-values`).
 * @throws TallyError when the platform has neither; pass `generateIdempotencyKey` to the client then.
 */
export function randomIdempotencyKey(): string {
  const crypto = (globalThis as unknown as { crypto?: CryptoLike }).crypto;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  if (typeof crypto?.getRandomValues === 'function') {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    return `${hex(bytes, 0, 4)}-${hex(bytes, 4, 6)}-${hex(bytes, 6, 8)}-${hex(bytes, 8, 10)}-${hex(bytes, 10, 16)}`;
  }
  throw new TallyError(
    'No secure random source for Idempotency-Keys: polyfill crypto.getRandomValues or pass generateIdempotencyKey.',
  );
}
