import { createHash } from 'node:crypto';
import {
  checksumOf,
  hashOfSecret,
  isWellFormedSecret,
  newSecret,
  SECRET_PATTERN,
  SECRET_PREFIX,
} from './secret';

describe('API key secrets (API.md §2.6)', () => {
  it('are tally_sk_, 43 random base62 characters and their 6-character CRC-32, each one new', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const { secret, prefix, hash } = newSecret();
      expect(secret).toMatch(SECRET_PATTERN);
      expect(isWellFormedSecret(secret)).toBe(true);
      expect(prefix).toBe(secret.slice(0, SECRET_PREFIX.length + 6));
      expect(hash).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(hashOfSecret(secret)).toBe(hash);
      seen.add(secret);
    }
    expect(seen.size).toBe(1000);
  });

  it('draw every base62 character about as often (no character favoured)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      for (const c of newSecret().secret.slice(SECRET_PREFIX.length, SECRET_PREFIX.length + 43)) {
        counts.set(c, (counts.get(c) ?? 0) + 1);
      }
    }
    expect(counts.size).toBe(62);
    // 86,000 draws: about 1,387 each; a skew of a quarter would be far outside chance.
    for (const n of counts.values()) expect(Math.abs(n - 86_000 / 62)).toBeLessThan(86_000 / 62 / 4);
  });

  it('refuse any one character changed, and anything of another shape', () => {
    const { secret } = newSecret();
    for (let at = SECRET_PREFIX.length; at < secret.length; at++) {
      const other = secret[at] === 'a' ? 'b' : 'a';
      expect(isWellFormedSecret(secret.slice(0, at) + other + secret.slice(at + 1))).toBe(false);
    }
    for (const text of ['', SECRET_PREFIX, `${secret}x`, secret.slice(0, -1), `ghp_${secret.slice(9)}`]) {
      expect(isWellFormedSecret(text)).toBe(false);
    }
  });

  it('checksum a known value as the format says: CRC-32 (IEEE) in base62, zero-padded', () => {
    // CRC-32 of "123456789" is 0xCBF43926 = 3421780262 = base62 "3jZRME".
    expect(checksumOf('123456789')).toBe('3jZRME');
    // A CRC of zero would be all zeros: the width is kept.
    expect(checksumOf('')).toBe('000000');
  });
});
