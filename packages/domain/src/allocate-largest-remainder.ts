/**
 * Divides `amount` minor units over integer `weights` by the largest-remainder method: each part is
 * first `floor(amount × weight / totalWeight)`, then the units left over go one each to the parts
 * with the largest fractional remainders, ties going to the one listed earlier.
 *
 * Why: API.md fixes this rule so every server, client and replay derives the same shares from the
 * same expense, and the parts always add up to `amount` exactly. Products are taken in BigInt
 * because an amount near 1e12 times a large weight exceeds 2^53, where floats silently round and
 * can hand the leftover unit to the wrong participant.
 *
 * @param amount non-negative safe integer count of minor units
 * @param weights non-negative integers (number or bigint) with a positive total
 * @returns one integer per weight, in the same order, adding up to `amount`
 * @throws RangeError when `amount` or a weight is not a non-negative integer, or the weights total 0
 */
export function allocateLargestRemainder(amount: number, weights: readonly (number | bigint)[]): number[] {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`amount must be a non-negative safe integer, got ${amount}`);
  }
  const bigWeights = weights.map(toBigWeight);
  const totalWeight = bigWeights.reduce((sum, weight) => sum + weight, 0n);
  if (totalWeight === 0n) {
    throw new RangeError('weights must contain at least one positive weight');
  }

  const bigAmount = BigInt(amount);
  const parts: bigint[] = [];
  const remainders: bigint[] = [];
  let allocated = 0n;
  for (const weight of bigWeights) {
    const product = bigAmount * weight;
    const part = product / totalWeight;
    parts.push(part);
    remainders.push(product % totalWeight);
    allocated += part;
  }

  // The remainders add up to leftover × totalWeight and each is below totalWeight, so fewer
  // indices than weights receive a unit, and never one whose remainder is 0.
  const leftover = Number(bigAmount - allocated);
  const byRemainder = bigWeights
    .map((_, index) => index)
    .sort((a, b) => {
      const ra = remainders[a]!;
      const rb = remainders[b]!;
      if (ra !== rb) return ra > rb ? -1 : 1;
      return a - b;
    });
  for (const index of byRemainder.slice(0, leftover)) {
    parts[index] = parts[index]! + 1n;
  }
  return parts.map(Number);
}

function toBigWeight(weight: number | bigint, index: number): bigint {
  if (typeof weight === 'bigint') {
    if (weight < 0n) throw new RangeError(`weights[${index}] must not be negative, got ${weight}`);
    return weight;
  }
  if (!Number.isSafeInteger(weight) || weight < 0) {
    throw new RangeError(`weights[${index}] must be a non-negative safe integer, got ${weight}`);
  }
  return BigInt(weight);
}
