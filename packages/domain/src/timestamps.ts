/**
 * The one rule for timestamps (API.md §1): an RFC 3339 date-time whose date and time exist, with a
 * year from 0001 to 9999. joi's `isoDate` takes `2026-02-30` (and turns it into March 2nd) and
 * `Date.parse` takes six-digit and negative years; PostgreSQL refuses year 0 and what lies beyond its
 * range. Whatever passes here, PostgreSQL and PGlite store as given.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/i;

const MIN_MS = new Date('0001-01-01T00:00:00.000Z').getTime();
const MAX_MS = new Date('9999-12-31T23:59:59.999Z').getTime();

/** True for an instant within 0001-01-01 and 9999-12-31 UTC (what every column of ours can hold). */
export function isStorableInstant(date: Date): boolean {
  const ms = date.getTime();
  return Number.isFinite(ms) && ms >= MIN_MS && ms <= MAX_MS;
}

/** True for an RFC 3339 timestamp of a real date and time, within years 0001–9999 (also once in UTC). */
export function isRealTimestamp(value: string): boolean {
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const probe = new Date(0);
  probe.setUTCFullYear(year, month, 0);
  if (day > probe.getUTCDate()) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  const parsed = new Date(value);
  return isStorableInstant(parsed);
}
