/**
 * The order jest starts the test files in: the slowest first, so that none of them starts last and
 * runs alone while the other worker idles (on 2 workers a 4-minute suite started last adds 4
 * minutes). Jest knows the durations of the files it ran before on this machine (its cache); CI
 * starts without that cache and would go by file size, which says little about a file that starts
 * server processes. So the files below, the slowest of a run (durations measured alone, with
 * `npx jest <file>`), go first, in this order; then every other file as jest orders it.
 */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Slowest first; paths from the repository root. A file missing here is only started later. */
const SLOWEST = [
  'test/cross-process/crash.test.ts',
  'test/cross-process/chaos.test.ts',
  'test/cross-process/imports.test.ts',
  'test/client/readme-examples.test.ts',
  'test/operations/database-limits.test.ts',
  'test/client/outbox-kill.test.ts',
  'test/operations/drain-and-shedding.test.ts',
  'test/operations/rate-limit.test.ts',
  'test/component/fx.test.ts',
  'test/component/recurring-scheduler.test.ts',
  'test/operations/bounded-tables.test.ts',
  'test/cross-process/boot.test.ts',
  'test/cross-process/redis-cluster-failover.test.ts',
  'test/client/outbox-stale.test.ts',
  'test/operations/monitoring-metrics.test.ts',
  'test/component/password-reset.test.ts',
  'test/component/sessions.test.ts',
  'test/cross-process/gateway-fleet.test.ts',
  'test/component/imports-bounds.test.ts',
  'test/component/embedded-smoke.test.ts',
  'test/cross-process/sessions.test.ts',
  'test/browser/web-app.test.ts',
];

class SlowestFirst extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const rank = (test) => {
      const index = SLOWEST.indexOf(
        path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/'),
      );
      return index === -1 ? SLOWEST.length : index;
    };
    // Array.prototype.sort is stable: the others keep jest's order.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowestFirst;
