/**
 * CSV cells as RFC 4180 writes them, and the OWASP rule against CSV injection: a text cell that a
 * spreadsheet would run as a formula (its first character `=`, `+`, `-`, `@`, tab or carriage
 * return) gets a leading `'`, which spreadsheets show as text. Only text cells (what a person typed:
 * descriptions, categories, names) go through `textCell`; numbers Tally formats itself go through
 * `numberCell` untouched, so a negative amount stays a number.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
function quoted(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A cell of text someone typed: neutralised when it would start a formula, then quoted as needed. */
export function textCell(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return quoted(FORMULA_START.test(value) ? `'${value}` : value);
}

/** A number Tally wrote (`-12.50`, `2026-01-31 10:00:00`): only ever digits, signs, dots, colons and spaces. */
export function numberCell(value: string): string {
  if (!/^[-0-9.: ]*$/.test(value)) throw new Error(`not a number cell: ${value}`);
  return value;
}

/** One CSV record with its CRLF line end (RFC 4180). */
export const csvRecord = (cells: readonly string[]): string => `${cells.join(',')}\r\n`;

/**
 * An amount in minor units as a decimal in major units: `-1250` with 2 decimals is `-12.50`.
 * `digits` undefined (a code without an ISO minor unit): the minor units as they are.
 */
export function decimalOf(minor: bigint | number, digits: number | undefined): string {
  const value = BigInt(minor);
  if (!digits) return value.toString();
  const negative = value < 0n;
  const text = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  return `${negative ? '-' : ''}${whole}.${text.slice(text.length - digits)}`;
}

/** A UTC instant as a spreadsheet reads a date and time: `2026-01-31 10:00:00`. */
export const utcDateTime = (at: Date): string => at.toISOString().slice(0, 19).replace('T', ' ');
