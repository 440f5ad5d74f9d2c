/**
 * `npm run image:roll [-- --duration 10 --groups 6]`: a rolling update of a container fleet under load.
 *
 * Two API and two gateway containers of localhost/tally:local (`npm run image` first) behind the local
 * HAProxy, against PostgreSQL and Redis on the host (database `tally_roll`). While the load test runs
 * (virtual users writing through the SDK with idempotency keys, realtime clients on every group), each
 * container in turn is replaced by one of localhost/tally:next (built here: the image plus one label, so
 * another image ID under another tag):
 * SIGTERM, wait for the drain, start the new one, wait for /readyz and for HAProxy to see it up. The load
 * goes on until the roll is over. Exits 0 only with 0 failed operations (nothing surfaced by the SDK),
 * 0 duplicates, 0 lost acknowledged writes, every event delivered to every client in order, and every
 * container drained by itself (exit 0) after SIGTERM. The last line is one JSON object of figures.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../test/support/server-process';
import { ensurePostgres, ensureRedis } from '../../test/support/services';
import { startFleet } from '../fleet/fleet';
import { runLoadTest } from '../loadtest/load-test';
import { renderSummary } from '../loadtest/report';
import { hasPodman, imageExists, imageSize, LOCAL_TAG, podman, TALLY_IMAGE } from './podman';

const option = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
  return value;
};

async function main() {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (!hasPodman()) throw new Error('podman is not installed (apt-get install -y podman runc mmdebstrap)');
  if (!imageExists(LOCAL_TAG)) throw new Error(`no image ${LOCAL_TAG}: npm run image:base && npm run image`);
  const next = `${TALLY_IMAGE}:next`;
  // A new image, not only a new name for the same one: LABEL alone runs nothing, so it takes a second.
  const label = `LABEL org.opencontainers.image.version="roll-${Date.now()}"`;
  const context = mkdtempSync(path.join(os.tmpdir(), 'tally-roll-'));
  writeFileSync(path.join(context, 'Containerfile'), `FROM ${LOCAL_TAG}\n${label}\n`);
  const built = podman(['build', '--pull=never', '-t', next, context]);
  rmSync(context, { recursive: true, force: true });
  if (built.status !== 0) throw new Error(`podman build of ${next} failed: ${built.stderr}`);
  const ids = [LOCAL_TAG, next].map((image) =>
    podman(['image', 'inspect', '--format', '{{.Id}}', image]).stdout.trim(),
  );
  log(`rolling from ${LOCAL_TAG} (${ids[0]?.slice(0, 12)}) to ${next} (${ids[1]?.slice(0, 12)})`);

  const pg = await ensurePostgres();
  const redis = await ensureRedis();
  const admin = new Client({ connectionString: pg.url });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = 'tally_roll'");
  if (exists.rowCount === 0) await admin.query('create database tally_roll');
  await admin.end();
  const dbUrl = new URL(pg.url);
  dbUrl.pathname = '/tally_roll';

  const started = performance.now();
  const fleet = await startFleet({
    api: 2,
    gateways: 2,
    port: await freePort(),
    databaseUrl: dbUrl.toString(),
    redisUrl: redis.url,
    containers: { image: LOCAL_TAG },
    // Every virtual user signs up from this one machine (one client IP): the per-IP budget of
    // /v1/auth is a real client's, not a load test's (as in the chaos run).
    env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000000' },
    log,
  });
  log(`container fleet up in ${((performance.now() - started) / 1000).toFixed(1)} s: ${fleet.url}`);

  let rolled = false;
  let rollError: unknown;
  let roll: Promise<void> | undefined;
  let rollMs = 0;
  // The fleet goes whatever happens: a load test that throws must not leave containers running.
  let result: Awaited<ReturnType<typeof runLoadTest>>;
  // The containers the roll replaced (read before the fleet stops: stopping drains them all again).
  let drains: typeof fleet.drains;
  try {
    result = await runLoadTest({
      url: fleet.url,
      groups: option('groups', 6),
      usersPerGroup: 3,
      wsPerGroup: 2,
      durationSeconds: option('duration', 10),
      keepGoingUntil: () => rolled,
      onLoadStart: () => {
        // The roll starts once the load is on, and the load goes on until the roll is over.
        roll = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 2000));
          const rollStarted = performance.now();
          try {
            await fleet.rollingUpdate(next);
          } catch (error) {
            rollError = error;
          } finally {
            rollMs = performance.now() - rollStarted;
            rolled = true;
          }
        })();
      },
    });
    await roll;
    drains = fleet.drains.filter((d) => d.signal === 'SIGTERM');
  } finally {
    await fleet.stop();
    await redis.stop();
    await pg.stop();
    podman(['rmi', next]);
  }

  const operations = Object.values(result.operations).reduce((n, s) => n + s.count, 0);
  const failed = Object.values(result.operations).reduce((n, s) => n + s.errors, 0);
  const figures = {
    image: LOCAL_TAG,
    imageMB: Math.round(imageSize(LOCAL_TAG) / 1e6),
    operations,
    failed,
    nonRetryable: result.nonRetryableFailures,
    sdkRetries: Object.values(result.retriesByCause).reduce((n, c) => n + c, 0),
    duplicates: result.duplicatesCreated,
    lostWrites: result.lostWrites,
    replayMismatches: result.replayMismatches,
    eventsDelivered: result.eventsDelivered,
    eventsExpected: result.eventsExpected,
    eventsLost: result.eventsLost,
    eventsOutOfOrder: result.eventsOutOfOrder,
    containersReplaced: drains.length,
    longestDrainMs: Math.round(Math.max(0, ...drains.map((d) => d.ms))),
    drainExitCodes: drains.map((d) => d.exitCode),
    rollSeconds: Number((rollMs / 1000).toFixed(1)),
    loadSeconds: Number(result.durationSeconds.toFixed(1)),
  };
  process.stdout.write(renderSummary(result));
  const problems = [...result.failures];
  if (rollError)
    problems.push(`the roll failed: ${rollError instanceof Error ? rollError.message : String(rollError)}`);
  if (failed !== 0) problems.push(`${failed} operations failed`);
  if (drains.length !== fleet.members.length)
    problems.push(`${drains.length} containers replaced, not ${fleet.members.length}`);
  if (drains.some((d) => d.exitCode !== 0))
    problems.push('a container did not drain by itself (exit status not 0)');
  log(problems.length === 0 ? 'roll: PASSED' : `roll: FAILED: ${problems.join('; ')}`);
  log(`roll figures: ${JSON.stringify(figures)}`);
  process.exit(problems.length === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`roll failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
