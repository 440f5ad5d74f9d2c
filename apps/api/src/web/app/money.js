// Amounts in minor units (apps/api/src/web/app.js): read exactly, shown in the currency's digits.

/**
 * ISO 4217 minor units, as the server converts with them (packages/domain/src/minor-units.ts): the
 * codes that differ from 2. Not the browser's display digits: CLDR shows HUF, IDR or IQD without
 * decimals, but an amount in them counts cents (fils for IQD), as the API's minor units do.
 */
const ISO_DIGITS = Object.fromEntries([
  ...'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' ').map((c) => [c, 0]),
  ...'BHD IQD JOD KWD LYD OMR TND'.split(' ').map((c) => [c, 3]),
  ['CLF', 4],
  ['UYW', 4],
]);
const fractionDigits = (currency) => ISO_DIGITS[currency] ?? 2;

/** "12.5" INR → 1250 (minor units), exactly: no floating point on the way in. */
export function toMinor(text, currency) {
  const digits = fractionDigits(currency);
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > digits) {
    throw new Error(`The amount must be a number with at most ${digits} decimals.`);
  }
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || '0');
}

export const formatMoney = (minor, currency) => {
  const digits = fractionDigits(currency);
  return new Intl.NumberFormat(undefined, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minor / 10 ** digits);
};
