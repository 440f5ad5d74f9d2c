import type { Logger } from 'pino';
import type { Config } from './config';

/** The test-only switches of a process, as honoured: all of them off unless `NODE_ENV=test`. */
export type TestSwitches = {
  /** `TALLY_TEST_FAULT_POINT`: where a keyed write SIGKILLs the process (crash tests). */
  faultPoint: Config['testFaultPoint'];
  /** `TALLY_TEST_CLOCK_OFFSET_MS`: ms added to the recurring-expense scheduler's clock. */
  clockOffsetMs: number;
};

/**
 * The fault-injection and clock switches (`TALLY_TEST_*`, docs/TESTING.md) exist only under
 * `NODE_ENV=test`: a production build with one set by mistake ignores it and says so once (a warning,
 * not a crash), so that no stray variable can make a production process kill itself.
 */
export function testSwitches(config: Config, logger: Logger): TestSwitches {
  if (config.nodeEnv === 'test') {
    return { faultPoint: config.testFaultPoint, clockOffsetMs: config.testClockOffsetMs };
  }
  const ignored = [
    ...(config.testFaultPoint ? ['TALLY_TEST_FAULT_POINT'] : []),
    ...(config.testClockOffsetMs ? ['TALLY_TEST_CLOCK_OFFSET_MS'] : []),
  ];
  if (ignored.length > 0) {
    logger.warn(
      { ignored, nodeEnv: config.nodeEnv },
      'test-only switches are set but ignored: they are honoured only with NODE_ENV=test',
    );
  }
  return { faultPoint: undefined, clockOffsetMs: 0 };
}
