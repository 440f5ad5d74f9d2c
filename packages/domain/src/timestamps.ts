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

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether day `day` of `month` (1–12) of `year` (0001–9999) exists in the proleptic Gregorian calendar. */
function dayExists(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  // setUTCFullYear, unlike Date.UTC, takes years 0–99 as they are (not as 1900–1999)
  const probe = new Date(0);
  probe.setUTCFullYear(year, month, 0);
  return day <= probe.getUTCDate();
}

/** True for a `YYYY-MM-DD` date that exists, years 0001–9999 (`2026-02-30` and `0000-01-01` do not). */
export function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && dayExists(Number(m[1]), Number(m[2]), Number(m[3]));
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
  if (!dayExists(year, month, day)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  const parsed = new Date(value);
  return isStorableInstant(parsed);
}
