import {
  canonicalTimeZone,
  firstOccurrenceAfter,
  isTimeZone,
  localDateAt,
  occurrenceDate,
  occurrencesDue,
  parseLocalDate,
  splitAmongMembers,
  startOfLocalDay,
} from './recurrence';

const dates = (startsOn: string, every: Parameters<typeof occurrenceDate>[1], count: number) =>
  Array.from({ length: count }, (_, i) => occurrenceDate(startsOn, every, i));

describe('occurrenceDate', () => {
  it('puts a monthly schedule on the 31st on the last day of shorter months, and back on the 31st', () => {
    expect(dates('2027-01-31', 'month', 6)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
    ]);
    expect(occurrenceDate('2028-01-31', 'month', 1)).toBe('2028-02-29');
    expect(occurrenceDate('2027-01-30', 'month', 1)).toBe('2027-02-28');
    expect(occurrenceDate('2027-01-30', 'month', 2)).toBe('2027-03-30');
  });

  it('crosses year ends and moves a yearly Feb 29 to Feb 28 in common years', () => {
    expect(dates('2027-11-30', 'month', 4)).toEqual(['2027-11-30', '2027-12-30', '2028-01-30', '2028-02-29']);
    expect(dates('2028-02-29', 'year', 5)).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
  });

  it('counts weeks and fortnights in days from the start', () => {
    expect(dates('2027-02-22', 'week', 3)).toEqual(['2027-02-22', '2027-03-01', '2027-03-08']);
    expect(dates('2027-12-20', '2 weeks', 3)).toEqual(['2027-12-20', '2028-01-03', '2028-01-17']);
    expect(occurrenceDate('2027-01-01', 'week', 52)).toBe('2027-12-31');
  });

  it('refuses a negative or fractional index', () => {
    expect(() => occurrenceDate('2027-01-01', 'week', -1)).toThrow(RangeError);
    expect(() => occurrenceDate('2027-01-01', 'week', 1.5)).toThrow(RangeError);
  });
});

