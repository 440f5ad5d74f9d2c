/**
 * `npm run chaos [-- --duration 60]`: the load test against a local fleet (3 API, 2 gateways behind
 * HAProxy) on a throwaway PostgreSQL and Redis of its own, while API and gateway processes are
 * SIGKILLed and restarted, the whole fleet is rolled, Redis is killed and started again (empty), and
 * PostgreSQL is restarted; with `databaseFailover` (`--failover`), PostgreSQL is a primary and a
 * synchronous standby (test/support/pg-cluster.ts) behind a multi-host DATABASE_URL, and the
 * primary is also SIGKILLed, the standby promoted and the old primary rewound back as the standby,
 * each time the other way. Fails unless there are 0 duplicate effects, 0 lost acknowledged writes,
 * and every realtime client got every event exactly once, in order.
 */
import { writeFileSync } from 'node:fs';
import { type PgCluster, startPgCluster } from '../../test/support/pg-cluster';
import { freePort } from '../../test/support/server-process';
import { ensurePostgres, ensureRedis, type ThrowawayService } from '../../test/support/services';
import { type Fleet, startFleet } from '../fleet/fleet';
import { type LoadTestResult, type RetriedWrite, runLoadTest } from './load-test';
import { progressLine, renderChaosSummary, renderReport, renderSummary } from './report';

export type ChaosOptions = {
  api: number;
  gateways: number;
  durationSeconds: number;
  /** Seconds between one disruption being over (the fleet healthy again) and the next. @default 4 */
  killEverySeconds?: number;
  /** How long Redis stays down when it is killed. @default 3 */
  redisOutageSeconds?: number;
  groups?: number;
  /** PostgreSQL as a primary and a synchronous standby, and failovers among the disruptions (at least two: there and back). */
  databaseFailover?: boolean;
  log?: (line: string) => void;
  onProgress?: Parameters<typeof runLoadTest>[0]['onProgress'];
};

export type ChaosKind =
  | 'process kill'
  | 'rolling restart'
  | 'redis kill'
  | 'postgres restart'
  | 'postgres failover';

/** One disruption: from its start until HAProxy saw every process up again. */
export type ChaosEvent = { kind: ChaosKind; target: string; startedAt: number; endedAt: number };

export type ChaosResult = LoadTestResult & {
  kills: string[];
  rollingRestarts: number;
  redisKills: number;
  postgresRestarts: number;
  postgresFailovers: number;
  events: ChaosEvent[];
  /** The slowest write the SDK retried, and the disruptions it overlapped. */
  slowestRetriedWrite: (RetriedWrite & { during: ChaosKind[] }) | undefined;
  /** Per kind of disruption: the slowest retried write that overlapped one, in ms. */
  slowestRetriedWriteByKind: Partial<Record<ChaosKind, number>>;
};

/** The order of disruptions: every kind within the first five, then kills and dependency restarts. */
const OPENING: ChaosKind[] = [
  'process kill',
  'redis kill',
  'postgres restart',
  'process kill',
  'rolling restart',
];
const CYCLE: ChaosKind[] = ['process kill', 'redis kill', 'process kill', 'postgres restart'];
/** With failovers: one right after the opening, then one every cycle. */
const kindOfRound = (round: number, failover: boolean): ChaosKind => {
  const opening = failover ? [...OPENING, 'postgres failover' as const] : OPENING;
  const cycle = failover ? [...CYCLE, 'postgres failover' as const] : CYCLE;
  return opening[round] ?? (cycle[(round - opening.length) % cycle.length] as ChaosKind);
};

/** The PostgreSQL a chaos run disrupts: one throwaway server, or a primary and its standby. */
type ChaosDatabase = {
  url: string;
  restart(): Promise<void>;
  failover(): Promise<void>;
  stop(): Promise<void>;
};

