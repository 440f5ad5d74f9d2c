/** An exchange rate as an exact fraction: `numerator / denominator` units of a currency per unit of a base. */
export type Rate = { numerator: bigint; denominator: bigint };

/** The most significant digits a rate may have (leading zeros not counted): more is false precision. */
export const MAX_RATE_DIGITS = 12;
/** The most decimals a rate may have: keeps the fractions (and the work on them) small. */
export const MAX_RATE_DECIMALS = 20;

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * Parses a decimal string (`"1.0823"`, `"160.34"`, `"0.000123"`) into an exact fraction, so no
 * rate ever passes through a float: `1.0823` is 10823 / 10000, not the nearest binary double.
 *
 * @returns the rate, not reduced (the conversion reduces what it computes)
 * @throws RangeError naming what is wrong: not a plain decimal (no sign, exponent, or leading
 *   zeros), zero, more than `MAX_RATE_DECIMALS` decimals or more than `MAX_RATE_DIGITS`
 *   significant digits
 */
export function parseRate(text: string): Rate {
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError('must be a positive decimal number such as "1.0823"');
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '' || /^0*$/.test(digits)) throw new RangeError('must be greater than 0');
  if (fraction.length > MAX_RATE_DECIMALS) {
    throw new RangeError(`must have at most ${MAX_RATE_DECIMALS} decimals`);
  }
  if (digits.length > MAX_RATE_DIGITS) {
    throw new RangeError(`must have at most ${MAX_RATE_DIGITS} significant digits`);
  }
  return { numerator: BigInt(`${whole}${fraction}`), denominator: 10n ** BigInt(fraction.length) };
}
