/**
 * The order jest starts the test files in: the slowest first, so that none of them starts last and
 * runs alone while the other worker idles (on 2 workers a 4-minute suite started last adds 4
 * minutes). Jest knows the durations of the files it ran before on this machine (its cache); CI
 * starts without that cache and would go by file size, which says little about a file that starts
 * server processes. So the files below, the slowest of a whole run (`npx jest --json`, 2 workers), go first, in this order; then every other file as jest orders it.
 */
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Slowest first; paths from the repository root. A file missing here is only started later. */
const SLOWEST = [
  'test/cross-process/chaos.test.ts',
  'test/browser/web-app-money.test.ts',
  'test/cross-process/crash.test.ts',
  'test/operations/bounded-tables.test.ts',
  'test/browser/web-app-tools.test.ts',
  'test/cross-process/redis-cluster-failover.test.ts',
  'test/component/login-throttle.test.ts',
  'test/operations/database-limits.test.ts',
  'test/gateway/connection.test.ts',
  'test/browser/web-app.test.ts',
  'packages/events/src/sharded-subscriber.test.ts',
  'test/client/outbox-kill.test.ts',
  'test/cross-process/pg-failover.test.ts',
  'test/component/recurring-scheduler.test.ts',
  'test/cross-process/gateway-fleet.test.ts',
  'apps/server/src/main.test.ts',
  'test/cross-process/webhooks.test.ts',
  'test/component/sessions.test.ts',
  'test/component/imports-bounds.test.ts',
  'test/component/fx.test.ts',
  'test/cross-process/replica-reads.test.ts',
  'test/client/packed-install.test.ts',
  'test/operations/rate-limit.test.ts',
  'test/client/readme-examples.test.ts',
  'test/operations/pg-cluster.test.ts',
  'test/cross-process/dead-owner.test.ts',
  'test/cross-process/export-memory.test.ts',
  'test/cross-process/imports.test.ts',
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
