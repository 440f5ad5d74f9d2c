/**
 * The WebSocket bench on its own (`node --import tsx infra/bench/ws-run.ts`): a database of its
 * own, a Tally API (ROLE=api) that takes the writes, then `runWsBench` (Tally's gateway, bare `ws`
 * and Socket.IO side by side). `npm run bench` with BENCH_ONLY=ws does the same inside the full
 * bench. BENCH_TALLY_BUNDLE runs the API and the gateway from another build of the server (for
 * instance a snapshot of another commit) instead of this tree's dist/.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { ensureRedis } from '../../test/support/services';
import {
  BENCH_JWT_SECRET,
  createBenchDatabase,
  runBench,
  spawnBenchServer,
  stopBench,
  waitFor,
  writeResults,
} from './bench-setup';
import { freePort, runWsBench, tallyBundle } from './ws-bench';

const ROOT = path.resolve(__dirname, '../..');

async function main() {
  const db = await createBenchDatabase('tally_wsbench');
  const redis = await ensureRedis();
  const children: ChildProcess[] = [];
  try {
    const apiPort = await freePort();
    const bundle = tallyBundle();
    const api = spawnBenchServer(['--enable-source-maps', bundle], 'bench', {
      ROLE: 'api',
      PORT: String(apiPort),
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
    });
    children.push(api);
    // /readyz: /healthz answers while the API still waits for its database (then every request is 503).
    await waitFor(`http://127.0.0.1:${apiPort}/readyz`);
    process.stdout.write(`Tally from ${path.relative(ROOT, bundle) || bundle}, ${os.cpus().length} CPUs\n`);
    const websockets = await runWsBench({
      api: `http://127.0.0.1:${apiPort}`,
      databaseUrl: db.url,
      redisUrl: redis.url,
      jwtSecret: BENCH_JWT_SECRET,
      children,
      waitFor,
    });
    writeResults('bench-ws', { websockets });
  } finally {
    await stopBench(children, redis, db);
  }
}

runBench('ws bench', main);
