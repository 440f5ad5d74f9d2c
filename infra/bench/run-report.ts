/** What `npm run bench` prints of its results: the side-by-side table and issue 23's targets. */
import { CONNECTIONS, GROUPS, type Result, WIDE_CONNECTIONS, WIDE_GROUPS } from './run-measure';

export function printBatches(
  before: { writes: number; batches: number },
  after: { writes: number; batches: number },
) {
  const batches = after.batches - before.batches;
  const writes = after.writes - before.writes;
  if (!(batches > 0)) return;
  process.stdout.write(
    `  ${'  group commit: writes per batch (mean)'.padEnd(50)} ${(writes / batches).toFixed(2).padStart(7)} (${writes} writes in ${batches} batches)\n`,
  );
}

/**
 * The side-by-side table: each Tally scenario against its bare baseline and, for the keyed write and
 * the replay, the same-guarantees peer (infra/bench/peer-server.ts) of the same run.
 */
export function printTable(r: Record<string, Result | undefined>) {
  const rows: [string, string, string, string | undefined][] = [
    [`keyed POST, ${CONNECTIONS} conn / ${GROUPS} groups`, 'keyed', 'baseline', 'peerKeyed'],
    [
      `keyed POST, ${WIDE_CONNECTIONS} conn / ${WIDE_GROUPS} groups`,
      'keyedWide',
      'baselineWide',
      'peerKeyedWide',
    ],
    ['keyed POST, 1 sequential client', 'keyedSeq', 'baselineSeq', 'peerKeyedSeq'],
    ['keyed POST, one hot group (base: spread)', 'hotGroup', 'keyed', undefined],
    ['replay of a recorded key', 'replay', 'bareReplay', 'peerReplay'],
    ['GET /v1/expenses/{id}', 'getExpense', 'bareGet', undefined],
    ['GET …/balances (100 expenses)', 'balances100', 'bareGet', undefined],
    ['GET …/balances (10,000 expenses)', 'balances10k', 'bareGet', undefined],
  ];
  const cell = (v: number | undefined, w: number, digits = 0) =>
    (v !== undefined && Number.isFinite(v) ? v.toFixed(digits) : '-').padStart(w);
  const x = (a: number | undefined, b: number | undefined) =>
    `${a === undefined || b === undefined || b === 0 ? '-' : (a / b).toFixed(2)}x`.padStart(7);
  process.stdout.write(
    "\nSide by side (same run): 2xx responses/s; p50/p99 ms; CPU µs per 2xx of the server process and of the bench's PostgreSQL server: its bench database's backends ('PG backends'), and all its processes without other databases' backends ('PG all': the shared WAL writer, checkpointer etc. included, which also work for neighbours). base = bare express + pg/ioredis; peer = same-guarantees peer (Brandur Leach's design).\n",
  );
  process.stdout.write(
    `  ${'scenario'.padEnd(42)} ${'Tally/s'.padStart(7)} ${'base/s'.padStart(7)} ${'peer/s'.padStart(7)} ${'T/base'.padStart(7)} ${'T/peer'.padStart(7)}  ${'p50 T/b/p'.padStart(17)}  ${'p99 T/b/p'.padStart(17)}  ${'CPU T/b/p'.padStart(17)}  ${'PG backends T/b/p'.padStart(17)}  ${'PG all T/b/p'.padStart(17)}\n`,
  );
  for (const [label, tallyKey, baseKey, peerKey] of rows) {
    const t = r[tallyKey];
    const b = r[baseKey];
    const p = peerKey ? r[peerKey] : undefined;
    if (!t || !b) continue;
    const three = (f: (v: Result) => number, digits = 0) =>
      `${cell(f(t), 5, digits)}/${cell(f(b), 5, digits)}/${cell(p && f(p), 5, digits)}`;
    process.stdout.write(
      `  ${label.padEnd(42)} ${cell(t.okRps, 7)} ${cell(b.okRps, 7)} ${cell(p?.okRps, 7)} ${x(t.okRps, b.okRps)} ${x(t.okRps, p?.okRps)}  ${three((v) => v.p50, 1)}  ${three((v) => v.p99, 1)}  ${three((v) => v.cpuMicrosPerRequest)}  ${three((v) => v.postgresBackendCpuMicrosPerRequest)}  ${three((v) => v.postgresCpuMicrosPerRequest)}\n`,
    );
  }
}

