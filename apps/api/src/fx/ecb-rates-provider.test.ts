import { AppError } from '@tally/http-kit';
import { ECB_SAMPLE, type EcbServer, startEcbServer } from '../../../../test/support/ecb-server';
import { until } from '../../../../test/support/until';
import { createEcbRatesProvider, ECB_MAX_RESPONSE_BYTES } from './ecb-rates-provider';
import { parseEcbRates } from './parse-ecb-rates';

describe('parseEcbRates', () => {
  it('reads the day and every rate of a real ECB document, as the decimal strings it wrote', () => {
    const parsed = parseEcbRates(ECB_SAMPLE);
    expect(parsed.source).toBe('ecb');
    expect(parsed.base).toBe('EUR');
    expect(parsed.asOf).toBe('2018-12-21');
    expect(parsed.rates.size).toBe(32);
    expect(parsed.rates.get('USD')).toBe('1.1414');
    expect(parsed.rates.get('JPY')).toBe('126.98');
    expect(parsed.rates.get('IDR')).toBe('16696.34');
    expect(parsed.rates.get('EUR')).toBeUndefined();
  });

  it.each([
    ['an HTML error page', '<html><body>Service unavailable</body></html>'],
    ['a truncated document', ECB_SAMPLE.slice(0, 600)],
    ['a document without a day', '<gesmes:Envelope><Cube></Cube></gesmes:Envelope>'],
    [
      'a day that is not a date',
      "<gesmes:Envelope><Cube><Cube time='2018-02-30'><Cube currency='USD' rate='1.1'/></Cube></Cube></gesmes:Envelope>",
    ],
    [
      'a rate that is not a positive decimal',
      "<gesmes:Envelope><Cube><Cube time='2018-12-21'><Cube currency='USD' rate='-1.1'/></Cube></Cube></gesmes:Envelope>",
    ],
  ])('refuses %s', (_what, body) => {
    expect(() => parseEcbRates(body)).toThrow();
  });
});

describe('createEcbRatesProvider, against a local HTTP server serving a real ECB document', () => {
  let ecb: EcbServer;
  let clock: number;
  const errors: unknown[] = [];
  const provider = (cacheSeconds = 60, timeoutMs = 2000) =>
    createEcbRatesProvider({
      url: ecb.url,
      cacheSeconds,
      timeoutMs,
      onError: (error) => errors.push(error),
      now: () => clock,
    });

  beforeEach(async () => {
    ecb = await startEcbServer();
    clock = 1_000_000;
    errors.length = 0;
  });
  afterEach(async () => {
    await ecb.close();
  });

  it('fetches once and serves the cached rates until they are stale', async () => {
    const rates = provider(60);
    expect((await rates.rates()).rates.get('GBP')).toBe('0.90215');
    await rates.rates();
    clock += 59_000;
    await rates.rates();
    expect(ecb.requests()).toBe(1);
    // Stale: the old rates answer at once, and one fetch refreshes them.
    clock += 2_000;
    expect((await rates.rates()).asOf).toBe('2018-12-21');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ecb.requests()).toBe(2);
  });

  it('makes callers that arrive together share one fetch', async () => {
    const rates = provider();
    ecb.hold();
    const waiting = Array.from({ length: 20 }, () => rates.rates());
    await new Promise((resolve) => setTimeout(resolve, 100));
    ecb.release();
    const all = await Promise.all(waiting);
    expect(new Set(all.map((r) => r.asOf))).toEqual(new Set(['2018-12-21']));
    expect(ecb.requests()).toBe(1);
  });

  it('keeps serving the last good rates when the ECB fails', async () => {
    const rates = provider(60);
    await rates.rates();
    ecb.serve({ status: 500, body: 'oops' });
    clock += 61_000;
    expect((await rates.rates()).rates.get('USD')).toBe('1.1414');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ecb.requests()).toBe(2);
    expect(String(errors[0])).toContain('500');
    expect((await rates.rates()).rates.get('USD')).toBe('1.1414');
  });

  it('answers 503 while it has never had rates, and tries again only after a pause', async () => {
    ecb.serve({ status: 200, body: '<html>maintenance</html>' });
    const rates = provider();
    const first = await rates.rates().catch((error: unknown) => error);
    expect(first).toBeInstanceOf(AppError);
    expect([(first as AppError).status, (first as AppError).code]).toEqual([503, 'unavailable']);
    expect((first as AppError).headers['Retry-After']).toBe('10');
    ecb.serve('sample');
    // Within the pause, no new fetch: the ECB is not hammered by every request.
    await expect(rates.rates()).rejects.toThrow(AppError);
    expect(ecb.requests()).toBe(1);
    clock += 10_000;
    expect((await rates.rates()).asOf).toBe('2018-12-21');
    expect(ecb.requests()).toBe(2);
  });

  it('gives up an answer that stalls half-way through its body, within the same timeout', async () => {
    ecb.serve('stall');
    const rates = provider(60, 300);
    await expect(rates.rates()).rejects.toMatchObject({ status: 503, code: 'unavailable' });
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).name).toMatch(/TimeoutError|AbortError/);
  });

  it.each([
    ['streamed without a length', true],
    ['with a Content-Length', false],
  ])(
    'stops reading an answer past 1 MiB (%s): no rates from it, the connection closed',
    async (_how, chunked) => {
      // A valid document (the sample, padded inside its envelope) of 64 MiB.
      ecb.serve({ huge: 64 * 1024 * 1024, chunked });
      const rates = provider(60, 10_000);
      await expect(rates.rates()).rejects.toMatchObject({ status: 503, code: 'unavailable' });
      expect(String(errors[0])).toContain(`${ECB_MAX_RESPONSE_BYTES} bytes allowed`);
      await until(() => ecb.abandoned() === 1);
      // The limit plus what the sockets' buffers held: far from the 64 MiB offered.
      expect(ecb.bytesSent()).toBeLessThan(16 * 1024 * 1024);
    },
  );

  it('takes an answer just under the limit', async () => {
    ecb.serve({ huge: ECB_MAX_RESPONSE_BYTES - 4096, chunked: true });
    expect((await provider().rates()).rates.get('USD')).toBe('1.1414');
  });

  it('gives up a fetch that takes longer than its timeout', async () => {
    ecb.serve('hang');
    const rates = provider(60, 200);
    const started = Date.now();
    await expect(rates.rates()).rejects.toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(errors).toHaveLength(1);
  });
});
