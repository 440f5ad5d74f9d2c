import { randomFillSync } from 'node:crypto';

export type IdPrefix = 'usr' | 'grp' | 'exp' | 'stl' | 'evt' | 'rtk';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// Random bytes are drawn from the OS in blocks: one syscall per 256 ids instead of one per
// character (what the `ulid` package's default generator costs on every id).
const POOL = Buffer.alloc(16 * 256);
let offset = POOL.length;

function randomChars(count: number): string {
  if (offset + count > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  let out = '';
  for (let i = 0; i < count; i++) out += CROCKFORD[(POOL[offset + i] as number) & 31];
  offset += count;
  return out;
}

function timeChars(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** A ULID: 48 bits of milliseconds then 80 random bits, Crockford base32, 26 characters. */
export function ulid(now = Date.now()): string {
  return timeChars(now) + randomChars(16);
}

/** Opaque, type-prefixed, time-sortable identifiers (`exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC`). */
export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid()}`;