async function chaosDatabase(failover: boolean, log: (line: string) => void): Promise<ChaosDatabase> {
  if (!failover) {
    const pg = await ensurePostgres({ ephemeral: true });
    return {
      url: pg.url,
      restart: async () => {
        await pg.down();
        await pg.up();
      },
      failover: () => Promise.reject(new Error('no standby to fail over to')),
      stop: () => pg.stop(),
    };
  }
  const cluster: PgCluster = await startPgCluster();
  await cluster.query('create database test');
  return {
    url: cluster.multiHostUrl('test'),
    restart: () => cluster.restartPrimary(),
    async failover() {
      const old = cluster.primary().name;
      await cluster.killPrimary();
      await cluster.promote();
      log(`chaos: ${cluster.primary().name} promoted; ${old} rewinds to rejoin as its standby`);
      await cluster.rejoin();
    },
    stop: () => cluster.stop(),
  };
}

const overlaps = (write: RetriedWrite, event: ChaosEvent) =>
  write.startedAt <= event.endedAt && write.startedAt + write.ms >= event.startedAt;

/** Carries out one disruption; resolves with what it hit once HAProxy sees every process up again. */
async function disrupt(
  kind: ChaosKind,
  fleet: Fleet,
  services: { pg: ChaosDatabase; redis: ThrowawayService },
  redisOutageMs: number,
  log: (line: string) => void,
  kills: number,
): Promise<string> {
  let target: string;
  if (kind === 'process kill') {
    // API and gateway processes take turns (API first), so every run kills at least one API process
    // mid-write; which one of its role is random.
    const role = kills % 2 === 0 ? 'api' : 'gateway';
    const pool = fleet.members.filter((m) => m.role === role);
    const victim = pool[Math.floor(Math.random() * pool.length)] as { name: string };
    log(`chaos: SIGKILL ${victim.name}`);
    await fleet.restart(victim.name, 'SIGKILL');
    target = victim.name;
  } else if (kind === 'rolling restart') {
    log('chaos: rolling restart of the whole fleet');
    await fleet.rollingRestart();
    target = 'fleet';
  } else if (kind === 'redis kill') {
    log(`chaos: SIGKILL Redis (down for ${redisOutageMs} ms, back empty)`);
    await services.redis.down();
    // The outage's length is the disruption itself, not a wait for something.
    await new Promise((resolve) => setTimeout(resolve, redisOutageMs));
    await services.redis.up();
    target = 'redis';
  } else if (kind === 'postgres restart') {
    log('chaos: restart PostgreSQL (pg_ctl stop -m fast, then start)');
    await services.pg.restart();
    target = 'postgres';
  } else {
    log('chaos: SIGKILL the PostgreSQL primary, pg_ctl promote the standby');
    await services.pg.failover();
    target = 'postgres primary';
  }
  await fleet.waitHealthy(120_000);
  return target;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const log = options.log ?? (() => {});
  // Throwaway servers of its own: chaos kills and restarts them.
  const failover = options.databaseFailover === true;
  const pg = await chaosDatabase(failover, log);
  const redis = await ensureRedis({ ephemeral: true }).catch(async (error: unknown) => {
    await pg.stop();
    throw error;
  });
  let fleet: Fleet | undefined;
  try {
    fleet = await startFleet({
      api: options.api,
      gateways: options.gateways,
      port: await freePort(),
      databaseUrl: pg.url,
      redisUrl: redis.url,
      // The load generator's 18 users each send about 10 requests a second, near the default budget
      // of 600 a minute: a 429 (and its Retry-After of up to a minute) would then stand in for the
      // disruptions this run measures. The rate limiter has its own tests.
      env: {
        WS_HEARTBEAT_MS: '2000',
        RATE_LIMIT_PER_MINUTE: '1000000',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
        LOGIN_THROTTLE_IP_FREE_FAILURES: '1000000',
      },
      log,
    });
    const events: ChaosEvent[] = [];
    const count = (kind: ChaosKind) => events.filter((e) => e.kind === kind).length;
    let loadStarted: () => void = () => {};
    const loadStart = new Promise<void>((resolve) => {
      loadStarted = resolve;
    });
    let running = true;
    let stop: () => void = () => {};
    const stopping = new Promise<void>((resolve) => {
      stop = resolve;
    });
    let chaosError: unknown;
    const chaos = (async () => {
      const every = (options.killEverySeconds ?? 4) * 1000;
      const redisOutageMs = (options.redisOutageSeconds ?? 3) * 1000;
      // Disruptions start with the load: the setup (registrations, groups) is not under test here.
      await loadStart;
      for (let round = 0; running; round++) {
        // Pacing between disruptions (the previous one is over: the fleet is healthy).
        await Promise.race([new Promise((resolve) => setTimeout(resolve, every)), stopping]);
        if (!running) break;
        const kind = kindOfRound(round, failover);
        const startedAt = Date.now();
        const kills = events.filter((e) => e.kind === 'process kill').length;
        const target = await disrupt(kind, fleet as Fleet, { pg, redis }, redisOutageMs, log, kills);
        events.push({ kind, target, startedAt, endedAt: Date.now() });
      }
    })().catch((error: unknown) => {
      chaosError = error;
    });
    const halt = async () => {
      running = false;
      stop();
      loadStarted(); // in case the setup failed before the load began
      await chaos;
    };
    let result: LoadTestResult;
    try {
      result = await runLoadTest({
        url: fleet.url,
        groups: options.groups ?? 6,
        usersPerGroup: 3,
        wsPerGroup: 2,
        durationSeconds: options.durationSeconds,
        onLoadStart: loadStarted,
        // No disruption during the checks: the one in progress finishes, and none starts.
        beforeVerify: halt,
        // However slow restarts are, the load lasts until every kind of disruption has happened
        // (two process kills), or the chaos itself failed.
        keepGoingUntil: () =>
          chaosError !== undefined ||
          (count('process kill') >= 2 &&
            count('rolling restart') >= 1 &&
            count('redis kill') >= 1 &&
            count('postgres restart') >= 1 &&
            (!failover || count('postgres failover') >= 2)),
        onProgress: options.onProgress,
      });
    } finally {
      await halt();
    }
    if (chaosError) throw chaosError;
    const during = (write: RetriedWrite) =>
      [...new Set(events.filter((e) => overlaps(write, e)).map((e) => e.kind))] as ChaosKind[];
    const slowest = result.retriedWrites[0];
    const slowestRetriedWriteByKind: Partial<Record<ChaosKind, number>> = {};
    for (const write of result.retriedWrites) {
      for (const kind of during(write)) {
        slowestRetriedWriteByKind[kind] = Math.max(slowestRetriedWriteByKind[kind] ?? 0, write.ms);
      }
    }
    return {
      ...result,
      kills: events.filter((e) => e.kind === 'process kill').map((e) => e.target),
      rollingRestarts: count('rolling restart'),
      redisKills: count('redis kill'),
      postgresRestarts: count('postgres restart'),
      postgresFailovers: count('postgres failover'),
      events,
      slowestRetriedWrite: slowest ? { ...slowest, during: during(slowest) } : undefined,
      slowestRetriedWriteByKind,
    };
  } finally {
    await fleet?.stop();
    await redis.stop();
    await pg.stop();
  }
}

