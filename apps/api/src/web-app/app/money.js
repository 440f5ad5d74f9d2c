// Money in minor units (integers), read exactly and shown through Intl.NumberFormat in the currency.
import { minorUnitsOf } from '../../../../../packages/domain/src/minor-units';

const digitsOf = (currency) => minorUnitsOf(currency) ?? 2;

/** "12.5" in INR → 1250, "-3" → -300, exactly: no floating point on the way in; undefined when not a number. */
export function toMinor(text, currency) {
  const digits = digitsOf(currency);
  const match = /^(-?)(\d+)(?:[.,](\d*))?$/.exec(String(text).trim());
  if (!match || (match[3] ?? '').length > digits) return undefined;
  const minor = Number(match[2]) * 10 ** digits + Number((match[3] ?? '').padEnd(digits, '0') || '0');
  return match[1] ? -minor : minor;
}

/** 1250 INR → "12.50", for an input's value. */
export function toMajorText(minor, currency) {
  const digits = digitsOf(currency);
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  return `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

const formats = new Map();
/** 1250 INR → "₹12.50" in the reader's locale. */
export function formatMoney(minor, currency) {
  let format = formats.get(currency);
  if (!format) {
    const digits = digitsOf(currency);
    format = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(currency, format);
  }
  return format.format(minor / 10 ** digitsOf(currency));
}

/** "2026-11-29T…" → a short date in the reader's locale. */
export const formatDate = (iso) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
export const formatDateTime = (iso) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
