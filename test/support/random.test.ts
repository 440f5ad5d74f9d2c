import { seededRandom, testSeed, withSeed } from './random';

describe('seeded randomness', () => {
  const saved = process.env.TEST_SEED;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_SEED;
    else process.env.TEST_SEED = saved;
  });

  it('gives the same sequence in [0, 1) for the same seed, another for another seed', () => {
    const take = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 50 }, () => random());
    };
    expect(take(7)).toEqual(take(7));
    expect(take(7)).not.toEqual(take(8));
    for (const r of take(7)) {
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThan(1);
    }
  });

  it('takes the seed from TEST_SEED, else a fresh 31-bit one', () => {
    process.env.TEST_SEED = '1234';
    expect(testSeed()).toBe(1234);
    process.env.TEST_SEED = 'abc';
    expect(() => testSeed()).toThrow('TEST_SEED must be an integer');
    delete process.env.TEST_SEED;
    const fresh = testSeed();
    expect(Number.isInteger(fresh) && fresh >= 0 && fresh < 2 ** 31).toBe(true);
  });

  it('puts the seed and how to replay it into the message of a failure', async () => {
    await expect(withSeed(42, async () => expect(1).toBe(2))).rejects.toThrow(
      /^\[seed 42: TEST_SEED=42 replays it\] expect\(received\)\.toBe\(expected\)/,
    );
    await expect(
      withSeed(43, () => {
        throw 'not an Error';
      }),
    ).rejects.toThrow('[seed 43: TEST_SEED=43 replays it] not an Error');
    await expect(withSeed(44, (seed) => seed + 1)).resolves.toBe(45);
  });
});
