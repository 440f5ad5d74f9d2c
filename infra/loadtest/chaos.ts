/**
 * `npm run chaos [-- --duration 60]`: the load test against a local fleet (3 API, 2 gateways behind
 * HAProxy) while processes are SIGKILLed and restarted and the whole fleet is rolled. Fails unless
 * there are 0 duplicate effects, 0 lost acknowledged writes, and every realtime client got every
 * event in order.
 */
import { writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { freePort } from '../../test/support/server-process';
import { ensurePostgres, ensureRedis } from '../../test/support/services';
import { startFleet } from '../fleet/fleet';
import { type LoadTestResult, runLoadTest } from './load-test';
import { progressLine, renderReport, renderSummary } from './report';

export type ChaosOptions = {
  databaseUrl: string;
  redisUrl: string;
  api: number;
  gateways: number;
  durationSeconds: number;
  /** Seconds between kills. @default 4 */
  killEverySeconds?: number;
  groups?: number;
  log?: (line: string) => void;
  onProgress?: Parameters<typeof runLoadTest>[0]['onProgress'];
};

export type ChaosResult = LoadTestResult & { kills: string[]; rollingRestarts: number };

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => {});
  const fleet = await startFleet({
    api: options.api,
    gateways: options.gateways,
    port: await freePort(),
    databaseUrl: options.databaseUrl,
    redisUrl: options.redisUrl,
    env: { WS_HEARTBEAT_MS: '2000' },
    log,
  });
  const kills: string[] = [];
  let rollingRestarts = 0;
  let running = true;
  try {
    const chaos = (async () => {
      const every = (options.killEverySeconds ?? 4) * 1000;
      let round = 0;
      while (running) {
        await new Promise((resolve) => setTimeout(resolve, every));
        if (!running) break;
        round++;
        if (round === 3) {
          log('chaos: rolling restart of the whole fleet');
          await fleet.rollingRestart();
          rollingRestarts++;
          continue;
        }
        const victim = fleet.members[Math.floor(Math.random() * fleet.members.length)];
        if (!victim) continue;
        log(`chaos: SIGKILL ${victim.name}`);
        kills.push(victim.name);
        await fleet.restart(victim.name, 'SIGKILL');
      }
    })();
    const result = await runLoadTest({
      url: fleet.url,
      groups: options.groups ?? 6,
      usersPerGroup: 3,
      wsPerGroup: 2,
      durationSeconds: options.durationSeconds,
      // However slow restarts are, the load lasts until at least two kills and the rolling restart.
      keepGoingUntil: () => kills.length >= 2 && rollingRestarts >= 1,
      onProgress: options.onProgress,
    });
    running = false;
    await chaos;
    return { ...result, kills, rollingRestarts };
  } finally {
    running = false;
    await fleet.stop();
  }
}

async function main() {
  const i = process.argv.indexOf('--duration');
  const durationSeconds = i >= 0 ? Number(process.argv[i + 1]) : 60;
  const pg = await ensurePostgres();
  const redis = await ensureRedis();
  const name = `tally_chaos_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: pg.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dbUrl = new URL(pg.url);
  dbUrl.pathname = `/${name}`;
  let result: ChaosResult | undefined;
  try {
    result = await runChaos({
      databaseUrl: dbUrl.toString(),
      redisUrl: redis.url,
      api: 3,
      gateways: 2,
      durationSeconds,
      log: (line) => {
        if (line.startsWith('chaos:') || line.startsWith('fleet') || line.startsWith('rolling'))
          process.stdout.write(`\n${line}\n`);
      },
      onProgress: (p) => process.stdout.write(progressLine(p)),
    });
    process.stdout.write(`\n${renderSummary(result)}`);
    process.stdout.write(
      `kills: ${result.kills.join(', ') || 'none'}; rolling restarts: ${result.rollingRestarts}\n`,
    );
    writeFileSync('chaos-report.html', renderReport(result, 'Tally chaos run'));
    process.stdout.write('report: chaos-report.html\n');
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
    await redis.stop();
    await pg.stop();
  }
  process.exit(result?.passed && result.kills.length > 0 ? 0 : 1);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`\nchaos failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
