import { allocateLargestRemainder } from './allocate-largest-remainder';
import { compareCodeUnits } from './compare-code-units';
import { minorUnitsOf } from './minor-units';
import type { Rate } from './parse-rate';
import { simplifyDebts } from './simplify-debts';
import type { MemberNet, Transfer } from './types';

/**
 * One currency's nets (API.md §6): integers in its minor units adding up to 0; with `original`, the
 * debts as recorded between pairs of members (`from` owes `to` `amount`), which add up to the nets.
 */
export type CurrencyNets = {
  currency: string;
  members: readonly MemberNet[];
  original?: readonly Transfer[];
};

export type ConvertedBalances = {
  /** Every member of any input currency, in order of first appearance, with their converted net. */
  members: MemberNet[];
  /** Settles the converted nets exactly (see `simplifyDebts`). */
  simplified: Transfer[];
  /**
   * The original debts in the target currency, when every input currency has its `original`: per
   * pair of members, the exact converted debts netted and rounded down, plus the whole units that
   * rounding leaves over, settled as `simplifyDebts` would; so each member's debts add up to their
   * converted net exactly. Sorted by `from`, then `to`.
   */
  original?: Transfer[];
};

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

/** `a / b` rounded down (BigInt division truncates toward zero), for `b > 0`. */
const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
};

function minorUnits(currency: string): number {
  const units = minorUnitsOf(currency);
  if (units === undefined) throw new RangeError(`${currency} has no ISO 4217 minor unit`);
  return units;
}

/**
 * Converts each member's nets in several currencies into one currency, exactly, then rounds once.
 *
 * 1. A member's exact converted net is the sum over currencies of `net × rate(c → target)`,
 *    scaled from c's minor units to the target's: a fraction, never a float. Cross rates go through
 *    the common base of `rates`: `rate(c → target) = rates[target] / rates[c]`.
 * 2. Rounding (API.md §6, "Settling in one currency"): every member first gets the floor of their
 *    exact value; the nets add up to exactly 0 before rounding, so the floors fall short of 0 by a
 *    whole number k of minor units, which go one each to the k members with the largest fractional
 *    parts, ties to the lower userId (code-unit order): largest remainder, as for shares. So the
 *    converted nets add up to exactly 0, and each is within one minor unit of its exact value
 *    (the floor, or the floor + 1).
 *
 * @param rates units of each currency per unit of one common base (major units), for every
 *   currency with a non-zero net other than the target, and for the target when one is needed
 * @throws RangeError when a needed rate is missing, a currency has no minor unit, a currency's
 *   nets do not add up to 0, or a converted net (or original debt) is beyond a safe integer
 */
export function convertBalances(
  currencies: readonly CurrencyNets[],
  target: string,
  rates: ReadonlyMap<string, Rate>,
): ConvertedBalances {
  const targetUnits = minorUnits(target);
  const order: string[] = [];
  const totals = new Map<string, bigint>();
  // Each currency's factor into target minor units, a / b; the exact nets share a denominator.
  const parts: { a: bigint; b: bigint; nets: readonly MemberNet[]; pairs: readonly Transfer[] }[] = [];
  for (const { currency, members, original } of currencies) {
    let sum = 0n;
    for (const { userId, net } of members) {
      if (!Number.isSafeInteger(net)) throw new RangeError(`net of ${userId} must be a safe integer`);
      if (!totals.has(userId)) {
        totals.set(userId, 0n);
        order.push(userId);
      }
      sum += BigInt(net);
    }
    if (sum !== 0n) throw new RangeError(`the nets of ${currency} add up to ${sum}, not 0`);
    if (members.every((m) => m.net === 0)) continue;
    if (currency === target) {
      parts.push({ a: 1n, b: 1n, nets: members, pairs: original ?? [] });
      continue;
    }
    const from = rates.get(currency);
    const to = rates.get(target);
    if (!from) throw new RangeError(`no rate for ${currency}`);
    if (!to) throw new RangeError(`no rate for ${target}`);
    const scale = targetUnits - minorUnits(currency);
    let a = to.numerator * from.denominator * (scale > 0 ? 10n ** BigInt(scale) : 1n);
    let b = to.denominator * from.numerator * (scale < 0 ? 10n ** BigInt(-scale) : 1n);
    const common = gcd(a, b);
    a /= common;
    b /= common;
    parts.push({ a, b, nets: members, pairs: original ?? [] });
  }

  const denominator = parts.reduce((d, { b }) => (d * b) / gcd(d, b), 1n);
  for (const { a, b, nets } of parts) {
    const factor = a * (denominator / b);
    for (const { userId, net } of nets) totals.set(userId, (totals.get(userId) ?? 0n) + BigInt(net) * factor);
  }

  // Largest remainder over the members in userId order, so ties go to the lower id.
  const byId = [...order].sort(compareCodeUnits);
  const floors = byId.map((userId) => floorDiv(totals.get(userId) ?? 0n, denominator));
  const remainders = byId.map(
    (userId, i) => (totals.get(userId) ?? 0n) - (floors[i] as bigint) * denominator,
  );
  const short = -floors.reduce((sum, f) => sum + f, 0n);
  const extra = short === 0n ? byId.map(() => 0) : allocateLargestRemainder(Number(short), remainders);
  const converted = new Map<string, number>();
  byId.forEach((userId, i) => {
    const net = (floors[i] as bigint) + BigInt(extra[i] as number);
    if (net > BigInt(Number.MAX_SAFE_INTEGER) || net < -BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new RangeError(`the converted net of ${userId} is beyond a safe integer`);
    }
    converted.set(userId, Number(net));
  });
  const members = order.map((userId) => ({ userId, net: (converted.get(userId) as number) + 0 }));
  const result: ConvertedBalances = { members, simplified: simplifyDebts(members) };
  if (currencies.every((c) => c.original !== undefined)) {
    result.original = convertPairs(parts, denominator, members);
  }
  return result;
}

