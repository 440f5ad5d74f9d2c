import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { sha256Hex } from '../sha256';

/**
 * The secret of an API key (API.md §2.6): `tally_sk_`, 43 random base62 characters (256 bits), and
 * a 6-character base62 CRC-32 of those 43, GitHub's token format. The fixed prefix lets secret
 * scanners find a leaked key in code or logs, and the checksum lets them (and this server, before
 * any lookup) tell a real key from a look-alike without asking anyone.
 */
export const SECRET_PREFIX = 'tally_sk_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters hold 256 bits (62^43 > 2^256). */
const RANDOM_CHARS = 43;
/** 62^6 > 2^32: a CRC-32 always fits, zero-padded. */
const CHECKSUM_CHARS = 6;
/** The shape of a secret; `isWellFormedSecret` also checks its checksum. */
export const SECRET_PATTERN = new RegExp(`^${SECRET_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);
/** What a list shows of a key: the prefix and the first random characters (not enough to guess the rest). */
const SHOWN_CHARS = 6;

/** `n` in base62, left-padded with zeros to `width`. */
function base62(n: number, width: number): string {
  let text = '';
  let rest = n;
  while (rest > 0) {
    text = BASE62[rest % 62] + text;
    rest = Math.floor(rest / 62);
  }
  return text.padStart(width, '0');
}

/** The checksum of the random part: its CRC-32 (IEEE) in 6 base62 characters. */
export const checksumOf = (random: string): string => base62(crc32(random), CHECKSUM_CHARS);

/** Uniform base62 characters: bytes of 248 and above are drawn again (248 = 4 × 62), so none is favoured. */
function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && text.length < length) text += BASE62[byte % 62];
    }
  }
  return text;
}

export type NewSecret = { secret: string; prefix: string; hash: string };

/** A fresh key secret, what lists show of it, and the hash that is all the server keeps. */
export function newSecret(): NewSecret {
  const random = randomBase62(RANDOM_CHARS);
  const secret = `${SECRET_PREFIX}${random}${checksumOf(random)}`;
  return { secret, prefix: secret.slice(0, SECRET_PREFIX.length + SHOWN_CHARS), hash: hashOfSecret(secret) };
}

/** Whether `text` has a key's shape and a checksum that matches: no key is looked up otherwise. */
export function isWellFormedSecret(text: string): boolean {
  if (!SECRET_PATTERN.test(text)) return false;
  const body = text.slice(SECRET_PREFIX.length);
  return checksumOf(body.slice(0, RANDOM_CHARS)) === body.slice(RANDOM_CHARS);
}

/**
 * What is stored of a secret and looked up by: its SHA-256. The secret has 256 random bits, so a
 * fast hash is enough (no guess can be checked against it), and one lookup by it is exact.
 */
export const hashOfSecret = (secret: string): string => sha256Hex(secret);
