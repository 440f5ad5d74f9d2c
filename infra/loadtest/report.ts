import type { ChaosResult } from './chaos';
import type { LoadTestResult } from './load-test';

const isChaos = (result: LoadTestResult): result is ChaosResult => 'events' in result;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percent = (share: number) => `${(share * 100).toFixed(2)} %`;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** A latency-percentile curve (x: percentile 0–100, y: ms) as inline SVG. */
function percentileChart(latencies: number[]): string {
  const width = 520;
  const height = 200;
  const pad = 36;
  if (latencies.length === 0) return '<p>no samples</p>';
  const max = Math.max(1, latencies[latencies.length - 1] as number);
  const points: string[] = [];
  for (let p = 0; p <= 100; p++) {
    const value = latencies[
      Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))
    ] as number;
    const x = pad + (p / 100) * (width - 2 * pad);
    const y = height - pad - (value / max) * (height - 2 * pad);
    points.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  }
  return `<svg width="${width}" height="${height}" role="img" aria-label="latency by percentile">
  <line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" stroke="#999"/>
  <line x1="${pad}" y1="${pad}" x2="${pad}" y2="${height - pad}" stroke="#999"/>
  <text x="${pad}" y="${height - 10}" font-size="11">p0</text>
  <text x="${width - pad - 20}" y="${height - 10}" font-size="11">p100</text>
  <text x="4" y="${pad}" font-size="11">${max.toFixed(0)} ms</text>
  <text x="4" y="${height - pad}" font-size="11">0</text>
  <polyline fill="none" stroke="#2b6cb0" stroke-width="2" points="${points.join(' ')}"/>
</svg>`;
}

