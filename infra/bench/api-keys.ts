/**
 * `npm run bench:api-keys` (issue 33): what authenticating with an API key costs against an access
 * token. One `ROLE=all` Tally (the production bundle) on PostgreSQL and Redis; one user reads
 * `GET /v1/me` one request at a time, alternating rounds by access token and by API key (the key is
 * looked up by hash in PostgreSQL on every request, API.md §2.6; the token's account check is
 * believed for `ACCOUNT_STATUS_TTL_MS`), then the same with a keyed `POST /v1/expenses`. Prints the
 * p50/p99 of each and writes them to `bench-results/`.
 *
 *   npm run bench:api-keys
 *   BENCH_API_KEYS_REQUESTS=5000 npm run bench:api-keys
 *
 * Environment: BENCH_API_KEYS_REQUESTS (2000 per kind and credential).
 */

import { freePort } from '../../test/support/server-process';
import { ensureRedis } from '../../test/support/services';
import { ensureBuilt } from '../fleet/ensure-built';
import {
  call,
  createBenchDatabase,
  percentile,
  runBench,
  spawnBenchServer,
  stopBench,
  waitFor,
  writeResults,
} from './bench-setup';

const REQUESTS = Number(process.env.BENCH_API_KEYS_REQUESTS ?? 2000);
/** Rounds alternate the credentials, so a drift of the machine's load hits both alike. */
const ROUND = 100;

runBench('bench:api-keys', async () => {
  const db = await createBenchDatabase('tally_bench_keys');
  const redis = await ensureRedis({ ephemeral: true });
  const port = await freePort();
  const server = spawnBenchServer([ensureBuilt()], 'keys', {
    ROLE: 'all',
    PORT: String(port),
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/readyz`);
    const registered = await call(
      base,
      'POST',
      '/v1/auth/register',
      {},
      {
        email: `keys-${Date.now()}@example.com`,
        name: 'Bench',
        password: 'bench password for keys',
      },
    );
    const userId = (registered.user as { id: string }).id;
    const byToken = { authorization: `Bearer ${registered.accessToken as string}` };
    const key = await call(base, 'POST', '/v1/me/api-keys', byToken, {
      name: 'bench',
      scopes: ['read', 'write'],
    });
    const byKey = { authorization: `Bearer ${key.secret as string}` };
    const group = await call(base, 'POST', '/v1/groups', byToken, { name: 'Bench' });
    let n = 0;
    const kinds = {
      'GET /v1/me': (auth: Record<string, string>) => fetch(`${base}/v1/me`, { headers: auth }),
      'keyed POST /v1/expenses': (auth: Record<string, string>) =>
        fetch(`${base}/v1/expenses`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `bench-${++n}` },
          body: JSON.stringify({
            groupId: group.id,
            description: 'Bench',
            amount: 100,
            paidBy: userId,
            split: { type: 'equal', between: [userId] },
          }),
        }),
    };
    const results: Record<string, unknown>[] = [];
    for (const [kind, send] of Object.entries(kinds)) {
      const latencies: Record<string, number[]> = { token: [], key: [] };
      for (let done = 0; done < REQUESTS; done += ROUND) {
        for (const [credential, auth] of [
          ['token', byToken],
          ['key', byKey],
        ] as const) {
          for (let i = 0; i < ROUND; i++) {
            const t0 = performance.now();
            const res = await send(auth);
            await res.arrayBuffer();
            if (res.status >= 300) throw new Error(`${kind} by ${credential}: ${res.status}`);
            latencies[credential]?.push(performance.now() - t0);
          }
        }
      }
      for (const [credential, list] of Object.entries(latencies)) {
        list.sort((a, b) => a - b);
        const row = {
          kind,
          credential,
          requests: list.length,
          p50Ms: +percentile(list, 50).toFixed(2),
          p99Ms: +percentile(list, 99).toFixed(2),
        };
        results.push(row);
        process.stdout.write(
          `${kind.padEnd(24)} by ${credential.padEnd(5)} p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms\n`,
        );
      }
    }
    writeResults('api-keys', { requests: REQUESTS, results });
  } finally {
    await stopBench([server], redis, db);
  }
});
