import { newId, ulid } from './ids';

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
    // 0 ms is all zeros; the largest 48-bit time is 7ZZZZZZZZZ.
    expect(ulid(0).slice(0, 10)).toBe('0000000000');
    expect(ulid(2 ** 48 - 1).slice(0, 10)).toBe('7ZZZZZZZZZ');
  });
});