/** A self-contained HTML report: the verdict, the checks, and a latency chart per operation. */
export function renderReport(result: LoadTestResult, title: string): string {
  const rows = Object.entries(result.operations)
    .map(
      ([name, s]) =>
        `<tr><td>${escapeHtml(name)}</td><td>${s.count}</td><td>${s.errors}</td><td>${s.p50.toFixed(1)}</td><td>${s.p95.toFixed(1)}</td><td>${s.p99.toFixed(1)}</td><td>${s.max.toFixed(1)}</td></tr>`,
    )
    .join('\n');
  const charts = Object.entries(result.operations)
    .map(([name, s]) => `<section><h3>${escapeHtml(name)}</h3>${percentileChart(s.latencies)}</section>`)
    .join('\n');
  const errors = Object.entries(result.errorsByCode)
    .map(([code, n]) => `<li>${escapeHtml(code)}: ${n}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,th:first-child{text-align:left}.ok{color:#276749}.bad{color:#c53030}section{display:inline-block;margin:0 1rem 1rem 0}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p class="${result.passed ? 'ok' : 'bad'}"><strong>${result.passed ? 'PASSED' : `FAILED: ${escapeHtml(result.failures.join('; '))}`}</strong></p>
<ul>
<li>duration ${result.durationSeconds.toFixed(1)} s, throughput ${result.throughput.toFixed(1)} operations/s</li>
<li>duplicates created: ${result.duplicatesCreated} (must be 0)</li>
<li>acknowledged writes lost: ${result.lostWrites} (must be 0)</li>
<li>retries that did not replay: ${result.replayMismatches} (must be 0)</li>
<li>events delivered ${result.eventsDelivered} of ${result.eventsExpected} expected; lost: ${result.eventsLost}, twice or out of order: ${result.eventsOutOfOrder} (must be 0); clients with either: ${result.outOfOrderClients}</li>
<li>operations failed with something the SDK does not retry: ${result.nonRetryableFailures} (${percent(result.nonRetryableShare)})</li>
<li>writes the SDK retried: ${result.retriedWrites.length}; the slowest: ${result.retriedWrites[0] ? seconds(result.retriedWrites[0].ms) : 'none'}</li>
<li>SDK retries by cause: ${escapeHtml(JSON.stringify(result.retriesByCause))}</li>
</ul>
${isChaos(result) ? `<h2>Disruptions</h2><pre>${escapeHtml(renderChaosSummary(result))}</pre>` : ''}
<h2>Latency by operation (ms)</h2>
<table><tr><th>operation</th><th>count</th><th>errors</th><th>p50</th><th>p95</th><th>p99</th><th>max</th></tr>
${rows}</table>
<h2>Errors by code</h2><ul>${errors || '<li>none</li>'}</ul>
<h2>Latency by percentile</h2>
${charts}
</body></html>
`;
}

/** The end-of-run summary for a terminal. */
export function renderSummary(result: LoadTestResult): string {
  const lines = [
    '',
    `operations/s ${result.throughput.toFixed(1)} over ${result.durationSeconds.toFixed(1)} s`,
    `${'operation'.padEnd(26)}${'count'.padStart(8)}${'errors'.padStart(8)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}`,
    ...Object.entries(result.operations).map(
      ([name, s]) =>
        `${name.padEnd(26)}${String(s.count).padStart(8)}${String(s.errors).padStart(8)}${s.p50.toFixed(1).padStart(9)}${s.p95.toFixed(1).padStart(9)}${s.p99.toFixed(1).padStart(9)}${s.max.toFixed(1).padStart(9)}`,
    ),
    `errors by code: ${JSON.stringify(result.errorsByCode)}`,
    `duplicates created: ${result.duplicatesCreated} (must be 0)`,
    `acknowledged writes lost: ${result.lostWrites} (must be 0)`,
    `retries that did not replay: ${result.replayMismatches} (must be 0)`,
    `events delivered: ${result.eventsDelivered} of ${result.eventsExpected} (must be equal); lost: ${result.eventsLost}, twice or out of order: ${result.eventsOutOfOrder} (must be 0); clients with either: ${result.outOfOrderClients}`,
    `failed with something the SDK does not retry: ${result.nonRetryableFailures} of ${Object.values(result.operations).reduce((n, s) => n + s.count, 0)} operations (${percent(result.nonRetryableShare)})`,
    `writes the SDK retried: ${result.retriedWrites.length}; the slowest: ${result.retriedWrites[0] ? `${seconds(result.retriedWrites[0].ms)} (${result.retriedWrites[0].operation}, ${result.retriedWrites[0].retries} retries)` : 'none'}`,
    `SDK retries by cause: ${JSON.stringify(result.retriesByCause)}`,
    result.passed ? 'PASSED' : `FAILED: ${result.failures.join('; ')}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** A one-line progress bar, redrawn in place. */
export function progressLine(p: {
  elapsedMs: number;
  durationMs: number;
  operations: number;
  errors: number;
}): string {
  const fraction = Math.min(1, p.elapsedMs / p.durationMs);
  const width = 30;
  const filled = Math.round(fraction * width);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${p.operations} ops  ${p.errors} errors`;
}

/** The disruptions of a chaos run and the slowest retried write across each kind. */
export function renderChaosSummary(result: ChaosResult): string {
  const start = result.events[0]?.startedAt ?? 0;
  const lines = [
    `disruptions: ${result.kills.length} process kills (${result.kills.join(', ') || 'none'}), ${result.rollingRestarts} rolling restarts, ${result.redisKills} Redis kills, ${result.postgresRestarts} PostgreSQL restarts`,
    ...result.events.map(
      (e) =>
        `  +${seconds(e.startedAt - start)}  ${e.kind} (${e.target}): fleet healthy again after ${seconds(e.endedAt - e.startedAt)}`,
    ),
    `slowest SDK-retried write: ${
      result.slowestRetriedWrite
        ? `${seconds(result.slowestRetriedWrite.ms)} (${result.slowestRetriedWrite.operation}, ${result.slowestRetriedWrite.retries} retries, during: ${result.slowestRetriedWrite.during.join(', ') || 'no disruption'})`
        : 'none'
    }`,
    `slowest SDK-retried write by disruption: ${
      Object.entries(result.slowestRetriedWriteByKind)
        .map(([kind, ms]) => `${kind} ${seconds(ms)}`)
        .join(', ') || 'none'
    }`,
  ];
  return `${lines.join('\n')}\n`;
}
