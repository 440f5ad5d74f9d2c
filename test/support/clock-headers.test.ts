import { A_DATE, WITHIN_WINDOW, withoutClock } from './clock-headers';

describe('withoutClock', () => {
  const answer = (reset: string, date: string) => ({
    'content-type': 'application/json; charset=utf-8',
    'ratelimit-limit': '600',
    'ratelimit-reset': reset,
    date,
  });

  it('compares two answers alike when a second boundary fell between them (59 vs 60)', () => {
    const first = answer('60', 'Sat, 28 Nov 2026 16:07:59 GMT');
    const second = answer('59', 'Sat, 28 Nov 2026 16:08:00 GMT');
    expect(first).not.toEqual(second);
    expect(withoutClock(first)).toEqual(withoutClock(second));
    expect(withoutClock(first)).toMatchObject({ 'ratelimit-reset': WITHIN_WINDOW, date: A_DATE });
  });

  it("bounds a 429's Retry-After with its RateLimit-Reset, and keeps a constant Retry-After", () => {
    expect(withoutClock({ 'ratelimit-reset': '12', 'retry-after': '12' })).toEqual({
      'ratelimit-reset': WITHIN_WINDOW,
      'retry-after': WITHIN_WINDOW,
    });
    expect(withoutClock({ 'ratelimit-reset': '12', 'retry-after': '1' })).toEqual({
      'ratelimit-reset': WITHIN_WINDOW,
      'retry-after': '1',
    });
    expect(withoutClock({ 'retry-after': '1' })).toEqual({ 'retry-after': '1' });
  });

  it('leaves a value out of its bounds as it is, so the comparison shows it', () => {
    for (const reset of ['0', '61', '-1', '1.5', 'soon', '']) {
      expect(withoutClock({ 'ratelimit-reset': reset })).toEqual({ 'ratelimit-reset': reset });
    }
    expect(withoutClock({ date: 'yesterday' })).toEqual({ date: 'yesterday' });
  });

  it('still tells answers apart by every other header', () => {
    const a = withoutClock({ ...answer('60', 'Sat, 28 Nov 2026 16:07:59 GMT'), etag: '"v1"' });
    const b = withoutClock({ ...answer('60', 'Sat, 28 Nov 2026 16:07:59 GMT'), etag: '"v2"' });
    expect(a).not.toEqual(b);
  });
});
