import type { Payer, SplitInput } from './types';
import { userIdsOf } from './user-ids-of';

/** How often a recurring expense recurs (API.md §6a). */
export type RecurrenceEvery = 'week' | '2 weeks' | 'month' | 'year';

export const RECURRENCE_EVERY: readonly RecurrenceEvery[] = ['week', '2 weeks', 'month', 'year'];

/** A calendar date as `YYYY-MM-DD` (a local date, no time zone). */
export type LocalDate = string;

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The parts of a valid `YYYY-MM-DD`; undefined for anything else (Feb 30, month 13…). */
export function parseLocalDate(text: string): { year: number; month: number; day: number } | undefined {
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

function partsOf(date: LocalDate) {
  const parts = parseLocalDate(date);
  if (!parts) throw new RangeError(`not a date: ${date}`);
  return parts;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const formatDate = (year: number, month: number, day: number): LocalDate =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}`;

/** Days in `month` (1–12) of `year`, by the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function addDays(date: LocalDate, days: number): LocalDate {
  const { year, month, day } = partsOf(date);
  const at = new Date(Date.UTC(year, month - 1, day) + days * DAY_MS);
  return formatDate(at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate());
}

/** The same day of the month `months` later, or that month's last day when it is shorter. */
function addMonthsClamped(date: LocalDate, months: number): LocalDate {
  const { year, month, day } = partsOf(date);
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = (total % 12) + 1;
  return formatDate(y, m, Math.min(day, daysInMonth(y, m)));
}

/**
 * The local date of occurrence `index` (0 is `startsOn` itself), always computed from `startsOn`,
 * never from the previous occurrence: Jan 31 monthly is Feb 28 (29), Mar 31, Apr 30, not a date
 * that drifts to the 28th for good. A yearly Feb 29 falls on Feb 28 in common years.
 */
export function occurrenceDate(startsOn: LocalDate, every: RecurrenceEvery, index: number): LocalDate {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`not an occurrence index: ${index}`);
  switch (every) {
    case 'week':
      return addDays(startsOn, 7 * index);
    case '2 weeks':
      return addDays(startsOn, 14 * index);
    case 'month':
      return addMonthsClamped(startsOn, index);
    case 'year':
      return addMonthsClamped(startsOn, 12 * index);
  }
}

/**
 * The index of the first occurrence whose date is strictly after `date` (0 when `startsOn` is):
 * where a changed schedule continues after the occurrences already created.
 */
export function firstOccurrenceAfter(startsOn: LocalDate, every: RecurrenceEvery, date: LocalDate): number {
  if (startsOn > date) return 0;
  // An estimate from the average period, then corrected: each step moves by at most one.
  const periodDays = { week: 7, '2 weeks': 14, month: 28, year: 365 }[every];
  const { year: y0, month: m0, day: d0 } = partsOf(startsOn);
  const { year, month, day } = partsOf(date);
  const elapsed = (Date.UTC(year, month - 1, day) - Date.UTC(y0, m0 - 1, d0)) / DAY_MS;
  let index = Math.max(0, Math.floor(elapsed / periodDays) - 1);
  while (index > 0 && occurrenceDate(startsOn, every, index - 1) > date) index--;
  while (occurrenceDate(startsOn, every, index) <= date) index++;
  return index;
}

/**
 * The zones the runtime's ICU still names by an old IANA name (its "canonical" ids predate the tz
 * database's renames), with their current names: Intl resolves `Europe/Kyiv` to `Europe/Kiev` and
 * `Asia/Kolkata` to `Asia/Calcutta`. Each pair is one zone under two names (a rename, not a merge),
 * so the current name is what a schedule keeps. A runtime that no longer resolves to the old names
 * leaves this table unused.
 */
const RENAMED_ZONES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/**
 * The one name a schedule keeps for the IANA time zone `name` (API.md §6a), or undefined when
 * `name` is not one: the name as this runtime's Intl resolves it, whatever its case
 * (`europe/berlin` → `Europe/Berlin`) and whichever of the zone's names was sent (`Etc/UTC`, `GMT`,
 * `UTC` → `UTC`; `US/Pacific` → `America/Los_Angeles`), with the zones ICU still calls by an old
 * name under their current one (`Asia/Calcutta` and `Asia/Kolkata` → `Asia/Kolkata`). A UTC offset
 * (`+05:30`, `-08`), which Intl also accepts, is not a zone name: undefined.
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.trim() === '' || name !== name.trim()) return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  if (resolved === undefined || /^[+\-\u2212]/.test(resolved) || /^[+\-\u2212]/.test(name)) return undefined;
  return RENAMED_ZONES[resolved] ?? resolved;
}

/** Whether `name` is an IANA time zone this runtime knows (`Europe/Berlin`, `UTC`), in any case. */
export const isTimeZone = (name: string): boolean => canonicalTimeZone(name) !== undefined;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock reading in `timeZone` at instant `ms`, as if it were UTC (ms). */
function wallClockOf(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return Date.UTC(year, month - 1, day, hour, minute, second) + (ms - Math.floor(ms / 1000) * 1000);
}

/** The local date in `timeZone` at instant `at`. */
export function localDateAt(at: Date, timeZone: string): LocalDate {
  const wall = new Date(wallClockOf(at.getTime(), timeZone));
  return formatDate(wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate());
}

/**
 * The first instant of local date `date` in `timeZone`: when an occurrence on that date is due, and
 * its expense's `occurredAt`. Usually local midnight. When the zone skips midnight (clocks jump
 * from 00:00 to 01:00 on a DST switch), the instant of the switch; when it skips the whole day
 * (Pacific/Apia went from 2011-12-29 straight to 2011-12-31), the first instant after it, the next
 * day's start: a time that does not exist moves forward, never back onto the day before. The offset
 * comes from Intl at each instant, so the local date stays put across DST whatever the UTC offset does.
 */
export function startOfLocalDay(date: LocalDate, timeZone: string): Date {
  const { year, month, day } = partsOf(date);
  const midnight = Date.UTC(year, month - 1, day);
  // Local midnight read as UTC, corrected by the offset there, twice (the offset may differ on
  // either side of a switch near midnight).
  let at = midnight - (wallClockOf(midnight, timeZone) - midnight);
  at = midnight - (wallClockOf(at, timeZone) - at);
  // The usual case: local midnight exists, and the instant before it is the day before.
  if (wallClockOf(at, timeZone) === midnight && localDateAt(new Date(at - 1), timeZone) < date) {
    return new Date(at);
  }
  // Otherwise the first instant whose local date is `date` or later, searched between an instant
  // that is still the day before in any zone (offsets are within -12 h and +14 h, and a day is
  // skipped only by jumping at most a day ahead) and one that is the day after in any zone.
  let low = midnight - 15 * 3_600_000;
  let high = midnight + 38 * 3_600_000;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (localDateAt(new Date(mid), timeZone) >= date) high = mid;
    else low = mid;
  }
  return new Date(high);
}

/**
 * How many occurrences from index `from` on are due at `now` (their local date has begun in the
 * schedule's time zone, and is on or before `until`): what one catch-up of the scheduler would
 * create for the schedule (API.md §6a, the `recurringBacklog` bound).
 */
export function occurrencesDue(
  schedule: { every: RecurrenceEvery; startsOn: LocalDate; until?: LocalDate | null; timeZone: string },
  from: number,
  now: Date,
): number {
  const today = localDateAt(now, schedule.timeZone);
  let end = firstOccurrenceAfter(schedule.startsOn, schedule.every, today);
  if (schedule.until != null) {
    end = Math.min(end, firstOccurrenceAfter(schedule.startsOn, schedule.every, schedule.until));
  }
  return Math.max(0, end - from);
}

/** Whether occurrence `date` still belongs to the schedule (on or before its `until`). */
export const isWithin = (date: LocalDate, until: LocalDate | null | undefined): boolean =>
  until === null || until === undefined || date <= until;

/** What an occurrence does about members removed from the group since the schedule was written. */
export type OccurrenceSplit =
  | { ok: true; paidBy: string | Payer[]; split: SplitInput }
  | { ok: false; reason: 'payer_removed' | 'participant_removed' | 'no_participants' };

/**
 * An occurrence's payers and split among the group's current members (API.md §6a): removed
 * participants of an `equal` or `shares` split are dropped and the amount is divided among the
 * rest (their relative weights are kept); an `exact`, `percent` or `items` split naming a removed member,
 * or a removed payer, cannot be re-divided without inventing amounts, so the occurrence is skipped.
 */
export function splitAmongMembers(
  paidBy: string | Payer[],
  split: SplitInput,
  isMember: (userId: string) => boolean,
): OccurrenceSplit {
  const payers = typeof paidBy === 'string' ? [paidBy] : paidBy.map((p) => p.userId);
  if (!payers.every(isMember)) return { ok: false, reason: 'payer_removed' };
  switch (split.type) {
    case 'equal': {
      const between = split.between.filter(isMember);
      if (between.length === 0) return { ok: false, reason: 'no_participants' };
      return { ok: true, paidBy, split: { type: 'equal', between } };
    }
    case 'shares': {
      const between = split.between.filter((s) => isMember(s.userId));
      if (between.length === 0) return { ok: false, reason: 'no_participants' };
      return { ok: true, paidBy, split: { type: 'shares', between } };
    }
    case 'items':
      return userIdsOf(split).every(isMember)
        ? { ok: true, paidBy, split }
        : { ok: false, reason: 'participant_removed' };
    case 'exact':
    case 'percent':
      return split.between.every((s) => isMember(s.userId))
        ? { ok: true, paidBy, split }
        : { ok: false, reason: 'participant_removed' };
  }
}
