/**
 * Filling one group-commit batch (apps/api/src/ledger/write-batch.ts) deterministically, with no
 * test hook in the server: only what production has (a pool, two batch slots, a queue).
 */
import type request from 'supertest';
import type { TestServer } from '../support/test-server';
import { until } from '../support/until';

/** A metric sample of the server (0 when absent): `name`, or `name{labels}`. */
export async function metricOf(t: TestServer, name: string, labels?: string): Promise<number> {
  const text = (await t.request.get('/metrics')).text;
  const prefix = labels === undefined ? `${name} ` : `${name}{${labels}} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? 0);
}

/**
 * Puts `writes` into ONE batch: the server's pool (`poolMax` connections) is taken by open
 * transactions, the two `blockers` (writes to groups of their own, alone) then hold both batch
 * slots while they wait for a connection, `writes` queue behind them, and once every one is queued
 * (`write_statements_queued`) and `whileQueued` has run, the pool is given back: the first slot
 * back takes the whole queue as one batch. Every group written must be in the server's cache
 * (written once before): a write that reads its group first would wait for the pool instead.
 * `holdPoolUntilAnswered`: give the pool back only once every request was answered (the test
 * wants the pool to stay exhausted). Returns the blockers' answers, then the writes'.
 */
export async function inOneBatch(
  t: TestServer,
  options: {
    poolMax: number;
    blockers: [() => request.Test, () => request.Test];
    writes: Array<() => request.Test>;
    whileQueued?: () => Promise<void>;
    holdPoolUntilAnswered?: boolean;
  },
): Promise<{ blockers: request.Response[]; writes: request.Response[] }> {
  const knex = t.server.knex;
  const held = await Promise.all(Array.from({ length: options.poolMax }, () => knex.transaction()));
  let blockers: Promise<request.Response[]> | undefined;
  let writes: Promise<request.Response[]> | undefined;
  try {
    blockers = Promise.all(options.blockers.map((b) => b().then((r) => r)));
    await until(async () => (await metricOf(t, 'write_batches_in_flight')) === 2, 'both slots taken');
    writes = Promise.all(options.writes.map((w) => w().then((r) => r)));
    await until(
      async () => (await metricOf(t, 'write_statements_queued')) === options.writes.length,
      'every write queued',
    );
    await options.whileQueued?.();
    if (options.holdPoolUntilAnswered) await Promise.all([blockers, writes]);
  } finally {
    for (const trx of held) await trx.commit();
  }
  return {
    blockers: (await blockers) as request.Response[],
    writes: (await writes) as request.Response[],
  };
}
