import { TallyError } from './errors';

type CryptoLike = {
  randomUUID?: () => string;
  getRandomValues?: <T extends Uint8Array>(array: T) => T;
};

/** Crockford's base 32, the ULID alphabet. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 16 random bytes from the platform's secure random source. */
function randomBytes(): Uint8Array {
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

function encodeTime(ms: number): string {
  let out = '';
  let rest = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** 80 random bits as 16 base-32 digits (each digit one 5-bit group). */
function encodeRandom(digits: number[]): string {
  return digits.map((d) => ALPHABET[d]).join('');
}

/**
 * A ULID factory (https://github.com/ulid/spec): 48 bits of milliseconds then 80 random bits, 26
 * characters of Crockford base 32, sortable by time. Within one millisecond (or when the clock goes
 * back) the random part is incremented, so the ids one factory makes always sort in the order it made
 * them.
 */
export function ulidFactory(now: () => number = Date.now): () => string {
  let lastTime = -1;
  let lastRandom: number[] = [];
  return () => {
    const time = now();
    if (time <= lastTime && lastRandom.length === 16) {
      // increment the random part, base 32, as a big number
      const next = [...lastRandom];
      let i = next.length - 1;
      while (i >= 0 && next[i] === 31) {
        next[i] = 0;
        i--;
      }
      if (i < 0) throw new TallyError('ULID random part overflowed within one millisecond');
      next[i] = (next[i] ?? 0) + 1;
      lastRandom = next;
      return encodeTime(lastTime) + encodeRandom(next);
    }
    const bytes = randomBytes();
    lastRandom = Array.from({ length: 16 }, (_, i) => (bytes[i] ?? 0) & 31);
    // keep the first digit below 16 so increments have room (the spec's overflow is then unreachable)
    lastRandom[0] = (lastRandom[0] ?? 0) & 15;
    lastTime = time;
    return encodeTime(time) + encodeRandom(lastRandom);
  };
}
