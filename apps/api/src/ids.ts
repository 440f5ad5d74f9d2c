import { randomFillSync } from 'node:crypto';
import { ulid as encodeUlid } from 'ulid';

export type IdPrefix = 'usr' | 'grp' | 'exp' | 'stl' | 'evt' | 'rtk' | 'inv' | 'rec' | 'cmt' | 'key' | 'cat';

/**
 * A ULID maker: the `ulid` package's encoding (the one the SDK uses too), fed from random bytes this
 * maker owns. The package's own source asks the OS for one byte per character, some 50 times the cost
 * of an id drawn from a block (ids are on the write path, 1 to 3 a write). Each id is fresh randomness,
 * not a monotonic increment: an id says nothing of the next one.
 * @returns a function of `now` (epoch ms; the package reads 0, like no value, as the current time)
 */
export function ulidFactory(): (now?: number) => string {
  const block = Buffer.alloc(16 * 256);
  let used = block.length;
  const nextByte = (): number => {
    if (used === block.length) {
      randomFillSync(block);
      used = 0;
    }
    return block[used++] as number;
  };
  // The package takes a number in [0, 1) per character; a byte / 256 picks each of 32 letters evenly.
  const random = () => nextByte() / 256;
  return (now = Date.now()) => encodeUlid(now, random);
}

/** Makes opaque, type-prefixed, time-sortable identifiers (`exp_01JD3Q8Z4T6Y5W2N8K1M0PX7RC`). */
export type NewId = (prefix: IdPrefix) => string;

/** An id maker with randomness of its own: `createApp` makes one and hands it to whatever makes ids. */
export function createIdMaker(): NewId {
  const ulid = ulidFactory();
  return (prefix) => `${prefix}_${ulid()}`;
}
