/**
 * `npm run loadtest -- --url http://127.0.0.1:8080 [--groups 10] [--users 3] [--ws 2] [--duration 30]
 * [--report loadtest-report.html]`: the load test against a running Tally (e.g. `npm run fleet`).
 */
import { writeFileSync } from 'node:fs';
import { runLoadTest } from './load-test';
import { progressLine, renderReport, renderSummary } from './report';

const option = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

async function main() {
  const url = option('url', 'http://127.0.0.1:8080');
  const report = option('report', 'loadtest-report.html');
  process.stdout.write(`load test against ${url}\n`);
  const result = await runLoadTest({
    url,
    groups: Number(option('groups', '10')),
    usersPerGroup: Number(option('users', '3')),
    wsPerGroup: Number(option('ws', '2')),
    durationSeconds: Number(option('duration', '30')),
    onProgress: (p) => process.stdout.write(progressLine(p)),
  });
  process.stdout.write(`\n${renderSummary(result)}`);
  writeFileSync(report, renderReport(result, `Tally load test against ${url}`));
  process.stdout.write(`report: ${report}\n`);
  process.exit(result.passed ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`\nload test failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
