import pino from 'pino';
import { BootAbortedError, isRetryableDatabaseError, withDatabaseRetries } from './boot';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isRetryableDatabaseError', () => {
  it.each([
    ['refused', coded('ECONNREFUSED')],
    ['reset', coded('ECONNRESET')],
    ['DNS not yet', coded('EAI_AGAIN')],
    ['starting up (57P03)', coded('57P03', 'the database system is starting up')],
    [
      'terminated by a restart (57P01)',
      coded('57P01', 'terminating connection due to administrator command'),
    ],
    ['connection failure (08006)', coded('08006')],
    ['too many connections (53300)', coded('53300')],
    ['terminated, no code', new Error('Connection terminated unexpectedly')],
    ['both addresses refused', Object.assign(new AggregateError([coded('ECONNREFUSED')]), {})],
    ['wrapped', new Error('migration failed', { cause: coded('ECONNREFUSED') })],
  ])('retries: %s', (_name, error) => {
    expect(isRetryableDatabaseError(error)).toBe(true);
  });

  it.each([
    ['bad password (28P01)', coded('28P01', 'password authentication failed for user "tally"')],
    ['missing database (3D000)', coded('3D000', 'database "nope" does not exist')],
    ['a migration’s SQL error (42P01)', coded('42P01', 'relation "x" does not exist')],
    ['a plain bug', new TypeError('undefined is not a function')],
    ['not an error', 'nope'],
  ])('fails at once: %s', (_name, error) => {
    expect(isRetryableDatabaseError(error)).toBe(false);
  });
});

describe('withDatabaseRetries', () => {
  const logger = pino({ level: 'silent' });

  it('retries with growing delays until the attempt succeeds', async () => {
    let calls = 0;
    const result = await withDatabaseRetries(
      async () => {
        calls++;
        if (calls < 3) throw coded('ECONNREFUSED');
        return 'ok';
      },
      { logger, timeoutMs: 10_000, initialDelayMs: 5, maxDelayMs: 20 },
    );
    expect({ result, calls }).toEqual({ result: 'ok', calls: 3 });
  });

  it('rethrows what no retry fixes, after one attempt', async () => {
    let calls = 0;
    const missing = coded('3D000');
    await expect(
      withDatabaseRetries(
        async () => {
          calls++;
          throw missing;
        },
        { logger, timeoutMs: 10_000, initialDelayMs: 5 },
      ),
    ).rejects.toBe(missing);
    expect(calls).toBe(1);
  });

  it('gives up after timeoutMs, and at once when aborted', async () => {
    const refused = async () => {
      throw coded('ECONNREFUSED');
    };
    await expect(withDatabaseRetries(refused, { logger, timeoutMs: 50, initialDelayMs: 10 })).rejects.toThrow(
      BootAbortedError,
    );
    const controller = new AbortController();
    const waiting = withDatabaseRetries(refused, {
      logger,
      timeoutMs: 60_000,
      initialDelayMs: 30_000,
      signal: controller.signal,
    });
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await expect(waiting).rejects.toThrow(/cancelled/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