/**
 * The original debts in the target (see `ConvertedBalances.original`): each pair's exact debts in
 * 1/`denominator` units, netted per pair of members and rounded down; then what the members' debts
 * lack of their converted nets (whole units, adding up to 0) is settled by `simplifyDebts` and added
 * onto the pairs (a transfer against a pair's direction lowers it, or turns it round).
 */
function convertPairs(
  parts: readonly { a: bigint; b: bigint; pairs: readonly Transfer[] }[],
  denominator: bigint,
  members: readonly MemberNet[],
): Transfer[] {
  /** Net debt per pair, keyed `from\0to` with `from < to`; positive: `from` owes `to`. */
  const exact = new Map<string, bigint>();
  const keyOf = (x: string, y: string): [string, bigint] =>
    compareCodeUnits(x, y) < 0 ? [`${x}\0${y}`, 1n] : [`${y}\0${x}`, -1n];
  const add = (map: Map<string, bigint>, from: string, to: string, amount: bigint) => {
    if (from === to || amount === 0n) return;
    const [key, sign] = keyOf(from, to);
    map.set(key, (map.get(key) ?? 0n) + sign * amount);
  };
  for (const { a, b, pairs } of parts) {
    const factor = a * (denominator / b);
    for (const { from, to, amount } of pairs) add(exact, from, to, BigInt(amount) * factor);
  }
  const whole = new Map<string, bigint>();
  const have = new Map<string, bigint>();
  for (const [key, value] of exact) {
    const [x, y] = key.split('\0') as [string, string];
    const units = value / denominator; // BigInt division truncates: each pair rounded down in size
    if (units === 0n) continue;
    whole.set(key, units);
    have.set(x, (have.get(x) ?? 0n) - units);
    have.set(y, (have.get(y) ?? 0n) + units);
  }
  const left = members.map(({ userId, net }) => ({
    userId,
    net: Number(BigInt(net) - (have.get(userId) ?? 0n)),
  }));
  for (const { from, to, amount } of simplifyDebts(left)) add(whole, from, to, BigInt(amount));
  const debts: Transfer[] = [];
  for (const [key, value] of whole) {
    if (value === 0n) continue;
    const [x, y] = key.split('\0') as [string, string];
    // A pair's debt can outgrow the members' nets (they net several pairs): refused as a net would be.
    if (value > MAX_SAFE || value < -MAX_SAFE) {
      throw new RangeError(`the converted debt between ${x} and ${y} is beyond a safe integer`);
    }
    debts.push(
      value > 0n ? { from: x, to: y, amount: Number(value) } : { from: y, to: x, amount: Number(-value) },
    );
  }
  return debts.sort((p, q) => compareCodeUnits(p.from, q.from) || compareCodeUnits(p.to, q.to));
}
