import { monotonicFactory } from 'ulid';
import { TallyError } from './errors.js';

type CryptoLike = {
  randomUUID?: () => string;
  getRandomValues?: <T extends Uint8Array>(array: T) => T;
};

/**
 * 16 random bytes from the platform's secure source. Looked up on every refill, not once: React Native
 * installs `crypto.getRandomValues` from a polyfill that may load after the client is made.
 */
function secureBytes(): Uint8Array {
  const crypto = (globalThis as unknown as { crypto?: CryptoLike }).crypto;
  if (typeof crypto?.getRandomValues === 'function') return crypto.getRandomValues(new Uint8Array(16));
  if (typeof crypto?.randomUUID === 'function') {
    const hex = crypto.randomUUID().replace(/-/g, '');
    return Uint8Array.from({ length: 16 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  }
  throw new TallyError(
    'No secure random source for ULIDs: polyfill crypto.getRandomValues (react-native-get-random-values).',
  );
}

/**
 * A ULID factory (https://github.com/ulid/spec): 48 bits of milliseconds then 80 random bits, 26
 * characters of Crockford base 32, sortable by time. It is the `ulid` package's monotonic factory (the
 * server makes its ids with the same package): within one millisecond, or when the clock goes back,
 * the random part is incremented, so the ids one factory makes always sort in the order it made them.
 */
export function ulidFactory(now: () => number = Date.now): () => string {
  let bytes: Uint8Array = new Uint8Array(0);
  let used = 0;
  // The package asks for a number in [0, 1) per random character; a byte / 256 picks each of the 32
  // letters evenly. Only the first id of a millisecond draws (16 characters), so one refill is one id.
  const make = monotonicFactory(() => {
    if (used === bytes.length) {
      bytes = secureBytes();
      used = 0;
    }
    return (bytes[used++] as number) / 256;
  });
  // The package reads 0 as "now" and refuses fractions and negative times; a test clock may give those.
  return () => make(Math.max(1, Math.floor(now())));
}
