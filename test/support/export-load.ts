/**
 * What the export memory test and bench share: a group with many expenses written straight into
 * PostgreSQL (the API would take minutes for 100,000), and the peak resident memory of a server
 * process while a client downloads its CSV slowly.
 */
import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';

/**
 * `count` live expenses in `groupId`: `payerId` paid 10.00 USD, shared equally with `otherId`, one
 * a minute from 2025-01-01. Balances are not touched: only the export reads these rows.
 */
export async function seedExpenses(
  knex: Knex,
  options: { groupId: string; payerId: string; otherId: string; count: number },
): Promise<void> {
  const { groupId, payerId, otherId, count } = options;
  await knex.raw(
    `insert into expenses (id, group_id, description, category, amount, currency, paid_by, split, shares,
                           occurred_at, created_by, created_at, updated_at, version)
     select 'exp_seed_' || lpad(i::text, 8, '0'), ?, 'Seeded expense ' || i, 'Food', 1000, 'USD',
            jsonb_build_array(jsonb_build_object('userId', ?::text, 'amount', 1000)),
            jsonb_build_object('type', 'equal', 'between', jsonb_build_array(?::text, ?::text)),
            jsonb_build_array(jsonb_build_object('userId', ?::text, 'owed', 500),
                              jsonb_build_object('userId', ?::text, 'owed', 500)),
            timestamptz '2025-01-01T00:00:00Z' + i * interval '1 minute', ?, now(), now(), 1
       from generate_series(1, ?) i`,
    [groupId, payerId, payerId, otherId, payerId, otherId, payerId, count],
  );
}

/** The resident set size of process `pid` in bytes (Linux `/proc`). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

export type DownloadMeasure = { bytes: number; rows: number; rssBefore: number; rssPeak: number };

/**
 * Downloads `url` reading a chunk every `pauseMs` (a slow client, so the server has to hold back),
 * sampling the server's RSS every 20 ms; counts CRLF-ended rows.
 */
export async function downloadMeasuringRss(
  url: string,
  headers: Record<string, string>,
  pid: number,
  pauseMs = 2,
): Promise<DownloadMeasure> {
  const rssBefore = rssOf(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(pid));
  }, 20);
  try {
    const res = await fetch(url, { headers });
    if (!res.ok || !res.body) throw new Error(`download failed: ${res.status}`);
    const reader = res.body.getReader();
    let bytes = 0;
    let rows = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (const b of value) if (b === 0x0a) rows++;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    rssPeak = Math.max(rssPeak, rssOf(pid));
    return { bytes, rows, rssBefore, rssPeak };
  } finally {
    clearInterval(sampler);
  }
}
