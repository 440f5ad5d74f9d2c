import { createIgnoredErrors, IGNORED_ERRORS_METRIC } from '@tally/http-kit';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createTestRedis, type TestRedis } from '../../../test/support/test-database';
import { until } from '../../../test/support/until';
import { createRedisLiveness, livenessKeyPrefix } from './liveness';

/** A pino logger whose lines are kept, parsed. */
function capturedLogger() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('Redis liveness when its beats fail', () => {
  let testRedis: TestRedis;
  beforeAll(async () => {
    testRedis = await createTestRedis();
  });
  afterAll(async () => {
    await testRedis.quit();
  });

  it('counts every failed beat as liveness_heartbeat, logs the failure once and the recovery once', async () => {
    // A connection of its own, which the test closes under the heartbeat and opens again.
    const redis = testRedis.redis.duplicate();
    const registry = new Registry();
    const { logger, lines } = capturedLogger();
    const liveness = createRedisLiveness({
      redis,
      intervalMs: 10,
      logger,
      onIgnoredError: createIgnoredErrors({ logger, registry }),
    });
    const failed = async () =>
      (await registry.getSingleMetric(IGNORED_ERRORS_METRIC)?.get())?.values.find(
        (v) => v.labels['reason'] === 'liveness_heartbeat',
      )?.value ?? 0;
    try {
      await liveness.start();
      redis.disconnect();
      await until(async () => (await failed()) >= 5, 'five failed beats');
      const warnings = lines.filter((line) => line.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({
        reason: 'liveness_heartbeat',
        processId: liveness.processId,
        failures: 1,
        err: { message: 'Connection is closed.' },
      });

      await redis.connect();
      const mark = `${livenessKeyPrefix('idem:')}${liveness.processId}`;
      await until(async () => (await testRedis.redis.exists(mark)) === 1, 'the mark to be set again');
      await until(() => lines.some((line) => line.msg === 'liveness heartbeat reaches Redis again'));
      const recoveries = lines.filter((line) => line.msg === 'liveness heartbeat reaches Redis again');
      expect(recoveries).toHaveLength(1);
      expect(recoveries[0]?.['failures']).toBeGreaterThanOrEqual(5);
      expect(lines.filter((line) => line.level === 40)).toHaveLength(1);
    } finally {
      await liveness.stop();
      redis.disconnect();
    }
  });

  it('reports a mark that stop could not remove (liveness_stop)', async () => {
    const redis = testRedis.redis.duplicate();
    const reported: { reason: string; context?: Record<string, unknown> }[] = [];
    const liveness = createRedisLiveness({
      redis,
      intervalMs: 60_000,
      onIgnoredError: (reason, _error, context) => reported.push({ reason, context }),
    });
    await liveness.start();
    redis.disconnect();
    await liveness.stop();
    expect(reported).toEqual([{ reason: 'liveness_stop', context: { processId: liveness.processId } }]);
  });
});
