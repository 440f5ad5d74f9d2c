import pino from 'pino';
import { Registry } from 'prom-client';
import { createIgnoredErrors, IGNORED_ERRORS_METRIC } from './ignored-errors';

/** A pino logger whose lines are kept, parsed. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

async function counted(registry: Registry, reason: string): Promise<number> {
  const metric = registry.getSingleMetric(IGNORED_ERRORS_METRIC);
  const values = (await metric?.get())?.values ?? [];
  return values.find((v) => v.labels['reason'] === reason)?.value ?? 0;
}

describe('createIgnoredErrors', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('counts every error by reason and logs a reason that keeps failing once a minute', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const registry = new Registry();
    const { logger, lines } = capturedLogger();
    const ignored = createIgnoredErrors({ logger, registry });

    for (let i = 0; i < 5; i++) {
      ignored('liveness_heartbeat', new Error('Connection is closed.'), { processId: 'p1' });
      jest.advanceTimersByTime(1000);
    }
    ignored('unsubscribe', new Error('gone'), { channel: 'tally:group:g1' });

    expect(await counted(registry, 'liveness_heartbeat')).toBe(5);
    expect(await counted(registry, 'unsubscribe')).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 40,
      reason: 'liveness_heartbeat',
      processId: 'p1',
      err: { message: 'Connection is closed.' },
    });
    expect(lines[1]).toMatchObject({ reason: 'unsubscribe', channel: 'tally:group:g1' });

    // A minute after its last line, the reason is logged again, with how many went unlogged.
    jest.advanceTimersByTime(60_000);
    ignored('liveness_heartbeat', new Error('Connection is closed.'));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ reason: 'liveness_heartbeat', suppressed: 4 });
    expect(await counted(registry, 'liveness_heartbeat')).toBe(6);
  });

  it('shares one counter between the instances of a registry', async () => {
    const registry = new Registry();
    const a = createIgnoredErrors({ registry });
    const b = createIgnoredErrors({ registry });
    a('rollback', new Error('a'));
    b('rollback', new Error('b'));
    expect(await counted(registry, 'rollback')).toBe(2);
    expect(registry.getMetricsAsArray().filter((m) => m.name === IGNORED_ERRORS_METRIC)).toHaveLength(1);
  });

  it('refuses a registry whose ignored_errors_total is not a counter', () => {
    const registry = new Registry();
    registry.registerMetric({
      name: IGNORED_ERRORS_METRIC,
      get: async () => ({
        name: IGNORED_ERRORS_METRIC,
        help: '',
        type: 'gauge',
        values: [],
        aggregator: 'sum',
      }),
      reset: () => {},
    } as never);
    expect(() => createIgnoredErrors({ registry })).toThrow(/not a counter/);
  });
});
