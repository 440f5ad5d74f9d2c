import { eventsWidthMs, missingRanges, type PartitionInfo, partitionName, slotOf } from './partitions';

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);
const partition = (from: string | null, to: string | null): PartitionInfo => ({
  table: 'events',
  name: 'p',
  from: from === null ? null : new Date(from),
  to: to === null ? null : new Date(to),
});

describe('partition arithmetic', () => {
  it('names a partition by its lower bound, with the time only when it is not a UTC midnight', () => {
    expect(partitionName('events', new Date('2026-11-26T00:00:00Z'))).toBe('events_p20261126');
    expect(partitionName('idempotency_claims', new Date('2026-11-26T10:15:02Z'))).toBe(
      'idempotency_claims_p20261126t101502',
    );
  });

  it('aligns slots on the width from the epoch, as date_bin does', () => {
    expect(slotOf(at('2026-11-26T13:00:00Z'), DAY)).toBe(at('2026-11-26T00:00:00Z'));
    expect(slotOf(at('2026-11-26T13:00:03Z'), 2000)).toBe(at('2026-11-26T13:00:02Z'));
  });

  it('finds the aligned ranges no partition covers, cut short where another one begins or ends', () => {
    const existing = [
      partition(null, '2026-11-25T00:00:00Z'),
      partition('2026-11-26T00:00:00Z', '2026-11-27T00:00:00Z'),
    ];
    expect(missingRanges(existing, at('2026-11-24T12:00:00Z'), at('2026-11-28T00:00:00Z'), DAY)).toEqual([
      [at('2026-11-25T00:00:00Z'), at('2026-11-26T00:00:00Z')],
      [at('2026-11-27T00:00:00Z'), at('2026-11-28T00:00:00Z')],
    ]);
    // A 4-day grid (from the epoch: 11-23, 11-27, 12-01): whole grid slots are filled, around the
    // daily partitions already there.
    expect(missingRanges(existing, at('2026-11-26T12:00:00Z'), at('2026-11-29T00:00:00Z'), 4 * DAY)).toEqual([
      [at('2026-11-25T00:00:00Z'), at('2026-11-26T00:00:00Z')],
      [at('2026-11-27T00:00:00Z'), at('2026-12-01T00:00:00Z')],
    ]);
  });

  it('makes events partitions about an eighth of the retention (at least the unit), a quarter when kept for ever', () => {
    const settings = { widthMs: DAY, ahead: 7 };
    expect(eventsWidthMs(settings, 1)).toBe(DAY);
    expect(eventsWidthMs(settings, 8)).toBe(DAY);
    expect(eventsWidthMs(settings, 30)).toBe(4 * DAY);
    expect(eventsWidthMs(settings, 365)).toBe(46 * DAY);
    expect(eventsWidthMs(settings, undefined)).toBe(90 * DAY);
  });
});