describe('firstOccurrenceAfter', () => {
  it('finds the first occurrence strictly after a date', () => {
    expect(firstOccurrenceAfter('2027-01-31', 'month', '2027-01-30')).toBe(0);
    expect(firstOccurrenceAfter('2027-01-31', 'month', '2027-01-31')).toBe(1);
    expect(firstOccurrenceAfter('2027-01-31', 'month', '2027-02-28')).toBe(2);
    expect(firstOccurrenceAfter('2027-01-31', 'month', '2027-03-01')).toBe(2);
    expect(firstOccurrenceAfter('2027-01-01', 'week', '2027-12-30')).toBe(52);
    expect(firstOccurrenceAfter('2028-02-29', 'year', '2031-03-01')).toBe(4);
  });

  it('agrees with a walk through the occurrences for many starts and dates', () => {
    for (const every of ['week', '2 weeks', 'month', 'year'] as const) {
      for (const startsOn of ['2027-01-31', '2027-02-28', '2028-02-29', '2027-12-31']) {
        for (let offset = 0; offset < 800; offset += 13) {
          const date = new Date(Date.UTC(2027, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
          let walked = 0;
          while (occurrenceDate(startsOn, every, walked) <= date) walked++;
          expect(firstOccurrenceAfter(startsOn, every, date)).toBe(walked);
        }
      }
    }
  });
});

describe('startOfLocalDay', () => {
  it('keeps a weekly schedule in Europe/Berlin on its local date across both DST switches', () => {
    // 2027: summer time from Sun Mar 28, back on Sun Oct 31.
    const due = dates('2027-03-21', 'week', 3).map((d) => startOfLocalDay(d, 'Europe/Berlin').toISOString());
    expect(due).toEqual(['2027-03-20T23:00:00.000Z', '2027-03-27T23:00:00.000Z', '2027-04-03T22:00:00.000Z']);
    const autumn = dates('2027-10-24', 'week', 3).map((d) =>
      startOfLocalDay(d, 'Europe/Berlin').toISOString(),
    );
    expect(autumn).toEqual([
      '2027-10-23T22:00:00.000Z',
      '2027-10-30T22:00:00.000Z',
      '2027-11-06T23:00:00.000Z',
    ]);
    // The switch days themselves start at local midnight too (the switches are at 02:00/03:00).
    expect(startOfLocalDay('2027-03-28', 'Europe/Berlin').toISOString()).toBe('2027-03-27T23:00:00.000Z');
    expect(startOfLocalDay('2027-10-31', 'Europe/Berlin').toISOString()).toBe('2027-10-30T22:00:00.000Z');
    for (const d of dates('2027-03-07', 'week', 40)) {
      expect(localDateAt(startOfLocalDay(d, 'Europe/Berlin'), 'Europe/Berlin')).toBe(d);
    }
  });

  it('keeps a weekly schedule in America/New_York on its local date across both DST switches', () => {
    // 2027: daylight time from Sun Mar 14, back on Sun Nov 7.
    expect(startOfLocalDay('2027-03-07', 'America/New_York').toISOString()).toBe('2027-03-07T05:00:00.000Z');
    expect(startOfLocalDay('2027-03-14', 'America/New_York').toISOString()).toBe('2027-03-14T05:00:00.000Z');
    expect(startOfLocalDay('2027-03-21', 'America/New_York').toISOString()).toBe('2027-03-21T04:00:00.000Z');
    expect(startOfLocalDay('2027-11-07', 'America/New_York').toISOString()).toBe('2027-11-07T04:00:00.000Z');
    expect(startOfLocalDay('2027-11-14', 'America/New_York').toISOString()).toBe('2027-11-14T05:00:00.000Z');
    for (const d of dates('2027-01-03', 'week', 52)) {
      const at = startOfLocalDay(d, 'America/New_York');
      expect(localDateAt(at, 'America/New_York')).toBe(d);
      // The instant before is still the previous local day: it is the day's first instant.
      expect(localDateAt(new Date(at.getTime() - 1), 'America/New_York')).not.toBe(d);
    }
  });

  it('starts a day whose midnight a DST switch skips at the switch', () => {
    // America/Havana springs forward at 00:00 → 01:00 (2027-03-14).
    const at = startOfLocalDay('2027-03-14', 'America/Havana');
    expect(localDateAt(at, 'America/Havana')).toBe('2027-03-14');
    expect(localDateAt(new Date(at.getTime() - 1), 'America/Havana')).toBe('2027-03-13');
    expect(at.toISOString()).toBe('2027-03-14T05:00:00.000Z');
  });

  it('moves a local day the zone skipped entirely to the first instant after it (Pacific/Apia, 2011-12-30)', () => {
    // Samoa crossed the date line: 2011-12-29 23:59:59 (UTC-10) was followed by 2011-12-31 00:00 (UTC+14).
    const skipped = startOfLocalDay('2011-12-30', 'Pacific/Apia');
    expect(skipped.toISOString()).toBe('2011-12-30T10:00:00.000Z');
    expect(localDateAt(skipped, 'Pacific/Apia')).toBe('2011-12-31');
    expect(localDateAt(new Date(skipped.getTime() - 1), 'Pacific/Apia')).toBe('2011-12-29');
    // The days on either side keep their own midnights.
    expect(startOfLocalDay('2011-12-29', 'Pacific/Apia').toISOString()).toBe('2011-12-29T10:00:00.000Z');
    expect(startOfLocalDay('2011-12-31', 'Pacific/Apia').toISOString()).toBe('2011-12-30T10:00:00.000Z');
    // A weekly schedule through the gap: every occurrence on or after its own date, in order.
    const due = dates('2011-12-16', 'week', 4).map((d) => startOfLocalDay(d, 'Pacific/Apia'));
    expect(due.map((at) => localDateAt(at, 'Pacific/Apia'))).toEqual([
      '2011-12-16',
      '2011-12-23',
      '2011-12-31',
      '2012-01-06',
    ]);
  });

  it('moves a midnight a DST switch skips forward to the switch, in zones either side of UTC', () => {
    // America/Santiago springs forward at 00:00 → 01:00 (2027-09-05); Asia/Beirut at 00:00 → 01:00 (2027-03-28).
    for (const [date, zone] of [
      ['2027-09-05', 'America/Santiago'],
      ['2027-03-28', 'Asia/Beirut'],
    ] as const) {
      const at = startOfLocalDay(date, zone);
      expect(localDateAt(at, zone)).toBe(date);
      expect(localDateAt(new Date(at.getTime() - 1), zone)).not.toBe(date);
      expect(at.getTime()).toBeGreaterThanOrEqual(new Date(`${date}T00:00:00Z`).getTime() - 14 * 3_600_000);
    }
    expect(startOfLocalDay('2027-09-05', 'America/Santiago').toISOString()).toBe('2027-09-05T04:00:00.000Z');
    expect(startOfLocalDay('2027-03-28', 'Asia/Beirut').toISOString()).toBe('2027-03-27T22:00:00.000Z');
  });

  it('is UTC midnight in UTC and counts offsets east of it', () => {
    expect(startOfLocalDay('2027-06-01', 'UTC').toISOString()).toBe('2027-06-01T00:00:00.000Z');
    expect(startOfLocalDay('2027-06-01', 'Asia/Kolkata').toISOString()).toBe('2027-05-31T18:30:00.000Z');
  });
});

describe('occurrencesDue', () => {
  const weekly = { every: 'week' as const, startsOn: '2027-01-04', timeZone: 'UTC' };

  it('counts the occurrences whose local date has begun, from an index on', () => {
    expect(occurrencesDue(weekly, 0, new Date('2027-01-03T23:59:59Z'))).toBe(0);
    expect(occurrencesDue(weekly, 0, new Date('2027-01-04T00:00:00Z'))).toBe(1);
    expect(occurrencesDue(weekly, 0, new Date('2027-03-01T00:00:00Z'))).toBe(9);
    expect(occurrencesDue(weekly, 5, new Date('2027-03-01T00:00:00Z'))).toBe(4);
    expect(occurrencesDue(weekly, 12, new Date('2027-03-01T00:00:00Z'))).toBe(0);
  });

  it('stops at until and judges "today" in the schedule’s time zone', () => {
    expect(occurrencesDue({ ...weekly, until: '2027-01-20' }, 0, new Date('2028-01-01T00:00:00Z'))).toBe(3);
    // 2027-01-03T23:30Z is already Jan 4 in Berlin, not yet in New York.
    const at = new Date('2027-01-03T23:30:00Z');
    expect(occurrencesDue({ ...weekly, timeZone: 'Europe/Berlin' }, 0, at)).toBe(1);
    expect(occurrencesDue({ ...weekly, timeZone: 'America/New_York' }, 0, at)).toBe(0);
    // Weekly from 2000-01-01 until 2026-11-28: what the request asked for at once.
    expect(
      occurrencesDue(
        { every: 'week', startsOn: '2000-01-01', timeZone: 'UTC' },
        0,
        new Date('2026-11-28T12:00Z'),
      ),
    ).toBe(1405);
  });
});

describe('canonicalTimeZone, isTimeZone and parseLocalDate', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(' Europe/Berlin')).toBe(false);
  });

  it('refuses UTC offsets, which Intl takes but which are not zone names', () => {
    for (const offset of ['+05:30', '-08:00', '+0530', '-08', '+14', '\u221205:00', 'UTC+1', 'GMT+5', 'Z']) {
      expect([offset, canonicalTimeZone(offset)]).toEqual([offset, undefined]);
    }
    // The tz database's own fixed-offset zones are zone names.
    expect(canonicalTimeZone('Etc/GMT+5')).toBe('Etc/GMT+5');
  });

  it('gives one name per zone: its case, UTC’s aliases, links, and the zones ICU calls by an old name', () => {
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('EUROPE/BERLIN')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    for (const utc of ['UTC', 'utc', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Zulu'])
      expect(canonicalTimeZone(utc)).toBe('UTC');
    expect(canonicalTimeZone('US/Pacific')).toBe('America/Los_Angeles');
    expect(canonicalTimeZone('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('asia/kolkata')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(canonicalTimeZone('Europe/Kyiv')).toBe('Europe/Kyiv');
    expect(canonicalTimeZone('America/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
  });

  it('gives a name that is its own canonical name and computes as the name sent', () => {
    const at = new Date('2027-07-01T12:00:00Z');
    for (const name of [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Asia/Kolkata', 'Europe/Kyiv']) {
      const canonical = canonicalTimeZone(name) as string;
      expect([name, canonicalTimeZone(canonical)]).toEqual([name, canonical]);
      expect([name, localDateAt(at, canonical)]).toEqual([name, localDateAt(at, name)]);
      expect([name, startOfLocalDay('2027-07-01', canonical).getTime()]).toEqual([
        name,
        startOfLocalDay('2027-07-01', name).getTime(),
      ]);
    }
  });

  it('reads real calendar dates only', () => {
    expect(parseLocalDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseLocalDate('2027-02-29')).toBeUndefined();
    expect(parseLocalDate('2027-13-01')).toBeUndefined();
    expect(parseLocalDate('2027-1-01')).toBeUndefined();
  });
});

describe('splitAmongMembers', () => {
  const members = new Set(['usr_a', 'usr_b']);
  const isMember = (id: string) => members.has(id);

  it('drops removed participants of equal and shares splits', () => {
    expect(
      splitAmongMembers('usr_a', { type: 'equal', between: ['usr_a', 'usr_c', 'usr_b'] }, isMember),
    ).toEqual({ ok: true, paidBy: 'usr_a', split: { type: 'equal', between: ['usr_a', 'usr_b'] } });
    expect(
      splitAmongMembers(
        'usr_a',
        {
          type: 'shares',
          between: [
            { userId: 'usr_c', shares: 2 },
            { userId: 'usr_b', shares: 1 },
          ],
        },
        isMember,
      ),
    ).toEqual({
      ok: true,
      paidBy: 'usr_a',
      split: { type: 'shares', between: [{ userId: 'usr_b', shares: 1 }] },
    });
  });

  it('skips for a removed payer, a removed exact or percent participant, or nobody left', () => {
    expect(splitAmongMembers('usr_c', { type: 'equal', between: ['usr_a'] }, isMember)).toEqual({
      ok: false,
      reason: 'payer_removed',
    });
    expect(
      splitAmongMembers(
        [
          { userId: 'usr_a', amount: 5 },
          { userId: 'usr_c', amount: 5 },
        ],
        { type: 'equal', between: ['usr_a'] },
        isMember,
      ),
    ).toEqual({ ok: false, reason: 'payer_removed' });
    expect(
      splitAmongMembers('usr_a', { type: 'exact', between: [{ userId: 'usr_c', amount: 10 }] }, isMember),
    ).toEqual({ ok: false, reason: 'participant_removed' });
    expect(
      splitAmongMembers('usr_a', { type: 'percent', between: [{ userId: 'usr_c', percent: 100 }] }, isMember),
    ).toEqual({ ok: false, reason: 'participant_removed' });
    expect(splitAmongMembers('usr_a', { type: 'equal', between: ['usr_c'] }, isMember)).toEqual({
      ok: false,
      reason: 'no_participants',
    });
  });
});