async function main() {
  const i = process.argv.indexOf('--duration');
  const durationSeconds = i >= 0 ? Number(process.argv[i + 1]) : 60;
  const began = Date.now();
  const result = await runChaos({
    api: 3,
    gateways: 2,
    durationSeconds,
    databaseFailover: process.argv.includes('--failover'),
    log: (line) => {
      if (line.startsWith('chaos:') || line.startsWith('fleet') || line.startsWith('rolling'))
        process.stdout.write(`\n${line}\n`);
    },
    onProgress: (p) => process.stdout.write(progressLine(p)),
  });
  process.stdout.write(`\n${renderSummary(result)}${renderChaosSummary(result)}`);
  if (result.postgresFailovers > 0)
    process.stdout.write(
      `PostgreSQL failovers: ${result.postgresFailovers}; slowest retried write overlapping one: ${Math.round(result.slowestRetriedWriteByKind['postgres failover'] ?? 0)} ms\n`,
    );
  writeFileSync('chaos-report.html', renderReport(result, 'Tally chaos run'));
  process.stdout.write(
    `report: chaos-report.html; whole run ${((Date.now() - began) / 1000).toFixed(0)} s\n`,
  );
  process.exit(result.passed && result.kills.length > 0 ? 0 : 1);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`\nchaos failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
