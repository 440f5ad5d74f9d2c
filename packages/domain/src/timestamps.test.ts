import { isRealDate, isRealTimestamp, isStorableInstant } from './timestamps';

describe('isRealTimestamp: the one rule for timestamps', () => {
  it.each([
    '2026-02-28T00:00:00Z',
    '2024-02-29T23:59:59.999Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '2026-06-01T12:00:00+05:30',
    '2026-06-01t12:00:00z',
  ])('takes %s', (value) => expect(isRealTimestamp(value)).toBe(true));

  it.each([
    ['a day that does not exist', '2026-02-30T00:00:00Z'],
    ['Feb 29 of a common year', '2025-02-29T00:00:00Z'],
    ['year 0000', '0000-01-01T00:00:00.000Z'],
    ['a negative year', '-000001-01-01T00:00:00Z'],
    ['a six-digit year', '+275760-09-13T00:00:00Z'],
    ['a bare date', '2026-01-01'],
    ['no offset', '2026-01-01T00:00:00'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['a leap second', '2026-06-30T23:59:60Z'],
    ['an offset of 24 hours', '2026-01-01T00:00:00+24:00'],
    ['year 0001 that falls into year 0 in UTC', '0001-01-01T00:30:00+01:00'],
    ['year 9999 that falls into year 10000 in UTC', '9999-12-31T23:30:00-01:00'],
  ])('refuses %s (%s)', (_, value) => expect(isRealTimestamp(value)).toBe(false));

  it('isStorableInstant bounds an instant to 0001–9999 UTC', () => {
    expect(isStorableInstant(new Date('0001-01-01T00:00:00Z'))).toBe(true);
    expect(isStorableInstant(new Date(Number.NaN))).toBe(false);
    expect(isStorableInstant(new Date('+010000-01-01T00:00:00Z'))).toBe(false);
  });
});

describe('isRealDate: the one rule for dates', () => {
  it.each(['2026-02-28', '2024-02-29', '0001-01-01', '0004-02-29', '9999-12-31'])('takes %s', (value) =>
    expect(isRealDate(value)).toBe(true),
  );

  it.each([
    ['a day that does not exist', '2026-02-30'],
    ['Feb 29 of a common year', '2025-02-29'],
    ['Feb 29 of year 100 (not a leap year)', '0100-02-29'],
    ['year 0000', '0000-01-01'],
    ['month 13', '2026-13-01'],
    ['day 0', '2026-01-00'],
    ['a six-digit year', '+275760-09-13'],
    ['a timestamp', '2026-01-01T00:00:00Z'],
    ['another spelling', '2026-1-1'],
  ])('refuses %s (%s)', (_, value) => expect(isRealDate(value)).toBe(false));
});
