import { decodeTime } from 'ulid';
import { TallyError } from './errors.js';
import { ulidFactory } from './ulid.js';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('ulidFactory', () => {
  it('makes 26-character Crockford ULIDs carrying the clock’s millisecond', () => {
    const make = ulidFactory(() => 1_800_000_000_123);
    const id = make();
    expect(id).toMatch(ULID);
    expect(decodeTime(id)).toBe(1_800_000_000_123);
  });

  it('sorts the ids of one factory in the order it made them, within a millisecond and when the clock goes back', () => {
    let now = 1_800_000_000_000;
    const make = ulidFactory(() => now);
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      if (i === 100) now += 5;
      if (i === 200) now -= 1000; // the device's clock was set back
      ids.push(make());
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('takes any test clock: 0, fractions and negative times', () => {
    for (const time of [0, 1.5, -20]) expect(ulidFactory(() => time)()).toMatch(ULID);
  });

  it('says what to install when the platform has no secure random source', () => {
    const global = globalThis as { crypto?: unknown };
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true, writable: true });
    try {
      expect(() => ulidFactory(() => 1_800_000_000_000)()).toThrow(TallyError);
      expect(() => ulidFactory(() => 1_800_000_000_000)()).toThrow(/react-native-get-random-values/);
    } finally {
      if (descriptor) Object.defineProperty(globalThis, 'crypto', descriptor);
      else delete global.crypto;
    }
    expect(ulidFactory()()).toMatch(ULID);
  });
});
