/**
 * A deliberately plain restatement of the API.md rounding rule, used as the oracle in property
 * tests. It shares no code with `allocateLargestRemainder`: exact BigInt floors, then the leftover
 * units handed out one at a time by scanning for the largest remainder not yet served, the first
 * one seen winning ties (that is, the one listed earlier).
 */
export function referenceLargestRemainder(amount: bigint, weights: readonly bigint[]): bigint[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0n);
  const result = weights.map((weight) => (amount * weight) / total);
  const remainders = weights.map((weight) => (amount * weight) % total);
  let leftover = amount - result.reduce((sum, part) => sum + part, 0n);
  const served = new Set<number>();
  while (leftover > 0n) {
    let pick = -1;
    for (let index = 0; index < weights.length; index += 1) {
      if (served.has(index)) continue;
      if (pick === -1 || remainders[index]! > remainders[pick]!) pick = index;
    }
    served.add(pick);
    result[pick] = result[pick]! + 1n;
    leftover -= 1n;
  }
  return result;
}
