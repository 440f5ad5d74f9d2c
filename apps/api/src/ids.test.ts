import { decodeTime } from 'ulid';
import { createIdMaker, ulidFactory } from './ids';

const newId = createIdMaker();
const ulid = ulidFactory();

describe('ids', () => {
  it('are type-prefixed 26-character Crockford ULIDs', () => {
    const id = newId('exp');
    expect(id).toMatch(/^exp_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('sort by creation time and do not repeat', () => {
    const early = ulid(1_700_000_000_000);
    const late = ulid(1_700_000_000_001);
    expect(early < late).toBe(true);
    const many = new Set(Array.from({ length: 5000 }, () => ulid()));
    expect(many.size).toBe(5000);
  });

  it('encodes the timestamp like the ULID spec', () => {
    // 1 ms is all zeros but the last digit (0 means "now" to the ulid package); the largest 48-bit time is 7ZZZZZZZZZ.
    expect(ulid(1).slice(0, 10)).toBe('0000000001');
    expect(ulid(2 ** 48 - 1).slice(0, 10)).toBe('7ZZZZZZZZZ');
    expect(decodeTime(ulid(1_700_000_000_123))).toBe(1_700_000_000_123);
  });

  it('draws fresh randomness for every id, also within one millisecond', () => {
    const make = ulidFactory();
    const randomParts = Array.from({ length: 2000 }, () => make(1_700_000_000_000).slice(10));
    expect(new Set(randomParts).size).toBe(randomParts.length);
    // Every letter of the alphabet shows up in every random position: no byte is wasted or skewed away.
    for (let position = 0; position < 16; position++) {
      expect(new Set(randomParts.map((part) => part[position])).size).toBe(32);
    }
  });
});