export type Target = { name: string; measured: number; target: string; met: boolean | undefined };

/** The ratios issue 23's targets name, each with its target and whether this run met it. */
export function targetsOf(r: Record<string, Result | undefined>): Target[] {
  const ratio = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || b === 0 ? Number.NaN : a / b;
  const atLeast = (name: string, measured: number, min: number): Target => ({
    name,
    measured,
    target: `>= ${min}`,
    met: Number.isFinite(measured) ? measured >= min : undefined,
  });
  const atMost = (name: string, measured: number, max: number): Target => ({
    name,
    measured,
    target: `<= ${max}`,
    met: Number.isFinite(measured) ? measured <= max : undefined,
  });
  /** The PostgreSQL backends' CPU per 2xx of one result over another's. */
  const backendCpu = (a: string, b: string) =>
    ratio(r[a]?.postgresBackendCpuMicrosPerRequest, r[b]?.postgresBackendCpuMicrosPerRequest);
  const shape = `${CONNECTIONS} conn / ${GROUPS} groups`;
  const wide = `${WIDE_CONNECTIONS} conn / ${WIDE_GROUPS} groups`;
  return [
    atLeast(`keyed POST / peer, ${shape}`, ratio(r['keyed']?.okRps, r['peerKeyed']?.okRps), 1.5),
    atLeast(`keyed POST / bare, ${shape}`, ratio(r['keyed']?.okRps, r['baseline']?.okRps), 0.6),
    atLeast(`keyed POST / bare, ${wide}`, ratio(r['keyedWide']?.okRps, r['baselineWide']?.okRps), 0.8),
    {
      name: `keyed POST / peer, ${wide}`,
      measured: ratio(r['keyedWide']?.okRps, r['peerKeyedWide']?.okRps),
      target: '',
      met: undefined,
    },
    atMost(`PostgreSQL backends' CPU per keyed write / bare, ${shape}`, backendCpu('keyed', 'baseline'), 2.5),
    atMost(
      `PostgreSQL backends' CPU per keyed write / bare, ${wide}`,
      backendCpu('keyedWide', 'baselineWide'),
      2.5,
    ),
    {
      name: `PostgreSQL backends' CPU per keyed write / peer, ${shape}`,
      measured: backendCpu('keyed', 'peerKeyed'),
      target: '',
      met: undefined,
    },
    atMost(`keyed POST p99 / bare, ${shape}`, ratio(r['keyed']?.p99, r['baseline']?.p99), 2),
    atMost(`keyed POST p99 / bare, ${wide}`, ratio(r['keyedWide']?.p99, r['baselineWide']?.p99), 2),
    {
      name: 'sequential keyed POST p50 / bare (target: no worse than before, compare between runs)',
      measured: ratio(r['keyedSeq']?.p50, r['baselineSeq']?.p50),
      target: '',
      met: undefined,
    },
    {
      name: 'sequential keyed POST p50 / peer',
      measured: ratio(r['keyedSeq']?.p50, r['peerKeyedSeq']?.p50),
      target: '',
      met: undefined,
    },
    atLeast('replay / bare (one Redis GET)', ratio(r['replay']?.okRps, r['bareReplay']?.okRps), 0.75),
    {
      name: 'replay / peer',
      measured: ratio(r['replay']?.okRps, r['peerReplay']?.okRps),
      target: '',
      met: undefined,
    },
    atLeast(
      'GET balances (100 expenses) / bare SELECT',
      ratio(r['balances100']?.okRps, r['bareGet']?.okRps),
      0.75,
    ),
    atLeast('GET expense / bare SELECT', ratio(r['getExpense']?.okRps, r['bareGet']?.okRps), 0.85),
  ];
}

export function printTargets(targets: Target[]) {
  process.stdout.write('\nIssue 23 targets (ratios of the same run):\n');
  for (const t of targets)
    process.stdout.write(
      `  ${t.name.padEnd(86)} ${(Number.isFinite(t.measured) ? `${t.measured.toFixed(2)}x` : '-').padStart(7)} ${t.target.padStart(7)} ${t.met === undefined ? '' : t.met ? 'met' : 'NOT met'}\n`,
    );
}
