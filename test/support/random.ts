/**
 * Randomness a failing test can replay: a seeded PRNG, the seed of this run (`TEST_SEED`, or a fresh
 * one), and `withSeed`, which puts the seed into the message of whatever fails.
 *
 * No Node imports: the outbox tests bundle this for a browser and a child process too.
 */

/** A small seeded PRNG (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of this run: `TEST_SEED` when it is set (to replay a failure), else a fresh one. A 31-bit
 * integer, which fast-check also takes as its `seed`.
 */
export function testSeed(): number {
  const given = process.env.TEST_SEED;
  if (given === undefined || given === '') return Math.floor(Math.random() * 2 ** 31);
  const seed = Number(given);
  if (!Number.isSafeInteger(seed))
    throw new Error(`TEST_SEED must be an integer, not ${JSON.stringify(given)}`);
  return seed;
}

/** How a failure names its seed: `[seed 42: TEST_SEED=42 replays it]`. */
export const replayNote = (seed: number): string => `[seed ${seed}: TEST_SEED=${seed} replays it]`;

/**
 * Runs `body` with `seed`; when it throws, the error's message (and stack) start with the seed and
 * how to replay the run, so that a failure of a randomized test can be run again as it was.
 */
export async function withSeed<T>(seed: number, body: (seed: number) => Promise<T> | T): Promise<T> {
  try {
    return await body(seed);
  } catch (error) {
    const note = replayNote(seed);
    if (!(error instanceof Error)) throw new Error(`${note} ${String(error)}`);
    const message = `${note} ${error.message}`;
    if (typeof error.stack === 'string' && error.stack.includes(error.message)) {
      const stack = error.stack;
      error.stack = stack.replace(error.message, () => message);
    }
    error.message = message;
    throw error;
  }
}
