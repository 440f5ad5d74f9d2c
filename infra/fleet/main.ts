/**
 * `npm run fleet -- --api 3 --gateways 2 [--port 8080] [--rolling-restart]`: a local fleet behind
 * HAProxy. PostgreSQL and Redis are found on localhost or started; the fleet uses a database
 * `tally_fleet` of its own. Ctrl-C stops everything.
 *
 * `--standby`: PostgreSQL is a throwaway primary and synchronous standby instead
 * (test/support/pg-cluster.ts), reached through a multi-host DATABASE_URL; the fleet prints how to
 * promote the standby (`pg_ctl promote`, the operator's step: Tally never promotes) after the
 * primary is killed.
 *
 * `--containers [--image localhost/tally:local]` (`npm run fleet:containers`): every member is a
 * container of Tally's image (podman; `npm run image:base && npm run image` first), 2 API and 2
 * gateways unless told otherwise. `npm run image:roll` rolls such a fleet under the load test.
 */
import { Client } from 'pg';
import { type PgCluster, startPgCluster } from '../../test/support/pg-cluster';
import { ensurePostgres, ensureRedis, findPostgresBinDir } from '../../test/support/services';
import { hasPodman, imageExists, LOCAL_TAG } from '../image/podman';
import { startFleet } from './fleet';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
}

function textArg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** The fleet's database `tally_fleet`: on the PostgreSQL found or started, or on a primary and standby of its own. */
async function fleetDatabase(
  standby: boolean,
): Promise<{ databaseUrl: string; stopDatabase(): Promise<void> }> {
  if (standby) {
    const cluster: PgCluster = await startPgCluster();
    await cluster.query('create database tally_fleet');
    const [a, b] = cluster.nodes;
    const bin = findPostgresBinDir();
    process.stdout.write(
      `PostgreSQL primary ${a.name} on port ${a.port} (${a.dataDir}), synchronous standby ${b.name} on port ${b.port} (${b.dataDir}).\n` +
        `Failover by hand: kill -9 the primary's postmaster (first line of ${a.dataDir}/postmaster.pid), then\n` +
        `  runuser -u postgres -- ${bin}/pg_ctl -D ${b.dataDir} promote\n` +
        `  ${bin}/psql -h 127.0.0.1 -p ${b.port} -U postgres -c "alter system set synchronous_standby_names = ''" -c "select pg_reload_conf()"\n` +
        '(the second line lets the new primary commit without the standby it no longer has).\n',
    );
    return { databaseUrl: cluster.multiHostUrl('tally_fleet'), stopDatabase: () => cluster.stop() };
  }
  const pg = await ensurePostgres();
  const admin = new Client({ connectionString: pg.url });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = 'tally_fleet'");
  if (exists.rowCount === 0) await admin.query('create database tally_fleet');
  await admin.end();
  const dbUrl = new URL(pg.url);
  dbUrl.pathname = '/tally_fleet';
  return { databaseUrl: dbUrl.toString(), stopDatabase: () => pg.stop() };
}

async function main() {
  const inContainers = process.argv.includes('--containers');
  const image = textArg('image', LOCAL_TAG);
  if (inContainers && !hasPodman())
    throw new Error('--containers needs podman (apt-get install -y podman runc)');
  if (inContainers && !imageExists(image))
    throw new Error(`no image ${image}: npm run image:base && npm run image`);
  const api = arg('api', inContainers ? 2 : 3);
  const gateways = arg('gateways', 2);
  const port = arg('port', 8080);
  const { databaseUrl, stopDatabase } = await fleetDatabase(process.argv.includes('--standby'));
  const redis = await ensureRedis();
  const fleet = await startFleet({
    api,
    gateways,
    port,
    databaseUrl,
    redisUrl: redis.url,
    ...(inContainers ? { containers: { image } } : {}),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(
    `\nTally fleet on ${fleet.url}: ${fleet.members.map((m) => `${m.name}:${m.port}`).join(', ')}\n` +
      `Try: npm run loadtest -- --url ${fleet.url}   (Ctrl-C stops the fleet)\n\n`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('stopping the fleet…\n');
    await fleet.stop();
    await redis.stop();
    await stopDatabase();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (process.argv.includes('--rolling-restart')) {
    await fleet.rollingRestart();
    process.stdout.write('rolling restart done\n');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`fleet failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
