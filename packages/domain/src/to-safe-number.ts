/**
 * Converts a BigInt money total back to a plain number, refusing rather than rounding when it is
 * beyond 2^53 − 1: a silently rounded balance would break the rule that nets add up to exactly 0.
 */
export function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`money total ${value} is outside the safe integer range`);
  }
  return Number(value);
}
